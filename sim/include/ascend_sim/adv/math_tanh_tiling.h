// The host tmp sizes of Tanh (asc-devkit include/adv_api/math/tanh_tiling.h;
// impl/adv_api/tiling/math/tanh_tiling_impl.cpp :: GetTanhMaxMinTmpSize,
// GetTanhTmpBufferFactorSize): 1 (float) or 4 (half) bytes of tmp a byte of input,
// at least one 256 B repeat's worth.
#pragma once
#include <cstdint>

#include "activation_tiling.h"

namespace AscendC {
namespace sim_adv {
inline uint32_t tanh_factor(uint32_t typeSize) { return typeSize == sizeof(float) ? 1 : 4; }
}  // namespace sim_adv

inline void GetTanhMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool,
                                 uint32_t& maxValue, uint32_t& minValue) {
    sim_adv::check_host_shape("GetTanhMaxMinTmpSize", srcShape);  // typeSize is not checked there
    const uint32_t f = sim_adv::tanh_factor(typeSize), bytes = uint32_t(srcShape.GetShapeSize()) * typeSize;
    minValue = f * 256;
    maxValue = bytes > 256 ? f * bytes : f * 256;
}
inline void GetTanhTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    extraBuf = 0;
    maxLiveNodeCount = sim_adv::tanh_factor(typeSize);
}
}  // namespace AscendC

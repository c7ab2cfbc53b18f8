// The host tmp sizes of Acosh (asc-devkit include/adv_api/math/acosh_tiling.h;
// impl/adv_api/tiling/math/acosh_tiling_impl.cpp :: GetAcoshMaxMinTmpSize,
// GetAcoshTmpBufferFactorSize): 1 (float) or 2 (half) units an element.
#pragma once
#include <algorithm>
#include <cstdint>

#include "activation_tiling.h"

namespace AscendC {
namespace sim_adv {
inline uint32_t acosh_factor(uint32_t typeSize) { return typeSize == sizeof(float) ? 1 : 2; }
}  // namespace sim_adv

inline void GetAcoshMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool,
                                  uint32_t& maxValue, uint32_t& minValue) {
    sim_adv::check_host_args("GetAcoshMaxMinTmpSize", srcShape, typeSize);
    const uint32_t f = sim_adv::acosh_factor(typeSize);
    minValue = f * 256;
    maxValue = std::max(f * uint32_t(srcShape.GetShapeSize()), 256u) * typeSize;
}
inline void GetAcoshTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    extraBuf = 0;
    maxLiveNodeCount = sim_adv::acosh_factor(typeSize);
}
}  // namespace AscendC

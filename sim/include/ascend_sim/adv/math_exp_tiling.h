// The host tmp sizes of the advanced Exp (asc-devkit include/adv_api/math/exp_tiling.h;
// impl/adv_api/tiling/math/exp_tiling_impl.cpp :: GetExpMaxMinTmpSize,
// GetExpTmpBufferFactorSize): float slices of the input (at least 256 B
// each), 4 for half, 3 for float (2 with isReuseSource).
#pragma once
#include <algorithm>
#include <cstdint>

#include "tensor_shape.h"

namespace AscendC {
namespace sim_adv {
inline uint32_t exp_slices(uint32_t typeSize, bool isReuseSource) {
    return typeSize == sizeof(float) ? (isReuseSource ? 2 : 3) : 4;
}
}  // namespace sim_adv

inline bool GetExpMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                uint32_t& maxValue, uint32_t& minValue) {
    const uint32_t slices = sim_adv::exp_slices(typeSize, isReuseSource);
    minValue = slices * 256;
    maxValue = slices * std::max(uint32_t(srcShape.GetShapeSize()) * uint32_t(sizeof(float)), 256u);
    return true;
}
inline void GetExpTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
    extraBuffer = 0;
    maxLiveNodeCount = typeSize == sizeof(float) ? 3 : 8;
}
}  // namespace AscendC

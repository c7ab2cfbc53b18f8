// The host tmp sizes of Sign (asc-devkit include/adv_api/math/sign_tiling.h;
// impl/adv_api/tiling/math/sign_tiling.cpp :: GetSignMaxMinTmpSize,
// GetSignTmpBufferFactorSize): 3 elements of tmp an element, at least 3 x 256 B.
#pragma once
#include <algorithm>
#include <cstdint>

#include "activation_tiling.h"

namespace AscendC {
inline void GetSignMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool,
                                 uint32_t& maxValue, uint32_t& minValue) {
    sim_adv::check_host_shape("GetSignMaxMinTmpSize", srcShape);  // typeSize is not checked there
    minValue = 3 * 256;
    maxValue = std::max(3 * uint32_t(srcShape.GetShapeSize()) * typeSize, minValue);
}
inline void GetSignTmpBufferFactorSize(const uint32_t, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
    extraBuffer = 0;
    maxLiveNodeCount = 3;
}
}  // namespace AscendC

// The host tmp sizes of Xor (asc-devkit include/adv_api/math/xor_tiling.h;
// impl/adv_api/tiling/math/xor_tiling.cpp :: GetXorMaxMinTmpSize,
// GetXorTmpBufferFactorSize): the input's bytes, at least a repeat's 256 B.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>

#include "../sim.h"
#include "tensor_shape.h"

namespace AscendC {
inline void GetXorMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool,
                                uint32_t& maxValue, uint32_t& minValue) {
    if (srcShape.GetShapeSize() <= 0)
        throw ascend_sim::SimViolation("GetXorMaxMinTmpSize", -1, "empty shape",
                                       "[ascend_sim] GetXorMaxMinTmpSize: srcShape holds no elements");
    minValue = 256;
    maxValue = std::max(uint32_t(srcShape.GetShapeSize()) * typeSize, minValue);
}
inline void GetXorTmpBufferFactorSize(const uint32_t, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
    extraBuffer = 0;
    maxLiveNodeCount = 1;
}
}  // namespace AscendC

// The host tmp sizes of ClampMax/ClampMin (asc-devkit include/adv_api/math/clamp_tiling.h;
// impl/adv_api/tiling/math/clamp_tiling_impl.cpp :: GetClampMaxMinTmpSize,
// GetClampTmpBufferFactorSize): a byte an element, at least 64 (float) or 128 (half).
#pragma once
#include <algorithm>
#include <cstdint>

#include "activation_tiling.h"

namespace AscendC {
inline void GetClampMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool,
                                  uint32_t& maxValue, uint32_t& minValue) {
    sim_adv::check_host_args("GetClampMaxMinTmpSize", srcShape, typeSize);
    minValue = typeSize == sizeof(float) ? 64 : 128;
    maxValue = std::max(uint32_t(srcShape.GetShapeSize()), minValue);
}
inline void GetClampTmpBufferFactorSize(const uint32_t, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    extraBuf = 0;
    maxLiveNodeCount = 1;
}
}  // namespace AscendC

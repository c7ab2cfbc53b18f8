// The host tmp-size helpers of GeGLU (asc-devkit include/adv_api/activation/
// geglu_tiling.h; impl/adv_api/tiling/activation/geglu_tiling.cpp ::
// GetGeGLUMaxMinTmpSize, GetGeGLUTmpBufferFactorSize): half needs 4 B of tmp an
// input byte (two float slices), at least one 256 B repeat's; float none.
#pragma once
#include <algorithm>
#include <cstdint>

#include "activation_tiling.h"

namespace AscendC {
inline void GetGeGLUMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                  uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    sim_adv::check_host_args("GetGeGLUMaxMinTmpSize", srcShape, typeSize);
    const uint32_t factor = typeSize == 4 ? 0 : 4;
    minValue = factor * 256;
    maxValue = factor * std::max(uint32_t(srcShape.GetShapeSize()) * typeSize, 256u);
}
inline void GetGeGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    sim_adv::check_type_size("GetGeGLUTmpBufferFactorSize", typeSize);
    extraBuf = 0;
    maxLiveNodeCount = typeSize == 4 ? 0 : 4;
}
}  // namespace AscendC

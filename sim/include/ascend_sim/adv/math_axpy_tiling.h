// The host tmp sizes of the advanced Axpy (asc-devkit include/adv_api/math/axpy_tiling.h;
// impl/adv_api/tiling/math/axpy_tiling_impl.cpp :: GetAxpyMaxMinTmpSize,
// GetAxpyTmpBufferFactorSize): none for float sources, 4 B of tmp a half byte.
#pragma once
#include <cstdint>

#include "activation_tiling.h"

namespace AscendC {
inline void GetAxpyMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool,
                                 uint32_t& maxValue, uint32_t& minValue) {
    sim_adv::check_host_args("GetAxpyMaxMinTmpSize", srcShape, typeSize);
    if (typeSize == sizeof(float)) {
        minValue = maxValue = 0;
        return;
    }
    const uint32_t bytes = uint32_t(srcShape.GetShapeSize()) * typeSize;
    minValue = 4 * 256;
    maxValue = bytes > 256 ? 4 * bytes : minValue;
}
inline void GetAxpyTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    extraBuf = 0;
    maxLiveNodeCount = typeSize == sizeof(float) ? 1 : 4;
}
}  // namespace AscendC

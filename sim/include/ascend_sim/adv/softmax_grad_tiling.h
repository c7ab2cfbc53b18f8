// The host tiling of SoftmaxGrad and SoftmaxGradFront (asc-devkit
// include/adv_api/activation/softmax_tiling.h; impl/adv_api/tiling/activation/
// softmax_tiling.cpp :: GetSoftMaxGradMaxTmpSize, GetSoftMaxGradMinTmpSize,
// SoftMaxGradTilingFunc) for dav_c220: SoftMax's row split with the tmp a
// gradient row takes.
#pragma once
#include <cstdint>

#include "softmax_tiling.h"

namespace AscendC {
inline uint32_t GetSoftMaxGradMaxTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize,
                                         const bool isFront, const bool) {
    const auto s = sim_adv::softmax_host::rows_cols("GetSoftMaxGradMaxTmpSize", srcShape, dataTypeSize);
    return s.m * sim_adv::grad_row_floats(s.k, dataTypeSize, isFront) * uint32_t(sizeof(float));
}
inline uint32_t GetSoftMaxGradMinTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize,
                                         const bool isFront, const bool) {
    const auto s = sim_adv::softmax_host::rows_cols("GetSoftMaxGradMinTmpSize", srcShape, dataTypeSize);
    return sim_adv::grad_row_floats(s.k, dataTypeSize, isFront) * uint32_t(sizeof(float));
}
inline void SoftMaxGradTilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize,
                                  const uint32_t localWorkSpaceSize, SoftMaxTiling& softmaxGradTiling,
                                  const bool isFront = false) {
    const auto s = sim_adv::softmax_host::rows_cols("SoftMaxGradTilingFunc", srcShape, dataTypeSize);
    sim_adv::softmax_host::split_rows(s, dataTypeSize, localWorkSpaceSize,
                                      sim_adv::grad_row_floats(s.k, dataTypeSize, isFront), softmaxGradTiling);
}
inline void SoftMaxGradTilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize,
                                  const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& softmaxGradTiling,
                                  const bool isFront = false) {
    SoftMaxTiling t;
    SoftMaxGradTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, t, isFront);
    sim_adv::to_tiling_data(t, softmaxGradTiling);
}
}  // namespace AscendC

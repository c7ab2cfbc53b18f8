// The host tiling of LogSoftMax (asc-devkit include/adv_api/activation/
// logsoftmax_tiling.h; impl/adv_api/tiling/activation/logsoftmax_tiling.cpp ::
// GetLogSoftMaxMaxTmpSize, GetLogSoftMaxMinTmpSize, LogSoftMaxTilingFunc):
// on dav_c220 the sizes and split of SoftMax's.
#pragma once
#include <cstdint>

#include "softmax_tiling.h"

namespace AscendC {
inline uint32_t GetLogSoftMaxMaxTmpSize(const TensorShape srcShape, const uint32_t dataTypeSize, const bool) {
    return sim_adv::softmax_host::max_tmp("GetLogSoftMaxMaxTmpSize", srcShape, dataTypeSize);
}
inline uint32_t GetLogSoftMaxMinTmpSize(const TensorShape srcShape, const uint32_t dataTypeSize, const bool) {
    return sim_adv::softmax_host::min_tmp("GetLogSoftMaxMinTmpSize", srcShape, dataTypeSize);
}
inline void LogSoftMaxTilingFunc(const TensorShape srcShape, const uint32_t dataTypeSize,
                                 const uint32_t localWorkSpaceSize, LogSoftMaxTiling& softmaxTiling) {
    sim_adv::softmax_host::split("LogSoftMaxTilingFunc", srcShape, dataTypeSize, localWorkSpaceSize, softmaxTiling);
}
}  // namespace AscendC

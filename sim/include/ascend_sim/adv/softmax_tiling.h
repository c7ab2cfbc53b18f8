// The host tiling of SoftMax and SimpleSoftMax (asc-devkit
// include/adv_api/activation/softmax_tiling.h; impl/adv_api/tiling/activation/
// softmax_tiling.cpp :: GetSoftMaxMaxTmpSize, GetSoftMaxMinTmpSize,
// SoftMaxTilingFunc) for dav_c220: the sizes and the row split those compute.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>

#include "activation_tiling.h"
#include "softmax_tilingdata.h"
#include "softmax_types.h"

namespace AscendC {
namespace sim_adv {
namespace softmax_host {
constexpr uint32_t kBlock = 32;      // bytes of a data block
constexpr uint32_t kRowScratch = 64;  // floats of partial reductions per row

struct RowsCols {
    uint32_t m, k;
};
// The shape as rows of its last axis, after the checks the real helpers make
// (ShapeLastAxisAlignVerifyingParameters: the last axis a whole number of 32 B blocks).
inline RowsCols rows_cols(const char* api, const TensorShape& shape, uint32_t typeSize) {
    check_host_args(api, shape, typeSize);
    const uint32_t k = uint32_t(shape.GetDim(shape.GetDimNum() - 1));
    if (k * typeSize % kBlock != 0)
        throw ascend_sim::SimViolation(api, -1, "last axis not 32 B aligned",
                                       std::string("[ascend_sim] ") + api + ": the last axis (" + std::to_string(k) +
                                           " elements of " + std::to_string(typeSize) +
                                           " B) is not a multiple of 32 B");
    return {uint32_t(shape.GetShapeSize()) / k, k};
}
// Floats a row needs: its max/sum block, the row itself widened, the partials.
inline uint32_t row_floats(uint32_t k, uint32_t typeSize) { return kBlock / typeSize + k + kRowScratch; }
}  // namespace softmax_host
}  // namespace sim_adv

namespace sim_adv {
namespace softmax_host {
// All rows at once.
inline uint32_t max_tmp(const char* api, const TensorShape& shape, uint32_t typeSize) {
    const auto s = rows_cols(api, shape, typeSize);
    return s.m * row_floats(s.k, typeSize) * uint32_t(sizeof(float));
}
// One row at a time.
inline uint32_t min_tmp(const char* api, const TensorShape& shape, uint32_t typeSize) {
    return row_floats(rows_cols(api, shape, typeSize).k, typeSize) * uint32_t(sizeof(float));
}
// The rows the workspace holds (a multiple of 8 when it is not all of them),
// for a basic-block shape (rows % 8 == 0, last axis % 64 == 0) a divisor of
// the rows in multiples of 8 with fewer than 64 x 256 elements a chunk.
// rowFloats: the tmp floats a row takes (SoftmaxGrad's differ).
inline void split_rows(const RowsCols& s, uint32_t typeSize, uint32_t workBytes, uint32_t rowFloats,
                       SoftMaxTiling& t) {
    const uint32_t perBlock = kBlock / typeSize;
    uint32_t baseM = std::min(workBytes / uint32_t(sizeof(float)) / rowFloats, s.m);
    if (baseM < s.m && baseM > 8) baseM = baseM / 8 * 8;
    if (baseM > 8 && s.m % 8 == 0 && s.k % 64 == 0) {
        baseM = baseM / 8 * 8;
        while (s.m % baseM != 0) baseM -= 8;
        while (baseM * s.k >= 64 * 256) baseM /= 2;
    }
    set_split(t, s.m, s.k, perBlock, baseM, s.m);
}
inline void split(const char* api, const TensorShape& shape, uint32_t typeSize, uint32_t workBytes,
                  SoftMaxTiling& t) {
    const auto s = rows_cols(api, shape, typeSize);
    split_rows(s, typeSize, workBytes, row_floats(s.k, typeSize), t);
}
}  // namespace softmax_host
}  // namespace sim_adv

inline uint32_t GetSoftMaxMaxTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize, const bool) {
    return sim_adv::softmax_host::max_tmp("GetSoftMaxMaxTmpSize", srcShape, dataTypeSize);
}
inline uint32_t GetSoftMaxMinTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize, const bool) {
    return sim_adv::softmax_host::min_tmp("GetSoftMaxMinTmpSize", srcShape, dataTypeSize);
}
inline void SoftMaxTilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize,
                              const uint32_t localWorkSpaceSize, SoftMaxTiling& softmaxTiling) {
    sim_adv::softmax_host::split("SoftMaxTilingFunc", srcShape, dataTypeSize, localWorkSpaceSize, softmaxTiling);
}
inline void SoftMaxTilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize,
                              const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& softmaxTiling) {
    SoftMaxTiling t;
    SoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, t);
    sim_adv::to_tiling_data(t, softmaxTiling);
}

}  // namespace AscendC

// The host tmp sizes of the advanced Select with a byte mask (asc-devkit
// include/adv_api/select/selectwithbytesmask_tiling.h;
// impl/adv_api/tiling/select/selectwithbytesmask_tiling_impl.cpp ::
// GetSelectMaxMinTmpSize, GetSelectMax/MinTmpSize and their
// SelectWithBytesMask names): the mask widened to half for the elements of a
// pass (all of them for the maximum, at most 4096 for the minimum) plus 512 B,
// at least 1024 B; and when the mask rows are longer than the source rows and
// the mask is not reused, a packed copy of the mask.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>

#include "../sim.h"
#include "tensor_shape.h"

namespace AscendC {
namespace sim_adv {
// CheckSelectParams: a mask type of 1, 2 or 4 B, one 2-D source and a 2-D mask (srcTypeSize is not used).
inline void check_select_host(const char* api, const TensorShape& src0, const TensorShape& src1, const TensorShape& mask,
                              uint32_t maskTypeSize) {
    auto no = [&](const char* what, const std::string& msg) {
        throw ascend_sim::SimViolation(api, -1, what, std::string("[ascend_sim] ") + api + ": " + msg);
    };
    if (maskTypeSize != 1 && maskTypeSize != 2 && maskTypeSize != 4)
        no("maskTypeSize unsupported", "maskTypeSize " + std::to_string(maskTypeSize) + " is not 1, 2 or 4");
    if (src0.GetDimNum() != 2 && src1.GetDimNum() != 2)
        no("no 2-D source", "src0Shape has " + std::to_string(src0.GetDimNum()) + " dims and src1Shape " +
                                std::to_string(src1.GetDimNum()) + ": one of them must have 2");
    if (mask.GetDimNum() != 2)
        no("maskShape not 2-D", "maskShape has " + std::to_string(mask.GetDimNum()) + " dims; it must have 2");
}
inline uint32_t select_tmp_bytes(const TensorShape& src0, const TensorShape& src1, const TensorShape& mask,
                                 uint32_t maskTypeSize, bool isReuseMask, bool minimum) {
    const bool src0Scalar = src0.GetDimNum() == 0 || src0.GetShapeSize() == 1;
    const TensorShape& src = src0Scalar ? src1 : src0;
    const uint32_t n = uint32_t(src.GetShapeSize());
    const int64_t maskLast = mask.GetDim(mask.GetDimNum() - 1), srcLast = src.GetDim(src.GetDimNum() - 1);
    const uint32_t pass = minimum && n > 4096 ? 4096 : n;
    uint32_t bytes = std::max(1024u, (pass + 31) / 32 * 32 * 2 + 512);
    if (maskLast != srcLast && !isReuseMask && maskLast > 1) bytes += (n * maskTypeSize + 31) / 32 * 32;
    return bytes;
}
}  // namespace sim_adv

inline uint32_t GetSelectMinTmpSize(const TensorShape& src0Shape, const TensorShape& src1Shape, const uint32_t,
                                    const TensorShape& maskShape, const uint32_t maskTypeSize, const bool isReuseMask) {
    sim_adv::check_select_host("GetSelectMinTmpSize", src0Shape, src1Shape, maskShape, maskTypeSize);
    return sim_adv::select_tmp_bytes(src0Shape, src1Shape, maskShape, maskTypeSize, isReuseMask, true);
}
inline uint32_t GetSelectMaxTmpSize(const TensorShape& src0Shape, const TensorShape& src1Shape, const uint32_t,
                                    const TensorShape& maskShape, const uint32_t maskTypeSize, const bool isReuseMask) {
    sim_adv::check_select_host("GetSelectMaxTmpSize", src0Shape, src1Shape, maskShape, maskTypeSize);
    return sim_adv::select_tmp_bytes(src0Shape, src1Shape, maskShape, maskTypeSize, isReuseMask, false);
}
inline void GetSelectMaxMinTmpSize(const TensorShape& src0Shape, const TensorShape& src1Shape,
                                   const uint32_t srcTypeSize, const TensorShape& maskShape,
                                   const uint32_t maskTypeSize, const bool isReuseMask, uint32_t& maxValue,
                                   uint32_t& minValue) {
    sim_adv::check_select_host("GetSelectMaxMinTmpSize", src0Shape, src1Shape, maskShape, maskTypeSize);
    maxValue = GetSelectMaxTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask);
    minValue = GetSelectMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask);
}
inline uint32_t GetSelectWithBytesMaskMinTmpSize(const TensorShape& src0Shape, const TensorShape& src1Shape,
                                                 const uint32_t srcTypeSize, const TensorShape& maskShape,
                                                 const uint32_t maskTypeSize, const bool isReuseMask) {
    return GetSelectMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask);
}
inline uint32_t GetSelectWithBytesMaskMaxTmpSize(const TensorShape& src0Shape, const TensorShape& src1Shape,
                                                 const uint32_t srcTypeSize, const TensorShape& maskShape,
                                                 const uint32_t maskTypeSize, const bool isReuseMask) {
    return GetSelectMaxTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask);
}
inline void GetSelectWithBytesMaskMaxMinTmpSize(const TensorShape& src0Shape, const TensorShape& src1Shape,
                                                const uint32_t srcTypeSize, const TensorShape& maskShape,
                                                const uint32_t maskTypeSize, const bool isReuseMask,
                                                uint32_t& maxValue, uint32_t& minValue) {
    GetSelectMaxMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask, maxValue,
                           minValue);
}

}  // namespace AscendC

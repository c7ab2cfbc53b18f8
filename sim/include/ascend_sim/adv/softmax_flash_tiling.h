// The host tiling of SoftmaxFlashV2 and SoftmaxFlashV3 (asc-devkit
// include/adv_api/activation/softmax_tiling.h; impl/adv_api/tiling/activation/
// softmax_tiling.cpp :: GetSoftMaxFlashV2MaxTmpSize, GetSoftMaxFlashV2MinTmpSize,
// SoftMaxFlashV2TilingFunc, GetSoftMaxFlashV3MaxMinTmpSize, SoftMaxFlashV3TilingFunc)
// for dav_c220: the tmp sizes and the row split.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>

#include "softmax_tiling.h"

namespace AscendC {
namespace sim_adv {
namespace softmax_host {
constexpr uint32_t kSpecialBasicK = 1024;  // a basic-block row of 1024 takes two repeats of partials

inline void check_size2(const char* api, uint32_t dataTypeSize2) {
    if (dataTypeSize2 != 2 && dataTypeSize2 != 4)
        throw ascend_sim::SimViolation(api, -1, "unsupported type size",
                                       std::string("[ascend_sim] ") + api + ": dataTypeSize2 " +
                                           std::to_string(dataTypeSize2) + " is not 2 (half) or 4 (float)");
}
// V3 on A2 takes half rows with float max/sum/mean only.
inline void check_v3_sizes(const char* api, uint32_t dataTypeSize1, uint32_t dataTypeSize2) {
    if (dataTypeSize1 != 2)
        throw ascend_sim::SimViolation(api, -1, "unsupported type size",
                                       std::string("[ascend_sim] ") + api + ": dataTypeSize1 " +
                                           std::to_string(dataTypeSize1) + " must be sizeof(half)");
    if (dataTypeSize2 != 4)
        throw ascend_sim::SimViolation(api, -1, "unsupported type size",
                                       std::string("[ascend_sim] ") + api + ": dataTypeSize2 " +
                                           std::to_string(dataTypeSize2) + " must be sizeof(float)");
}
inline bool flash_basic(bool isBasicBlock, const RowsCols& s) { return isBasicBlock && s.k % 64 == 0 && s.m % 8 == 0; }
// Floats a row of V2 takes (basic block: its max/sum block and partials, the
// widened row for half; else the same with two blocks for half).
inline uint32_t v2_row_floats(const RowsCols& s, uint32_t size1, uint32_t perBlock, bool basic) {
    if (basic) {
        const uint32_t partials = s.k == kSpecialBasicK ? 2 * kRowScratch : kRowScratch;
        return perBlock + (size1 == 2 ? s.k : 0) + partials;
    }
    return size1 == 2 ? 2 * perBlock + s.k + kRowScratch : perBlock + kRowScratch;
}
inline uint32_t v3_row_floats(uint32_t k, uint32_t perBlock) { return 5 * perBlock + 2 * k + kRowScratch; }
}  // namespace softmax_host
}  // namespace sim_adv

inline uint32_t GetSoftMaxFlashV2MaxTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize1,
                                            const uint32_t dataTypeSize2, const bool isUpdate,
                                            const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
    namespace h = sim_adv::softmax_host;
    (void)isUpdate, (void)isFlashOutputBrc;
    constexpr const char* api = "GetSoftMaxFlashV2MaxTmpSize";
    h::check_size2(api, dataTypeSize2);
    auto s = h::rows_cols(api, srcShape, dataTypeSize1);
    const bool basic = h::flash_basic(isBasicBlock, s);
    if (basic)
        while (s.m * s.k >= 64 * 256) s.m /= 2;  // a repeat count fits in 8 bits
    return s.m * h::v2_row_floats(s, dataTypeSize1, 32 / dataTypeSize2, basic) * uint32_t(sizeof(float));
}
inline uint32_t GetSoftMaxFlashV2MinTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize1,
                                            const uint32_t dataTypeSize2, const bool isUpdate,
                                            const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
    namespace h = sim_adv::softmax_host;
    (void)isUpdate;
    constexpr const char* api = "GetSoftMaxFlashV2MinTmpSize";
    h::check_size2(api, dataTypeSize2);
    const auto s = h::rows_cols(api, srcShape, dataTypeSize1);
    // The minimum's basic-block form asks only the last axis to be whole repeats.
    const bool basic = isBasicBlock && s.k % 64 == 0;
    uint32_t floats = (basic ? 8 : 1) * h::v2_row_floats(s, dataTypeSize1, 32 / dataTypeSize2, basic);
    if (isFlashOutputBrc) floats = (basic ? floats / 8 : floats) * std::min(32 / dataTypeSize1, s.m);
    return floats * uint32_t(sizeof(float));
}
inline void SoftMaxFlashV2TilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                     SoftMaxTiling& softmaxFlashTiling, const bool isUpdate,
                                     const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
    namespace h = sim_adv::softmax_host;
    (void)isUpdate;
    constexpr const char* api = "SoftMaxFlashV2TilingFunc";
    h::check_size2(api, dataTypeSize2);
    const auto s = h::rows_cols(api, srcShape, dataTypeSize1);
    const uint32_t perBlock = 32 / dataTypeSize2, work = localWorkSpaceSize / uint32_t(sizeof(float));
    const bool basic = h::flash_basic(isBasicBlock, s);
    uint32_t baseM = work / h::v2_row_floats(s, dataTypeSize1, perBlock, basic);
    if (basic) {
        baseM = std::min(baseM, s.m);
        if (baseM > 8) {
            baseM = baseM / 8 * 8;
            while (s.m % baseM != 0) baseM -= 8;
            while (baseM * s.k >= 64 * 256) baseM /= 2;
        }
    }
    const uint32_t tile = isFlashOutputBrc && dataTypeSize1 == 2 ? 16 : 8;
    baseM = std::min(baseM, s.m);
    if (baseM < s.m && baseM > tile) baseM = baseM / tile * tile;
    sim_adv::set_split(softmaxFlashTiling, s.m, s.k, perBlock, baseM, s.m);
}
inline void SoftMaxFlashV2TilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                     optiling::SoftMaxTiling& softmaxFlashTiling, const bool isUpdate,
                                     const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
    SoftMaxTiling t;
    SoftMaxFlashV2TilingFunc(srcShape, dataTypeSize1, dataTypeSize2, localWorkSpaceSize, t, isUpdate, isBasicBlock,
                             isFlashOutputBrc);
    sim_adv::to_tiling_data(t, softmaxFlashTiling);
}

inline void GetSoftMaxFlashV3MaxMinTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize1,
                                           const uint32_t dataTypeSize2, uint32_t& maxValue, uint32_t& minValue,
                                           const bool isUpdate, const bool isBasicBlock = false) {
    namespace h = sim_adv::softmax_host;
    (void)isUpdate, (void)isBasicBlock;
    constexpr const char* api = "GetSoftMaxFlashV3MaxMinTmpSize";
    h::check_v3_sizes(api, dataTypeSize1, dataTypeSize2);
    const auto s = h::rows_cols(api, srcShape, dataTypeSize1);
    minValue = h::v3_row_floats(s.k, 32 / dataTypeSize2) * uint32_t(sizeof(float));
    maxValue = s.m * minValue;
}
inline void SoftMaxFlashV3TilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                     SoftMaxTiling& softmaxFlashV3Tiling, const bool isUpdate,
                                     const bool isBasicBlock = false) {
    namespace h = sim_adv::softmax_host;
    (void)isUpdate, (void)isBasicBlock;
    constexpr const char* api = "SoftMaxFlashV3TilingFunc";
    h::check_v3_sizes(api, dataTypeSize1, dataTypeSize2);
    const auto s = h::rows_cols(api, srcShape, dataTypeSize1);
    const uint32_t perBlock = 32 / dataTypeSize2;
    uint32_t baseM = std::min(localWorkSpaceSize / uint32_t(sizeof(float)) / h::v3_row_floats(s.k, perBlock), s.m);
    if (baseM < s.m && baseM > 8) baseM = baseM / 8 * 8;
    sim_adv::set_split(softmaxFlashV3Tiling, s.m, s.k, perBlock, baseM, s.m);
}
inline void SoftMaxFlashV3TilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                     optiling::SoftMaxTiling& softmaxFlashV3Tiling, const bool isUpdate,
                                     const bool isBasicBlock = false) {
    SoftMaxTiling t;
    SoftMaxFlashV3TilingFunc(srcShape, dataTypeSize1, dataTypeSize2, localWorkSpaceSize, t, isUpdate, isBasicBlock);
    sim_adv::to_tiling_data(t, softmaxFlashV3Tiling);
}

}  // namespace AscendC

// TopK's tiling (asc-devkit include/adv_api/sort/topk_tilingdata.h,
// topk_tiling_intf.h, topk_utils*.h; impl/adv_api/tiling/sort/topk_tiling_impl.cpp
// :: CheckTopKHostCommon, TopKTilingFunc, SetTopkNormalVal, SetTopkNSmallVal,
// GetVreduceMask, GetTopKMaxMinTmpSize220) for dav_c220: TopkTiling's offsets
// into the tmp (in T elements) and GatherMask masks, and the tmp bytes. The
// kernel struct is exported at file scope, the host class is optiling::TopkTiling;
// one field list feeds both. The radix-select form (950 only) is not provided.
#pragma once
#include <cstdint>

#include "../../register/tilingdata_base.h"
#include "sort_tiling.h"

namespace AscendC {
enum class TopKMode { TOPK_NORMAL, TOPK_NSMALL };

struct TopKInfo {
    int32_t outter = 1;
    int32_t inner;  // n rounded up to 32
    int32_t n;
};
}  // namespace AscendC

#define ASCEND_SIM_TOPK_TILING_FIELDS(X)                                                                   \
    X(int32_t, tmpLocalSize) X(int32_t, allDataSize) X(int32_t, innerDataSize) X(uint32_t, sortRepeat)    \
    X(int32_t, mrgSortRepeat) X(int32_t, kAlignFourBytes) X(int32_t, kAlignTwoBytes) X(int32_t, maskOffset) \
    X(int32_t, maskVreducev2FourBytes) X(int32_t, maskVreducev2TwoBytes) X(int32_t, mrgSortSrc1offset)     \
    X(int32_t, mrgSortSrc2offset) X(int32_t, mrgSortSrc3offset) X(int32_t, mrgSortTwoQueueSrc1Offset)      \
    X(int32_t, mrgFourQueueTailPara1) X(int32_t, mrgFourQueueTailPara2) X(int32_t, srcIndexOffset)         \
    X(uint32_t, copyUbToUbBlockCount) X(int32_t, topkMrgSrc1MaskSizeOffset)                                \
    X(int32_t, topkNSmallSrcIndexOffset) X(uint32_t, vreduceValMask0) X(uint32_t, vreduceValMask1)         \
    X(uint32_t, vreduceIdxMask0) X(uint32_t, vreduceIdxMask1) X(uint16_t, vreducehalfValMask0)             \
    X(uint16_t, vreducehalfValMask1) X(uint16_t, vreducehalfValMask2) X(uint16_t, vreducehalfValMask3)     \
    X(uint16_t, vreducehalfValMask4) X(uint16_t, vreducehalfValMask5) X(uint16_t, vreducehalfValMask6)     \
    X(uint16_t, vreducehalfValMask7)

namespace AscendC {
namespace tiling {
#define ASCEND_SIM_TOPK_MEMBER(type, name) type name = 0;
struct TopkTiling {
    ASCEND_SIM_TOPK_TILING_FIELDS(ASCEND_SIM_TOPK_MEMBER)
};
#undef ASCEND_SIM_TOPK_MEMBER
}  // namespace tiling
}  // namespace AscendC
using AscendC::tiling::TopkTiling;

namespace optiling {
#define ASCEND_SIM_TOPK_FIELD(type, name) TILING_DATA_FIELD_DEF(type, name);
BEGIN_TILING_DATA_DEF(TopkTiling)
ASCEND_SIM_TOPK_TILING_FIELDS(ASCEND_SIM_TOPK_FIELD)
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(TopkTilingOpApi, TopkTiling)
#undef ASCEND_SIM_TOPK_FIELD
}  // namespace optiling

namespace AscendC {
namespace sim_adv {
// CheckTopKHostCommon (dav_c220): inner a positive multiple of 32 (32 in small
// mode), outter positive, the source within the UB, half or float.
inline void check_topk_host(const char* fn, const platform_ascendc::PlatformAscendC& p, int32_t inner,
                            int32_t outter, TopKMode mode, uint32_t typeSize) {
    const std::string api = std::string("TopK ") + fn;
    if (inner <= 0) host_fail(api.c_str(), "inner not positive", "the length of the inner axis must be greater than 0");
    if (inner % 32) host_fail(api.c_str(), "inner not a multiple of 32", "inner " + std::to_string(inner) + " is not a multiple of 32");
    if (mode == TopKMode::TOPK_NSMALL && inner != 32)
        host_fail(api.c_str(), "small mode inner not 32", "in TOPK_NSMALL the inner axis must be 32, not " + std::to_string(inner));
    if (outter <= 0) host_fail(api.c_str(), "outter not positive", "the length of the outter axis must be greater than 0");
    uint64_t ub = 0;
    p.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    if (uint64_t(inner) * uint64_t(outter) * typeSize > ub)
        host_fail(api.c_str(), "source beyond UB", std::to_string(uint64_t(inner) * outter * typeSize) + " B of source exceed the UB size");
    if (typeSize != 2 && typeSize != 4)
        host_fail(api.c_str(), "type size unsupported", "dataTypeSize " + std::to_string(typeSize) + " is not 2 or 4");
}

// k ones in a row of `width`-bit fields, each field `field` (the low bit set).
inline uint32_t repeat_bits(int32_t k, uint32_t field, uint32_t width) {
    uint32_t m = 0;
    for (int32_t i = 0; i < k; ++i) m |= field << (width * uint32_t(i));
    return m;
}

inline void set_topk_normal(int32_t inner, int32_t outter, int32_t k, uint32_t typeSize, bool isInitIndex,
                            TopkTiling& t) {
    const bool isHalf = typeSize == 2;
    t.kAlignTwoBytes = (k + 15) / 16 * 16;
    t.tmpLocalSize = (isHalf ? 8 : 4) * inner;   // two buffers of inner 8 B proposals, in T
    t.innerDataSize = (isHalf ? 4 : 2) * inner;  // one of them
    t.copyUbToUbBlockCount = uint32_t(inner) * 8 / 32;
    t.sortRepeat = uint32_t(inner / 32);
    t.mrgSortRepeat = inner / 4;
    t.maskOffset = outter * (isHalf ? t.kAlignTwoBytes : t.kAlignFourBytes);
    t.maskVreducev2FourBytes = 2 * k;
    t.maskVreducev2TwoBytes = 4 * k;
    t.mrgSortSrc1offset = isHalf ? 4 : 2;  // one proposal in T, times the queue number
    t.mrgSortSrc2offset = isHalf ? 8 : 4;
    t.mrgSortSrc3offset = isHalf ? 12 : 6;
    t.mrgSortTwoQueueSrc1Offset = isHalf ? 4 : 2;
    t.mrgFourQueueTailPara1 = inner * 2;
    t.mrgFourQueueTailPara2 = int32_t(4 / typeSize);
    if (!isInitIndex) {  // the generated indices after the proposals
        t.srcIndexOffset = t.tmpLocalSize;
        t.tmpLocalSize += (isHalf ? 2 : 1) * inner;
    }
}

inline void set_topk_nsmall(int32_t inner, int32_t outter, int32_t k, uint32_t typeSize, bool isInitIndex,
                            bool isLargest, TopkTiling& t) {
    t.innerDataSize = inner * outter * int32_t(8 / typeSize);
    t.maskOffset = outter * k;
    // proposals, the negated source when ascending, then 64 B of GatherMask patterns
    t.topkMrgSrc1MaskSizeOffset = t.innerDataSize + (isLargest ? 0 : inner * outter);
    t.tmpLocalSize = t.topkMrgSrc1MaskSizeOffset + int32_t(64 / typeSize);
    if (!isInitIndex) {
        t.topkNSmallSrcIndexOffset = t.tmpLocalSize;
        t.tmpLocalSize += inner * outter * int32_t(4 / typeSize);
    }
    // GetVreduceMask: index every second 4 B, value the low 4 B (float) or the first 2 B of 8 (half)
    if (k < 17) t.vreduceIdxMask0 = repeat_bits(k, 2, 2);
    if (k >= 17 && k <= 32) t.vreduceIdxMask0 = 0xAAAAAAAAu, t.vreduceIdxMask1 = repeat_bits(k - 16, 2, 2);
    if (typeSize == 4) {
        if (k < 17) t.vreduceValMask0 = repeat_bits(k, 1, 2);
        if (k >= 17 && k <= 32) t.vreduceValMask0 = repeat_bits(16, 1, 2), t.vreduceValMask1 = repeat_bits(k - 16, 1, 2);
    } else {
        uint16_t* m[8] = {&t.vreducehalfValMask0, &t.vreducehalfValMask1, &t.vreducehalfValMask2,
                          &t.vreducehalfValMask3, &t.vreducehalfValMask4, &t.vreducehalfValMask5,
                          &t.vreducehalfValMask6, &t.vreducehalfValMask7};
        for (int32_t w = 0; w < 8; ++w) {
            const int32_t left = k - 4 * w;
            *m[w] = left <= 0 ? 0 : uint16_t(repeat_bits(left < 4 ? left : 4, 1, 4));
        }
    }
}
}  // namespace sim_adv

inline bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner,
                           const int32_t outter, const int32_t k, const uint32_t dataTypeSize, const bool isInitIndex,
                           enum TopKMode mode, const bool isLargest, TopkTiling& topKTiling) {
    sim_adv::check_topk_host("TopKTilingFunc", ascendcPlatform, inner, outter, mode, dataTypeSize);
    if (k < 1 || k > inner)
        sim_adv::host_fail("TopK TopKTilingFunc", "k out of range",
                           "k " + std::to_string(k) + " is outside [1, " + std::to_string(inner) + "]");
    TopkTiling t;
    t.allDataSize = inner * outter;
    t.kAlignFourBytes = (k + 7) / 8 * 8;
    if (mode == TopKMode::TOPK_NORMAL)
        sim_adv::set_topk_normal(inner, outter, k, dataTypeSize, isInitIndex, t);
    else
        sim_adv::set_topk_nsmall(inner, outter, k, dataTypeSize, isInitIndex, isLargest, t);
    topKTiling = t;
    return true;
}

inline bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner,
                           const int32_t outter, const int32_t k, const uint32_t dataTypeSize, const bool isInitIndex,
                           enum TopKMode mode, const bool isLargest, optiling::TopkTiling& topKTiling) {
    TopkTiling t;
    const bool ok = TopKTilingFunc(ascendcPlatform, inner, outter, k, dataTypeSize, isInitIndex, mode, isLargest, t);
#define ASCEND_SIM_TOPK_COPY(type, name) topKTiling.set_##name(t.name);
    ASCEND_SIM_TOPK_TILING_FIELDS(ASCEND_SIM_TOPK_COPY)
#undef ASCEND_SIM_TOPK_COPY
    return ok;
}

// GetTopKMaxMinTmpSize220: bytes, min = max.
inline bool GetTopKMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner,
                                 const int32_t outter, const bool isReuseSource, const bool isInitIndex,
                                 enum TopKMode mode, const bool isLargest, const uint32_t dataTypeSize,
                                 uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    sim_adv::check_topk_host("GetTopKMaxMinTmpSize", ascendcPlatform, inner, outter, mode, dataTypeSize);
    const uint32_t in = uint32_t(inner), all = uint32_t(inner) * uint32_t(outter);
    if (mode == TopKMode::TOPK_NORMAL)
        minValue = 16 * in + (isInitIndex ? 0 : 4 * in);
    else
        minValue = 8 * all + 64 + (isLargest ? 0 : 4 * all) + (isInitIndex ? 0 : 4 * all);
    maxValue = minValue;
    return true;
}

}  // namespace AscendC

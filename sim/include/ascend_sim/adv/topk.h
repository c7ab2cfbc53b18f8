// TopK, merge-sort form, TOPK_NORMAL (asc-devkit include/adv_api/sort/topk.h;
// impl/adv_api/detail/sort/topk/topk_common_impl.h :: TopKNormal;
// topk_v220_impl.h :: TmpLocalSort32, MrgFourQueueSort, MrgTwoQueueSort,
// GatherDstValAndDstIdx, TopKCompute, TopkInputCheck; api_check topk_check_common.h).
// Row by row on A2: Sort32 of the row's 32-element groups (of the negated row
// when ascending) into the tmp's first half, copied to the second; MrgSort
// merges four runs at a time while four fit, then the runs left pairwise, each
// queue cut to k; GatherMask takes k scores and k indices; the finish flag
// overwrites the row's indices with n; ascending negates the values back at the end.
// Without isInitIndex the indices 0..inner-1 are made once by ArithProgression
// in the tmp. TOPK_NSMALL is refused when called.
#pragma once
#include <cstdint>
#include <type_traits>

#include "adv_check.h"
#include "index.h"
#include "sort.h"
#include "topk_tiling.h"

namespace AscendC {
namespace sim_adv {

template <class T, bool isHasfinish>
void check_topk_args(const LocalTensor<T>& dstValue, const LocalTensor<int32_t>& dstIndex, const LocalTensor<T>& src,
                     const LocalTensor<int32_t>& srcIndex, const LocalTensor<bool>& finish, uint32_t tmpBytes,
                     int32_t k, const TopkTiling& t, const TopKInfo& info) {
    constexpr const char* api = "TopK";
    if (k < 1 || k > info.n) d::fail(api, "k out of range", "k %d is outside [1, topKInfo.n %d]", k, info.n);
    if (info.n < 1 || info.n > info.inner)
        d::fail(api, "n out of range", "topKInfo.n %d is outside [1, topKInfo.inner %d]", info.n, info.inner);
    if (info.inner % 32) d::fail(api, "inner not a multiple of 32", "topKInfo.inner %d is not a multiple of 32", info.inner);
    if (info.inner > 4096)
        d::fail(api, "inner beyond 4096", "topKInfo.inner %d is larger than 4096 in TOPK_NORMAL", info.inner);
    if (info.outter < 1) d::fail(api, "outter not positive", "topKInfo.outter %d must be greater than 0", info.outter);
    const uint64_t all = uint64_t(info.inner) * uint64_t(info.outter);
    if (src.GetSize() < all)
        d::fail(api, "srcLocal too small", "inner * outter = %llu is larger than srcLocal's size %u",
                (unsigned long long)all, src.GetSize());
    if (srcIndex.GetSize() < uint32_t(info.inner))
        d::fail(api, "srcIndexLocal too small", "topKInfo.inner %d is larger than srcIndexLocal's size %u", info.inner,
                srcIndex.GetSize());
    if (isHasfinish && finish.GetSize() < uint32_t(info.outter))
        d::fail(api, "finishLocal too small", "topKInfo.outter %d is larger than finishLocal's size %u", info.outter,
                finish.GetSize());
    const uint32_t perBlk = 32 / sizeof(T), kPad = (uint32_t(k) + perBlk - 1) / perBlk * perBlk;
    const uint32_t kPadIndex = (uint32_t(k) + 7) / 8 * 8;
    if (dstValue.GetSize() < uint64_t(kPad) * info.outter)
        d::fail(api, "dstValueLocal too small", "k_pad * outter = %llu is larger than dstValueLocal's size %u",
                (unsigned long long)(uint64_t(kPad) * info.outter), dstValue.GetSize());
    if (dstIndex.GetSize() < uint64_t(kPadIndex) * info.outter)
        d::fail(api, "dstIndexLocal too small", "kpad_index * outter = %llu is larger than dstIndexLocal's size %u",
                (unsigned long long)(uint64_t(kPadIndex) * info.outter), dstIndex.GetSize());
    // the stack form's check (topk_common_impl.h), applied to either tmp
    if (uint64_t(tmpBytes) < uint64_t(t.tmpLocalSize) * sizeof(T))
        d::fail(api, "tmp below tiling.tmpLocalSize", "the tmp has %u B, TopK needs tiling.tmpLocalSize %d elements = %llu B",
                tmpBytes, t.tmpLocalSize, (unsigned long long)(uint64_t(t.tmpLocalSize) * sizeof(T)));
}

// The row's groups sorted into tmp[0, innerDataSize) and copied after it.
template <class T, bool isInitIndex>
void topk_sort32(const LocalTensor<T>& src, const LocalTensor<int32_t>& srcIndex, const LocalTensor<T>& tmp,
                 const TopkTiling& t, const TopKInfo& info, bool isLargest, int32_t row) {
    const LocalTensor<uint32_t> idx = isInitIndex ? srcIndex.template ReinterpretCast<uint32_t>()
                                                  : tmp[t.srcIndexOffset].template ReinterpretCast<uint32_t>();
    const LocalTensor<T> rowSrc = src[uint32_t(row * info.inner)];
    if (!isLargest) {
        SetVectorMask<T, MaskMode::COUNTER>(0, info.inner);
        Muls<T, false>(tmp[t.innerDataSize], rowSrc, T(-1), MASK_PLACEHOLDER, 1, UnaryRepeatParams());
        PipeBarrier<PIPE_V>();
        Sort32<T>(tmp, tmp[t.innerDataSize], idx, int32_t(t.sortRepeat));
    } else {
        Sort32<T>(tmp, rowSrc, idx, int32_t(t.sortRepeat));
    }
    PipeBarrier<PIPE_V>();
    DataCopy(tmp[t.innerDataSize], tmp, DataCopyParams(uint16_t(t.copyUbToUbBlockCount), 1, 0, 0));
    PipeBarrier<PIPE_V>();
}

// Ping-pong halves of the tmp: `half` 0 or 1.
template <class T>
LocalTensor<T> topk_half(const LocalTensor<T>& tmp, const TopkTiling& t, int32_t half) {
    return half == 1 ? tmp[t.innerDataSize] : tmp[0];
}

// Four runs of z at a time while four fit in inner; both halves hold the result.
template <class T>
void topk_merge4(const LocalTensor<T>& tmp, const TopkTiling& t, const TopKInfo& info, uint16_t& z, int32_t& merges,
                 int32_t& dstHalf) {
    for (; uint32_t(z) * 4 <= uint32_t(uint16_t(info.inner)); z *= 4) {
        const LocalTensor<T> src = topk_half(tmp, t, merges % 2);
        dstHalf = (merges + 1) % 2;
        const LocalTensor<T> dst = topk_half(tmp, t, dstHalf);
        ++merges;
        const uint16_t len[4] = {z, z, z, z};
        MrgSort<T>(dst,
                   MrgSortSrcList<T>(src, src[z * t.mrgSortSrc1offset], src[z * t.mrgSortSrc2offset],
                                     src[z * t.mrgSortSrc3offset]),
                   MrgSort4Info(len, false, 0b1111, uint16_t(t.mrgSortRepeat / z)));
        PipeBarrier<PIPE_V>();
        DataCopy(src, dst, DataCopyParams(uint16_t(t.copyUbToUbBlockCount), 1, 0, 0));
        PipeBarrier<PIPE_V>();
    }
}

// The runs left (the largest first) merged into the growing head, both queues cut to k.
template <class T>
void topk_merge2(const LocalTensor<T>& tmp, const TopkTiling& t, const TopKInfo& info, uint16_t z, int32_t merges,
                 int32_t& dstHalf, int32_t k) {
    if (z >= info.inner) return;
    int32_t runs[15] = {0}, n = 0, left = info.inner;
    for (int32_t r = z; r >= 32; r /= 4)
        for (; left >= r; left -= r) runs[n++] = r;
    uint16_t merged = 0;
    for (int32_t i = 0; i + 1 < n; ++i) {
        const LocalTensor<T> src = topk_half(tmp, t, (merges + i) % 2);
        dstHalf = (merges + 1 + i) % 2;
        const LocalTensor<T> dst = topk_half(tmp, t, dstHalf);
        merged += uint16_t(runs[i]);
        const uint16_t len[4] = {uint16_t(merged > k ? k : merged), uint16_t(runs[i + 1] > k ? k : runs[i + 1]), 0, 0};
        MrgSort<T>(dst, MrgSortSrcList<T>(src, src[merged * t.mrgSortTwoQueueSrc1Offset], src, src),
                   MrgSort4Info(len, false, 0b0011, 1));
        PipeBarrier<PIPE_V>();
    }
}

// k scores and k indices of the merged proposals into the row's slots.
template <class T>
void topk_gather(const LocalTensor<T>& dstValue, const LocalTensor<int32_t>& dstIndex, const LocalTensor<T>& tmp,
                 const TopkTiling& t, int32_t dstHalf, int32_t row) {
    uint64_t kept = 0;
    const LocalTensor<T> sorted = tmp[uint32_t(t.innerDataSize * dstHalf)];
    const GatherMaskParams one(1, 1, DEFAULT_REPEAT_STRIDE, 1);
    const uint32_t idxAt = uint32_t(row * t.kAlignFourBytes);
    if constexpr (sizeof(T) == 4)
        GatherMask<T>(dstValue[idxAt], sorted, uint8_t(1), true, uint32_t(t.maskVreducev2FourBytes), one, kept);
    else
        GatherMask<T>(dstValue[uint32_t(row * t.kAlignTwoBytes)], sorted, uint8_t(3), true,
                      uint32_t(t.maskVreducev2TwoBytes), one, kept);
    PipeBarrier<PIPE_V>();
    GatherMask<float>(dstIndex[idxAt].template ReinterpretCast<float>(), sorted.template ReinterpretCast<float>(),
                      uint8_t(2), true, uint32_t(t.maskVreducev2FourBytes), one, kept);
    PipeBarrier<PIPE_V>();
    SetMaskCount();
}

template <class T, bool isInitIndex, bool isHasfinish, TopKMode topkMode>
void topk_normal(const LocalTensor<T>& dstValue, const LocalTensor<int32_t>& dstIndex, const LocalTensor<T>& src,
                 const LocalTensor<int32_t>& srcIndex, const LocalTensor<bool>& finish,
                 const LocalTensor<uint8_t>& tmpBytes, int32_t k, const TopkTiling& t, const TopKInfo& info,
                 bool isLargest) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "TopK: A2 supports half and float");
    if constexpr (topkMode == TopKMode::TOPK_NSMALL)
        d::fail("TopK", "TOPK_NSMALL not modelled",
                "the simulator models TopK's TOPK_NORMAL mode only; TOPK_NSMALL is not provided");
    check_topk_args<T, isHasfinish>(dstValue, dstIndex, src, srcIndex, finish, tmpBytes.GetSize(), k, t, info);
    const LocalTensor<T> tmp = tmpBytes.template ReinterpretCast<T>();
    if constexpr (!isInitIndex) {
        ArithProgression(tmp[t.srcIndexOffset].template ReinterpretCast<int32_t>(), 0, 1, info.inner);
        PipeBarrier<PIPE_V>();
    }
    SetMaskCount();
    for (int32_t row = 0; row < info.outter; ++row) {
        topk_sort32<T, isInitIndex>(src, srcIndex, tmp, t, info, isLargest, row);
        int32_t merges = 0, dstHalf = 0;
        uint16_t z = 32;
        topk_merge4(tmp, t, info, z, merges, dstHalf);
        topk_merge2(tmp, t, info, z, merges, dstHalf, k);
        topk_gather(dstValue, dstIndex, tmp, t, dstHalf, row);
        if constexpr (isHasfinish) {
            const bool done = finish.GetValue(uint32_t(row));
            scalar_to_vector();
            if (done) {
                SetVectorMask<T, MaskMode::COUNTER>(0, k);
                Duplicate<int32_t, false>(dstIndex[uint32_t(row * t.kAlignFourBytes)], info.n, MASK_PLACEHOLDER, 1, 1,
                                          DEFAULT_REPEAT_STRIDE);
            }
        }
        PipeBarrier<PIPE_V>();
    }
    if (!isLargest) {
        SetVectorMask<T, MaskMode::COUNTER>(0, t.maskOffset);
        Muls<T, false>(dstValue, dstValue, T(-1), MASK_PLACEHOLDER, 1, UnaryRepeatParams());
    }
    SetMaskNorm();
    ResetMask();
}

}  // namespace sim_adv

// isReuseSrc has no effect on A2.
template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL>
void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<int32_t>& dstIndexLocal, const LocalTensor<T>& srcLocal,
          const LocalTensor<int32_t>& srcIndexLocal, const LocalTensor<bool>& finishLocal,
          const LocalTensor<uint8_t>& tmpLocal, const int32_t k, const TopkTiling& tilling, const TopKInfo& topKInfo,
          const bool isLargest = true) {
    sim_adv::topk_normal<T, isInitIndex, isHasfinish, topkMode>(dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal,
                                                                finishLocal, tmpLocal, k, tilling, topKInfo, isLargest);
}

template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL>
void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<int32_t>& dstIndexLocal, const LocalTensor<T>& srcLocal,
          const LocalTensor<int32_t>& srcIndexLocal, const LocalTensor<bool>& finishLocal, const int32_t k,
          const TopkTiling& tilling, const TopKInfo& topKInfo, const bool isLargest = true) {
    sim_adv::topk_normal<T, isInitIndex, isHasfinish, topkMode>(dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal,
                                                                finishLocal, sim_adv::stack_tmp("TopK"), k, tilling,
                                                                topKInfo, isLargest);
}

}  // namespace AscendC

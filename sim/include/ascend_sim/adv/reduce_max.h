// The advanced ReduceMax over a 2-D shape (asc-devkit include/adv_api/reduce/
// reduce.h :: ReduceMax; reduce_common.h :: Pattern::Reduce; dav_c220:
// impl/adv_api/detail/reduce/reduce_max/reduce_max_v220_impl.h :: ReduceMaxImpl;
// reduce_common_util_v220_impl.h :: BinaryReduceByFirstAxis; the checks of
// api_check/kernel_check/reduce/reduce_check.h). RA (reduce the first axis):
// the rows past the largest power of two folded in, then halved pairwise, in
// Counter mode, in src (isReuseSource) or in tmp. AR (reduce the last axis,
// reduce_common_util_v220_impl.h :: BlockReduceByLastAxis): by row length, a
// block's or a repeat's worth a row folded by Max, then BlockReduceMax/WholeReduceMax.
#pragma once
#include <cstdint>
#include <type_traits>

#include "../kernel_sync.h"
#include "../kernel_vec_binary.h"
#include "../kernel_vec_mask.h"
#include "../kernel_vec_scalar.h"
#include "adv_check.h"

namespace AscendC {
namespace Pattern {
namespace Reduce {
// R reduces an axis, A keeps it; one letter a dimension.
struct R {};
struct RA {};
struct AR {};
}  // namespace Reduce
}  // namespace Pattern

namespace sim_adv {
namespace reduce_max {
// FindClosestPowerOfTwo: the largest 2^k <= n.
inline uint32_t floor_pow2(uint32_t n) {
    uint32_t p = 1;
    while (p <= n / 2) p *= 2;
    return p;
}
// The elements of tmp the AR fold works in: none up to a block a row, a block a
// row below a repeat, else a repeat a row (GetReduceMaxMaxMinTmpSize).
template <class T>
uint32_t ar_tmp_elems(uint32_t first, uint32_t last) {
    constexpr uint32_t perBlock = ONE_BLK_SIZE / sizeof(T), perRepeat = 256 / sizeof(T);
    return last <= perBlock ? 0 : last < perRepeat ? first * perBlock : first * perRepeat;
}
// The elements of tmp the RA fold works in (GetReduceMaxMaxMinTmpSize).
inline uint32_t ra_tmp_elems(uint32_t first, uint32_t padLast) {
    uint32_t k = floor_pow2(first);
    if (k == first && first > 1) k /= 2;
    return k * padLast;
}

template <class T>
void count(uint32_t n) {
    SetVectorMask<T, MaskMode::COUNTER>(0, n);
}

template <class T, bool isReuseSource>
void by_first_axis(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& tmp, uint32_t first,
                   uint32_t last, uint32_t padLast) {
    const BinaryRepeatParams b;
    const UnaryRepeatParams u;
    uint32_t split = floor_pow2(first);
    const uint32_t remain = first - split;
    SetMaskCount();
    if constexpr (isReuseSource) {
        if (remain != 0) {
            count<T>(padLast * remain);
            Max<T, false>(src, src, src[split * padLast], MASK_PLACEHOLDER, 1, b);
            PipeBarrier<PIPE_V>();
        }
    } else if (remain != 0) {
        count<T>(split * padLast);
        Adds<T, false>(tmp, src, T(0), MASK_PLACEHOLDER, 1, u);
        PipeBarrier<PIPE_V>();
        count<T>(padLast * remain);
        Max<T, false>(tmp, tmp, src[split * padLast], MASK_PLACEHOLDER, 1, b);
        PipeBarrier<PIPE_V>();
    } else if (split > 1) {
        split /= 2;
        count<T>(padLast * split);
        Max<T, false>(tmp, src, src[split * padLast], MASK_PLACEHOLDER, 1, b);
        PipeBarrier<PIPE_V>();
    } else {  // one row: copied
        count<T>(last);
        Adds<T, false>(dst, src, T(0), MASK_PLACEHOLDER, 1, u);
        PipeBarrier<PIPE_V>();
        return;
    }
    const LocalTensor<T>& cur = isReuseSource ? src : tmp;
    while (split > 1) {
        split /= 2;
        count<T>(padLast * split);
        Max<T, false>(cur, cur, cur[split * padLast], MASK_PLACEHOLDER, 1, b);
        PipeBarrier<PIPE_V>();
    }
    count<T>(last);
    Adds<T, false>(dst, cur, T(0), MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
}

// ---- AR (BlockReduceByLastAxis with Max): the maximum of each row into dst ----
constexpr uint32_t kMaxRep = 255;

// The first `len` elements of each of `blocks` blocks (ComputeMaskBit).
template <class T>
void block_mask(uint32_t len, uint32_t blocks, uint64_t mask[2]) {
    constexpr uint32_t perBlock = ONE_BLK_SIZE / sizeof(T);
    mask[0] = mask[1] = 0;
    for (uint32_t k = 0; k < blocks; ++k)
        mask[k * perBlock / 64] |= ((1ull << len) - 1) << (k * perBlock % 64);
}

// Rows shorter than a block (a row a block): 8 rows a repeat in Normal mode,
// the last repeat's blocks masked to the rows left (DoReduceLessThanBlk).
template <class T>
void rows_below_block(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t first, uint32_t last) {
    constexpr uint32_t perRepeat = 256 / sizeof(T);
    const uint32_t repeats = (first + 7) / 8, chunks = (repeats + kMaxRep - 1) / kMaxRep;
    const uint32_t lastChunk = repeats % kMaxRep == 0 ? kMaxRep : repeats % kMaxRep, tailRows = first % 8;
    uint64_t main[2], tail[2];
    block_mask<T>(last, first < 8 ? first : 8, main);
    block_mask<T>(last, tailRows, tail);
    for (uint32_t i = 0; i < chunks; ++i) {
        const uint32_t n = i + 1 == chunks ? lastChunk : kMaxRep;
        const LocalTensor<T> d = dst[i * kMaxRep * 8], s = src[i * kMaxRep * perRepeat];
        if (i + 1 == chunks && tailRows != 0 && first >= 8) {
            BlockReduceMax<T>(d, s, int32_t(n - 1), main, 1, 1, DEFAULT_REPEAT_STRIDE);
            PipeBarrier<PIPE_V>();
            BlockReduceMax<T>(d[(n - 1) * 8], s[(n - 1) * perRepeat], 1, tail, 1, 1, DEFAULT_REPEAT_STRIDE);
        } else {
            BlockReduceMax<T>(d, s, int32_t(n), main, 1, 1, DEFAULT_REPEAT_STRIDE);
            PipeBarrier<PIPE_V>();
        }
    }
}

// acc (rows `accRow` elements apart) = max(acc, each later `unit` of the row's
// whole units), then the partial unit under a Normal-mode mask (AccValOnBlk /
// AccValOnRep); `unit` is a block or a repeat.
template <class T>
void fold_units(const LocalTensor<T>& acc, const LocalTensor<T>& src, uint32_t first, uint32_t last,
                uint32_t padLast, uint32_t unit, uint32_t accRow, const BinaryRepeatParams& whole,
                const BinaryRepeatParams& part) {
    const uint32_t units = last / unit, rest = last % unit;
    for (uint32_t i = 1; i < units; ++i) {
        count<T>(first * unit);
        Max<T, false>(acc, acc, src[i * unit], MASK_PLACEHOLDER, 1, whole);
        PipeBarrier<PIPE_V>();
    }
    if (rest == 0) return;
    SetMaskNorm();
    SetVectorMask<T, MaskMode::NORMAL>(int32_t(rest));
    const uint32_t chunks = (first + kMaxRep - 1) / kMaxRep;
    for (uint32_t i = 0; i < chunks; ++i) {
        const uint32_t n = i + 1 == chunks ? first - i * kMaxRep : kMaxRep;
        Max<T, false>(acc[i * kMaxRep * accRow], acc[i * kMaxRep * accRow], src[i * kMaxRep * padLast + units * unit],
                      MASK_PLACEHOLDER, uint8_t(n), part);
        PipeBarrier<PIPE_V>();
    }
    SetMaskCount();
}

// dst = the max of each repeat-wide row of acc (`accRow` apart, repStride blocks
// a row): WholeReduceMax for half, two BlockReduceMaxes for float (GetReduceValOnRep).
template <class T>
void repeat_rows_max(const LocalTensor<T>& dst, const LocalTensor<T>& acc, uint32_t first, uint32_t accRow,
                     uint32_t repStride) {
    constexpr uint32_t perRepeat = 256 / sizeof(T);
    if constexpr (sizeof(T) == 2) {
        SetMaskNorm();
        for (uint32_t i = 0; i * kMaxRep < first; ++i) {
            const uint32_t n = first - i * kMaxRep < kMaxRep ? first - i * kMaxRep : kMaxRep;
            WholeReduceMax<T>(dst[i * kMaxRep], acc[i * kMaxRep * accRow], int32_t(perRepeat), int32_t(n), 1, 1,
                              int32_t(repStride), ReduceOrder::ORDER_ONLY_VALUE);
            PipeBarrier<PIPE_V>();
        }
    } else {
        count<T>(first * perRepeat);
        BlockReduceMax<T, false>(acc, acc, 1, int32_t(MASK_PLACEHOLDER), 1, 1, int32_t(repStride));
        PipeBarrier<PIPE_V>();
        count<T>(first * 8);
        BlockReduceMax<T, false>(dst, acc, 1, int32_t(MASK_PLACEHOLDER), 1, 1, DEFAULT_REPEAT_STRIDE);
    }
}

template <class T, bool isReuseSource>
void by_last_axis(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& tmp, uint32_t first,
                  uint32_t last, uint32_t padLast) {
    constexpr uint32_t perBlock = ONE_BLK_SIZE / sizeof(T), perRepeat = 256 / sizeof(T);
    const uint8_t rowBlocks = uint8_t(padLast / perBlock);
    if (last < perBlock) return rows_below_block(dst, src, first, last);
    SetMaskCount();
    if (last == perBlock) {  // a block a row (DoReduceOneBlk)
        count<T>(first * last);
        BlockReduceMax<T, false>(dst, src, 1, int32_t(MASK_PLACEHOLDER), 1, 1, DEFAULT_REPEAT_STRIDE);
        return;
    }
    if (last < perRepeat) {  // DoReduceByBlk: the blocks of a row folded into its first
        const uint8_t repBlocks = uint8_t(rowBlocks * 8);
        if constexpr (!isReuseSource) {
            count<T>(first * perBlock);
            Adds<T, false>(tmp, src, T(0), MASK_PLACEHOLDER, 1, UnaryRepeatParams(1, rowBlocks, 8, repBlocks));
            PipeBarrier<PIPE_V>();
            fold_units(tmp, src, first, last, padLast, perBlock, perBlock, {1, 1, rowBlocks, 8, 8, repBlocks},
                       {1, 1, 1, 1, 1, rowBlocks});
            count<T>(first * perBlock);
            BlockReduceMax<T, false>(dst, tmp, 1, int32_t(MASK_PLACEHOLDER), 1, 1, DEFAULT_REPEAT_STRIDE);
        } else {
            fold_units(src, src, first, last, padLast, perBlock, padLast,
                       {rowBlocks, rowBlocks, rowBlocks, repBlocks, repBlocks, repBlocks},
                       {1, 1, 1, rowBlocks, rowBlocks, rowBlocks});
            count<T>(first * perBlock);
            BlockReduceMax<T, false>(dst, src, 1, int32_t(MASK_PLACEHOLDER), 1, rowBlocks, repBlocks);
        }
        return;
    }
    if (last <= kMaxRep * perBlock) {  // DoReduceByRep: the repeats of a row folded into its first
        if constexpr (!isReuseSource) {
            count<T>(first * perRepeat);
            Adds<T, false>(tmp, src, T(0), MASK_PLACEHOLDER, 1, UnaryRepeatParams(1, 1, 8, rowBlocks));
            PipeBarrier<PIPE_V>();
            const BinaryRepeatParams p(1, 1, 1, 8, 8, rowBlocks);
            fold_units(tmp, src, first, last, padLast, perRepeat, perRepeat, p, p);
            repeat_rows_max(dst, tmp, first, perRepeat, DEFAULT_REPEAT_STRIDE);
        } else {
            const BinaryRepeatParams p(1, 1, 1, rowBlocks, rowBlocks, rowBlocks);
            fold_units(src, src, first, last, padLast, perRepeat, padLast, p, p);
            repeat_rows_max(dst, src, first, padLast, rowBlocks);
        }
        return;
    }
    // DoLongLastReduce: row by row, a repeat at a time.
    const uint32_t repeats = (last + perRepeat - 1) / perRepeat;
    const uint32_t lastRepeat = last % perRepeat == 0 ? perRepeat : last % perRepeat;
    const BinaryRepeatParams b;
    const LocalTensor<T>& acc = isReuseSource ? src : tmp;
    if constexpr (!isReuseSource) {
        count<T>(perRepeat);
        for (uint32_t i = 0; i < first; ++i) {
            Adds<T, false>(tmp[i * perRepeat], src[i * padLast], T(0), MASK_PLACEHOLDER, 1, UnaryRepeatParams{});
            PipeBarrier<PIPE_V>();
        }
        for (uint32_t i = 1; i < repeats; ++i) {
            count<T>(i + 1 == repeats ? lastRepeat : perRepeat);
            for (uint32_t j = 0; j < first; ++j) {
                Max<T, false>(tmp[j * perRepeat], tmp[j * perRepeat], src[j * padLast + i * perRepeat],
                              MASK_PLACEHOLDER, 1, b);
                PipeBarrier<PIPE_V>();
            }
        }
    } else {
        for (uint32_t i = 0; i < first; ++i)
            for (uint32_t j = 1; j < repeats; ++j) {
                count<T>(j + 1 == repeats ? lastRepeat : perRepeat);
                // the row's first repeat is read from its place, then accumulated at row i's repeat slot
                Max<T, false>(src[i * perRepeat], src[(j == 1 ? i * padLast : i * perRepeat)],
                              src[i * padLast + j * perRepeat], MASK_PLACEHOLDER, 1, b);
                PipeBarrier<PIPE_V>();
            }
    }
    repeat_rows_max(dst, acc, first, perRepeat, DEFAULT_REPEAT_STRIDE);
}
}  // namespace reduce_max
}  // namespace sim_adv

template <class T, class pattern, bool isReuseSource = false>
void ReduceMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
               const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t srcShape[], bool srcInnerPad) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "ReduceMax: A2/A3 support half and float");
    static_assert(std::is_same_v<pattern, Pattern::Reduce::RA> || std::is_same_v<pattern, Pattern::Reduce::AR>,
                  "ReduceMax: A2/A3 support the AR and RA patterns");
    namespace d = ascend_sim::detail;
    constexpr const char* api = "ReduceMax";
    const uint32_t first = srcShape[0], last = srcShape[1];
    constexpr uint32_t perBlock = ONE_BLK_SIZE / sizeof(T);
    const uint32_t padLast = (last + perBlock - 1) / perBlock * perBlock;
    if (first == 0 || last == 0)
        d::fail(api, "empty shape", "firstAxis and lastAxis must be greater than 0; they are %u and %u", first, last);
    if (!srcInnerPad) d::fail(api, "srcInnerPad false", "srcInnerPad must be true on A2/A3");
    sim_adv::check_count(api, first * padLast, srcTensor, "srcTensor");
    constexpr bool ra = std::is_same_v<pattern, Pattern::Reduce::RA>;
    const uint32_t dstCount = ra ? last : first;
    sim_adv::check_count(api, dstCount, dstTensor, "dstTensor");
    sim_adv::check_disjoint(api, dstTensor, dstCount, "dstTensor", srcTensor, first * padLast, "srcTensor");
    if constexpr (!isReuseSource) {
        const uint32_t tmpBytes = sharedTmpBuffer.GetSize();
        const uint32_t tmpElems = ra ? sim_adv::reduce_max::ra_tmp_elems(first, padLast)
                                     : sim_adv::reduce_max::ar_tmp_elems<T>(first, last);
        sim_adv::check_tmp(api, sharedTmpBuffer, tmpElems * sizeof(T), "GetReduceMaxMaxMinTmpSize");
        sim_adv::check_disjoint(api, sharedTmpBuffer, tmpBytes, "sharedTmpBuffer", srcTensor, first * padLast,
                                "srcTensor");
        sim_adv::check_disjoint(api, sharedTmpBuffer, tmpBytes, "sharedTmpBuffer", dstTensor, dstCount, "dstTensor");
    }
    const LocalTensor<T> tmp = sharedTmpBuffer.ReinterpretCast<T>();
    if constexpr (ra)
        sim_adv::reduce_max::by_first_axis<T, isReuseSource>(dstTensor, srcTensor, tmp, first, last, padLast);
    else
        sim_adv::reduce_max::by_last_axis<T, isReuseSource>(dstTensor, srcTensor, tmp, first, last, padLast);
    SetMaskNorm();
    ResetMask();
}
template <class T, class pattern, bool isReuseSource = false>
void ReduceMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t srcShape[],
               bool srcInnerPad) {
    ReduceMax<T, pattern, isReuseSource>(dstTensor, srcTensor, sim_adv::stack_tmp("ReduceMax"), srcShape,
                                         srcInnerPad);
}

}  // namespace AscendC

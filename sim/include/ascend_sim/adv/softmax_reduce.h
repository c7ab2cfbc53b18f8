// The per-row reductions and row-broadcast arithmetic SoftMax is built from
// (asc-devkit impl/adv_api/detail/activation/softmax/membase/v220/
// softmax_common_impl/softmax_common_nd_reduce.h :: NewReduceMaxLastNDImpl,
// NewReduceSumLastNDImpl, BasicBlockReduceMax/SumImpl, ReduceMax/SumLastNDSplitImpl,
// FirstBlockCopyImpl; softmax_common_broadcast.h :: AlignedBroadCastImpl;
// softmax_common/softmax_common_reduce.h :: BigBlockReduceMax/Sum;
// softmax_common_arithmetic.h :: NextBlockMax/AddImpl, TailMax/AddImpl,
// GenericSub/DivNDImpl): the same basic ops with the same masks, repeats and
// strides, so every check sees each of them. All of it works on float rows.
#pragma once
#include <cstdint>

#include "../kernel_sync.h"
#include "../kernel_vec_binary.h"
#include "../kernel_vec_mask.h"
#include "../kernel_vec_reduce_repeat.h"
#include "../kernel_vec_scalar.h"
#include "adv_check.h"

namespace AscendC {
namespace sim_adv {
namespace softmax {

constexpr uint32_t kRep = 64;       // floats in a repeat
constexpr uint32_t kBlk = 8;        // floats in a block
constexpr uint32_t kMaxRep = 255;   // repeats one instruction takes
constexpr uint32_t kBigRow = 512;   // from here a row starts with 8 BlockReduces
constexpr uint32_t kSubDivRow = 192;  // below it Sub/Div walk columns (repeat strides fit in 8 bits)

// Rows of srcK (srcM of them, originalSrcM x originalSrcK valid) reduced into
// rows of dstK copies of the result.
struct ReduceLastND {
    uint32_t originalSrcM, originalSrcK, srcM, srcK, dstM, dstK;
};

// Max and Sum take the same steps with their own ops.
struct MaxKind {
    static void block(const LocalTensor<float>& d, const LocalTensor<float>& s, int32_t rep, int32_t srcRep) {
        BlockReduceMax<float, false>(d, s, rep, int32_t(MASK_PLACEHOLDER), 1, 1, srcRep);
    }
    template <bool setMask>
    static void whole(const LocalTensor<float>& d, const LocalTensor<float>& s, int32_t mask, int32_t rep,
                      int32_t srcRep) {
        WholeReduceMax<float, setMask>(d, s, mask, rep, 1, 1, srcRep, ReduceOrder::ORDER_ONLY_VALUE);
    }
    template <bool setMask>
    static void elem(const LocalTensor<float>& d, const LocalTensor<float>& a, const LocalTensor<float>& b,
                     uint64_t mask, uint8_t rep, const BinaryRepeatParams& p) {
        Max<float, setMask>(d, a, b, mask, rep, p);
    }
    // dst = max(dst, src's next n repeats). dav_c220 issues one Max of n
    // repeats with dst and src1 at repStride 0; 通用地址重叠约束 lets only
    // Add/Sub/Mul read as src1 what earlier repeats wrote, so the simulator
    // issues the n repeats one by one, in order, with barriers between.
    static void accumulate(const LocalTensor<float>& d, const LocalTensor<float>& s, uint8_t n) {
        for (uint32_t r = 0; r < n; ++r) {
            if (r != 0) PipeBarrier<PIPE_V>();
            Max<float, false>(d, s[r * 64], d, MASK_PLACEHOLDER, 1, {1, 1, 1, 0, DEFAULT_REPEAT_STRIDE, 0});
        }
    }
};
struct SumKind {
    static void block(const LocalTensor<float>& d, const LocalTensor<float>& s, int32_t rep, int32_t srcRep) {
        BlockReduceSum<float, false>(d, s, rep, int32_t(MASK_PLACEHOLDER), 1, 1, srcRep);
    }
    template <bool setMask>
    static void whole(const LocalTensor<float>& d, const LocalTensor<float>& s, int32_t mask, int32_t rep,
                      int32_t srcRep) {
        WholeReduceSum<float, setMask>(d, s, mask, rep, 1, 1, srcRep);
    }
    template <bool setMask>
    static void elem(const LocalTensor<float>& d, const LocalTensor<float>& a, const LocalTensor<float>& b,
                     uint64_t mask, uint8_t rep, const BinaryRepeatParams& p) {
        Add<float, setMask>(d, a, b, mask, rep, p);
    }
    // dst = dst + src's next n repeats, one Add reading back its own writes.
    static void accumulate(const LocalTensor<float>& d, const LocalTensor<float>& s, uint8_t n) {
        Add<float, false>(d, s, d, MASK_PLACEHOLDER, n, {1, 1, 1, 0, DEFAULT_REPEAT_STRIDE, 0});
    }
};

// A 64 B max/sum row of one-row chunk is completed with a UB-to-UB DataCopy,
// which the simulator does not model.
inline void needs_ub_copy() {
    ascend_sim::detail::fail("SoftMax", "UB-to-UB DataCopy not modelled",
                             "a chunk of one row with half max/sum tensors copies a block UB to UB (DataCopy), "
                             "which the simulator does not model");
}

// Rows shorter than a repeat: one WholeReduce per row, 255 rows an instruction.
template <class K>
void short_rows(const LocalTensor<float>& dst, const LocalTensor<float>& src, const ReduceLastND& p, int32_t mask,
                uint32_t firstRepeat) {
    const uint32_t full = p.srcM / kMaxRep, tail = p.srcM % kMaxRep;
    const int32_t srcRep = int32_t(p.srcK / kBlk);
    for (uint32_t i = 0; i < full; ++i)
        K::template whole<true>(dst[i * kMaxRep], src[firstRepeat * kRep + i * kMaxRep * p.srcK], mask, kMaxRep,
                                srcRep);
    if (tail != 0)
        K::template whole<true>(dst[full * kMaxRep], src[firstRepeat * kRep + full * kMaxRep * p.srcK], mask,
                                int32_t(tail), srcRep);
}

// The first repeat of each row copied to a 64-float row of tmp.
inline void first_repeat_copy(const LocalTensor<float>& dst, const LocalTensor<float>& src, uint32_t m,
                              uint32_t srcK, uint16_t srcRep) {
    const uint32_t full = m / kMaxRep, tail = m % kMaxRep;
    for (uint32_t i = 0; i < full; ++i)
        Copy<float, false>(dst[i * kMaxRep * kRep], src[i * kMaxRep * srcK], MASK_PLACEHOLDER, kMaxRep,
                           {1, 1, DEFAULT_REPEAT_STRIDE, srcRep});
    if (tail != 0)
        Copy<float, false>(dst[full * kMaxRep * kRep], src[full * kMaxRep * srcK], MASK_PLACEHOLDER, uint8_t(tail),
                           {1, 1, DEFAULT_REPEAT_STRIDE, srcRep});
}

// Rows of 512 or more: 8 BlockReduces fold the first 512 into 64 partials,
// the remaining whole repeats are folded in element-wise.
template <class K>
void big_rows(const LocalTensor<float>& dst, const LocalTensor<float>& src, uint32_t repeats, uint32_t m,
              uint32_t srcK) {
    for (uint32_t i = 0; i < m; ++i) K::block(dst[kRep * i], src[i * srcK], kBlk, DEFAULT_REPEAT_STRIDE);
    const uint8_t rest = uint8_t(repeats - kBlk);
    if (rest == 0) return;
    PipeBarrier<PIPE_V>();
    for (uint32_t j = 0; j < m; ++j) K::accumulate(dst[j * kRep], src[kBigRow + j * srcK], rest);
}

// Rows of [128, 512): the repeats after the first two folded in, over rows
// when there are more rows than repeats, else over the repeats of each row.
template <class K>
void next_repeats(const LocalTensor<float>& dst, const LocalTensor<float>& src, uint8_t m, uint8_t srcRep,
                  uint32_t repeats, uint32_t srcK) {
    if (m > repeats) {
        for (uint32_t i = 2; i < repeats; ++i) {
            PipeBarrier<PIPE_V>();
            K::template elem<false>(dst, dst, src[kRep * i], MASK_PLACEHOLDER, m,
                                    {1, 1, 1, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE, srcRep});
        }
        return;
    }
    PipeBarrier<PIPE_V>();
    if (repeats == 2) return;  // nothing left to fold
    for (uint32_t j = 0; j < m; ++j) K::accumulate(dst[j * kRep], src[2 * kRep + j * srcK], uint8_t(repeats - 2));
}

// The last partial repeat of each row (mask = its length) folded in.
template <class K>
void tail_repeat(const LocalTensor<float>& dst, const LocalTensor<float>& src, const ReduceLastND& p, uint64_t mask,
                 uint8_t srcRep, uint32_t repeats) {
    const uint32_t start = kRep * repeats;
    if (p.srcK > kMaxRep * DEFAULT_REPEAT_STRIDE) {  // a row stride beyond 8 bits
        for (uint32_t i = 0; i < p.originalSrcM; ++i)
            K::template elem<true>(dst[i * kRep], dst[i * kRep], src[start + i * p.srcK], mask, 1,
                                   {1, 1, 1, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE});
        return;
    }
    const uint32_t full = p.originalSrcM / kMaxRep, tail = p.originalSrcM % kMaxRep;
    const BinaryRepeatParams rp(1, 1, 1, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE, srcRep);
    for (uint32_t i = 0; i < full; ++i)
        K::template elem<true>(dst[i * kMaxRep * kRep], dst[i * kMaxRep * kRep], src[start + i * kMaxRep * p.srcK],
                               mask, kMaxRep, rp);
    if (tail != 0)
        K::template elem<true>(dst[full * kMaxRep * kRep], dst[full * kMaxRep * kRep],
                               src[start + full * kMaxRep * p.srcK], mask, uint8_t(tail), rp);
}

// 64 partials a row folded to the row's result: 8 copies of it for one row,
// else one value a row, packed.
template <class K>
void fold_partials(const LocalTensor<float>& dst, const LocalTensor<float>& partials, uint32_t m, uint32_t dstK) {
    if (m == 1) {
        K::template whole<false>(dst, partials, int32_t(MASK_PLACEHOLDER), DEFAULT_REPEAT_STRIDE, 0);
        if (dstK == 2 * kBlk) needs_ub_copy();
        return;
    }
    SetMaskCount();
    SetVectorMask<float, MaskMode::COUNTER>(0, m * kRep);
    K::block(partials, partials, 1, DEFAULT_REPEAT_STRIDE);
    PipeBarrier<PIPE_V>();
    SetVectorMask<float, MaskMode::COUNTER>(0, m * kBlk);
    K::block(dst, partials, 1, DEFAULT_REPEAT_STRIDE);
    SetMaskNorm();
    ResetMask();
}

// The simulator's Copy caps a Counter-mode repeat at 256 B (its reading of
// Copy.md), where dav_c220's broadcast copies all count elements with one
// repeat; the same bytes are copied as whole repeats of 64 and a tail.
inline void copy_counted(const LocalTensor<float>& dst, const LocalTensor<float>& src, uint32_t count) {
    const uint32_t full = count / kRep, rest = count % kRep;
    const CopyRepeatParams contiguous(1, 1, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE);
    SetMaskCount();
    for (uint32_t done = 0; done < full; done += kMaxRep) {
        const uint32_t n = full - done < kMaxRep ? full - done : kMaxRep;
        SetVectorMask<float, MaskMode::COUNTER>(0, kRep);
        Copy<float, false>(dst[done * kRep], src[done * kRep], MASK_PLACEHOLDER, uint8_t(n), contiguous);
    }
    if (rest != 0) {
        SetVectorMask<float, MaskMode::COUNTER>(0, rest);
        Copy<float, false>(dst[full * kRep], src[full * kRep], MASK_PLACEHOLDER, 1, contiguous);
    }
    SetMaskNorm();
    ResetMask();
}

// dst's packed per-row values spread to dstK copies a row (through tmp).
inline void broadcast_rows(const LocalTensor<float>& dst, const LocalTensor<float>& tmp, const ReduceLastND& p) {
    const uint32_t m = p.originalSrcM, groups = (m + kBlk - 1) / kBlk;
    // Brcb reads whole groups of 8 values; those past row m are broadcast into
    // tmp rows nobody reads, and the Copy below overwrites them in dst: they
    // count as defined so that the initcheck reports only reads reaching a result.
    ascend_sim::detail::ub_written("Brcb", dst[m].GetPhyAddr(), uint64_t(groups * kBlk - m) * sizeof(float));
    if (p.dstK == 2 * kBlk) {
        if (m == 1) needs_ub_copy();
        Brcb(tmp, dst, uint8_t(groups), {2, 2 * kBlk});
        Brcb(tmp[kBlk], dst, uint8_t(groups), {2, 2 * kBlk});
    } else {
        Brcb(tmp, dst, uint8_t(groups), {1, kBlk});
    }
    PipeBarrier<PIPE_V>();
    copy_counted(dst, tmp, m * p.dstK);
}

// dst (dstK copies a row) = the max or sum of each of src's rows; tmp holds 64 floats a row.
template <class K>
void reduce_rows(const LocalTensor<float>& dst, const LocalTensor<float>& src, const LocalTensor<float>& tmp,
                 const ReduceLastND& p) {
    const uint32_t repeats = p.originalSrcK / kRep, tailK = p.originalSrcK % kRep;
    const uint16_t srcRep = uint16_t(p.srcK / kBlk);
    const uint32_t m = p.originalSrcM;
    if (p.originalSrcK < kRep) {
        short_rows<K>(dst, src, p, int32_t(p.originalSrcK), 0);
        ResetMask();
    } else {
        if (p.originalSrcK >= kBigRow) {
            big_rows<K>(tmp, src, repeats, m, p.srcK);
        } else if (p.originalSrcK >= 2 * kRep) {
            K::template elem<false>(tmp, src, src[kRep], MASK_PLACEHOLDER, uint8_t(m),
                                    {1, 1, 1, DEFAULT_REPEAT_STRIDE, uint8_t(srcRep), uint8_t(srcRep)});
            next_repeats<K>(tmp, src, uint8_t(m), uint8_t(srcRep), repeats, p.srcK);
        } else {
            first_repeat_copy(tmp, src, m, p.srcK, srcRep);
        }
        if (tailK != 0) {
            PipeBarrier<PIPE_V>();
            tail_repeat<K>(tmp, src, p, tailK, uint8_t(srcRep), repeats);
            ResetMask();
        }
        PipeBarrier<PIPE_V>();
        fold_partials<K>(dst, tmp, m, p.dstK);
    }
    if (m != 1 || p.originalSrcK <= kRep) {
        PipeBarrier<PIPE_V>();
        broadcast_rows(dst, tmp, p);
    }
}

// dst = op(src0, the row's value in src1) over m rows of srcK (src1: reduceK a row).
template <class Op>
void rows_op(Op op, const LocalTensor<float>& dst, const LocalTensor<float>& src0, const LocalTensor<float>& src1,
             uint32_t m, uint32_t srcK, uint32_t reduceK) {
    SetMaskCount();
    if (srcK < kSubDivRow) {
        // One block of 8 rows a repeat, column block by column block.
        const uint8_t blocks = uint8_t(srcK / kBlk), src1Blk = uint8_t(reduceK / kBlk);
        SetVectorMask<float, MaskMode::COUNTER>(0, m * kBlk);
        for (uint8_t j = 0; j < blocks; ++j)
            op(dst[j * kBlk], src0[j * kBlk], src1,
               BinaryRepeatParams(blocks, blocks, src1Blk, uint8_t(srcK), uint8_t(srcK), uint8_t(reduceK)));
    } else {
        SetVectorMask<float, MaskMode::COUNTER>(0, srcK);
        for (uint32_t j = 0; j < m; ++j)
            op(dst[j * srcK], src0[j * srcK], src1[j * reduceK],
               BinaryRepeatParams(1, 1, 0, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE, 0));
    }
    SetMaskNorm();
    ResetMask();
}
inline void sub_rows(const LocalTensor<float>& dst, const LocalTensor<float>& src0, const LocalTensor<float>& src1,
                     uint32_t m, uint32_t srcK, uint32_t reduceK) {
    rows_op([](const LocalTensor<float>& d, const LocalTensor<float>& a, const LocalTensor<float>& b,
               const BinaryRepeatParams& rp) { Sub<float, false>(d, a, b, MASK_PLACEHOLDER, 1, rp); },
            dst, src0, src1, m, srcK, reduceK);
}
inline void div_rows(const LocalTensor<float>& dst, const LocalTensor<float>& src0, const LocalTensor<float>& src1,
                     uint32_t m, uint32_t srcK, uint32_t reduceK) {
    rows_op([](const LocalTensor<float>& d, const LocalTensor<float>& a, const LocalTensor<float>& b,
               const BinaryRepeatParams& rp) { Div<float, false>(d, a, b, MASK_PLACEHOLDER, 1, rp); },
            dst, src0, src1, m, srcK, reduceK);
}

}  // namespace softmax
}  // namespace sim_adv
}  // namespace AscendC

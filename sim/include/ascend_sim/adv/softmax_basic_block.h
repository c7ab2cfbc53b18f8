// SoftMax's basic-block path for float rows with float max/sum (asc-devkit
// dav_c220: membase/common/softmax_impl/softmax_basic_block_impl.h ::
// SoftMaxBasicBlock; softmax_common/softmax_common_arithmetic.h ::
// BasicBlockMaxImpl, BasicBlockAddImpl): Normal mode, whole repeats, chunks of
// splitM rows (a multiple of 8) of srcK (a multiple of 64 below 2048), no tail.
#pragma once
#include <cstdint>

#include "../kernel_vec_scalar.h"
#include "../kernel_vec_unary.h"
#include "softmax_reduce.h"
#include "softmax_types.h"

namespace AscendC {
namespace sim_adv {
namespace softmax {

// SoftMax.md's basic-block shape, and a tiling that splits it into whole
// chunks of multiples of 8 rows (the path has no tail).
inline void check_basic_block(const char* api, const SoftMaxShapeInfo& s, const SoftMaxTiling& t) {
    if (s.srcK % kRep != 0 || s.srcK >= 2048 || s.srcM % kBlk != 0)
        d::fail(api, "not a basic block",
                "isBasicBlock needs srcK a multiple of 64 below 2048 and srcM a multiple of 8; the shape is %u x %u",
                s.srcM, s.srcK);
    if (t.splitM % kBlk != 0 || t.tailM != 0 || t.splitK != s.srcK)
        d::fail(api, "not a basic-block tiling",
                "isBasicBlock needs chunks of a multiple of 8 rows and no tail; the tiling has %u rows a chunk, a "
                "tail of %u",
                t.splitM, t.tailM);
}

// out (8 copies a row) = the max or sum of m rows of k: the repeats folded
// into 64 partials a row, BlockReduce to 8 a row, BlockReduce to one a row, Brcb.
template <class K>
void basic_block_reduce(const LocalTensor<float>& out, const LocalTensor<float>& rows,
                        const LocalTensor<float>& partials, const LocalTensor<float>& packed, uint32_t m, uint32_t k) {
    const uint32_t repeats = k / kRep;
    const uint8_t rowStride = uint8_t(k / kBlk), groups = uint8_t((m + kBlk - 1) / kBlk);
    if (repeats == 1) {
        K::block(partials, rows, int32_t(m), DEFAULT_REPEAT_STRIDE);
    } else {
        K::template elem<false>(partials, rows, rows[kRep], MASK_PLACEHOLDER, uint8_t(m),
                                {1, 1, 1, DEFAULT_REPEAT_STRIDE, rowStride, rowStride});
        next_repeats<K>(partials, rows, uint8_t(m), rowStride, repeats, k);
        PipeBarrier<PIPE_V>();
        K::block(partials, partials, int32_t(m), DEFAULT_REPEAT_STRIDE);
    }
    PipeBarrier<PIPE_V>();
    K::block(packed, partials, groups, DEFAULT_REPEAT_STRIDE);
    PipeBarrier<PIPE_V>();
    Brcb(out, packed, groups, {1, DEFAULT_REPEAT_STRIDE});
    PipeBarrier<PIPE_V>();
}

// dst = op(src, the row's value in rowv) over m rows of k, a 64-column strip an instruction.
template <class Op>
void basic_block_rows(Op op, const LocalTensor<float>& dst, const LocalTensor<float>& src,
                      const LocalTensor<float>& rowv, uint32_t m, uint32_t k) {
    const uint8_t rowStride = uint8_t(k / kBlk);
    for (uint32_t j = 0; j < k / kRep; ++j)
        op(dst[kRep * j], src[kRep * j], rowv, uint8_t(m), BinaryRepeatParams(1, 1, 0, rowStride, rowStride, 1));
}

inline uint32_t basic_block_floats(const SoftMaxTiling& t) { return t.splitM * kRep + t.splitM; }

inline void basic_block(const LocalTensor<float>& dst, const LocalTensor<float>& sum, const LocalTensor<float>& max,
                        const LocalTensor<float>& src, const LocalTensor<float>& work, const SoftMaxTiling& t) {
    const LocalTensor<float> partials = work, packed = work[t.splitM * kRep];
    auto sub = [](const LocalTensor<float>& d, const LocalTensor<float>& a, const LocalTensor<float>& b, uint8_t rep,
                  const BinaryRepeatParams& rp) { Sub<float, false>(d, a, b, MASK_PLACEHOLDER, rep, rp); };
    auto div = [](const LocalTensor<float>& d, const LocalTensor<float>& a, const LocalTensor<float>& b, uint8_t rep,
                  const BinaryRepeatParams& rp) { Div<float, false>(d, a, b, MASK_PLACEHOLDER, rep, rp); };
    for (uint32_t i = 0; i < t.rangeM; ++i) {
        const uint32_t o1 = i * t.splitSize, o2 = i * t.reduceSize;
        SetMaskNorm();
        ResetMask();
        basic_block_reduce<MaxKind>(max[o2], src[o1], partials, packed, t.splitM, t.splitK);
        basic_block_rows(sub, dst[o1], src[o1], max[o2], t.splitM, t.splitK);
        PipeBarrier<PIPE_V>();
        Exp<float, false>(dst[o1], dst[o1], MASK_PLACEHOLDER, uint8_t(t.splitSize / kRep),
                          {1, 1, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE});
        PipeBarrier<PIPE_V>();
        basic_block_reduce<SumKind>(sum[o2], dst[o1], partials, packed, t.splitM, t.splitK);
        basic_block_rows(div, dst[o1], dst[o1], sum[o2], t.splitM, t.splitK);
        PipeBarrier<PIPE_V>();
    }
}

}  // namespace softmax
}  // namespace sim_adv
}  // namespace AscendC

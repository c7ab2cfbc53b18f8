// The vector steps the fused loss-and-gradient launch adds to the forward, on the fp32
// values of one row or one column tile of a row:
//   softcap     y = cap * tanh(x / cap) = cap - 2 cap / (exp(2 x / cap) + 1)
//               (exp overflows to inf for x >> cap and gives cap exactly; -inf gives -cap)
//   gradient    d_j = (exp(logProb_j) * scale - smooth * w_j) * slope_j
//               slope_j = 1 - tanh_j^2 = 1 - ((logProb_j + lse) / cap)^2 with a softcap, else 1
// The target column's - nll * slope_t is a scalar fix-up in fp32 after these steps, so a
// 16-bit gradient is rounded once, from the fp32 value of the true class too.
#pragma once
#include "kernel_operator.h"

#include "cross_entropy_loss_grad_row_terms.h"
#include "cross_entropy_loss_tiling_data.h"

namespace xent {

__aicore__ inline void Softcap(const AscendC::LocalTensor<float>& x, const CrossEntropyLossTilingData& t, int64_t n) {
    const int32_t count = static_cast<int32_t>(n);
    AscendC::Muls(x, x, t.twoOverSoftcap, count);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Exp(x, x, count);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Adds(x, x, 1.0f, count);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Reciprocal(x, x, count);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Muls(x, x, -2.0f * t.softcap, count);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Adds(x, x, t.softcap, count);
    AscendC::PipeBarrier<PIPE_V>();
}

// 1 - tanh^2 of one value, tanh = (logProb + lse) / cap: the target column's slope.
__aicore__ inline float SoftcapSlope(const CrossEntropyLossTilingData& t, float logProb, float lse) {
    if (!t.hasSoftcap) return 1.0f;
    const float th = (logProb + lse) * t.invSoftcap;
    return 1.0f - th * th;
}

// v: logProb in, the gradient but for the target's fix-up out. scratch: n floats (the
// softcap's slope, or exp(logProb) on its way to v: a step from one tile to the other does
// not read and write one UB bank); weight: the weight of v's columns (weighted smoothing).
// A row that counts for nothing (ignored, bad target) is torch's 0 * softmax, lse - lse: 0,
// or NaN throughout where its softmax is NaN (an infinite max or a NaN logit: lse not finite).
__aicore__ inline void RowGradient(const AscendC::LocalTensor<float>& v, const AscendC::LocalTensor<float>& scratch,
                                   const AscendC::LocalTensor<float>& weight, const CrossEntropyLossTilingData& t,
                                   bool live, const RowTerms& terms, float lse, int64_t n) {
    const int32_t count = static_cast<int32_t>(n);
    if (!live) {
        AscendC::Duplicate(v, lse - lse, count);
        AscendC::PipeBarrier<PIPE_V>();
        return;
    }
    if (t.hasSoftcap) {  // the slope in scratch, exp(logProb) * scale in v
        AscendC::Adds(scratch, v, lse, count);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Muls(scratch, scratch, t.invSoftcap, count);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Mul(scratch, scratch, scratch, count);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Muls(scratch, scratch, -1.0f, count);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Adds(scratch, scratch, 1.0f, count);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Exp(v, v, count);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Muls(v, v, terms.scale, count);
    } else {
        AscendC::Exp(scratch, v, count);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Muls(v, scratch, terms.scale, count);
    }
    AscendC::PipeBarrier<PIPE_V>();
    if (t.smoothing) {
        if (t.hasWeight) {
            AscendC::Axpy(v, weight, -terms.smooth, count);
        } else {
            AscendC::Adds(v, v, -terms.smooth, count);
        }
        AscendC::PipeBarrier<PIPE_V>();
    }
    if (t.hasSoftcap) {
        AscendC::Mul(v, v, scratch, count);
        AscendC::PipeBarrier<PIPE_V>();
    }
}

// Without softcap or smoothing the gradient is exp(logProb) * scale = exp(x - max) * (scale / sum),
// taken from x without logProb: one step fewer than RowGradient's, and exp(x - max) is not
// rounded through ln sum. v: x in, the gradient but for the target's fix-up out; scratch: n
// floats (Exp in place costs no beat: it takes two a repeat anyway). A row that counts for
// nothing: as RowGradient. An infinite max, a NaN logit or a row of -inf only leave sum NaN:
// NaN throughout, as there.
__aicore__ inline void RowGradientFromX(const AscendC::LocalTensor<float>& v, const AscendC::LocalTensor<float>& scratch,
                                        bool live, const RowTerms& terms, float max, float sum, float lse, int64_t n) {
    const int32_t count = static_cast<int32_t>(n);
    if (!live) {
        AscendC::Duplicate(v, lse - lse, count);
        AscendC::PipeBarrier<PIPE_V>();
        return;
    }
    AscendC::Adds(scratch, v, -max, count);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Exp(scratch, scratch, count);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Muls(v, scratch, terms.scale / sum, count);
    AscendC::PipeBarrier<PIPE_V>();
}

}  // namespace xent

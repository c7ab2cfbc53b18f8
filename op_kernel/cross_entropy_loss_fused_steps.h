// The vector steps the fused loss-and-gradient launch adds to the forward, on the fp32
// values of one row or one column tile of a row:
//   softcap     y = cap * tanh(x / cap), with w = 2 x / cap:
//               exp form: y = cap - 2 cap / (exp(w) + 1) (exp overflows to inf for w >> 1
//                 and gives cap exactly; -inf gives -cap). It cancels near w = 0: its
//                 absolute error is about 4.5 * 2^-24 * cap, two ulps of cap, which is
//                 fp32's own resolution when the logits reach the cap, and too coarse for
//                 logits far inside a large one.
//               with softcapSeries (caps above kSoftcapExpFormMaxCap): |w| < 2 kTanhSmall
//                 takes tanh = w * P(w^2), the Taylor series of tanh(w / 2) through
//                 (w / 2)^9 (a relative error below 2^-24 there), picked lane by lane
//                 (CompareScalar + Select); 15 vector steps more.
//   gradient    d_j = (exp(logProb_j) * scale - smooth * w_j) * slope_j
//               slope_j = 1 - tanh_j^2 with a softcap, else 1, tanh_j = (z_j + max) / cap
//               from z_j = y_j - max (kept for it: log_prob = z - ln sum has lost the low
//               bits of y that a small cap's tanh needs), not from log_prob + lse
// The target column's - nll * slope_t is a scalar fix-up in fp32 after these steps, so a
// 16-bit gradient is rounded once, from the fp32 value of the true class too.
#pragma once
#include "kernel_operator.h"

#include "cross_entropy_loss_grad_row_terms.h"
#include "cross_entropy_loss_tiling_data.h"

namespace xent {

// Below this |x / cap| tanh comes from its series (error < 2^-24 relative), at and above
// it from exp (about 9 * 2^-24 relative at the switch with a correctly rounded exp, less above).
constexpr float kTanhSmall = 0.3f;
// The series of tanh(w / 2) / w in u = w^2: c_k = a_k / (2 * 4^k), a_k tanh's Taylor
// coefficients 1, -1/3, 2/15, -17/315, 62/2835 (powers of 2 scale them exactly).
constexpr float kTanhSeries[5] = {0.5f, -1.0f / 24.0f, 2.0f / 480.0f, -17.0f / 40320.0f, 62.0f / 1451520.0f};

// x = w (n floats) -> scale * tanh(w / 2) = scale - 2 scale / (exp(w) + 1) in place (exp
// overflows to inf for w >> 1 and gives scale exactly; -inf gives -scale).
__aicore__ inline void ScaledTanhOfHalf(const AscendC::LocalTensor<float>& x, float scale, int32_t count) {
    AscendC::Exp(x, x, count);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Adds(x, x, 1.0f, count);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Reciprocal(x, x, count);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Muls(x, x, -2.0f * scale, count);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Adds(x, x, scale, count);
    AscendC::PipeBarrier<PIPE_V>();
}

// x (n floats) -> cap * tanh(x / cap) in place. With the series, e: n floats of scratch,
// and CompareScalar reads it to n rounded up to 64 (a whole 256-byte repeat: those lanes'
// bits go unused); mask: that many bits.
__aicore__ inline void Softcap(const AscendC::LocalTensor<float>& x, const AscendC::LocalTensor<float>& e,
                               const AscendC::LocalTensor<uint8_t>& mask, const CrossEntropyLossTilingData& t,
                               int64_t n) {
    const int32_t count = static_cast<int32_t>(n);
    AscendC::Muls(x, x, t.twoOverSoftcap, count);  // w
    AscendC::PipeBarrier<PIPE_V>();
    if (!t.softcapSeries) {
        ScaledTanhOfHalf(x, t.softcap, count);
        return;
    }
    AscendC::Mul(e, x, x, count);  // u = w^2 (inf for a large or infinite w, NaN for NaN)
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::CompareScalar(mask, e, 4.0f * kTanhSmall * kTanhSmall, AscendC::CMPMODE::LT,
                           static_cast<uint32_t>((n + 63) / 64 * 64));  // the series' lanes (NaN: not)
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Muls(e, e, kTanhSeries[4], count);  // Horner in u = w * w
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Adds(e, e, kTanhSeries[3], count);
    AscendC::PipeBarrier<PIPE_V>();
    for (int k = 2; k >= 0; --k) {
        AscendC::Mul(e, e, x, count);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Mul(e, e, x, count);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Adds(e, e, kTanhSeries[k], count);
        AscendC::PipeBarrier<PIPE_V>();
    }
    AscendC::Mul(e, e, x, count);  // tanh from the series
    AscendC::PipeBarrier<PIPE_V>();
    ScaledTanhOfHalf(x, 1.0f, count);  // tanh from exp
    AscendC::Select(x, mask, e, x, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, static_cast<uint32_t>(count));
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Muls(x, x, t.softcap, count);
    AscendC::PipeBarrier<PIPE_V>();
}

// 1 - tanh^2 of one value, tanh = (z + max) / cap, z = y - max: the target column's slope.
__aicore__ inline float SoftcapSlope(const CrossEntropyLossTilingData& t, float z, float max) {
    if (!t.hasSoftcap) return 1.0f;
    const float th = (z + max) * t.invSoftcap;
    return 1.0f - th * th;
}

// v: logProb in (with a softcap z = y - max, logProb = z - lnSum), the gradient but for the
// target's fix-up out. scratch: n floats (the softcap's slope, or exp(logProb) on its way
// to v: a step from one tile to the other does not read and write one UB bank); weight:
// the weight of v's columns (weighted smoothing). A row that counts for nothing (ignored,
// bad target) is torch's 0 * softmax, lse - lse: 0, or NaN throughout where its softmax is
// NaN (an infinite max or a NaN logit: lse not finite).
__aicore__ inline void RowGradient(const AscendC::LocalTensor<float>& v, const AscendC::LocalTensor<float>& scratch,
                                   const AscendC::LocalTensor<float>& weight, const CrossEntropyLossTilingData& t,
                                   bool live, const RowTerms& terms, float max, float lnSum, float lse, int64_t n) {
    const int32_t count = static_cast<int32_t>(n);
    if (!live) {
        AscendC::Duplicate(v, lse - lse, count);
        AscendC::PipeBarrier<PIPE_V>();
        return;
    }
    if (t.hasSoftcap) {  // the slope in scratch, exp(z - lnSum) * scale in v
        AscendC::Adds(scratch, v, max, count);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Muls(scratch, scratch, t.invSoftcap, count);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Mul(scratch, scratch, scratch, count);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Muls(scratch, scratch, -1.0f, count);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Adds(scratch, scratch, 1.0f, count);
        AscendC::Adds(v, v, -lnSum, count);
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

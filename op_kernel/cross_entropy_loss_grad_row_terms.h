// The per-row scalars of the gradient, straight from the formula:
//   xGrad_ij = p_ij * scale_i - smooth_i * w_j - [j == t_i] * nll_i
//   scale_i  = nll_i + smooth_i * sum_k w_k + lse_i
// with, for a row that is not ignored,
//   mean:      nll_i = g (1-ls) w[t_i] / W,  smooth_i = g ls / (C W),  z_i = (g + gz) / M
//   sum/none:  nll_i = g_i (1-ls) w[t_i],    smooth_i = g_i ls / C,    z_i = g_i + gz_i
//   lse_i = 2 * lseSquareScaleForZloss * lseForZloss_i * z_i
// Ignored rows (and rows with an out-of-range target) get all three = 0. C and the
// sum over k are the whole vocabulary's (classTotal) when logProb is one shard of it.
#pragma once
#include "cross_entropy_loss_grad_tiling_data.h"

namespace xent {

// Launch-wide values: the mean's denominators and sum_k w_k (from the prologue).
struct LaunchScalars {
    float weightSum = 1.0f;  // W: sum of weight[target] over non-ignored rows
    float rowCount = 1.0f;   // M: number of non-ignored rows
    float classWeightSum = 0.0f;  // sum_k w_k (C without a weight)
    float grad = 0.0f;       // g for mean/sum (0-D gradLoss)
    float gradZ = 0.0f;      // gz for mean/sum (0-D gradZlossOptional, 0 when absent)
};

struct RowTerms {
    float scale;   // multiplies p_ij
    float smooth;  // multiplies w_j (or 1 without a weight), subtracted
    float nll;     // subtracted at the target column
};

// a * b * c with no intermediate overflow where the product fits in float: the
// factors of least and greatest magnitude first (|lo * hi| <= |product| when
// |mid| >= 1, and < |hi| otherwise). Sorted by swaps, so a NaN (which compares
// false) still leaves a permutation and the product stays NaN.
__aicore__ inline float Magnitude(float v) { return v < 0.0f ? -v : v; }
__aicore__ inline void SwapIfLarger(float& x, float& y) {
    if (Magnitude(x) > Magnitude(y)) {
        const float t = x;
        x = y;
        y = t;
    }
}
__aicore__ inline float Product3(float lo, float mid, float hi) {
    SwapIfLarger(lo, mid);
    SwapIfLarger(mid, hi);
    SwapIfLarger(lo, mid);
    return (lo * hi) * mid;
}

// Under mean the ratios w[t_i] / W and sum_k w_k / W are formed first: each is
// at most ~1 or ~C, so a large g or W cannot overflow a product whose quotient fits.
__aicore__ inline RowTerms ComputeRowTerms(const CrossEntropyLossGradTilingData& t, const LaunchScalars& s, float g,
                                           float gz, float lse, float targetWeight) {
    const bool mean = t.reduction == XENT_MEAN;
    const float nll = g * t.oneMinusLs * (mean ? targetWeight / s.weightSum : targetWeight);
    float smooth = 0.0f, smoothTerm = 0.0f;
    if (t.smoothing) {
        const float gls = g * t.lsOverC;
        smooth = mean ? gls / s.weightSum : gls;
        smoothTerm = gls * (mean ? s.classWeightSum / s.weightSum : s.classWeightSum);
    }
    const float z = mean ? (g + gz) / s.rowCount : g + gz;
    const float lseTerm = t.hasZloss ? Product3(t.twoZScale, lse, z) : 0.0f;
    return RowTerms{nll + smoothTerm + lseTerm, smooth, nll};
}

}  // namespace xent

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

__aicore__ inline RowTerms ComputeRowTerms(const CrossEntropyLossGradTilingData& t, const LaunchScalars& s, float g,
                                           float gz, float lse, float targetWeight) {
    const bool mean = t.reduction == XENT_MEAN;
    float nll = g * t.oneMinusLs * targetWeight;
    float smooth = t.smoothing ? g * t.lsOverC : 0.0f;
    float z = g + gz;
    if (mean) {
        nll = nll / s.weightSum;
        smooth = smooth / s.weightSum;
        z = z / s.rowCount;
    }
    const float lseTerm = t.hasZloss ? t.twoZScale * lse * z : 0.0f;
    const float smoothTerm = t.smoothing ? smooth * s.classWeightSum : 0.0f;
    return RowTerms{nll + smoothTerm + lseTerm, smooth, nll};
}

}  // namespace xent

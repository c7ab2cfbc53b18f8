// Helpers for the C++ tests of the fused loss and gradient
// (aclnnXentCrossEntropyLossWithGrad): a run through its two-phase API on the simulator
// and a float64 reference of the gradient straight from the formula
// (aclnn_cross_entropy_loss_with_grad.h); the loss outputs are the forward's
// (forward_test_util.h) of the capped logits.
#pragma once
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_cross_entropy_loss_with_grad.h"
#include "forward_test_util.h"

namespace fused_test {

using fwd_test::Options;
using fwd_test::Problem;
using xtest_util::DeviceTensor;

struct FusedResult {
    aclnnStatus status = -1;
    std::string message;
    fwd_test::Outputs out;  // logProb holds the gradient
    std::vector<uint8_t> gradBytes;
    Problem stored;         // the inputs as the kernel saw them (rounded to their dtypes)
};

// inPlace: gradOut is the input tensor itself.
inline FusedResult Run(const Problem& p, const Options& o, double softcap, aclDataType dtype,
                       aclDataType targetDtype, bool inPlace = false) {
    FusedResult r;
    const int64_t N = p.n, C = p.c;
    const std::vector<int64_t> lossShape = o.reduction == "none" ? std::vector<int64_t>{N} : std::vector<int64_t>{};
    DeviceTensor input({N, C}, dtype), target({N}, targetDtype), weight({C}, ACL_FLOAT), loss(lossShape, dtype),
        grad({N, C}, dtype), zloss(lossShape, dtype), lse({N}, dtype);
    input.Set(p.input);
    target.Set(std::vector<double>(p.target.begin(), p.target.end()));
    weight.Set(p.weight);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (DeviceTensor* t : {&loss, &grad, &zloss, &lse}) t->Set(std::vector<double>(size_t(t->numel()), nan));
    r.stored = p;
    r.stored.input = input.Get();
    r.stored.weight = weight.Get();
    DeviceTensor& gradOut = inPlace ? input : grad;

    uint64_t wsSize = 0;
    aclOpExecutor* exec = nullptr;
    std::string red = o.reduction;
    r.status = aclnnXentCrossEntropyLossWithGradGetWorkspaceSize(
        input.get(), target.get(), o.weight ? weight.get() : nullptr, red.data(), o.ignoreIndex, o.labelSmoothing,
        o.zlossScale, softcap, loss.get(), zloss.get(), lse.get(), gradOut.get(), &wsSize, &exec);
    if (r.status != ACLNN_SUCCESS) {
        r.message = aclGetRecentErrMsg();
        return r;
    }
    void* ws = nullptr;
    if (wsSize > 0) aclrtMalloc(&ws, wsSize, ACL_MEM_MALLOC_HUGE_FIRST);
    r.status = aclnnXentCrossEntropyLossWithGrad(ws, wsSize, exec, nullptr);
    if (r.status != ACLNN_SUCCESS) r.message = aclGetRecentErrMsg();
    if (ws) aclrtFree(ws);
    r.out = fwd_test::Outputs{loss.Get(), gradOut.Get(), zloss.Get(), lse.Get()};
    r.gradBytes = gradOut.Bytes();
    return r;
}

// softcap * tanh(x / softcap) of every logit (the logits themselves for softcap 0).
inline Problem Capped(const Problem& p, double softcap) {
    Problem q = p;
    if (softcap > 0)
        for (double& v : q.input) v = softcap * std::tanh(v / softcap);
    return q;
}

// d loss / d input for an upstream gradient of 1, and per element the magnitudes the
// kernel's fp32 steps round (as fwd_test::Reference).
struct GradReference {
    std::vector<double> want, scale;
};

// The backward's float64 reference (xtest_util::Reference) of the capped logits' exact
// log_prob and logsumexp with an upstream gradient of 1, times the softcap's slope.
inline GradReference GradOf(const Problem& raw, const Options& o, double softcap) {
    const Problem p = Capped(raw, softcap);
    const fwd_test::Reference fwd = fwd_test::ReferenceOf(p, o);
    xtest_util::Problem b;
    b.n = p.n;
    b.c = p.c;
    b.gradLoss.assign(o.reduction == "none" ? size_t(p.n) : size_t(1), 1.0);
    b.logProb = fwd.want.logProb;
    b.weight = p.weight;
    b.lse = fwd.want.lse;
    b.target = p.target;
    xtest_util::Options bo;
    bo.reduction = o.reduction;
    bo.ignoreIndex = o.ignoreIndex;
    bo.labelSmoothing = o.labelSmoothing;
    bo.zlossScale = o.zlossScale;
    bo.weight = o.weight;
    bo.lse = o.zlossScale != 0.0;
    GradReference r;
    std::vector<double> terms;
    r.want = xtest_util::Reference(b, bo, &terms);
    r.scale.resize(r.want.size());
    for (size_t k = 0; k < r.want.size(); ++k) {
        const double th = softcap > 0 ? std::tanh(raw.input[k] / softcap) : 0.0;
        const double slope = 1 - th * th;
        r.want[k] *= slope;
        // exp(logProb) carries logProb's absolute error (and the capped logit's, a few ulps
        // of the cap); the softcap's slope its own.
        r.scale[k] = terms[k] * (fwd.scale.logProb[k] + 4 + 4 * softcap) *
                     (slope + (softcap > 0 ? 8 * std::abs(raw.input[k] / softcap) + 8 : 0.0));
    }
    return r;
}

// Loss, zloss and lse against the forward's reference of the capped logits, the
// gradient against GradOf: the number of elements out of tolerance.
inline int64_t CompareWithReference(const FusedResult& r, const Options& o, double softcap, aclDataType dtype,
                                    const char* label) {
    const fwd_test::Reference fwd = fwd_test::ReferenceOf(Capped(r.stored, softcap), o);
    const GradReference g = GradOf(r.stored, o, softcap);
    // The capped logits carry the tanh's fp32 rounding: a few ulps of the cap.
    fwd_test::Reference f = fwd;
    if (softcap > 0) {
        for (double& s : f.scale.lse) s += 8 * softcap;
        for (double& s : f.scale.loss) s += 8 * softcap * (o.weight ? 3.0 : 1.0) * (1 + 2 * o.zlossScale * 100);
        for (double& s : f.scale.zloss) s += 8 * softcap * 2 * o.zlossScale * 100;
    }
    return fwd_test::CountBad(r.out.loss, f.want.loss, f.scale.loss, dtype, "loss", label) +
           fwd_test::CountBad(r.out.zloss, f.want.zloss, f.scale.zloss, dtype, "zloss", label) +
           fwd_test::CountBad(r.out.lse, f.want.lse, f.scale.lse, dtype, "lse", label) +
           fwd_test::CountBad(r.out.logProb, g.want, g.scale, dtype, "grad", label);
}

}  // namespace fused_test

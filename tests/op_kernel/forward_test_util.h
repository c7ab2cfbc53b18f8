// Helpers for the C++ tests of CrossEntropyLoss (the forward): a run through the
// two-phase API on the simulator and a float64 reference straight from the formulas
// (aclnn_cross_entropy_loss.h), with per-output tolerances.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "aclnnop/aclnn_cross_entropy_loss.h"
#include "xent_test_util.h"  // DeviceTensor, StoreAs/LoadAs, Rtol, Name

namespace fwd_test {

using xtest_util::DeviceTensor;

struct Options {
    std::string reduction = "mean";
    int64_t ignoreIndex = -100;
    double labelSmoothing = 0.0;
    double zlossScale = 0.0;
    bool weight = false;
};

struct Problem {
    int64_t n = 0, c = 1;
    std::vector<double> input, weight;
    std::vector<int64_t> target;
};

// Logits around `center` with spread 4, about 1/8 of the targets ignoreIndex, weights in [0.1, 2.1].
inline Problem RandomProblem(int64_t n, int64_t c, const Options& o, uint64_t seed, double center = 0.0) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> x(center, 4.0);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    Problem p;
    p.n = n;
    p.c = c;
    p.input.resize(size_t(n * c));
    for (auto& v : p.input) v = x(rng);
    p.target.resize(size_t(n));
    for (auto& t : p.target) t = unit(rng) < 0.125 ? o.ignoreIndex : int64_t(rng() % uint64_t(c));
    p.weight.resize(size_t(c));
    for (auto& v : p.weight) v = 0.1 + 2.0 * unit(rng);
    return p;
}

struct Outputs {
    std::vector<double> loss, logProb, zloss, lse;
};

struct RunResult {
    aclnnStatus status = -1;
    std::string message;
    Outputs out;                     // as stored in the output dtype
    std::vector<uint8_t> bytes;      // loss, logProb, zloss, lse bytes, concatenated
    Problem stored;                  // the inputs as the kernel saw them (rounded to their dtypes)
};

// lossShape: the shape of lossOut and zlossOut under mean/sum ((1,) as the vendor's example, or ()).
inline RunResult Run(const Problem& p, const Options& o, aclDataType dtype, aclDataType targetDtype,
                     std::vector<int64_t> lossShape = {1}) {
    RunResult r;
    const int64_t N = p.n, C = p.c;
    if (o.reduction == "none") lossShape = {N};
    DeviceTensor input({N, C}, dtype), target({N}, targetDtype), weight({C}, ACL_FLOAT), loss(lossShape, dtype),
        logProb({N, C}, dtype), zloss(lossShape, dtype), lse({N}, dtype);
    input.Set(p.input);
    target.Set(std::vector<double>(p.target.begin(), p.target.end()));
    weight.Set(p.weight);
    // Outputs start as NaN: an element the kernel leaves unwritten shows.
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (DeviceTensor* t : {&loss, &logProb, &zloss, &lse}) t->Set(std::vector<double>(size_t(t->numel()), nan));
    r.stored = p;
    r.stored.input = input.Get();
    r.stored.weight = weight.Get();

    uint64_t wsSize = 0;
    aclOpExecutor* exec = nullptr;
    std::string red = o.reduction;
    r.status = aclnnCrossEntropyLossGetWorkspaceSize(input.get(), target.get(), o.weight ? weight.get() : nullptr,
                                                     red.data(), o.ignoreIndex, o.labelSmoothing, o.zlossScale,
                                                     o.zlossScale != 0.0, loss.get(), logProb.get(), zloss.get(),
                                                     lse.get(), &wsSize, &exec);
    if (r.status != ACLNN_SUCCESS) {
        r.message = aclGetRecentErrMsg();
        return r;
    }
    void* ws = nullptr;
    if (wsSize > 0) aclrtMalloc(&ws, wsSize, ACL_MEM_MALLOC_HUGE_FIRST);
    r.status = aclnnCrossEntropyLoss(ws, wsSize, exec, nullptr);
    if (r.status != ACLNN_SUCCESS) r.message = aclGetRecentErrMsg();
    if (ws) aclrtFree(ws);
    r.out = Outputs{loss.Get(), logProb.Get(), zloss.Get(), lse.Get()};
    for (const DeviceTensor* t : {&loss, &logProb, &zloss, &lse}) {
        const std::vector<uint8_t> b = t->Bytes();
        r.bytes.insert(r.bytes.end(), b.begin(), b.end());
    }
    return r;
}

// The float64 reference, and per element an error scale: the magnitudes the kernel's
// fp32 steps round (so the tolerance is rtol(T) * |ref| + k * eps32 * scale).
struct Reference {
    Outputs want, scale;
};

inline Reference ReferenceOf(const Problem& p, const Options& o) {
    const int64_t N = p.n, C = p.c;
    const bool none = o.reduction == "none", mean = o.reduction == "mean";
    const double ls = o.labelSmoothing;
    auto w = [&](int64_t k) { return o.weight ? p.weight[size_t(k)] : 1.0; };
    Reference r;
    r.want.logProb.resize(size_t(N * C));
    r.scale.logProb.resize(size_t(N * C));
    const size_t rows = static_cast<size_t>(N);
    std::vector<double> rowLoss(rows), rowZ(rows), rowScale(rows), rowZScale(rows);
    double W = 0, M = 0;
    for (int64_t i = 0; i < N; ++i) {
        const double* x = &p.input[size_t(i * C)];
        double m = -std::numeric_limits<double>::infinity(), s = 0;
        for (int64_t j = 0; j < C; ++j) m = std::max(m, x[j]);
        for (int64_t j = 0; j < C; ++j) s += std::exp(x[j] - m);
        // torch.logsumexp: an infinite max is the logsumexp (log_prob stays NaN there).
        const double lnS = std::log(s), lse = std::isinf(m) ? m : m + lnS;
        // ln(sum) carries the sum's rounding: ~C/64 sequential adds of tree sums.
        const double lnErr = double(C) / 64 + 16;
        double smooth = 0, smoothScale = 0;
        for (int64_t j = 0; j < C; ++j) {
            const double lp = (x[j] - m) - lnS;
            r.want.logProb[size_t(i * C + j)] = lp;
            r.scale.logProb[size_t(i * C + j)] = std::abs(x[j] - m) + std::abs(lnS) + lnErr;
            smooth += w(j) * lp;
            smoothScale += w(j) * (std::abs(lp) + std::abs(lnS) + lnErr);
        }
        smoothScale += double(C) / 64 * std::abs(smooth);
        r.want.lse.push_back(lse);
        r.scale.lse.push_back(std::abs(m) + std::abs(lnS) + lnErr);
        const int64_t t = p.target[size_t(i)];
        const bool live = t != o.ignoreIndex && t >= 0 && t < C;
        if (!live) continue;
        const double lpT = r.want.logProb[size_t(i * C + t)];
        rowLoss[size_t(i)] = -(1 - ls) * w(t) * lpT - (ls > 0 ? ls / C * smooth : 0.0);
        rowScale[size_t(i)] = (1 - ls) * w(t) * r.scale.logProb[size_t(i * C + t)] + (ls > 0 ? ls / C * smoothScale : 0.0);
        if (o.zlossScale != 0.0) {
            rowZ[size_t(i)] = o.zlossScale * lse * lse;
            rowZScale[size_t(i)] = o.zlossScale * 2 * std::abs(lse) * r.scale.lse.back() + rowZ[size_t(i)];
        }
        W += w(t);
        M += 1;
    }
    if (none) {
        for (int64_t i = 0; i < N; ++i) {
            r.want.loss.push_back(rowLoss[size_t(i)] + rowZ[size_t(i)]);
            r.scale.loss.push_back(rowScale[size_t(i)] + rowZScale[size_t(i)]);
            r.want.zloss.push_back(rowZ[size_t(i)]);
            r.scale.zloss.push_back(rowZScale[size_t(i)]);
        }
        return r;
    }
    double L = 0, Ls = 0, Z = 0, Zs = 0;
    for (int64_t i = 0; i < N; ++i) {
        L += rowLoss[size_t(i)];
        Ls += rowScale[size_t(i)] + std::abs(rowLoss[size_t(i)]) * double(N) / 64;
        Z += rowZ[size_t(i)];
        Zs += rowZScale[size_t(i)] + rowZ[size_t(i)] * double(N) / 64;
    }
    if (mean) {
        const double z = M > 0 ? Z / M : 0.0;
        r.want.zloss = {z};
        r.scale.zloss = {M > 0 ? Zs / M : 0.0};
        r.want.loss = {L / W + z};  // NaN when no row counts, as PyTorch
        r.scale.loss = {Ls / W + r.scale.zloss[0] + std::abs(L / W)};
    } else {
        r.want.zloss = {Z};
        r.scale.zloss = {Zs};
        r.want.loss = {L + Z};
        r.scale.loss = {Ls + Zs};
    }
    return r;
}

// Elements of got outside rtol(T) |want| + 32 eps32 scale (+ fp16's subnormal half-ulp);
// NaN must meet NaN. Prints the first few.
inline int64_t CountBad(const std::vector<double>& got, const std::vector<double>& want,
                        const std::vector<double>& scale, aclDataType dtype, const char* what, const char* label) {
    int64_t bad = 0;
    if (got.size() != want.size()) {
        std::printf("    %s %s: %zu values, reference %zu\n", label, what, got.size(), want.size());
        return 1;
    }
    for (size_t k = 0; k < got.size(); ++k) {
        const double tol = xtest_util::Rtol(dtype) * std::abs(want[k]) + 32 * 5.96e-8 * scale[k] +
                           xtest_util::Atol(dtype);
        const bool ok = std::isnan(want[k])   ? std::isnan(got[k])
                        : std::isinf(want[k]) ? got[k] == want[k]
                                              : std::abs(got[k] - want[k]) <= tol;
        if (!ok) {
            if (bad < 3) std::printf("    %s %s[%zu] = %.9g, reference %.9g (tol %.3g)\n", label, what, k, got[k], want[k], tol);
            ++bad;
        }
    }
    return bad;
}

inline int64_t CompareWithReference(const RunResult& r, const Options& o, aclDataType dtype, const char* label) {
    const Reference ref = ReferenceOf(r.stored, o);
    return CountBad(r.out.loss, ref.want.loss, ref.scale.loss, dtype, "loss", label) +
           CountBad(r.out.logProb, ref.want.logProb, ref.scale.logProb, dtype, "logProb", label) +
           CountBad(r.out.zloss, ref.want.zloss, ref.scale.zloss, dtype, "zloss", label) +
           CountBad(r.out.lse, ref.want.lse, ref.scale.lse, dtype, "lse", label);
}

}  // namespace fwd_test

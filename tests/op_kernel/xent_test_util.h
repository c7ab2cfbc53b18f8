// Helpers for the C++ tests of CrossEntropyLossGrad: device tensors over the
// acl compatibility layer, a float64 reference, dtype conversions.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_cross_entropy_loss_grad.h"
#include "aclnnop/aclnn_cross_entropy_loss_grad_shard.h"
#include "ascend_sim/sim.h"
#include "ascend_sim/numerics/types.h"  // half, bfloat16_t (host-side rounding, as the kernel's Cast)

namespace xtest_util {

inline size_t DtypeBytes(aclDataType t) { return aclDataTypeSize(t); }

// Host value -> element bits of dtype t (RINT), and back.
inline void StoreAs(aclDataType t, void* dst, size_t i, double v) {
    switch (t) {
        case ACL_FLOAT: static_cast<float*>(dst)[i] = float(v); break;
        case ACL_FLOAT16: static_cast<half*>(dst)[i] = half(float(v)); break;
        case ACL_BF16: static_cast<bfloat16_t*>(dst)[i] = bfloat16_t(float(v)); break;
        case ACL_INT64: static_cast<int64_t*>(dst)[i] = int64_t(v); break;
        case ACL_INT32: static_cast<int32_t*>(dst)[i] = int32_t(v); break;
        default: break;
    }
}
inline double LoadAs(aclDataType t, const void* src, size_t i) {
    switch (t) {
        case ACL_FLOAT: return static_cast<const float*>(src)[i];
        case ACL_FLOAT16: return float(static_cast<const half*>(src)[i]);
        case ACL_BF16: return float(static_cast<const bfloat16_t*>(src)[i]);
        case ACL_INT64: return double(static_cast<const int64_t*>(src)[i]);
        case ACL_INT32: return double(static_cast<const int32_t*>(src)[i]);
        default: return 0;
    }
}

// A tensor in simulated device memory (aclrtMalloc) with its aclTensor.
class DeviceTensor {
public:
    DeviceTensor() = default;
    DeviceTensor(std::vector<int64_t> shape, aclDataType dtype) : shape_(std::move(shape)), dtype_(dtype) {
        numel_ = 1;
        for (int64_t d : shape_) numel_ *= d;
        bytes_ = size_t(numel_) * DtypeBytes(dtype_);
        if (bytes_ > 0) aclrtMalloc(&dev_, bytes_, ACL_MEM_MALLOC_HUGE_FIRST);
        std::vector<int64_t> strides(shape_.size(), 1);
        for (int64_t i = int64_t(shape_.size()) - 2; i >= 0; --i) strides[i] = shape_[i + 1] * strides[i + 1];
        tensor_ = aclCreateTensor(shape_.data(), shape_.size(), dtype_, strides.data(), 0, ACL_FORMAT_ND,
                                  shape_.data(), shape_.size(), dev_);
    }
    ~DeviceTensor() {
        if (tensor_) aclDestroyTensor(tensor_);
        if (dev_) aclrtFree(dev_);
    }
    DeviceTensor(const DeviceTensor&) = delete;
    DeviceTensor& operator=(const DeviceTensor&) = delete;

    void Set(const std::vector<double>& v) {
        for (size_t i = 0; i < v.size() && i < size_t(numel_); ++i) StoreAs(dtype_, dev_, i, v[i]);
    }
    // The values as stored (after rounding to the dtype).
    std::vector<double> Get() const {
        std::vector<double> v(static_cast<size_t>(numel_));
        for (size_t i = 0; i < v.size(); ++i) v[i] = LoadAs(dtype_, dev_, i);
        return v;
    }
    std::vector<uint8_t> Bytes() const {
        const auto* p = static_cast<const uint8_t*>(dev_);
        return std::vector<uint8_t>(p, p + bytes_);
    }
    aclTensor* get() const { return tensor_; }
    void* data() const { return dev_; }
    int64_t numel() const { return numel_; }

private:
    std::vector<int64_t> shape_;
    aclDataType dtype_ = ACL_FLOAT;
    int64_t numel_ = 0;
    size_t bytes_ = 0;
    void* dev_ = nullptr;
    aclTensor* tensor_ = nullptr;
};

struct Options {
    std::string reduction = "mean";
    int64_t ignoreIndex = -100;
    double labelSmoothing = 0.0;
    double zlossScale = 0.0;
    bool weight = false, gradZloss = false, lse = false;
};

// A point of the option matrices: z = 0 no z-loss, 1 z-loss, 2 z-loss with gradZloss;
// ignoreIndex -100 for odd combo numbers, the in-range 3 for even ones.
inline Options MatrixOptions(const char* reduction, bool weight, double ls, int z, int combo) {
    Options o;
    o.reduction = reduction;
    o.weight = weight;
    o.labelSmoothing = ls;
    o.zlossScale = z ? 1e-2 : 0.0;
    o.lse = z > 0;
    o.gradZloss = z == 2;
    o.ignoreIndex = (combo % 2) ? -100 : 3;
    return o;
}

// Host inputs of one problem (values already rounded to their dtypes by the caller's tensors).
struct Problem {
    int64_t n = 0, c = 1;
    std::vector<double> gradLoss, logProb, weight, gradZloss, lse;
    std::vector<int64_t> target;
};

// The gradient from the formula, in float64.
// termScale (optional): per element, the sum of the magnitudes of the terms, which
// bounds the fp32 rounding error of the kernel's intermediate steps.
inline std::vector<double> Reference(const Problem& p, const Options& o, std::vector<double>* termScale = nullptr) {
    const int64_t N = p.n, C = p.c;
    const bool mean = o.reduction == "mean", none = o.reduction == "none";
    auto w = [&](int64_t k) { return o.weight ? p.weight[size_t(k)] : 1.0; };
    auto live = [&](int64_t i) {
        const int64_t t = p.target[size_t(i)];
        return t != o.ignoreIndex && t >= 0 && t < C;
    };
    double W = 0, M = 0, sumW = 0;
    for (int64_t i = 0; i < N; ++i)
        if (live(i)) {
            W += w(p.target[size_t(i)]);
            M += 1;
        }
    for (int64_t k = 0; k < C; ++k) sumW += w(k);
    const double ls = o.labelSmoothing;
    const bool zloss = o.zlossScale != 0.0;
    std::vector<double> out(size_t(N * C), 0.0);
    if (termScale) termScale->assign(size_t(N * C), 0.0);
    for (int64_t i = 0; i < N; ++i) {
        const double g = none ? p.gradLoss[size_t(i)] : p.gradLoss[0];
        const double gz = o.gradZloss && zloss ? (none ? p.gradZloss[size_t(i)] : p.gradZloss[0]) : 0.0;
        if (!live(i)) {
            for (int64_t j = 0; j < C; ++j) out[size_t(i * C + j)] = std::exp(p.logProb[size_t(i * C + j)]) * 0.0;
            continue;
        }
        const int64_t t = p.target[size_t(i)];
        double nll = g * (1 - ls) * w(t), smooth = g * ls / C, z = g + gz;
        if (mean) {
            nll /= W;
            smooth /= W;
            z /= M;
        }
        const double lseTerm = zloss ? 2 * o.zlossScale * p.lse[size_t(i)] * z : 0.0;
        for (int64_t j = 0; j < C; ++j) {
            const double pij = std::exp(p.logProb[size_t(i * C + j)]);
            out[size_t(i * C + j)] = pij * (nll + smooth * sumW + lseTerm) - smooth * w(j) - (j == t ? nll : 0.0);
            if (termScale)
                (*termScale)[size_t(i * C + j)] = pij * (std::abs(nll) + std::abs(smooth * sumW) + std::abs(lseTerm)) +
                                                   std::abs(smooth * w(j)) + (j == t ? std::abs(nll) : 0.0);
        }
    }
    return out;
}

}  // namespace xtest_util

namespace xtest_util {

struct RunResult {
    aclnnStatus status = -1;
    std::string message;
    std::vector<double> out;       // as stored in the output dtype
    std::vector<uint8_t> outBytes;
    Problem stored;                // the inputs as the kernel saw them (rounded to their dtypes)
};

// Random inputs in the ranges the vendor's tests use (logProb in [-10, -1e-9]),
// about 1/8 of the targets ignoreIndex.
inline Problem RandomProblem(int64_t n, int64_t c, const Options& o, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> lp(-10.0, -1e-9), unit(0.0, 1.0), g(-2.0, 2.0);
    Problem p;
    p.n = n;
    p.c = c;
    p.logProb.resize(size_t(n * c));
    for (auto& v : p.logProb) v = lp(rng);
    p.target.resize(size_t(n));
    for (auto& t : p.target) t = unit(rng) < 0.125 ? o.ignoreIndex : int64_t(rng() % uint64_t(c));
    const size_t gradCount = o.reduction == "none" ? size_t(n) : 1;
    p.gradLoss.resize(gradCount);
    for (auto& v : p.gradLoss) v = g(rng);
    p.gradZloss.resize(gradCount);
    for (auto& v : p.gradZloss) v = g(rng);
    p.weight.resize(size_t(c));
    for (auto& v : p.weight) v = 0.1 + 2.0 * unit(rng);
    p.lse.resize(size_t(n));
    for (auto& v : p.lse) v = 3.0 * g(rng);
    return p;
}

// The columns [offset, offset + width) of the problem through the shard API
// (aclnn_cross_entropy_loss_grad_shard.h), classCount = the problem's C.
struct Shard {
    int64_t offset = 0, width = 0;
};

// The problem through the vendor API, or one shard of it (out and stored.logProb
// are then the shard's (N, width) columns). inPlace: out is logProb's own tensor (the
// gradient overwrites the log-probabilities). betweenPhases: called after phase 1
// succeeded, before phase 2.
inline RunResult RunWith(const Problem& p, const Options& o, aclDataType dtype, aclDataType targetDtype,
                         const Shard* shard, bool inPlace, const std::function<void()>& betweenPhases) {
    RunResult r;
    const int64_t N = p.n, C = p.c, width = shard ? shard->width : C;
    const bool none = o.reduction == "none";
    const std::vector<int64_t> gradShape = none ? std::vector<int64_t>{N} : std::vector<int64_t>{};
    DeviceTensor gradLoss(gradShape, dtype), logProb({N, width}, dtype), target({N}, targetDtype),
        out({N, width}, dtype);
    DeviceTensor weight({C}, ACL_FLOAT), gradZ(gradShape, dtype), lse({N}, dtype);
    gradLoss.Set(p.gradLoss);
    std::vector<double> columns(size_t(N * width));
    for (int64_t i = 0; i < N; ++i)
        for (int64_t j = 0; j < width; ++j)
            columns[size_t(i * width + j)] = p.logProb[size_t(i * C + (shard ? shard->offset : 0) + j)];
    logProb.Set(columns);
    std::vector<double> t(p.target.begin(), p.target.end());
    target.Set(t);
    weight.Set(p.weight);
    gradZ.Set(p.gradZloss);
    lse.Set(p.lse);
    r.stored = p;
    r.stored.gradLoss = gradLoss.Get();
    r.stored.logProb = logProb.Get();
    r.stored.gradZloss = gradZ.Get();
    r.stored.lse = lse.Get();
    r.stored.weight = weight.Get();

    uint64_t wsSize = 0;
    aclOpExecutor* exec = nullptr;
    std::string red = o.reduction;
    aclTensor* const w = o.weight ? weight.get() : nullptr;
    aclTensor* const gz = o.gradZloss ? gradZ.get() : nullptr;
    aclTensor* const l = o.lse ? lse.get() : nullptr;
    aclTensor* const dst = inPlace ? logProb.get() : out.get();
    r.status = shard ? aclnnXentCrossEntropyLossGradShardGetWorkspaceSize(
                           gradLoss.get(), logProb.get(), target.get(), w, gz, l, red.data(), o.ignoreIndex,
                           o.labelSmoothing, o.zlossScale, shard->offset, C, dst, &wsSize, &exec)
                     : aclnnCrossEntropyLossGradGetWorkspaceSize(gradLoss.get(), logProb.get(), target.get(), w, gz, l,
                                                                 red.data(), o.ignoreIndex, o.labelSmoothing,
                                                                 o.zlossScale, dst, &wsSize, &exec);
    if (r.status != ACLNN_SUCCESS) {
        r.message = aclGetRecentErrMsg();
        return r;
    }
    if (betweenPhases) betweenPhases();
    void* ws = nullptr;
    if (wsSize > 0) aclrtMalloc(&ws, wsSize, ACL_MEM_MALLOC_HUGE_FIRST);
    r.status = shard ? aclnnXentCrossEntropyLossGradShard(ws, wsSize, exec, nullptr)
                     : aclnnCrossEntropyLossGrad(ws, wsSize, exec, nullptr);
    if (r.status != ACLNN_SUCCESS) r.message = aclGetRecentErrMsg();
    if (ws) aclrtFree(ws);
    const DeviceTensor& result = inPlace ? logProb : out;
    r.out = result.Get();
    r.outBytes = result.Bytes();
    return r;
}

inline RunResult Run(const Problem& p, const Options& o, aclDataType dtype, aclDataType targetDtype,
                     bool inPlace = false, const std::function<void()>& betweenPhases = {}) {
    return RunWith(p, o, dtype, targetDtype, nullptr, inPlace, betweenPhases);
}

inline RunResult RunShard(const Problem& p, const Options& o, aclDataType dtype, aclDataType targetDtype,
                          const Shard& shard) {
    return RunWith(p, o, dtype, targetDtype, &shard, false, {});
}

// Against Reference(): the kernel computes in fp32 and rounds once to the output dtype, so
//   |got - ref| <= half an ulp of the output dtype at |ref| (rtol * |ref|)
//                + 16 fp32 ulps of the sum of the terms' magnitudes (cancellation)
//                + half an ulp of fp16 subnormals.
inline double Rtol(aclDataType t) { return t == ACL_FLOAT ? 0.0 : (t == ACL_FLOAT16 ? 1.0 / 2048 : 1.0 / 256); }
constexpr double kFp32Terms = 16 * 5.96e-8;
// Half an ulp of the output's subnormals (fp16 gradients of ~1e-5 are subnormal).
inline double Atol(aclDataType t) { return t == ACL_FLOAT16 ? std::ldexp(1.0, -25) : 1e-37; }

// The tolerance of one element (the expression above), want = the reference value,
// scale = the sum of its terms' magnitudes.
inline double Tolerance(aclDataType t, double want, double scale) {
    return Rtol(t) * std::abs(want) + kFp32Terms * scale + Atol(t);
}

inline const char* Name(aclDataType t) {
    return t == ACL_FLOAT ? "fp32" : (t == ACL_FLOAT16 ? "fp16" : (t == ACL_BF16 ? "bf16" : "int"));
}

// Returns the number of elements outside tolerance (prints the first few).
inline int64_t CompareWithReference(const RunResult& r, const Options& o, aclDataType dtype, const char* label) {
    std::vector<double> scale;
    const std::vector<double> ref = Reference(r.stored, o, &scale);
    const int64_t N = r.stored.n, C = r.stored.c;
    int64_t bad = 0;
    for (int64_t i = 0; i < N; ++i) {
        for (int64_t j = 0; j < C; ++j) {
            const double want = ref[size_t(i * C + j)], got = r.out[size_t(i * C + j)];
            const double tol = Tolerance(dtype, want, scale[size_t(i * C + j)]);
            if (!(std::abs(got - want) <= tol)) {
                if (bad < 3)
                    std::printf("    %s: out[%lld][%lld] = %.9g, reference %.9g (tol %.3g)\n", label, (long long)i,
                                (long long)j, got, want, tol);
                ++bad;
            }
        }
    }
    return bad;
}

}  // namespace xtest_util

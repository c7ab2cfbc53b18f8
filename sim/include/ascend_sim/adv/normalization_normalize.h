// Normalize (asc-devkit include/adv_api/normalization/normalize.h,
// normalize_utils.h; dav_c220: impl/adv_api/detail/normalization/normalize/
// normalize_common_impl.h NormalizeImpl and its helpers, normalize_config.h):
// given each row's mean and variance, rstd = 1 / sqrt(variance + epsilon) (by
// Sqrt and Div) and y = (x - mean) rstd gamma + beta over [A, R] rows padded
// to rLengthWithPadding, N rows a round (as many as fit two fp32 N x R slices,
// after the fp32 gamma / beta for half ones). The mean and rstd reach each row
// through the scalar unit and a Duplicate; the same Counter-mode basic ops.
#pragma once
#include <cstdint>
#include <type_traits>

#include "../kernel_sync.h"
#include "../kernel_tpipe.h"
#include "../kernel_vec_binary.h"
#include "../kernel_vec_cast.h"
#include "../kernel_vec_mask.h"
#include "../kernel_vec_scalar.h"
#include "../kernel_vec_unary.h"
#include "adv_check.h"
#include "reduce_max_tiling.h"

namespace AscendC {
struct NormalizeConfig {
    ReducePattern reducePattern = ReducePattern::AR;
    int32_t aLength = -1;
    bool isNoBeta = false;
    bool isNoGamma = false;
    bool isOnlyOutput = false;
};
struct NormalizePara {
    uint32_t aLength;
    uint32_t rLength;
    uint32_t rLengthWithPadding;
};
constexpr NormalizeConfig GetNormalizeConfig(bool isNoBeta, bool isNoGamma) {
    return {ReducePattern::AR, -1, isNoBeta, isNoGamma, false};
}
constexpr NormalizeConfig NLCFG_NORM = GetNormalizeConfig(false, false);
constexpr NormalizeConfig NLCFG_NOBETA = GetNormalizeConfig(true, false);
constexpr NormalizeConfig NLCFG_NOGAMMA = GetNormalizeConfig(false, true);
constexpr NormalizeConfig NLCFG_NOOPT = GetNormalizeConfig(true, true);

namespace sim_adv {
namespace normalize {

struct Slices {
    LocalTensor<float> a, b, gamma, beta;
    uint32_t n;  // rows a round
};

// GetNormalizeTensorInfo: N rows of two fp32 R slices, after 2 R for half gamma / beta.
template <class U>
Slices slices(const LocalTensor<float>& stack, const NormalizePara& p) {
    constexpr const char* api = "Normalize";
    if (stack.GetSize() < p.aLength)
        d::fail(api, "sharedTmpBuffer below A floats", "sharedTmpBuffer holds %u floats; it must hold para.aLength %u",
                stack.GetSize(), p.aLength);
    const uint32_t r2 = p.rLengthWithPadding * 2;
    Slices s;
    s.n = std::is_same_v<U, float> ? stack.GetSize() / r2 : (stack.GetSize() - r2) / r2;
    if (stack.GetSize() < r2 && !std::is_same_v<U, float>) s.n = 0;
    if (s.n > p.aLength) s.n = p.aLength;
    if (s.n == 0)
        d::fail(api, "sharedTmpBuffer below one row",
                "sharedTmpBuffer holds %u floats, too few for one row's two fp32 slices of rLengthWithPadding %u%s",
                stack.GetSize(), p.rLengthWithPadding, std::is_same_v<U, float> ? "" : " after fp32 gamma and beta");
    s.a = stack, s.b = stack[s.n * p.rLengthWithPadding];
    if constexpr (!std::is_same_v<U, float>) s.gamma = stack[r2 * s.n], s.beta = stack[r2 * s.n + p.rLengthWithPadding];
    return s;
}

// dst row i's first rLength = v[base + i], read by the scalar unit.
inline void rows_of(const LocalTensor<float>& dst, const LocalTensor<float>& v, const NormalizePara& p, uint32_t n,
                    uint32_t base) {
    SetVectorMask<float, MaskMode::COUNTER>(0, p.rLength);
    for (uint32_t i = 0; i < n; ++i) {
        const float value = v.GetValue(i + base);
        const TEventID e = GetTPipePtr()->FetchEventID(HardEvent::S_V);
        SetFlag<HardEvent::S_V>(e);
        WaitFlag<HardEvent::S_V>(e);
        Duplicate<float, false>(dst[i * p.rLengthWithPadding], value, 1, 1, DEFAULT_BLK_STRIDE, DEFAULT_REPEAT_STRIDE);
    }
    PipeBarrier<PIPE_V>();
    SetVectorMask<float, MaskMode::COUNTER>(0, n * p.rLengthWithPadding);
}

// n rows from x (widened or copied into A): (x - mean) rstd, times gamma, plus beta, into out.
template <class U, class T, const NormalizeConfig& config>
void round(const LocalTensor<T>& out, const LocalTensor<T>& x, const LocalTensor<float>& mean,
           const LocalTensor<float>& rstd, const LocalTensor<U>& gamma, const LocalTensor<U>& beta, const Slices& s,
           const NormalizePara& p, uint32_t n, uint32_t base) {
    const UnaryRepeatParams u;
    const BinaryRepeatParams b;
    SetVectorMask<float, MaskMode::COUNTER>(0, n * p.rLengthWithPadding);
    if constexpr (std::is_same_v<T, float>)
        Adds<float, false>(s.a, x, 0.0f, MASK_PLACEHOLDER, 1, UnaryRepeatParams(1, 1, 8, 8));
    else
        Cast<float, T, false>(s.a, x, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, UnaryRepeatParams(1, 1, 8, 4));
    PipeBarrier<PIPE_V>();
    // The broadcast rows fill only each row's first rLength; the padding's
    // results land only in the output's padding, so it counts as defined and
    // the initcheck reports only reads reaching a result.
    for (uint32_t i = 0; i < n && p.rLength < p.rLengthWithPadding; ++i)
        d::ub_written("Duplicate", s.b[i * p.rLengthWithPadding + p.rLength].GetPhyAddr(),
                      uint64_t(p.rLengthWithPadding - p.rLength) * 4);
    const TEventID e = GetTPipePtr()->FetchEventID(HardEvent::V_S);
    SetFlag<HardEvent::V_S>(e);
    WaitFlag<HardEvent::V_S>(e);
    rows_of(s.b, mean, p, n, base);
    Sub<float, false>(s.a, s.a, s.b, MASK_PLACEHOLDER, 1, b);
    PipeBarrier<PIPE_V>();
    rows_of(s.b, rstd, p, n, base);
    Mul<float, false>(s.a, s.a, s.b, MASK_PLACEHOLDER, 1, b);
    PipeBarrier<PIPE_V>();
    SetVectorMask<float, MaskMode::COUNTER>(0, p.rLength);
    for (uint32_t i = 0; i < n; ++i) {
        const LocalTensor<float> row = s.a[i * p.rLengthWithPadding];
        if constexpr (!config.isNoGamma) {
            if constexpr (std::is_same_v<U, float>) Mul<float, false>(row, row, gamma, MASK_PLACEHOLDER, 1, b);
            else Mul<float, false>(row, row, s.gamma, MASK_PLACEHOLDER, 1, b);
            PipeBarrier<PIPE_V>();
        }
        if constexpr (!config.isNoBeta) {
            if constexpr (std::is_same_v<U, float>) Add<float, false>(row, row, beta, MASK_PLACEHOLDER, 1, b);
            else Add<float, false>(row, row, s.beta, MASK_PLACEHOLDER, 1, b);
            PipeBarrier<PIPE_V>();
        }
    }
    SetVectorMask<float, MaskMode::COUNTER>(0, n * p.rLengthWithPadding);
    if constexpr (std::is_same_v<T, float>)
        Adds<float, false>(out, s.a, 0.0f, MASK_PLACEHOLDER, 1, u);
    else
        Cast<T, float, false>(out, s.a, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, UnaryRepeatParams(1, 1, 4, 8));
    PipeBarrier<PIPE_V>();
}

// CheckFuncClassNormalize, CheckParams.
template <class U, class T, bool isReuseSource, const NormalizeConfig& config>
void check(const LocalTensor<T>& out, const LocalTensor<float>& rstd, const LocalTensor<float>& mean,
           const LocalTensor<float>& var, const LocalTensor<T>& x, const LocalTensor<U>& gamma,
           const LocalTensor<U>& beta, const LocalTensor<uint8_t>& tmp, const NormalizePara& p) {
    constexpr const char* api = "Normalize";
    static_assert(config.reducePattern == ReducePattern::AR, "Normalize: config.reducePattern must be ReducePattern::AR");
    static_assert(!config.isOnlyOutput, "Normalize: config.isOnlyOutput must be false");
    static_assert(config.aLength != 1, "Normalize: config.aLength must not be 1");
    if (isReuseSource) d::fail(api, "isReuseSource set", "isReuseSource must be false");
    if (config.aLength != -1 && uint32_t(config.aLength) != p.aLength)
        d::fail(api, "config.aLength not para.aLength", "config.aLength %d must be -1 or para.aLength %u",
                config.aLength, p.aLength);
    if (p.rLengthWithPadding * sizeof(T) % 32 != 0 || p.rLength > p.rLengthWithPadding)
        d::fail(api, "rLengthWithPadding not 32 B aligned",
                "para.rLengthWithPadding %u must be 32 B aligned and at least para.rLength %u", p.rLengthWithPadding,
                p.rLength);
    const uint32_t n = p.aLength * p.rLengthWithPadding;
    check_count(api, n, x, "inputX"), check_count(api, n, out, "output");
    check_count(api, p.aLength, mean, "inputMean"), check_count(api, p.aLength, var, "inputVariance");
    check_count(api, p.aLength, rstd, "outputRstd");
    if (!config.isNoGamma) check_count(api, p.rLength, gamma, "gamma");
    if (!config.isNoBeta) check_count(api, p.rLength, beta, "beta");
    const uint32_t tb = tmp.GetSize();
    check_disjoint(api, tmp, tb, "sharedTmpBuffer", x, n, "inputX");
    check_disjoint(api, tmp, tb, "sharedTmpBuffer", out, n, "output");
    check_disjoint(api, tmp, tb, "sharedTmpBuffer", rstd, p.aLength, "outputRstd");
    check_disjoint(api, tmp, tb, "sharedTmpBuffer", mean, p.aLength, "inputMean");
    check_disjoint(api, tmp, tb, "sharedTmpBuffer", var, p.aLength, "inputVariance");
}

}  // namespace normalize
}  // namespace sim_adv

template <typename U, typename T, bool isReuseSource = false, const NormalizeConfig& config = NLCFG_NORM>
void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd, const LocalTensor<float>& inputMean,
               const LocalTensor<float>& inputVariance, const LocalTensor<T>& inputX, const LocalTensor<U>& gamma,
               const LocalTensor<U>& beta, const LocalTensor<uint8_t>& sharedTmpBuffer, const float epsilon,
               const NormalizePara& para) {
    static_assert((std::is_same_v<T, float> && std::is_same_v<U, float>) ||
                      (std::is_same_v<T, half> && (std::is_same_v<U, half> || std::is_same_v<U, float>)),
                  "Normalize: A2/A3 take T float with U float, or T half with U half or float");
    namespace nz = sim_adv::normalize;
    nz::check<U, T, isReuseSource, config>(output, outputRstd, inputMean, inputVariance, inputX, gamma, beta,
                                           sharedTmpBuffer, para);
    const nz::Slices s = nz::slices<U>(sharedTmpBuffer.ReinterpretCast<float>(), para);
    // rstd of every row first.
    SetMaskCount();
    SetVectorMask<float, MaskMode::COUNTER>(0, para.aLength);
    Adds<float, false>(outputRstd, inputVariance, epsilon, MASK_PLACEHOLDER, 1, UnaryRepeatParams{});
    PipeBarrier<PIPE_V>();
    Duplicate<float, false>(s.a, 1.0f, 1, 1, DEFAULT_BLK_STRIDE, DEFAULT_REPEAT_STRIDE);
    PipeBarrier<PIPE_V>();
    Sqrt<float, false>(outputRstd, outputRstd, MASK_PLACEHOLDER, 1, UnaryRepeatParams{});
    PipeBarrier<PIPE_V>();
    Div<float, false>(outputRstd, s.a, outputRstd, MASK_PLACEHOLDER, 1, BinaryRepeatParams{});
    PipeBarrier<PIPE_V>();
    if constexpr (std::is_same_v<U, half>) {
        SetVectorMask<float, MaskMode::COUNTER>(0, para.rLength);
        const UnaryRepeatParams w(1, 1, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE / 2);
        if constexpr (!config.isNoGamma) {
            Cast<float, U, false>(s.gamma, gamma, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, w);
            PipeBarrier<PIPE_V>();
        }
        if constexpr (!config.isNoBeta) {
            Cast<float, U, false>(s.beta, beta, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, w);
            PipeBarrier<PIPE_V>();
        }
    }
    const uint32_t rounds = para.aLength / s.n, tail = para.aLength % s.n;
    for (uint32_t i = 0; i < rounds; ++i) {
        const uint32_t at = para.rLengthWithPadding * s.n * i;
        nz::round<U, T, config>(output[at], inputX[at], inputMean, outputRstd, gamma, beta, s, para, s.n, s.n * i);
    }
    if (tail > 0) {
        const uint32_t at = para.rLengthWithPadding * s.n * rounds;
        nz::round<U, T, config>(output[at], inputX[at], inputMean, outputRstd, gamma, beta, s, para, tail,
                                s.n * rounds);
    }
    SetMaskNorm();
    ResetMask();
}
template <typename U, typename T, bool isReuseSource = false, const NormalizeConfig& config = NLCFG_NORM>
void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd, const LocalTensor<float>& inputMean,
               const LocalTensor<float>& inputVariance, const LocalTensor<T>& inputX, const LocalTensor<U>& gamma,
               const LocalTensor<U>& beta, const float epsilon, const NormalizePara& para) {
    Normalize<U, T, isReuseSource, config>(output, outputRstd, inputMean, inputVariance, inputX, gamma, beta,
                                           sim_adv::stack_tmp("Normalize"), epsilon, para);
}

}  // namespace AscendC

// LayerNorm (asc-devkit include/adv_api/normalization/layernorm.h; dav_c220:
// impl/adv_api/detail/normalization/layernorm/layernorm_common_impl.h
// LayerNormImpl, LayerNormND, LayerNormExe, LayerNormCalMeanVarImpl,
// ComputeMeanVariance and layernorm_common_basic_impl.h their steps).
// The older form over [B, S, H] rows in tiling rounds, in fp32 slices A / B / C:
// mean = row sums of x / originalH, variance = row sums of (x - mean)^2 /
// originalH (both broadcast back by Select), rstd = 1 / sqrt(variance + epsilon)
// by Sqrt and Div, y = (x - mean) rstd gamma + beta; it outputs mean and
// variance (half through fp32 slices, narrowed after the last round).
// The rstd form over [A, R] rows padded to rLengthWithPadding: the padding of x
// zeroed in place, the mean and variance by rounds (the mean read back by the
// scalar unit), then Normalize with them: it outputs mean and rstd.
#pragma once
#include <cstdint>
#include <type_traits>

#include "../kernel_data_copy.h"
#include "../kernel_sync.h"
#include "../kernel_tpipe.h"
#include "../kernel_vec_binary.h"
#include "../kernel_vec_cast.h"
#include "../kernel_vec_mask.h"
#include "../kernel_vec_scalar.h"
#include "../kernel_vec_unary.h"
#include "adv_check.h"
#include "normalization_layernorm_params.h"
#include "normalization_layernorm_reduce.h"
#include "normalization_normalize.h"
#include "normalization_tiling_data.h"

namespace AscendC {
constexpr LayerNormConfig GetLayerNormNormalConfig() { return {false, false, false, true}; }
constexpr LayerNormConfig LNCFG_NORM = GetLayerNormNormalConfig();

namespace sim_adv {
namespace lnorm {

struct Slices {
    LocalTensor<float> a, b, c, mean, var;
};

// dst row i = src row i (op) row, for bs rows of h (the mask as set).
template <bool mul>
void each_row(const LocalTensor<float>& dst, const LocalTensor<float>& src, const LocalTensor<float>& row,
              uint32_t bs, uint32_t h) {
    for (uint32_t i = 0; i < bs; ++i) {
        if constexpr (mul) Mul<float, false>(dst[i * h], src[i * h], row, MASK_PLACEHOLDER, 1, BinaryRepeatParams{});
        else Add<float, false>(dst[i * h], src[i * h], row, MASK_PLACEHOLDER, 1, BinaryRepeatParams{});
    }
    PipeBarrier<PIPE_V>();
}

// One round of the older form on x (fp32): mean into s.mean, variance into s.var, (x - mean) rstd into C.
inline void mean_var_rstd(const LocalTensor<float>& x, const LocalTensor<float>& mean, const LocalTensor<float>& var,
                          float epsilon, const LayerNormTiling& t, const Slices& s) {
    const UnaryRepeatParams u;
    const BinaryRepeatParams b;
    SetVectorMask<uint8_t, MaskMode::COUNTER>(0, t.bshCurLength);
    Muls<float, false>(s.c, x, t.lastDimValueBack, MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    reduce_sum(mean, s.b, s.c, t.bsCurLength, t.hLength);
    // B = x - mean; A = (x - mean)^2 / originalH; its row sums into var and C.
    broadcast_last_dim(s.c, s.b, t.bsCurLength, t.hLength);
    SetVectorMask<uint8_t, MaskMode::COUNTER>(0, t.bshCurLength);
    Sub<float, false>(s.b, x, s.c, MASK_PLACEHOLDER, 1, b);
    PipeBarrier<PIPE_V>();
    Mul<float, false>(s.c, s.b, s.b, MASK_PLACEHOLDER, 1, b);
    PipeBarrier<PIPE_V>();
    Muls<float, false>(s.a, s.c, t.lastDimValueBack, MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    reduce_sum(var, s.c, s.a, t.bsCurLength, t.hLength);
    PipeBarrier<PIPE_V>();
    // C = (x - mean) / sqrt(variance + epsilon), the 1 a single block read at stride 0.
    broadcast_last_dim(s.a, s.c, t.bsCurLength, t.hLength);
    SetVectorMask<uint8_t, MaskMode::COUNTER>(0, t.bshCurLength);
    Adds<float, false>(s.c, s.a, epsilon, MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Sqrt<float, false>(s.a, s.c, MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    SetVectorMask<uint8_t, MaskMode::COUNTER>(0, 8);
    Duplicate<float, false>(s.c, 1.0f, MASK_PLACEHOLDER, 1, DEFAULT_BLK_STRIDE, DEFAULT_REPEAT_STRIDE);
    PipeBarrier<PIPE_V>();
    SetVectorMask<uint8_t, MaskMode::COUNTER>(0, t.bshCurLength);
    Div<float, false>(s.a, s.c, s.a, MASK_PLACEHOLDER, 1, BinaryRepeatParams(1, 0, 1, 8, 0, 8));
    PipeBarrier<PIPE_V>();
    Mul<float, false>(s.c, s.a, s.b, MASK_PLACEHOLDER, 1, b);
    PipeBarrier<PIPE_V>();
}

template <class T>
void round(const LocalTensor<T>& out, const LocalTensor<T>& x, const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
           const LocalTensor<float>& mean, const LocalTensor<float>& var, T epsilon, const LayerNormTiling& t,
           const Slices& s) {
    if constexpr (std::is_same_v<T, half>) {
        SetVectorMask<uint8_t, MaskMode::COUNTER>(0, t.bshCurLength);
        const UnaryRepeatParams w(1, 1, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE / 2);
        Cast<float, half, false>(s.a, x, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, w);
        PipeBarrier<PIPE_V>();
        mean_var_rstd(s.a, mean, var, float(epsilon), t, s);
        SetVectorMask<uint8_t, MaskMode::COUNTER>(0, t.hLength);
        Cast<float, half, false>(s.a, gamma, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, w);
        PipeBarrier<PIPE_V>();
        each_row<true>(s.b, s.c, s.a, t.bsCurLength, t.hLength);
        Cast<float, half, false>(s.c, beta, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, w);
        PipeBarrier<PIPE_V>();
        each_row<false>(s.a, s.b, s.c, t.bsCurLength, t.hLength);
        SetVectorMask<uint8_t, MaskMode::COUNTER>(0, t.bshCurLength);
        Cast<half, float, false>(out, s.a, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1,
                                 UnaryRepeatParams(1, 1, DEFAULT_REPEAT_STRIDE / 2, DEFAULT_REPEAT_STRIDE));
        PipeBarrier<PIPE_V>();
    } else {
        mean_var_rstd(x, mean, var, epsilon, t, s);
        SetVectorMask<uint8_t, MaskMode::COUNTER>(0, t.hLength);
        each_row<true>(s.a, s.c, gamma, t.bsCurLength, t.hLength);
        each_row<false>(out, s.a, beta, t.bsCurLength, t.hLength);
    }
}

// The older form's checks (CheckFuncClassLayerNorm, GetLayerNormNDTensorInfo).
template <class T, bool isReuseSource>
void check(const LocalTensor<T>& out, const LocalTensor<T>& mean, const LocalTensor<T>& var, const LocalTensor<T>& x,
           const LocalTensor<T>& gamma, const LocalTensor<T>& beta, const LocalTensor<uint8_t>& tmp,
           const LayerNormTiling& t) {
    constexpr const char* api = "LayerNorm";
    if (t.oneTmpSize == 0) d::fail(api, "oneTmpSize 0", "tiling.oneTmpSize is 0: a row does not fit the tmp");
    if (std::is_same_v<T, half> && isReuseSource)
        d::fail(api, "isReuseSource with half", "isReuseSource must be false for half (the source is widened)");
    for (const auto* v : {&gamma, &beta})
        if (v->GetSize() * sizeof(T) % 32 != 0)
            d::fail(api, "gamma / beta not 32 B aligned", "%s holds %u B; it must be 32 B aligned",
                    v == &gamma ? "gamma" : "beta", uint32_t(v->GetSize() * sizeof(T)));
    const uint32_t slices = std::is_same_v<T, float> && isReuseSource ? 2 : 3;
    const uint32_t last = slices == 2 ? t.secondTmpStartPos : t.thirdTmpStartPos;
    if (last + t.oneTmpSize > t.tmpBufSize)
        d::fail(api, "tiling slices beyond tmpBufSize",
                "the tiling's last slice ends at %u floats, beyond its tmpBufSize %u", last + t.oneTmpSize,
                t.tmpBufSize);
    if (tmp.GetSize() / 4 < t.tmpBufSize)
        d::fail(api, "sharedTmpBuffer below the tiling's",
                "sharedTmpBuffer holds %u floats, less than the tiling's tmpBufSize %u (GetLayerNormNDTilingInfo's "
                "stackBufferSize)",
                tmp.GetSize() / 4, t.tmpBufSize);
    const uint32_t n = t.inputXSize, rows = t.meanVarSize;
    check_count(api, n, x, "inputX"), check_count(api, n, out, "output");
    check_count(api, rows, mean, "outputMean"), check_count(api, rows, var, "outputVariance");
    check_count(api, t.hLength, gamma, "gamma"), check_count(api, t.hLength, beta, "beta");
    const uint32_t tb = tmp.GetSize();
    check_disjoint(api, tmp, tb, "sharedTmpBuffer", x, n, "inputX");
    check_disjoint(api, tmp, tb, "sharedTmpBuffer", out, n, "output");
    check_disjoint(api, tmp, tb, "sharedTmpBuffer", mean, rows, "outputMean");
    check_disjoint(api, tmp, tb, "sharedTmpBuffer", var, rows, "outputVariance");
    check_disjoint(api, mean, rows, "outputMean", var, rows, "outputVariance");
    check_disjoint(api, out, n, "output", mean, rows, "outputMean");
    check_disjoint(api, out, n, "output", var, rows, "outputVariance");
    check_disjoint(api, x, n, "inputX", mean, rows, "outputMean");
    check_disjoint(api, x, n, "inputX", var, rows, "outputVariance");
}

// The rstd form's mean and variance of one round (ComputeMeanVariance): fp32 x
// in A; mean = row sums of x / R; A = x - mean on each row's first R (the
// scalar unit reads the mean); variance = row sums of A^2 / R.
template <class T>
void mean_var(const LocalTensor<float>& mean, const LocalTensor<float>& var, const LocalTensor<T>& x,
              const LocalTensor<float>& a, const LocalTensor<float>& b, const LayerNormPara& p,
              const LayerNormSeparateTiling& t) {
    auto load = [&] {
        if constexpr (std::is_same_v<T, half>) Cast<float, T>(a, x, RoundMode::CAST_NONE, t.arCurLength);
        else DataCopy(a, x, t.arCurLength);
        PipeBarrier<PIPE_V>();
    };
    load();
    Muls<float>(a, a, t.rValueBack, int32_t(t.arCurLength));
    PipeBarrier<PIPE_V>();
    reduce_sum(mean, b, a, t.aCurLength, p.rLengthWithPadding);
    TEventID e = GetTPipePtr()->FetchEventID(HardEvent::V_S);
    SetFlag<HardEvent::V_S>(e);
    WaitFlag<HardEvent::V_S>(e);
    if constexpr (std::is_same_v<T, half>) PipeBarrier<PIPE_V>();
    load();
    e = GetTPipePtr()->FetchEventID(HardEvent::S_V);
    for (uint32_t j = 0; j < t.aCurLength; ++j) {
        const float m = -1.0f * mean.GetValue(j);
        SetFlag<HardEvent::S_V>(e);
        WaitFlag<HardEvent::S_V>(e);
        Adds<float>(a[j * p.rLengthWithPadding], a[j * p.rLengthWithPadding], m, int32_t(t.rLength));
    }
    PipeBarrier<PIPE_V>();
    Mul<float>(a, a, a, int32_t(t.arCurLength));
    PipeBarrier<PIPE_V>();
    Muls<float>(a, a, t.rValueBack, int32_t(t.arCurLength));
    PipeBarrier<PIPE_V>();
    reduce_sum(var, b, a, t.aCurLength, p.rLengthWithPadding);
    PipeBarrier<PIPE_V>();
}

// LayerNormPreProc: each row's padding past rLength zeroed by a 0/1 row in the tmp.
template <class T>
void zero_padding(const LocalTensor<T>& x, const LocalTensor<float>& stack, const LayerNormPara& p) {
    const LocalTensor<T> ones = stack.ReinterpretCast<T>();
    Duplicate(ones, T(0), int32_t(p.rLengthWithPadding));
    PipeBarrier<PIPE_V>();
    Adds(ones, ones, T(1), int32_t(p.rLength));
    PipeBarrier<PIPE_V>();
    for (uint32_t i = 0; i < p.aLength; ++i)
        Mul(x[i * p.rLengthWithPadding], x[i * p.rLengthWithPadding], ones, int32_t(p.rLengthWithPadding));
    PipeBarrier<PIPE_V>();
}

// The rstd form's checks (CheckFuncClassLayerNormRstd, CheckLayerNormRstd, GetLayerNormRstdTensorInfo).
template <class T>
void check_rstd(const LocalTensor<T>& out, const LocalTensor<float>& mean, const LocalTensor<float>& rstd,
                const LocalTensor<T>& x, const LocalTensor<uint8_t>& tmp, const LayerNormPara& p,
                const LayerNormSeparateTiling& t, bool isReuseSource) {
    constexpr const char* api = "LayerNorm";
    if (std::is_same_v<T, half> && isReuseSource)
        d::fail(api, "isReuseSource with half", "isReuseSource must be false for half");
    if (p.rLengthWithPadding * sizeof(T) % 32 != 0 || p.rLength > p.rLengthWithPadding || p.rLength == 0)
        d::fail(api, "rLengthWithPadding not 32 B aligned",
                "para.rLengthWithPadding %u must be 32 B aligned and at least para.rLength %u (> 0)",
                p.rLengthWithPadding, p.rLength);
    const uint32_t stackFloats = tmp.GetSize() / 4;
    if (stackFloats <= p.rLengthWithPadding)
        d::fail(api, "sharedTmpBuffer below the minimum",
                "sharedTmpBuffer holds %u floats; it must hold more than para.rLengthWithPadding %u (the minimum "
                "GetLayerNormMaxMinTmpSize gives)",
                stackFloats, p.rLengthWithPadding);
    if (t.oneTmpSize == 0 || t.secondTmpStartPos + t.oneTmpSize > t.tmpBufSize)
        d::fail(api, "tiling slices beyond tmpBufSize",
                "the tiling's second slice ends at %u floats, beyond its tmpBufSize %u (or oneTmpSize is 0)",
                t.secondTmpStartPos + t.oneTmpSize, t.tmpBufSize);
    if (stackFloats < t.tmpBufSize)
        d::fail(api, "sharedTmpBuffer below the tiling's",
                "sharedTmpBuffer holds %u floats, less than the tiling's tmpBufSize %u (GetLayerNormNDTilingInfo's "
                "stackBufferSize)",
                stackFloats, t.tmpBufSize);
    const uint32_t n = p.aLength * p.rLengthWithPadding;
    check_count(api, n, x, "inputX"), check_count(api, n, out, "output");
    check_count(api, p.aLength, mean, "outputMean"), check_count(api, p.aLength, rstd, "outputRstd");
    const uint32_t tb = tmp.GetSize();
    check_disjoint(api, tmp, tb, "sharedTmpBuffer", x, n, "inputX");
    check_disjoint(api, tmp, tb, "sharedTmpBuffer", out, n, "output");
    check_disjoint(api, tmp, tb, "sharedTmpBuffer", mean, p.aLength, "outputMean");
    check_disjoint(api, tmp, tb, "sharedTmpBuffer", rstd, p.aLength, "outputRstd");
    check_disjoint(api, x, n, "inputX", out, n, "output");
    check_disjoint(api, x, n, "inputX", mean, p.aLength, "outputMean");
    check_disjoint(api, x, n, "inputX", rstd, p.aLength, "outputRstd");
    check_disjoint(api, mean, p.aLength, "outputMean", rstd, p.aLength, "outputRstd");
    check_disjoint(api, out, n, "output", mean, p.aLength, "outputMean");
    check_disjoint(api, out, n, "output", rstd, p.aLength, "outputRstd");
}

}  // namespace lnorm
}  // namespace sim_adv

template <typename T, bool isReuseSource = false>
void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
               const LocalTensor<T>& inputX, const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
               const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon, LayerNormTiling& tiling) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "LayerNorm: A2/A3 support half and float");
    namespace ln = sim_adv::lnorm;
    ln::check<T, isReuseSource>(output, outputMean, outputVariance, inputX, gamma, beta, sharedTmpBuffer, tiling);
    const LocalTensor<float> stack = sharedTmpBuffer.ReinterpretCast<float>();
    ln::Slices s;
    if constexpr (std::is_same_v<T, half>) {
        s = {stack[tiling.firstTmpStartPos], stack[tiling.secondTmpStartPos], stack[tiling.thirdTmpStartPos],
             stack[tiling.meanTmpTensorPos], stack[tiling.varianceTmpTensorPos]};
    } else if constexpr (isReuseSource) {
        s = {inputX, stack[tiling.firstTmpStartPos], stack[tiling.secondTmpStartPos], outputMean, outputVariance};
    } else {
        s = {stack[tiling.firstTmpStartPos], stack[tiling.secondTmpStartPos], stack[tiling.thirdTmpStartPos],
             outputMean, outputVariance};
    }
    SetMaskCount();
    auto round = [&](uint32_t at, uint32_t row) {
        ln::round<T>(output[at], inputX[at], gamma, beta, s.mean[row], s.var[row], epsilon, tiling, s);
    };
    for (uint32_t i = 0; i < tiling.loopRound; ++i) round(i * tiling.inputRoundSize, i * tiling.meanVarRoundSize);
    if (tiling.inputTailSize > 0) {
        tiling.bshCurLength = tiling.inputTailSize;
        tiling.bsCurLength = tiling.meanVarTailSize;
        round(tiling.inputTailPos, tiling.meanVarTailPos);
    }
    if constexpr (std::is_same_v<T, half>) {
        SetVectorMask<uint8_t, MaskMode::COUNTER>(0, tiling.meanVarSize);
        const UnaryRepeatParams n(1, 1, DEFAULT_REPEAT_STRIDE / 2, DEFAULT_REPEAT_STRIDE);
        Cast<half, float, false>(outputMean, s.mean, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, n);
        PipeBarrier<PIPE_V>();
        Cast<half, float, false>(outputVariance, s.var, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, n);
        PipeBarrier<PIPE_V>();
    }
    SetMaskNorm();
    ResetMask();
}
template <typename T, bool isReuseSource = false>
void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
               const LocalTensor<T>& inputX, const LocalTensor<T>& gamma, const LocalTensor<T>& beta, const T epsilon,
               LayerNormTiling& tiling) {
    LayerNorm<T, isReuseSource>(output, outputMean, outputVariance, inputX, gamma, beta,
                                sim_adv::stack_tmp("LayerNorm"), epsilon, tiling);
}

template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM>
void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean, const LocalTensor<float>& outputRstd,
               const LocalTensor<T>& inputX, const LocalTensor<U>& gamma, const LocalTensor<U>& beta,
               const float epsilon, const LocalTensor<uint8_t>& sharedTmpBuffer, const LayerNormPara& para,
               const LayerNormSeparateTiling& tiling) {
    static_assert((std::is_same_v<T, float> && std::is_same_v<U, float>) ||
                      (std::is_same_v<T, half> && (std::is_same_v<U, half> || std::is_same_v<U, float>)),
                  "LayerNorm: A2/A3 take T float with U float, or T half with U half or float");
    static_assert(!config.isOnlyOutput, "LayerNorm: config.isOnlyOutput must be false on A2/A3");
    namespace ln = sim_adv::lnorm;
    ln::check_rstd<T>(output, outputMean, outputRstd, inputX, sharedTmpBuffer, para, tiling,
                                 isReuseSource);
    const LocalTensor<float> stack = sharedTmpBuffer.ReinterpretCast<float>();
    const LocalTensor<float> var = stack[tiling.varianceTmpTensorPos];
    LayerNormSeparateTiling& t = const_cast<LayerNormSeparateTiling&>(tiling);
    if (para.rLength != para.rLengthWithPadding) ln::zero_padding<T>(inputX, stack, para);
    const LocalTensor<float> a = stack[t.firstTmpStartPos], b = stack[t.secondTmpStartPos];
    for (uint32_t i = 0; i < t.loopRound; ++i)
        ln::mean_var<T>(outputMean[i * t.meanVarRoundSize], var[i * t.meanVarRoundSize], inputX[i * t.inputRoundSize],
                        a, b, para, t);
    if (t.inputTailSize > 0) {
        t.arCurLength = t.inputTailSize;
        t.aCurLength = t.meanVarTailSize;
        ln::mean_var<T>(outputMean[t.meanVarTailPos], var[t.meanVarTailPos], inputX[t.inputTailPos], a, b, para, t);
    }
    const LocalTensor<uint8_t> rest = stack[t.firstTmpStartPos].template ReinterpretCast<uint8_t>();
    const NormalizePara np = {para.aLength, para.rLength, para.rLengthWithPadding};
    if constexpr (!config.isNoBeta && !config.isNoGamma)
        Normalize<U, T, false, NLCFG_NORM>(output, outputRstd, outputMean, var, inputX, gamma, beta, rest, epsilon, np);
    else if constexpr (config.isNoBeta && !config.isNoGamma)
        Normalize<U, T, false, NLCFG_NOBETA>(output, outputRstd, outputMean, var, inputX, gamma, beta, rest, epsilon,
                                             np);
    else if constexpr (!config.isNoBeta)
        Normalize<U, T, false, NLCFG_NOGAMMA>(output, outputRstd, outputMean, var, inputX, gamma, beta, rest, epsilon,
                                              np);
    else
        Normalize<U, T, false, NLCFG_NOOPT>(output, outputRstd, outputMean, var, inputX, gamma, beta, rest, epsilon,
                                            np);
}
template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM>
void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean, const LocalTensor<float>& outputRstd,
               const LocalTensor<T>& inputX, const LocalTensor<U>& gamma, const LocalTensor<U>& beta,
               const float epsilon, const LayerNormPara& para, const LayerNormSeparateTiling& tiling) {
    LayerNorm<U, T, isReuseSource, config>(output, outputMean, outputRstd, inputX, gamma, beta, epsilon,
                                           sim_adv::stack_tmp("LayerNorm"), para, tiling);
}

}  // namespace AscendC

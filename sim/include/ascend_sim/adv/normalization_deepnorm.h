// DeepNorm (asc-devkit include/adv_api/normalization/deepnorm.h; dav_c220:
// impl/adv_api/detail/normalization/deepnorm/deepnorm_common_impl.h DeepNormImpl,
// DeepNormND and its helpers; deepnorm_v220_impl.h the basic block's Brcb
// broadcasts): per tiling round of rows, in fp32 slices A / B / C of the tmp:
// X1 = alpha x + gx; mean = row sums of X1 / H; variance = row sums of
// (X1 - mean)^2 / H; rstd = 1 / sqrt(variance + epsilon) by Sqrt and Div;
// y = (X1 - mean) rstd gamma + beta. Half is widened first and narrowed last,
// its mean / variance kept in fp32 slices and narrowed after the last round.
// The same Counter-mode basic ops and barriers, so every check sees each step;
// the tail round rewrites the tiling's bshCurLength / bsCurLength, as there.
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
#include "normalization_rmsnorm.h"
#include "normalization_tiling_data.h"

namespace AscendC {
namespace sim_adv {
namespace deepnorm {

using rms::blockBs;
using rms::blockH;
using rms::repeat_reduce_sum;

struct Slices {
    LocalTensor<float> a, b, c, mean, var;
};

// The tmp slice of 8 rows x H and more rows than 64-column strips: the basic
// block then broadcasts a value a row by Brcb instead of one op a row.
inline bool brcb_better(const DeepNormTiling& t) {
    return t.oneTmpSize % (t.hLength * blockBs) == 0 && t.bsCurLength > t.hLength / blockH;
}

// dst's first 64 columns of row i = src[i] (H = n x 64 reuses them for every strip).
inline void brcb64(const LocalTensor<float>& dst, const LocalTensor<float>& src, uint32_t bs) {
    SetMaskNorm();
    ResetMask();
    Brcb(dst, src, uint8_t(bs / blockBs), BrcbRepeatParams(8, 64));
    PipeBarrier<PIPE_V>();
    SetMaskCount();
    SetVectorMask<float>(0, bs * blockH);
    Adds<float, false>(dst, dst, 0.0f, MASK_PLACEHOLDER, 1, UnaryRepeatParams(1, 0, 8, 8));
    PipeBarrier<PIPE_V>();
}

// Row sums of the basic block: strips added into the first, then one sum a row
// into out and again into tmp.
inline void reduce_basic(const LocalTensor<float>& out, const LocalTensor<float>& tmp, const LocalTensor<float>& in,
                         uint32_t bs, uint32_t h) {
    const uint8_t rep = uint8_t(h / blockH * 8);
    SetVectorMask<float>(0, bs * blockH);
    for (uint32_t i = 1; i < h / blockH; ++i) {
        Add<float, false>(in, in[i * blockH], in, MASK_PLACEHOLDER, 1, BinaryRepeatParams(1, 1, 1, rep, rep, rep));
        PipeBarrier<PIPE_V>();
    }
    repeat_reduce_sum(out, in, rep);
    PipeBarrier<PIPE_V>();
    repeat_reduce_sum(tmp, in, rep);
    PipeBarrier<PIPE_V>();
    SetVectorMask<float>(0, bs);
}

// Row sums of the first originalH of each row, folded 64 at a time in tmp's
// row; the last fold goes to out[i] and tmp[i].
inline void reduce_generic(const LocalTensor<float>& out, const LocalTensor<float>& tmp,
                           const LocalTensor<float>& in, uint32_t bs, uint32_t h, uint32_t originalH) {
    for (uint32_t i = 0; i < bs; ++i) {
        LocalTensor<float> src = in[i * h], dst = tmp[i * h];
        for (uint32_t n = originalH; n > 1; n = (n + 63) / 64) {
            SetVectorMask<float>(0, n);
            if (n <= 64) {
                repeat_reduce_sum(out[i], src, DEFAULT_REPEAT_STRIDE);
                PipeBarrier<PIPE_V>();
                dst = tmp[i];
            }
            repeat_reduce_sum(dst, src, DEFAULT_REPEAT_STRIDE);
            PipeBarrier<PIPE_V>();
            src = dst;
        }
    }
    SetVectorMask<float>(0, bs);
}

template <bool isBasicBlock>
void reduce(const LocalTensor<float>& out, const LocalTensor<float>& tmp, const LocalTensor<float>& in,
            const DeepNormTiling& t) {
    if constexpr (isBasicBlock) reduce_basic(out, tmp, in, t.bsCurLength, t.hLength);
    else reduce_generic(out, tmp, in, t.bsCurLength, t.hLength, t.originalHLength);
}

// dst row i = src row i + (sign) rows[i] or * rows[i], the value read by the scalar unit.
template <bool mul>
void per_row(const LocalTensor<float>& dst, const LocalTensor<float>& src, const LocalTensor<float>& rows,
             const DeepNormTiling& t) {
    const TEventID e = GetTPipePtr()->FetchEventID(HardEvent::V_S);
    SetFlag<HardEvent::V_S>(e);
    WaitFlag<HardEvent::V_S>(e);
    SetVectorMask<float>(0, t.hLength);
    for (uint32_t i = 0; i < t.bsCurLength; ++i) {
        const uint32_t off = i * t.hLength;
        if constexpr (mul) Muls<float, false>(dst[off], src[off], rows.GetValue(i), MASK_PLACEHOLDER, 1, {});
        else Adds<float, false>(dst[off], src[off], rows.GetValue(i) * -1.0f, MASK_PLACEHOLDER, 1, {});
    }
    PipeBarrier<PIPE_V>();
    SetVectorMask<float>(0, t.bshCurLength);
}

// dst = src0 (B x S x H) with src1 (H) added (mul false) or multiplied, a row or a strip at a time.
template <bool isBasicBlock, bool mul>
void with_row_vector(const LocalTensor<float>& dst, const LocalTensor<float>& src0, const LocalTensor<float>& src1,
                     uint32_t bs, uint32_t h) {
    auto op = [](const LocalTensor<float>& d, const LocalTensor<float>& a, const LocalTensor<float>& b,
                 const BinaryRepeatParams& p) {
        if constexpr (mul) Mul<float, false>(d, a, b, MASK_PLACEHOLDER, 1, p);
        else Add<float, false>(d, a, b, MASK_PLACEHOLDER, 1, p);
    };
    if constexpr (isBasicBlock) {
        const uint8_t rep = uint8_t(h / 8);
        SetVectorMask<float>(0, bs * blockH);
        for (uint32_t i = 0; i < h / blockH; ++i)
            op(dst[i * blockH], src0[i * blockH], src1[i * blockH], BinaryRepeatParams(1, 1, 1, rep, rep, 0));
        PipeBarrier<PIPE_V>();
        SetVectorMask<float>(0, h);
    } else {
        for (uint32_t i = 0; i < bs; ++i) op(dst[i * h], src0[i * h], src1, BinaryRepeatParams{});
        PipeBarrier<PIPE_V>();
    }
}

// The basic block's strip-wise op of a Brcb-broadcast C with a B x S x H tensor.
template <bool sub>
void strips_with_c(const LocalTensor<float>& dst, const LocalTensor<float>& x, const LocalTensor<float>& c,
                   const DeepNormTiling& t) {
    const uint32_t n = t.hLength / blockH;
    const uint8_t rep = uint8_t(n * 8);
    SetVectorMask<float>(0, t.bshCurLength / n);
    for (uint32_t i = 0; i < n; ++i) {
        if constexpr (sub)
            Sub<float, false>(dst[i * blockH], x[i * blockH], c, MASK_PLACEHOLDER, 1,
                              BinaryRepeatParams(1, 1, 1, rep, rep, 8));
        else
            Mul<float, false>(dst[i * blockH], c, x[i * blockH], MASK_PLACEHOLDER, 1,
                              BinaryRepeatParams(1, 1, 1, rep, 8, rep));
    }
    PipeBarrier<PIPE_V>();
    SetVectorMask<float>(0, t.bshCurLength);
}

// X1 = alpha x + gx into A (float: alpha x in B first; half: both widened).
template <class T>
void scaled_sum(const LocalTensor<T>& x, const LocalTensor<T>& gx, T alpha, const DeepNormTiling& t,
                const Slices& s) {
    SetVectorMask<float>(0, t.bshCurLength);
    if constexpr (std::is_same_v<T, half>) {
        const UnaryRepeatParams w(1, 1, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE / 2);
        Cast<float, half, false>(s.a, x, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, w);
        PipeBarrier<PIPE_V>();
        Cast<float, half, false>(s.c, gx, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, w);
        PipeBarrier<PIPE_V>();
        Muls<float, false>(s.a, s.a, float(alpha), MASK_PLACEHOLDER, 1, {});
        PipeBarrier<PIPE_V>();
        Add<float, false>(s.a, s.c, s.a, MASK_PLACEHOLDER, 1, {});
    } else {
        Muls<float, false>(s.b, x, alpha, MASK_PLACEHOLDER, 1, {});
        PipeBarrier<PIPE_V>();
        Add<float, false>(s.a, gx, s.b, MASK_PLACEHOLDER, 1, {});
    }
    PipeBarrier<PIPE_V>();
}

// The layer norm of X1 (in A): mean and variance into their slices, y into dst.
template <class T, bool isBasicBlock>
void layer_norm(const LocalTensor<T>& dst, const LocalTensor<float>& mean, const LocalTensor<float>& var,
                const LocalTensor<T>& gamma, const LocalTensor<T>& beta, float epsilon, const DeepNormTiling& t,
                const Slices& s) {
    const bool brcb = isBasicBlock && brcb_better(t);
    SetVectorMask<float>(0, t.bshCurLength);
    Muls<float, false>(s.c, s.a, t.lastDimValueBack, MASK_PLACEHOLDER, 1, {});
    PipeBarrier<PIPE_V>();
    reduce<isBasicBlock>(mean, s.c, s.c, t);
    // B = X1 - mean
    if (brcb) {
        brcb64(s.c, mean, t.bsCurLength);
        strips_with_c<true>(s.b, s.a, s.c, t);
    } else {
        per_row<false>(s.b, s.a, mean, t);
    }
    Mul<float, false>(s.c, s.b, s.b, MASK_PLACEHOLDER, 1, {});
    PipeBarrier<PIPE_V>();
    Muls<float, false>(s.a, s.c, t.lastDimValueBack, MASK_PLACEHOLDER, 1, {});
    PipeBarrier<PIPE_V>();
    reduce<isBasicBlock>(var, s.c, s.a, t);
    // A = 1 / sqrt(variance + epsilon), a row each
    Adds<float, false>(s.a, s.c, epsilon, MASK_PLACEHOLDER, 1, {});
    PipeBarrier<PIPE_V>();
    Duplicate<float, false>(s.c, 1.0f, 1, 1, 1, 8);
    PipeBarrier<PIPE_V>();
    Sqrt<float, false>(s.a, s.a, 1, 1, {});
    PipeBarrier<PIPE_V>();
    Div<float, false>(s.a, s.c, s.a, 1, 1, {});
    PipeBarrier<PIPE_V>();
    // C = (X1 - mean) rstd
    if (brcb) {
        brcb64(s.c, s.a, t.bsCurLength);
        strips_with_c<false>(s.a, s.b, s.c, t);
        Adds<float, false>(s.c, s.a, 0.0f, MASK_PLACEHOLDER, 1, {});
        PipeBarrier<PIPE_V>();
    } else {
        per_row<true>(s.c, s.b, s.a, t);
    }
    SetVectorMask<float>(0, t.hLength);
    if constexpr (std::is_same_v<T, half>) {
        const UnaryRepeatParams w(1, 1, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE / 2);
        Cast<float, half, false>(s.a, gamma, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, w);
        PipeBarrier<PIPE_V>();
        with_row_vector<isBasicBlock, true>(s.b, s.c, s.a, t.bsCurLength, t.hLength);
        Cast<float, half, false>(s.c, beta, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, w);
        PipeBarrier<PIPE_V>();
        with_row_vector<isBasicBlock, false>(s.a, s.b, s.c, t.bsCurLength, t.hLength);
        SetVectorMask<float>(0, t.bshCurLength);
        Cast<half, float, false>(dst, s.a, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1,
                                 UnaryRepeatParams(1, 1, DEFAULT_REPEAT_STRIDE / 2, DEFAULT_REPEAT_STRIDE));
        PipeBarrier<PIPE_V>();
    } else {
        with_row_vector<isBasicBlock, true>(s.a, s.c, gamma, t.bsCurLength, t.hLength);
        with_row_vector<isBasicBlock, false>(dst, s.a, beta, t.bsCurLength, t.hLength);
    }
}

// The kernel checks (CheckFuncClassDeepNorm, IsDeepNormParamValid, GetDeepNormTensorInfo).
template <class T, bool isReuseSrc, bool isBasicBlock>
void check(const LocalTensor<T>& beta, const LocalTensor<T>& gamma, const LocalTensor<uint8_t>& tmp,
           const DeepNormTiling& t) {
    constexpr const char* api = "DeepNorm";
    if (std::is_same_v<T, half> && isReuseSrc)
        d::fail(api, "isReuseSrc with half", "isReuseSrc must be false for half (the source is widened, not reused)");
    for (const auto* v : {&beta, &gamma}) {
        const char* role = v == &beta ? "betaLocal" : "gammaLocal";
        if (v->GetSize() * sizeof(T) % 32 != 0)
            d::fail(api, "gamma / beta not 32 B aligned", "%s holds %u B; it must be 32 B aligned", role,
                    uint32_t(v->GetSize() * sizeof(T)));
        if (v->GetSize() > 2040)
            d::fail(api, "last axis above 2040", "%s holds %u elements; the last axis can not exceed 2040", role,
                    v->GetSize());
    }
    if (t.oneTmpSize == 0) d::fail(api, "oneTmpSize 0", "tiling.oneTmpSize is 0: the reduce axis does not fit the tmp");
    if (isBasicBlock && (t.hLength % blockH != 0 || t.originalHLength % blockH != 0 ||
                         t.bLength * t.sLength % blockBs != 0))
        d::fail(api, "not a basic block",
                "with isBasicBlock, hLength and originalHLength must be multiples of 64 and bLength x sLength of 8 "
                "(they are %u, %u, %u)",
                t.hLength, t.originalHLength, t.bLength * t.sLength);
    const uint32_t slices = std::is_same_v<T, float> && isReuseSrc ? 2 : 3;
    const uint32_t last = slices == 2 ? t.secondTmpStartPos : t.thirdTmpStartPos;
    if (last + t.oneTmpSize > t.tmpBufSize)
        d::fail(api, "tiling slices beyond tmpBufSize",
                "the tiling's last slice ends at %u floats, beyond its tmpBufSize %u", last + t.oneTmpSize,
                t.tmpBufSize);
    if (tmp.GetSize() / 4 < t.tmpBufSize)
        d::fail(api, "sharedTmpBuffer below the tiling's",
                "sharedTmpBuffer holds %u floats, less than the tiling's tmpBufSize %u (GetDeepNormTilingInfo's "
                "stackBufferSize)",
                tmp.GetSize() / 4, t.tmpBufSize);
}

}  // namespace deepnorm
}  // namespace sim_adv

template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
void DeepNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal, const LocalTensor<T>& rstdLocal,
              const LocalTensor<T>& srcLocal, const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
              const LocalTensor<T>& gammaLocal, const LocalTensor<uint8_t>& sharedTmpBuffer, const T alpha,
              const T epsilon, DeepNormTiling& tiling) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "DeepNorm: A2/A3 support half and float");
    namespace dn = sim_adv::deepnorm;
    constexpr const char* api = "DeepNorm";
    dn::check<T, isReuseSrc, isBasicBlock>(betaLocal, gammaLocal, sharedTmpBuffer, tiling);
    const uint32_t all = tiling.inputXSize, rows = tiling.meanVarSize;
    sim_adv::check_count(api, all, srcLocal, "srcLocal");
    sim_adv::check_count(api, all, gxLocal, "gxLocal");
    sim_adv::check_count(api, all, dstLocal, "dstLocal");
    sim_adv::check_count(api, rows, meanLocal, "meanLocal");
    sim_adv::check_count(api, rows, rstdLocal, "rstdLocal");
    const uint32_t tmpBytes = sharedTmpBuffer.GetSize();
    sim_adv::check_disjoint(api, sharedTmpBuffer, tmpBytes, "sharedTmpBuffer", srcLocal, all, "srcLocal");
    sim_adv::check_disjoint(api, sharedTmpBuffer, tmpBytes, "sharedTmpBuffer", dstLocal, all, "dstLocal");
    const LocalTensor<float> stack = sharedTmpBuffer.ReinterpretCast<float>();
    dn::Slices s;
    if constexpr (std::is_same_v<T, half>) {
        s = {stack[tiling.firstTmpStartPos], stack[tiling.secondTmpStartPos], stack[tiling.thirdTmpStartPos],
             stack[tiling.meanTmpTensorPos], stack[tiling.varianceTmpTensorPos]};
    } else if constexpr (isReuseSrc) {
        s = {srcLocal, stack[tiling.firstTmpStartPos], stack[tiling.secondTmpStartPos], meanLocal, rstdLocal};
    } else {
        s = {stack[tiling.firstTmpStartPos], stack[tiling.secondTmpStartPos], stack[tiling.thirdTmpStartPos],
             meanLocal, rstdLocal};
    }
    SetMaskCount();
    auto round = [&](uint32_t bsh, uint32_t bs) {
        dn::scaled_sum(srcLocal[bsh], gxLocal[bsh], alpha, tiling, s);
        dn::layer_norm<T, isBasicBlock>(dstLocal[bsh], s.mean[bs], s.var[bs], gammaLocal, betaLocal, float(epsilon),
                                        tiling, s);
    };
    for (uint32_t i = 0; i < tiling.loopRound; ++i) round(i * tiling.inputRoundSize, i * tiling.meanVarRoundSize);
    if (tiling.inputTailSize > 0) {
        tiling.bshCurLength = tiling.inputTailSize;
        tiling.bsCurLength = tiling.meanVarTailSize;
        round(tiling.inputTailPos, tiling.meanVarTailPos);
    }
    if constexpr (std::is_same_v<T, half>) {
        const UnaryRepeatParams n(1, 1, DEFAULT_REPEAT_STRIDE / 2, DEFAULT_REPEAT_STRIDE);
        SetVectorMask<float>(0, tiling.meanVarSize);
        Cast<half, float, false>(meanLocal, s.mean, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, n);
        PipeBarrier<PIPE_V>();
        Cast<half, float, false>(rstdLocal, s.var, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, n);
        PipeBarrier<PIPE_V>();
    }
    SetMaskNorm();
    ResetMask();
}
template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
void DeepNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal, const LocalTensor<T>& rstdLocal,
              const LocalTensor<T>& srcLocal, const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
              const LocalTensor<T>& gammaLocal, const T alpha, const T epsilon, DeepNormTiling& tiling) {
    DeepNorm<T, isReuseSrc, isBasicBlock>(dstLocal, meanLocal, rstdLocal, srcLocal, gxLocal, betaLocal, gammaLocal,
                                          sim_adv::stack_tmp("DeepNorm"), alpha, epsilon, tiling);
}

}  // namespace AscendC

// WelfordUpdate and WelfordFinalize (asc-devkit include/adv_api/normalization/
// layernorm.h WelfordUpdate, welfordfinalize.h; dav_c220:
// impl/adv_api/detail/normalization/layernorm/layernorm_common_impl.h
// WelfordUpdateImpl and layernorm_common_basic_impl.h its compute steps;
// welfordfinalize/welfordfinalize_common_impl.h WelfordFinalizeImpl).
// Update, over the first abComputeLength of the row, in chunks of 64 x tmpNum:
// mean' = mean + (x - mean) nRec; M2' = M2 + (x - mean)(x - mean'), half x
// widened first; with isInplace the rest of the row copies the inputs.
// Finalize folds the rows' (mean, M2) pairs, weighted by counts or by the
// head / tail counts, into one mean and one variance (times rRec), written
// to element 0 of 8 (the other 7 zeroed). The same basic ops and barriers.
#pragma once
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "../kernel_data_copy.h"
#include "../kernel_sync.h"
#include "../kernel_vec_binary.h"
#include "../kernel_vec_cast.h"
#include "../kernel_vec_mask.h"
#include "../kernel_vec_reduce_repeat.h"
#include "../kernel_vec_scalar.h"
#include "adv_check.h"
#include "normalization_layernorm_params.h"
#include "normalization_layernorm_reduce.h"

namespace AscendC {
struct WelfordFinalizePara {
    uint32_t rnLength;
    uint32_t abLength;
    uint32_t headCount;
    uint32_t headCountLength;
    uint32_t tailCount;
    uint32_t tailCountLength;
    float abRec;
    float rRec;
};

namespace sim_adv {
namespace welford {

constexpr uint32_t repeatFloats = 64;

template <class T>
void check_ub(const char* api, const LocalTensor<T>& t, const char* role) {
    const auto pos = TPosition(t.GetPosition());
    if (pos != TPosition::VECIN && pos != TPosition::VECOUT && pos != TPosition::VECCALC)
        d::fail(api, "tensor not in UB", "%s must be in UB (VECIN/VECOUT/VECCALC)", role);
}

// CheckFuncClassWelfordUpdate and WelfordUpdateImpl's asserts.
template <class T>
void check_update(const LocalTensor<float>& outMean, const LocalTensor<float>& outVar,
                  const LocalTensor<float>& inMean, const LocalTensor<float>& inVar, const LocalTensor<T>& x,
                  const LocalTensor<uint8_t>& tmp, const WelfordUpdateParam& p) {
    constexpr const char* api = "WelfordUpdate";
    check_ub(api, outMean, "outputMean"), check_ub(api, outVar, "outputVariance");
    check_ub(api, inMean, "inputMean"), check_ub(api, inVar, "inputVariance"), check_ub(api, x, "inputX");
    check_ub(api, tmp, "sharedTmpBuffer");
    if (p.rnLength != 1) d::fail(api, "rnLength not 1", "para.rnLength is %u; it must be 1", p.rnLength);
    if (p.abLength * sizeof(T) % 32 != 0)
        d::fail(api, "abLength not 32 B aligned", "para.abLength %u must be a multiple of 32 / sizeof(T) = %u",
                p.abLength, uint32_t(32 / sizeof(T)));
    if (p.abComputeLength == 0 || p.abComputeLength > p.abLength)
        d::fail(api, "abComputeLength out of range", "para.abComputeLength %u must be in (0, para.abLength %u]",
                p.abComputeLength, p.abLength);
    const uint32_t n = p.rnLength * p.abLength;
    check_count(api, n, outMean, "outputMean"), check_count(api, n, outVar, "outputVariance");
    check_count(api, n, inMean, "inputMean"), check_count(api, n, inVar, "inputVariance");
    check_count(api, n, x, "inputX");
    const uint32_t tb = tmp.GetSize();
    check_disjoint(api, tmp, tb, "sharedTmpBuffer", outMean, n, "outputMean");
    check_disjoint(api, tmp, tb, "sharedTmpBuffer", outVar, n, "outputVariance");
    check_disjoint(api, tmp, tb, "sharedTmpBuffer", inMean, n, "inputMean");
    check_disjoint(api, tmp, tb, "sharedTmpBuffer", inVar, n, "inputVariance");
    check_disjoint(api, tmp, tb, "sharedTmpBuffer", x, n, "inputX");
    check_disjoint(api, outMean, n, "outputMean", outVar, n, "outputVariance");
}

// One chunk (the Counter-mode mask as set): float with or without reusing x, or half widened.
template <class T, bool isReuseSource>
void update_chunk(const LocalTensor<float>& outMean, const LocalTensor<float>& outVar, const LocalTensor<T>& x,
                  const LocalTensor<float>& inMean, const LocalTensor<float>& inVar, const LocalTensor<float>& buf,
                  float nRec, uint32_t chunk) {
    const UnaryRepeatParams u;
    const BinaryRepeatParams b;
    // diff = x - mean; step = diff nRec; mean' = step + mean.
    auto mean_step = [&](const LocalTensor<float>& diff, const LocalTensor<float>& xf, const LocalTensor<float>& step) {
        PipeBarrier<PIPE_V>();
        Sub<float, false>(diff, xf, inMean, MASK_PLACEHOLDER, 1, b);
        PipeBarrier<PIPE_V>();
        Muls<float, false>(step, diff, nRec, MASK_PLACEHOLDER, 1, u);
        PipeBarrier<PIPE_V>();
        Add<float, false>(outMean, step, inMean, MASK_PLACEHOLDER, 1, b);
        PipeBarrier<PIPE_V>();
    };
    auto var_step = [&](const LocalTensor<float>& prod) {
        PipeBarrier<PIPE_V>();
        Add<float, false>(outVar, prod, inVar, MASK_PLACEHOLDER, 1, b);
        PipeBarrier<PIPE_V>();
    };
    if constexpr (std::is_same_v<T, half>) {
        const LocalTensor<float> xf = buf, diff = buf[chunk], step = buf[2 * chunk];
        PipeBarrier<PIPE_V>();
        Cast<float, half, false>(xf, x, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1,
                                 UnaryRepeatParams(1, 1, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE / 2));
        mean_step(diff, xf, step);
        Sub<float, false>(step, xf, outMean, MASK_PLACEHOLDER, 1, b);
        PipeBarrier<PIPE_V>();
        Mul<float, false>(diff, diff, step, MASK_PLACEHOLDER, 1, b);
        var_step(diff);
    } else if constexpr (isReuseSource) {
        const LocalTensor<float> t = buf;
        mean_step(t, x, t);
        Sub<float, false>(t, x, outMean, MASK_PLACEHOLDER, 1, b);
        PipeBarrier<PIPE_V>();
        Sub<float, false>(x, x, inMean, MASK_PLACEHOLDER, 1, b);
        PipeBarrier<PIPE_V>();
        Mul<float, false>(t, t, x, MASK_PLACEHOLDER, 1, b);
        var_step(t);
    } else {
        const LocalTensor<float> diff = buf, step = buf[chunk];
        mean_step(diff, x, step);
        Sub<float, false>(step, x, outMean, MASK_PLACEHOLDER, 1, b);
        PipeBarrier<PIPE_V>();
        Mul<float, false>(diff, diff, step, MASK_PLACEHOLDER, 1, b);
        var_step(diff);
    }
}

// The fp32 buffers a chunk takes: three for half, one for float reusing x, else two.
template <class T, bool isReuseSource>
constexpr uint32_t update_buffers() {
    return sizeof(T) == 2 ? 3 : isReuseSource ? 1 : 2;
}

// WelfordFinalize's tmp: two 64-float partial-sum rows, then two compute slices.
struct FinalizeTmp {
    LocalTensor<float> outMean, outVar, mean, var;
    uint32_t computeLength, round, tail;
};

inline FinalizeTmp finalize_tmp(const LocalTensor<uint8_t>& tmp, const WelfordFinalizePara& p) {
    const LocalTensor<float> s = tmp.ReinterpretCast<float>();
    constexpr uint32_t rows = 2 * repeatFloats, slices = 2 * repeatFloats;
    if (s.GetSize() < rows + slices)
        d::fail("WelfordFinalize", "sharedTmpBuffer below the minimum",
                "sharedTmpBuffer holds %u B; it must hold at least %u B", tmp.GetSize(), (rows + slices) * 4);
    FinalizeTmp t;
    t.computeLength = (s.GetSize() - rows) / slices * repeatFloats;
    t.round = p.abLength / t.computeLength;
    t.tail = p.abLength % t.computeLength;
    t.outMean = s, t.outVar = s[repeatFloats], t.mean = s[rows], t.var = s[rows + t.computeLength];
    return t;
}

// CheckFuncClassWelfordFinalize and welfordFinalizeCommonCheck.
inline void check_finalize(const LocalTensor<float>& outMean, const LocalTensor<float>& outVar,
                           const LocalTensor<float>& inMean, const LocalTensor<float>& inVar,
                           const LocalTensor<uint8_t>& tmp, const WelfordFinalizePara& p, bool counts) {
    constexpr const char* api = "WelfordFinalize";
    constexpr double rtol = 1e-4;
    check_ub(api, outMean, "outputMean"), check_ub(api, outVar, "outputVariance");
    check_ub(api, inMean, "inputMean"), check_ub(api, inVar, "inputVariance");
    check_ub(api, tmp, "sharedTmpBuffer");
    if (p.abLength == 0 || p.abLength % 8 != 0)
        d::fail(api, "abLength not 32 B aligned", "para.abLength %u must be a positive multiple of 8 (32 B of float)",
                p.abLength);
    if (p.headCountLength + p.tailCountLength != p.abLength)
        d::fail(api, "head + tail lengths not abLength",
                "para.headCountLength %u + para.tailCountLength %u must equal para.abLength %u", p.headCountLength,
                p.tailCountLength, p.abLength);
    if (std::fabs(double(p.abRec) - 1.0 / p.abLength) >= rtol)
        d::fail(api, "abRec not 1 / abLength", "para.abRec %g must be 1 / para.abLength (%u)", double(p.abRec),
                p.abLength);
    if (p.tailCount == 0 && p.tailCountLength != 0)
        d::fail(api, "tailCountLength without tailCount", "para.tailCountLength %u must be 0 when para.tailCount is 0",
                p.tailCountLength);
    if (!counts && std::fabs(double(p.rRec) - 1.0 / (double(p.rnLength) * p.abLength)) >= rtol)
        d::fail(api, "rRec not 1 / (rnLength x abLength)",
                "para.rRec %g must be 1 / (para.rnLength %u x para.abLength %u)", double(p.rRec), p.rnLength,
                p.abLength);
    check_count(api, p.abLength, inMean, "inputMean"), check_count(api, p.abLength, inVar, "inputVariance");
    check_count(api, 8, outMean, "outputMean"), check_count(api, 8, outVar, "outputVariance");
    const uint32_t tb = tmp.GetSize();
    check_disjoint(api, tmp, tb, "sharedTmpBuffer", inMean, p.abLength, "inputMean");
    check_disjoint(api, tmp, tb, "sharedTmpBuffer", inVar, p.abLength, "inputVariance");
    check_disjoint(api, tmp, tb, "sharedTmpBuffer", outMean, 8, "outputMean");
    check_disjoint(api, tmp, tb, "sharedTmpBuffer", outVar, 8, "outputVariance");
}

// How many of a chunk's len elements at offset lie in the head (headCountLength).
inline int32_t head_in_chunk(const WelfordFinalizePara& p, uint32_t len, uint32_t offset) {
    const int32_t head = int32_t(p.headCountLength) - int32_t(offset);
    return head > int32_t(len) ? int32_t(len) : head < 0 ? 0 : head;
}

// The weights of a chunk at offset: counts (widened) or headCount / tailCount by position.
// Mean partial: sum(w mean) rRec (or sum(mean) abRec when all weights are equal).
inline void mean_partial(const LocalTensor<float>& out, const LocalTensor<float>& inMean,
                         const LocalTensor<int32_t>* counts, const FinalizeTmp& t, const WelfordFinalizePara& p,
                         uint32_t len, uint32_t offset) {
    const UnaryRepeatParams u;
    const BinaryRepeatParams b;
    SetMaskCount();
    SetVectorMask<float, MaskMode::COUNTER>(0, len);
    if (counts) {
        Cast<float, int32_t, false>(t.mean, *counts, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, u);
        PipeBarrier<PIPE_V>();
        Mul<float, false>(t.mean, inMean, t.mean, MASK_PLACEHOLDER, 1, b);
        PipeBarrier<PIPE_V>();
        Muls<float, false>(t.mean, t.mean, p.rRec, MASK_PLACEHOLDER, 1, u);
        PipeBarrier<PIPE_V>();
        lnorm::reduce_sum(t.var, out, t.mean, 1, len);
    } else if (p.tailCountLength == 0 || p.tailCount == 0) {
        Muls<float, false>(t.mean, inMean, p.abRec, MASK_PLACEHOLDER, 1, u);
        PipeBarrier<PIPE_V>();
        lnorm::reduce_sum(t.var, out, t.mean, 1, len);
    } else {
        Muls<float, false>(t.var, inMean, float(int32_t(p.tailCount)), MASK_PLACEHOLDER, 1, u);
        PipeBarrier<PIPE_V>();
        Muls<float, false>(t.mean, t.var, p.rRec, MASK_PLACEHOLDER, 1, u);
        PipeBarrier<PIPE_V>();
        const int32_t head = head_in_chunk(p, len, offset);
        if (head > 0) {
            SetVectorMask<float, MaskMode::COUNTER>(0, uint64_t(head));
            Muls<float, false>(t.mean, t.mean, float(int32_t(p.headCount)) / float(int32_t(p.tailCount)),
                               MASK_PLACEHOLDER, 1, u);
            PipeBarrier<PIPE_V>();
        }
        SetVectorMask<float, MaskMode::COUNTER>(0, len);
        lnorm::reduce_sum(t.var, out, t.mean, 1, len);
    }
    PipeBarrier<PIPE_V>();
}

// Variance partial: sum(M2 + w (mean - Mean)^2) rRec, Mean in t.mean[0] broadcast over the chunk.
inline void var_partial(const LocalTensor<float>& out, const LocalTensor<float>& inMean,
                        const LocalTensor<float>& inVar, const LocalTensor<int32_t>* counts, const FinalizeTmp& t,
                        const WelfordFinalizePara& p, uint32_t len, uint32_t offset) {
    const UnaryRepeatParams u;
    const BinaryRepeatParams b;
    Adds(t.var, t.mean, 0.0f, 1);
    PipeBarrier<PIPE_V>();
    SetMaskCount();
    lnorm::broadcast_last_dim(t.mean, t.var, 1, len);
    SetMaskCount();
    SetVectorMask<float, MaskMode::COUNTER>(0, len);
    Sub<float, false>(t.var, inMean, t.mean, MASK_PLACEHOLDER, 1, b);
    PipeBarrier<PIPE_V>();
    Mul<float, false>(t.mean, t.var, t.var, MASK_PLACEHOLDER, 1, b);
    PipeBarrier<PIPE_V>();
    if (counts) {
        Cast<float, int32_t, false>(t.var, *counts, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, u);
        PipeBarrier<PIPE_V>();
        Mul<float, false>(t.mean, t.mean, t.var, MASK_PLACEHOLDER, 1, b);
        PipeBarrier<PIPE_V>();
        Add<float, false>(t.var, t.mean, inVar, MASK_PLACEHOLDER, 1, b);
        PipeBarrier<PIPE_V>();
        Muls<float, false>(t.var, t.var, p.rRec, MASK_PLACEHOLDER, 1, u);
        PipeBarrier<PIPE_V>();
        lnorm::reduce_sum(t.mean, out, t.var, 1, len);
    } else {
        const bool tail = !(p.tailCountLength == 0 || p.tailCount == 0);
        const float w = float(int32_t(tail ? p.tailCount : p.rnLength));
        Muls<float, false>(t.var, t.mean, w, MASK_PLACEHOLDER, 1, u);
        PipeBarrier<PIPE_V>();
        const int32_t head = tail ? head_in_chunk(p, len, offset) : 0;
        if (head > 0) {
            SetVectorMask<float, MaskMode::COUNTER>(0, uint64_t(head));
            Muls<float, false>(t.var, t.var, float(int32_t(p.headCount)) / float(int32_t(p.tailCount)),
                               MASK_PLACEHOLDER, 1, u);
            PipeBarrier<PIPE_V>();
            SetVectorMask<float, MaskMode::COUNTER>(0, len);
        }
        Add<float, false>(t.mean, inVar, t.var, MASK_PLACEHOLDER, 1, b);
        PipeBarrier<PIPE_V>();
        Muls<float, false>(t.var, t.mean, p.rRec, MASK_PLACEHOLDER, 1, u);
        PipeBarrier<PIPE_V>();
        lnorm::reduce_sum(t.mean, out, t.var, 1, len);
    }
    PipeBarrier<PIPE_V>();
}

// Partials a chunk each into a 64-float row, folded to its first when the row
// fills, then summed: the mean pass, then the variance pass around that mean.
inline void finalize(const LocalTensor<float>& outMean, const LocalTensor<float>& outVar,
                     const LocalTensor<float>& inMean, const LocalTensor<float>& inVar,
                     const LocalTensor<int32_t>* counts, const FinalizeTmp& t, const WelfordFinalizePara& p) {
    auto fold = [](const LocalTensor<float>& row, uint32_t n) {
        SetMaskNorm();
        WholeReduceSum(row, row, int32_t(n), 1, DEFAULT_BLK_STRIDE, DEFAULT_BLK_STRIDE, int32_t(n >> 3));
        PipeBarrier<PIPE_V>();
    };
    auto pass = [&](const LocalTensor<float>& row, bool mean) {
        uint32_t offset = 0, slot = 0;
        auto chunk = [&](uint32_t len) {
            const LocalTensor<int32_t> c = counts ? (*counts)[offset] : LocalTensor<int32_t>{};
            const LocalTensor<int32_t>* cp = counts ? &c : nullptr;
            if (mean) {
                mean_partial(row[slot], inMean[offset], cp, t, p, len, offset);
            } else {
                Adds(t.mean, t.outMean, 0.0f, 1);
                PipeBarrier<PIPE_V>();
                var_partial(row[slot], inMean[offset], inVar[offset], cp, t, p, len, offset);
            }
            offset += len;
            ++slot;
        };
        for (uint32_t i = 0; i < t.round; ++i) {
            chunk(t.computeLength);
            if (slot == repeatFloats) {
                fold(row, repeatFloats);
                slot = 1;
            }
        }
        if (t.tail > 0) chunk(t.tail);
        fold(row, slot);
    };
    pass(t.outMean, true);
    pass(t.outVar, false);
    // Element 0 of each output, the other seven zeroed.
    Adds(outMean, t.outMean, 0.0f, 1);
    Adds(outVar, t.outVar, 0.0f, 1);
    PipeBarrier<PIPE_V>();
    SetMaskNorm();
    SetVectorMask<float>(0, 254);
    Duplicate<float, false>(outMean, 0.0f, MASK_PLACEHOLDER, 1, DEFAULT_BLK_STRIDE, DEFAULT_REPEAT_STRIDE);
    PipeBarrier<PIPE_V>();
    Duplicate<float, false>(outVar, 0.0f, MASK_PLACEHOLDER, 1, DEFAULT_BLK_STRIDE, DEFAULT_REPEAT_STRIDE);
    PipeBarrier<PIPE_V>();
}

}  // namespace welford
}  // namespace sim_adv

template <typename T, typename U, bool isReuseSource = false, const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                   const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance, const LocalTensor<T>& inputX,
                   const LocalTensor<uint8_t>& sharedTmpBuffer, const WelfordUpdateParam& para) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                  "WelfordUpdate: inputX (T) must be half or float on A2/A3");
    static_assert(std::is_same_v<U, float>, "WelfordUpdate: mean / variance (U) must be float on A2/A3");
    namespace wf = sim_adv::welford;
    constexpr const char* api = "WelfordUpdate";
    wf::check_update(outputMean, outputVariance, inputMean, inputVariance, inputX, sharedTmpBuffer, para);
    constexpr uint32_t bufs = wf::update_buffers<T, isReuseSource>();
    const uint32_t tmpNum = sharedTmpBuffer.GetSize() / (256 * bufs);
    if (tmpNum == 0)
        sim_adv::d::fail(api, "sharedTmpBuffer below the minimum",
                         "sharedTmpBuffer holds %u B, less than the %u B minimum GetWelfordUpdateMaxMinTmpSize gives",
                         sharedTmpBuffer.GetSize(), 256 * bufs);
    SetMaskCount();
    if (config.isInplace && para.abComputeLength < para.abLength) {
        // The uncomputed tail, from the 32 B block it starts in, keeps the inputs.
        const uint32_t rest = (para.abLength - para.abComputeLength + 7) / 8 * 8, at = para.abLength - rest;
        DataCopy(outputMean[at], inputMean[at], rest);
        DataCopy(outputVariance[at], inputVariance[at], rest);
        PipeBarrier<PIPE_V>();
    }
    const uint32_t chunk = wf::repeatFloats * tmpNum;
    const LocalTensor<float> buf = sharedTmpBuffer.ReinterpretCast<float>();
    SetVectorMask<float, MaskMode::COUNTER>(0, chunk);
    uint32_t offset = 0;
    for (uint32_t i = 0; i < para.abComputeLength / chunk; ++i, offset += chunk)
        wf::update_chunk<T, isReuseSource>(outputMean[offset], outputVariance[offset], inputX[offset],
                                           inputMean[offset], inputVariance[offset], buf, para.nRec, chunk);
    if (para.abComputeLength % chunk != 0) {
        SetVectorMask<float, MaskMode::COUNTER>(0, para.abComputeLength % chunk);
        wf::update_chunk<T, isReuseSource>(outputMean[offset], outputVariance[offset], inputX[offset],
                                           inputMean[offset], inputVariance[offset], buf, para.nRec, chunk);
    }
    SetMaskNorm();
    ResetMask();
}
template <typename T, typename U, bool isReuseSource = false, const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                   const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance, const LocalTensor<T>& inputX,
                   const WelfordUpdateParam& para) {
    WelfordUpdate<T, U, isReuseSource, config>(outputMean, outputVariance, inputMean, inputVariance, inputX,
                                               sim_adv::stack_tmp("WelfordUpdate"), para);
}

template <bool isReuseSource = false>
void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                     const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                     const LocalTensor<int32_t>& counts, const LocalTensor<uint8_t>& sharedTmpBuffer,
                     WelfordFinalizePara& para) {
    namespace wf = sim_adv::welford;
    wf::check_finalize(outputMean, outputVariance, inputMean, inputVariance, sharedTmpBuffer, para, true);
    wf::check_ub("WelfordFinalize", counts, "counts");
    sim_adv::check_count("WelfordFinalize", para.abLength, counts, "counts");
    const wf::FinalizeTmp t = wf::finalize_tmp(sharedTmpBuffer, para);
    SetMaskCount();
    wf::finalize(outputMean, outputVariance, inputMean, inputVariance, &counts, t, para);
    SetMaskNorm();
    ResetMask();
}
template <bool isReuseSource = false>
void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                     const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                     const LocalTensor<uint8_t>& sharedTmpBuffer, WelfordFinalizePara& para) {
    namespace wf = sim_adv::welford;
    wf::check_finalize(outputMean, outputVariance, inputMean, inputVariance, sharedTmpBuffer, para, false);
    const wf::FinalizeTmp t = wf::finalize_tmp(sharedTmpBuffer, para);
    SetMaskCount();
    wf::finalize(outputMean, outputVariance, inputMean, inputVariance, nullptr, t, para);
    SetMaskNorm();
    ResetMask();
}
template <bool isReuseSource = false>
void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                     const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                     const LocalTensor<int32_t>& counts, WelfordFinalizePara& para) {
    WelfordFinalize<isReuseSource>(outputMean, outputVariance, inputMean, inputVariance, counts,
                                   sim_adv::stack_tmp("WelfordFinalize"), para);
}
template <bool isReuseSource = false>
void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                     const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                     WelfordFinalizePara& para) {
    WelfordFinalize<isReuseSource>(outputMean, outputVariance, inputMean, inputVariance,
                                   sim_adv::stack_tmp("WelfordFinalize"), para);
}

}  // namespace AscendC

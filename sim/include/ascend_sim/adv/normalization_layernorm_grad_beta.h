// LayerNormGradBeta (asc-devkit include/adv_api/normalization/layernormgradbeta.h;
// dav_c220: impl/adv_api/detail/normalization/layernormgrad/
// layernormgradbeta_common_impl.h LayerNormGradBetaImpl, ComputeProcess,
// ReduceSumFirstN, GetLayerNormGradBetaTensorInfo): per round of rows in
// Counter mode, [Cast], res = dy resForGamma, then pdGamma += each row of res
// and pdBeta += each row of dy (the first round copies its first row, as
// there); half widens into fp32 slices and narrows the sums each round.
// The rows are read at a stride of originH, as there.
#pragma once
#include <cstdint>
#include <type_traits>

#include "../kernel_sync.h"
#include "../kernel_vec_binary.h"
#include "../kernel_vec_cast.h"
#include "../kernel_vec_mask.h"
#include "../kernel_vec_scalar.h"
#include "adv_check.h"
#include "normalization_tiling_data.h"

namespace AscendC {
namespace sim_adv {
namespace lngradbeta {

struct Params {
    uint32_t bsh, bs, h;
    LocalTensor<float> gamma, beta, dy, res;
};

// dst (h) = [src row 0 when clear] + the other rows (bs rows of h).
template <bool clear>
void column_sums(const LocalTensor<float>& dst, const LocalTensor<float>& src, uint32_t bs, uint32_t h) {
    SetVectorMask<float, MaskMode::COUNTER>(0, h);
    uint32_t i = 0;
    if constexpr (clear) {
        Adds<float, false>(dst, src, 0.0f, MASK_PLACEHOLDER, 1, UnaryRepeatParams{});
        i = 1;
        PipeBarrier<PIPE_V>();
    }
    for (; i < bs; ++i) {
        Add<float, false>(dst, src[i * h], dst, MASK_PLACEHOLDER, 1, BinaryRepeatParams{});
        PipeBarrier<PIPE_V>();
    }
}

template <bool clear>
void round(const LocalTensor<float>& resForGamma, const LocalTensor<float>& dy, const LocalTensor<float>& pdGamma,
           const LocalTensor<float>& pdBeta, const Params& p) {
    SetVectorMask<float, MaskMode::COUNTER>(0, p.bsh);
    Mul<float, false>(p.res, dy, resForGamma, MASK_PLACEHOLDER, 1, BinaryRepeatParams{});
    PipeBarrier<PIPE_V>();
    column_sums<clear>(pdGamma, p.res, p.bs, p.h);
    column_sums<clear>(pdBeta, dy, p.bs, p.h);
}
template <bool clear>
void round(const LocalTensor<half>& resForGamma, const LocalTensor<half>& dy, const LocalTensor<half>& pdGamma,
           const LocalTensor<half>& pdBeta, const Params& p) {
    SetVectorMask<half, MaskMode::COUNTER>(0, p.bsh);
    const UnaryRepeatParams w(1, 1, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE / 2);
    Cast<float, half, false>(p.dy, dy, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, w);
    PipeBarrier<PIPE_V>();
    Cast<float, half, false>(p.res, resForGamma, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, w);
    PipeBarrier<PIPE_V>();
    round<clear>(p.res, p.dy, p.gamma, p.beta, p);
    SetVectorMask<float, MaskMode::COUNTER>(0, p.h);
    const UnaryRepeatParams nw(1, 1, DEFAULT_REPEAT_STRIDE / 2, DEFAULT_REPEAT_STRIDE);
    Cast<half, float, false>(pdGamma, p.gamma, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, nw);
    PipeBarrier<PIPE_V>();
    Cast<half, float, false>(pdBeta, p.beta, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, nw);
    PipeBarrier<PIPE_V>();
}

}  // namespace lngradbeta
}  // namespace sim_adv

template <typename T, bool isReuseSource = false>
void LayerNormGradBeta(const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
                       const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                       const LocalTensor<uint8_t>& sharedTmpBuffer, const LayerNormGradBetaTiling& tiling) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                  "LayerNormGradBeta: A2/A3 support half and float");
    namespace gb = sim_adv::lngradbeta;
    constexpr const char* api = "LayerNormGradBeta";
    const LayerNormGradBetaTiling& t = tiling;
    if (t.oneCalSize == 0) sim_adv::d::fail(api, "oneCalSize 0", "tiling.oneCalSize is 0: no tiling given");
    if (std::is_same_v<T, half> && isReuseSource)
        sim_adv::d::fail(api, "isReuseSource with half", "isReuseSource must be false for half");
    const LocalTensor<float> stack = sharedTmpBuffer.ReinterpretCast<float>();
    const bool stackRes = !(std::is_same_v<T, float> && isReuseSource);
    if (stackRes && t.resForGammaTmpTensorPos + t.oneCalSize > t.stackBufferSize)
        sim_adv::d::fail(api, "tiling slices beyond stackBufferSize",
                         "the tiling's last slice ends at %u floats, beyond its stackBufferSize %u",
                         t.resForGammaTmpTensorPos + t.oneCalSize, t.stackBufferSize);
    if (stack.GetSize() < t.stackBufferSize)
        sim_adv::d::fail(api, "sharedTmpBuffer below the tiling's",
                         "sharedTmpBuffer holds %u floats, less than the tiling's stackBufferSize %u",
                         stack.GetSize(), t.stackBufferSize);
    const uint32_t n = t.bshLength;
    sim_adv::check_count(api, n, resForGamma, "resForGamma"), sim_adv::check_count(api, n, inputDy, "inputDy");
    sim_adv::check_count(api, t.hLength, outputPdGamma, "outputPdGamma");
    sim_adv::check_count(api, t.hLength, outputPdBeta, "outputPdBeta");
    gb::Params p{t.bshCurLength, t.bsCurLength, t.originalHLength, {}, {}, {}, {}};
    if constexpr (std::is_same_v<T, half>) {
        p.gamma = stack[t.gammaTempTensorPos], p.beta = stack[t.betaTempTensorPos];
        p.dy = stack[t.inputDyTmpTensorPos], p.res = stack[t.resForGammaTmpTensorPos];
    } else if constexpr (isReuseSource) {
        p.res = resForGamma;
    } else {
        p.res = stack[t.resForGammaTmpTensorPos];
    }
    SetMaskCount();
    gb::round<true>(resForGamma, inputDy, outputPdGamma, outputPdBeta, p);
    for (uint32_t i = 1, at = t.oneCalSize; i < t.loopRound; ++i, at += t.oneCalSize)
        gb::round<false>(resForGamma[at], inputDy[at], outputPdGamma, outputPdBeta, p);
    if (t.inputTailSize > 0) {
        p.bsh = t.inputTailSize, p.bs = t.bsTailSize;
        gb::round<false>(resForGamma[t.inputTailPos], inputDy[t.inputTailPos], outputPdGamma, outputPdBeta, p);
    }
    SetMaskNorm();
    ResetMask();
}
template <typename T, bool isReuseSource = false>
void LayerNormGradBeta(const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
                       const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                       LayerNormGradBetaTiling& tiling) {
    LayerNormGradBeta<T, isReuseSource>(outputPdGamma, outputPdBeta, resForGamma, inputDy,
                                        sim_adv::stack_tmp("LayerNormGradBeta"), tiling);
}

}  // namespace AscendC

// LayerNormGrad (asc-devkit include/adv_api/normalization/layernormgrad.h;
// dav_c220: impl/adv_api/detail/normalization/layernormgrad/
// layernormgrad_common_impl.h LayerNormGradImpl, ComputeProcess and its
// steps). Per round of rows in fp32 slices, with x1 = dy gamma, x2 = x - mean,
// r = (var + eps)^-0.5: pdVar = sum(-0.5 x1 x2 r^3),
// pdMean = sum(-x1 r) + pdVar / originH sum(-2 x2),
// pdX = x1 r + pdVar 2 / originH x2 + pdMean / originH, resForGamma = x2 r.
// Mostly level-2 ops with the row values broadcast by Brcb (a Duplicate a row
// for the last rows of 8), as there.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "../kernel_sync.h"
#include "../kernel_tpipe.h"
#include "../kernel_vec_binary.h"
#include "../kernel_vec_cast.h"
#include "../kernel_vec_mask.h"
#include "../kernel_vec_reduce_repeat.h"
#include "../kernel_vec_scalar.h"
#include "../kernel_vec_unary.h"
#include "adv_check.h"
#include "normalization_tiling_data.h"

namespace AscendC {
struct LayerNormGradShapeInfo {
    DataFormat dataFormat = DataFormat::ND;
};

namespace sim_adv {
namespace lngrad {

struct Slices {
    LocalTensor<float> x1, x2, x3, pdVar, pdMean, tmp, tmp1, tmp2, bsh;
    uint32_t h;
    float rH, twoRH;
};

inline float from_bits(uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

// dst (bs rows of h) = src[i] in row i: Brcb over groups of 8 rows, block column by column; the last rows by Duplicate.
inline void rows_of(const LocalTensor<float>& dst, const LocalTensor<float>& src, uint32_t bs, uint32_t h) {
    constexpr uint32_t perRepeat = 8 * MAX_REPEAT_TIMES;
    const uint32_t columns = h / 8, groups = bs / 8, tail = bs % 8, full = groups / MAX_REPEAT_TIMES,
                   rest = groups % MAX_REPEAT_TIMES;
    const BrcbRepeatParams p{uint16_t(columns), uint16_t(h)};
    for (uint32_t i = 0; i < columns; ++i) {
        for (uint32_t j = 0; j < full; ++j)
            Brcb(dst[i * 8 + j * perRepeat * h], src[j * perRepeat], uint8_t(MAX_REPEAT_TIMES), p);
        if (rest > 0) Brcb(dst[i * 8 + full * perRepeat * h], src[full * perRepeat], uint8_t(rest), p);
        PipeBarrier<PIPE_V>();
    }
    if (tail != 0) {
        const uint32_t first = bs - tail;
        const TEventID e = GetTPipePtr()->FetchEventID(HardEvent::V_S);
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
        float v[8] = {};
        for (uint32_t j = 0; j < tail; ++j) v[j] = src[first + j].GetValue(0);
        for (uint32_t j = 0; j < tail; ++j) Duplicate(dst[(first + j) * h], v[j], int32_t(h));
        PipeBarrier<PIPE_V>();
    }
    PipeBarrier<PIPE_V>();
}

// dst[i] = the sum of src's row i (calSize / h rows), by WholeReduceSum passes
// whose partials land in dst's row i, then in dst[i].
inline void row_sums(const LocalTensor<float>& dst, const LocalTensor<float>& src, uint32_t calSize, uint32_t h) {
    constexpr uint32_t per = 64;
    for (uint32_t i = 0; i < calSize / h; ++i) {
        const uint32_t base = i * h;
        LocalTensor<float> from = src;
        for (uint32_t total = h; total > 1; total = (total + per - 1) / per, from = dst) {
            const uint32_t reps = total / per, rest = total % per, blocks = reps / MAX_REPEAT_TIMES,
                           left = reps % MAX_REPEAT_TIMES;
            for (uint32_t j = 0; j < blocks; ++j)
                WholeReduceSum(dst[base + j * MAX_REPEAT_TIMES], from[base + j * MAX_REPEAT_TIMES * per], int32_t(per),
                               int32_t(MAX_REPEAT_TIMES), 1, 1, DEFAULT_REPEAT_STRIDE);
            PipeBarrier<PIPE_V>();
            if (left > 0) {
                const LocalTensor<float> to = total == per ? dst[i] : dst[base + blocks * MAX_REPEAT_TIMES];
                WholeReduceSum(to, from[base + blocks * MAX_REPEAT_TIMES * per], int32_t(per), int32_t(left),
                               DEFAULT_BLK_STRIDE, DEFAULT_BLK_STRIDE, DEFAULT_REPEAT_STRIDE);
                PipeBarrier<PIPE_V>();
            }
            if (rest > 0) {
                const LocalTensor<float> to = total < per ? dst[i] : dst[base + total / per];
                WholeReduceSum(to, from[base + reps * per], int32_t(rest), DEFAULT_BLK_STRIDE, DEFAULT_BLK_STRIDE,
                               DEFAULT_BLK_STRIDE, DEFAULT_REPEAT_STRIDE);
                PipeBarrier<PIPE_V>();
            }
        }
    }
}

// dst = 1 / src over n, the 1 a single block read at stride 0 (Counter mode, then Normal).
inline void one_over(const LocalTensor<float>& dst, const LocalTensor<float>& one, const LocalTensor<float>& src,
                     uint32_t n) {
    SetMaskCount();
    SetVectorMask<uint8_t, MaskMode::COUNTER>(0, 8);
    Duplicate<float, false>(one, 1.0f, MASK_PLACEHOLDER, 1, DEFAULT_BLK_STRIDE, DEFAULT_REPEAT_STRIDE);
    PipeBarrier<PIPE_V>();
    SetVectorMask<uint8_t, MaskMode::COUNTER>(0, n);
    Div<float, false>(dst, one, src, MASK_PLACEHOLDER, 1, BinaryRepeatParams(1, 0, 1, 8, 0, 8));
    PipeBarrier<PIPE_V>();
    SetMaskNorm();
}

// x1 = dy gamma a row at a time (fp32 operands of rows rows).
inline void step_x1(const LocalTensor<float>& dy, const LocalTensor<float>& gamma, const Slices& s, uint32_t rows) {
    for (uint32_t i = 0; i < rows; ++i) Mul(s.x1[i * s.h], dy[i * s.h], gamma, int32_t(s.h));
    PipeBarrier<PIPE_V>();
}
// x2 = x - mean, the mean broadcast over each row.
inline void step_x2(const LocalTensor<float>& x, const LocalTensor<float>& mean, const Slices& s, uint32_t calSize,
                    uint32_t rows) {
    rows_of(s.bsh, mean, rows, s.h);
    PipeBarrier<PIPE_V>();
    Sub(s.x2, x, s.bsh, int32_t(calSize));
    PipeBarrier<PIPE_V>();
}
// pdVar, pdMean, resForGamma and pdX from x1, x2 and the variance; s.tmp is the
// scratch of the row values and pdX the same tensor (as there).
inline void step_pd(const LocalTensor<float>& var, const LocalTensor<float>& resForGamma,
                    const LocalTensor<float>& pdX, float eps, const Slices& s, uint32_t calSize, uint32_t rows) {
    const int32_t n = int32_t(calSize), r = int32_t(rows);
    // pdVar = sum(-0.5 x1 x2 (var + eps)^-1.5).
    Adds(s.tmp, var, eps, r);
    PipeBarrier<PIPE_V>();
    Mul(s.bsh, s.tmp, s.tmp, r);
    PipeBarrier<PIPE_V>();
    Mul(s.tmp, s.bsh, s.tmp, r);
    PipeBarrier<PIPE_V>();
    Sqrt(s.tmp, s.tmp, r);
    PipeBarrier<PIPE_V>();
    one_over(s.tmp, s.bsh, s.tmp, rows);
    rows_of(s.bsh, s.tmp, rows, s.h);
    PipeBarrier<PIPE_V>();
    Mul(s.bsh, s.x2, s.bsh, n);
    PipeBarrier<PIPE_V>();
    Mul(s.bsh, s.x1, s.bsh, n);
    PipeBarrier<PIPE_V>();
    Muls(s.bsh, s.bsh, -0.5f, n);
    PipeBarrier<PIPE_V>();
    row_sums(s.pdVar, s.bsh, calSize, s.h);
    PipeBarrier<PIPE_V>();
    // resForGamma = x2 r; x3 = x1 r; pdMean = sum(-x3) + pdVar / originH sum(-2 x2).
    Adds(s.tmp, var, eps, r);
    PipeBarrier<PIPE_V>();
    Sqrt(s.tmp, s.tmp, r);
    PipeBarrier<PIPE_V>();
    one_over(s.tmp, s.bsh, s.tmp, rows);
    rows_of(s.bsh, s.tmp, rows, s.h);
    PipeBarrier<PIPE_V>();
    Mul(resForGamma, s.x2, s.bsh, n);
    PipeBarrier<PIPE_V>();
    Mul(s.x3, s.x1, s.bsh, n);
    PipeBarrier<PIPE_V>();
    Muls(s.bsh, s.x3, -1.0f, n);
    PipeBarrier<PIPE_V>();
    row_sums(s.pdMean, s.bsh, calSize, s.h);
    Muls(s.bsh, s.x2, -2.0f, n);
    PipeBarrier<PIPE_V>();
    row_sums(s.tmp, s.bsh, calSize, s.h);
    PipeBarrier<PIPE_V>();
    Muls(s.tmp, s.tmp, s.rH, r);
    PipeBarrier<PIPE_V>();
    Mul(s.tmp, s.pdVar, s.tmp, r);
    PipeBarrier<PIPE_V>();
    Add(s.pdMean, s.pdMean, s.tmp, r);
    PipeBarrier<PIPE_V>();
    // pdX = x3 + pdVar 2 / originH x2 + pdMean / originH.
    Muls(s.pdVar, s.pdVar, s.twoRH, r);
    PipeBarrier<PIPE_V>();
    rows_of(s.bsh, s.pdVar, rows, s.h);
    PipeBarrier<PIPE_V>();
    Mul(s.x1, s.bsh, s.x2, n);
    PipeBarrier<PIPE_V>();
    Muls(s.pdMean, s.pdMean, s.rH, r);
    PipeBarrier<PIPE_V>();
    rows_of(s.bsh, s.pdMean, rows, s.h);
    Add(s.x1, s.x1, s.bsh, n);
    PipeBarrier<PIPE_V>();
    Add(pdX, s.x1, s.x3, n);
    PipeBarrier<PIPE_V>();
}

template <class T>
void grad_check(const LocalTensor<T>& pdX, const LocalTensor<T>& resForGamma, const LocalTensor<T>& dy,
                const LocalTensor<T>& x, const LocalTensor<T>& var, const LocalTensor<T>& mean,
                const LocalTensor<T>& gamma, const LocalTensor<uint8_t>& tmp, const LayerNormGradTiling& t,
                bool isReuseSource, const LayerNormGradShapeInfo& info) {
    constexpr const char* api = "LayerNormGrad";
    if (info.dataFormat != DataFormat::ND) d::fail(api, "dataFormat not ND", "shapeInfo.dataFormat must be ND");
    if (std::is_same_v<T, half> && isReuseSource)
        d::fail(api, "isReuseSource with half", "isReuseSource must be false for half");
    if (t.oneCalSize == 0 || t.hLength == 0) d::fail(api, "tiling empty", "tiling.oneCalSize is 0: no tiling given");
    if (tmp.GetSize() < t.stackBufferSize)
        d::fail(api, "sharedTmpBuffer below the tiling's",
                "sharedTmpBuffer holds %u B, less than the tiling's stackBufferSize %u", tmp.GetSize(),
                t.stackBufferSize);
    // The host rounds a round's rows up to a 32 B block of them, which can
    // outgrow the tmp it was given: the slices must lie in sharedTmpBuffer.
    const bool isHalf = std::is_same_v<T, half>, reuse = isReuseSource && !isHalf;
    // A slice is used up to a round's elements, at most all of them.
    const uint32_t all = t.bLength * t.sLength * t.hLength;
    uint32_t end = 0;
    auto within = [&](uint32_t pos, uint32_t size) {
        const uint32_t used = pos + (size < all ? size : all);
        end = used > end ? used : end;
    };
    within(t.tmpTensorBSHPos, t.tmpTensorBSHSize), within(t.pdVarTensorPos, t.pdVarTensorSize);
    within(t.pdMeanTensorPos, t.pdMeanTensorSize), within(t.x3TensorPos, t.x3TensorSize);
    if (!reuse) within(t.x1TensorPos, t.x1TensorSize), within(t.x2TensorPos, t.x2TensorSize);
    if (isHalf)
        within(t.tmpTensorPos, t.tmpTensorSize), within(t.tmpTensor1Pos, t.tmpTensor1Size),
            within(t.tmpTensor2Pos, t.tmpTensor2Size);
    if (end > tmp.GetSize() / 4)
        d::fail(api, "tiling slices beyond sharedTmpBuffer",
                "the tiling's slices end at %u floats, beyond sharedTmpBuffer's %u (the host rounds a round's rows up "
                "to a 32 B block of them; give GetLayerNormGradNDTilingInfo room for them)",
                end, tmp.GetSize() / 4);
    const uint32_t n = t.bLength * t.sLength * t.hLength, rows = t.bLength * t.sLength;
    check_count(api, n, pdX, "outputPdX"), check_count(api, n, resForGamma, "resForGamma");
    check_count(api, n, dy, "inputDy"), check_count(api, n, x, "inputX");
    check_count(api, rows, var, "inputVariance"), check_count(api, rows, mean, "inputMean");
    check_count(api, t.hLength, gamma, "inputGamma");
    const uint32_t tb = tmp.GetSize();
    check_disjoint(api, tmp, tb, "sharedTmpBuffer", pdX, n, "outputPdX");
    check_disjoint(api, tmp, tb, "sharedTmpBuffer", resForGamma, n, "resForGamma");
    check_disjoint(api, tmp, tb, "sharedTmpBuffer", dy, n, "inputDy");
    check_disjoint(api, tmp, tb, "sharedTmpBuffer", x, n, "inputX");
    check_disjoint(api, pdX, n, "outputPdX", resForGamma, n, "resForGamma");
}

}  // namespace lngrad
}  // namespace sim_adv

template <typename T, bool isReuseSource = false>
void LayerNormGrad(const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                   const LocalTensor<T>& inputX, const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
                   const LocalTensor<T>& inputGamma, LocalTensor<uint8_t>& sharedTmpBuffer, T epsilon,
                   LayerNormGradTiling& tiling, const LayerNormGradShapeInfo& shapeInfo = {}) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "LayerNormGrad: A2/A3 support half and float");
    namespace lg = sim_adv::lngrad;
    lg::grad_check(outputPdX, resForGamma, inputDy, inputX, inputVariance, inputMean, inputGamma, sharedTmpBuffer,
                   tiling, isReuseSource, shapeInfo);
    const LocalTensor<float> stack = sharedTmpBuffer.ReinterpretCast<float>();
    auto slice = [&](uint32_t pos, uint32_t size) {
        LocalTensor<float> v = stack[pos];
        v.SetSize(size);
        return v;
    };
    lg::Slices s;
    const LayerNormGradTiling& t = tiling;
    s.x1 = slice(t.x1TensorPos, t.x1TensorSize), s.x2 = slice(t.x2TensorPos, t.x2TensorSize);
    s.x3 = slice(t.x3TensorPos, t.x3TensorSize), s.pdVar = slice(t.pdVarTensorPos, t.pdVarTensorSize);
    s.pdMean = slice(t.pdMeanTensorPos, t.pdMeanTensorSize), s.tmp = slice(t.tmpTensorPos, t.tmpTensorSize);
    s.tmp1 = slice(t.tmpTensor1Pos, t.tmpTensor1Size), s.tmp2 = slice(t.tmpTensor2Pos, t.tmpTensor2Size);
    s.bsh = slice(t.tmpTensorBSHPos, t.tmpTensorBSHSize);
    s.h = t.hLength, s.rH = lg::from_bits(t.lastDimValueBack), s.twoRH = lg::from_bits(t.lastDimValueBackMulTwo);
    auto round = [&](uint32_t at, uint32_t row, uint32_t calSize, uint32_t rows) {
        if constexpr (std::is_same_v<T, half>) {
            const int32_t n = int32_t(calSize), r = int32_t(rows);
            Cast(s.tmp1, inputDy[at], RoundMode::CAST_NONE, n);
            Cast(s.tmp2, inputGamma, RoundMode::CAST_NONE, int32_t(s.h));
            PipeBarrier<PIPE_V>();
            lg::step_x1(s.tmp1, s.tmp2, s, rows);
            Cast(s.tmp1, inputX[at], RoundMode::CAST_NONE, n);
            Cast(s.tmp2, inputMean[row], RoundMode::CAST_NONE, r);
            PipeBarrier<PIPE_V>();
            lg::step_x2(s.tmp1, s.tmp2, s, calSize, rows);
            Cast(s.tmp1, inputVariance[row], RoundMode::CAST_NONE, r);
            PipeBarrier<PIPE_V>();
            lg::step_pd(s.tmp1, s.tmp2, s.tmp, float(epsilon), s, calSize, rows);
            Cast(outputPdX[at], s.tmp, RoundMode::CAST_NONE, n);
            Cast(resForGamma[at], s.tmp2, RoundMode::CAST_NONE, n);
            PipeBarrier<PIPE_V>();
        } else {
            // float: the scratch of the row values is outputPdX; reusing the sources, x1 and x2 are dy and x.
            lg::Slices w = s;
            w.tmp = outputPdX[at];
            if (isReuseSource) w.x1 = inputDy[at], w.x2 = inputX[at];
            lg::step_x1(inputDy[at], inputGamma, w, rows);
            lg::step_x2(inputX[at], inputMean[row], w, calSize, rows);
            lg::step_pd(inputVariance[row], resForGamma[at], outputPdX[at], epsilon, w, calSize, rows);
        }
    };
    uint32_t at = 0, row = 0;
    for (uint32_t i = 0; i < t.loopNum; ++i, at += t.oneCalSize, row += t.nohCalSize)
        round(at, row, t.oneCalSize, t.nohCalSize);
    if (t.tailSize != 0) round(at, row, t.tailSize, t.nohTailSize);
}
template <typename T, bool isReuseSource = false>
void LayerNormGrad(const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                   const LocalTensor<T>& inputX, const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
                   const LocalTensor<T>& inputGamma, T epsilon, LayerNormGradTiling& tiling,
                   const LayerNormGradShapeInfo& shapeInfo = {}) {
    LocalTensor<uint8_t> stack = sim_adv::stack_tmp("LayerNormGrad");
    LayerNormGrad<T, isReuseSource>(outputPdX, resForGamma, inputDy, inputX, inputVariance, inputMean, inputGamma,
                                    stack, epsilon, tiling, shapeInfo);
}

}  // namespace AscendC

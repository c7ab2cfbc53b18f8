// SoftMax over the last axis of ND rows (asc-devkit include/adv_api/activation/softmax.h;
// dav_c220: impl/adv_api/detail/activation/softmax/membase/v220/softmax_impl.h ::
// SoftMaxNDImpl, SingleSoftMaxImpl; membase/common/softmax_impl/
// softmax_generic_nd_impl.h :: SoftMaxGenericNDImpl): per chunk of rows the max,
// x - max, exp, the sum and the division, in float (half widened with Cast
// CAST_NONE, narrowed with CAST_ROUND), with the PipeBarrier<PIPE_V>s between.
#pragma once
#include <cstdint>

#include "../kernel_vec_ops.h"
#include "softmax_basic_block.h"
#include "softmax_steps.h"

namespace AscendC {
namespace sim_adv {
namespace softmax {
// x = log10(x) over m rows of srcK, in place (GenericLogNDImpl: Ln, then Muls by
// 1 / ln 10, a barrier after each; below 192 a column block at a time).
inline void log10_rows(const LocalTensor<float>& x, uint32_t m, uint32_t srcK) {
    constexpr float invLn10 = 0.4342944819f;
    SetMaskCount();
    if (srcK < kSubDivRow) {
        const uint8_t blocks = uint8_t(srcK / kBlk);
        const UnaryRepeatParams rp(blocks, blocks, uint8_t(srcK), uint8_t(srcK));
        SetVectorMask<float>(0, m * kBlk);
        for (uint8_t j = 0; j < blocks; ++j) {
            Ln<float, false>(x[j * kBlk], x[j * kBlk], MASK_PLACEHOLDER, 1, rp);
            PipeBarrier<PIPE_V>();
            Muls<float, false>(x[j * kBlk], x[j * kBlk], invLn10, MASK_PLACEHOLDER, 1, rp);
            PipeBarrier<PIPE_V>();
        }
    } else {
        const UnaryRepeatParams rp;
        SetVectorMask<float>(0, srcK);
        for (uint32_t j = 0; j < m; ++j) {
            Ln<float, false>(x[j * srcK], x[j * srcK], MASK_PLACEHOLDER, 1, rp);
            PipeBarrier<PIPE_V>();
            // dav_c220 passes mask 1 and repeatTime 0 here; Counter mode ignores both.
            Muls<float, false>(x[j * srcK], x[j * srcK], invLn10, 1, 0, rp);
            PipeBarrier<PIPE_V>();
        }
    }
    SetMaskNorm();
    ResetMask();
}
}  // namespace softmax
}  // namespace sim_adv
}  // namespace AscendC

namespace AscendC {
namespace sim_adv {
namespace softmax {

// The float steps every chunk takes: the row max, out = in - max, e = exp(out),
// the row sum, out = e / sum; `narrowMax` / `narrowSum` run after each
// reduction (the half max/sum outputs).
template <class NarrowMax, class NarrowSum>
void float_steps(const LocalTensor<float>& out, const LocalTensor<float>& in, const LocalTensor<float>& e,
                 const LocalTensor<float>& maxv, const LocalTensor<float>& sumv, const LocalTensor<float>& partials,
                 const SoftMaxTiling& t, uint32_t split, const ReduceLastND& p, NarrowMax narrowMax,
                 NarrowSum narrowSum) {
    reduce_rows<MaxKind>(maxv, in, partials, p);
    PipeBarrier<PIPE_V>();
    narrowMax();
    sub_rows(out, in, maxv, p.originalSrcM, t.srcK, t.reduceK);
    PipeBarrier<PIPE_V>();
    Exp(e, out, int32_t(split));
    PipeBarrier<PIPE_V>();
    reduce_rows<SumKind>(sumv, e, partials, p);
    PipeBarrier<PIPE_V>();
    narrowSum();
    div_rows(out, e, sumv, p.originalSrcM, t.srcK, t.reduceK);
}
inline void nothing() {}

// half rows widened into work[0, splitSize) before the steps, narrowed after
// (LogSoftMax takes log10 first).
template <bool log, class Steps>
void widened(const LocalTensor<half>& dst, const LocalTensor<half>& src, const LocalTensor<float>& x, uint32_t o1,
             uint32_t split, const SoftMaxTiling& t, const ReduceLastND& p, Steps steps) {
    Cast(x, src[o1], RoundMode::CAST_NONE, split);
    PipeBarrier<PIPE_V>();
    steps();
    PipeBarrier<PIPE_V>();
    if constexpr (log) log10_rows(x, p.originalSrcM, t.srcK);
    Cast(dst[o1], x, RoundMode::CAST_ROUND, split);
}

// float rows, float max/sum: computed in dst; LogSoftMax ends with log10.
template <bool log = false>
void chunk(const LocalTensor<float>& dst, const LocalTensor<float>& sum, const LocalTensor<float>& max,
           const LocalTensor<float>& src, const LocalTensor<float>& work, const SoftMaxTiling& t, uint32_t o1,
           uint32_t o2, uint32_t split, uint32_t, const ReduceLastND& p) {
    float_steps(dst[o1], src[o1], dst[o1], max[o2], sum[o2], work, t, split, p, nothing, nothing);
    if constexpr (log) {
        PipeBarrier<PIPE_V>();
        log10_rows(dst[o1], p.originalSrcM, t.srcK);
    }
}

// half rows, half max/sum: the max/sum kept in float in work, then narrowed.
template <bool log = false>
void chunk(const LocalTensor<half>& dst, const LocalTensor<half>& sum, const LocalTensor<half>& max,
           const LocalTensor<half>& src, const LocalTensor<float>& work, const SoftMaxTiling& t, uint32_t o1,
           uint32_t o2, uint32_t split, uint32_t reduce, const ReduceLastND& p) {
    const LocalTensor<float> x = work, rowv = work[t.splitSize], partials = work[t.splitSize + t.reduceSize];
    auto narrow = [&](const LocalTensor<half>& out) {
        return [&, out] {
            Cast(out, rowv, RoundMode::CAST_ROUND, reduce);
            PipeBarrier<PIPE_V>();
        };
    };
    widened<log>(dst, src, x, o1, split, t, p,
                 [&] { float_steps(x, x, x, rowv, rowv, partials, t, split, p, narrow(max[o2]), narrow(sum[o2])); });
}

// half rows, float max/sum.
inline void chunk(const LocalTensor<half>& dst, const LocalTensor<float>& sum, const LocalTensor<float>& max,
                  const LocalTensor<half>& src, const LocalTensor<float>& work, const SoftMaxTiling& t, uint32_t o1,
                  uint32_t o2, uint32_t split, uint32_t, const ReduceLastND& p) {
    const LocalTensor<float> x = work, partials = work[t.splitSize];
    widened<false>(dst, src, x, o1, split, t, p,
                   [&] { float_steps(x, x, x, max[o2], sum[o2], partials, t, split, p, nothing, nothing); });
}

// Without max/sum outputs (SingleSoftMaxImpl): the row values in work; float
// with isReuseSource keeps the exp in src.
template <bool isReuseSource>
void single_chunk(const LocalTensor<float>& dst, const LocalTensor<float>& src, const LocalTensor<float>& work,
                  const SoftMaxTiling& t, uint32_t o, uint32_t split, const ReduceLastND& p) {
    const LocalTensor<float> rowv = work, partials = work[t.reduceSize];
    const LocalTensor<float>& e = isReuseSource ? src : dst;
    float_steps(dst[o], src[o], e[o], rowv, rowv, partials, t, split, p, nothing, nothing);
}
template <bool isReuseSource>
void single_chunk(const LocalTensor<half>& dst, const LocalTensor<half>& src, const LocalTensor<float>& work,
                  const SoftMaxTiling& t, uint32_t o, uint32_t split, const ReduceLastND& p) {
    const LocalTensor<float> x = work, rowv = work[t.splitSize], partials = work[t.splitSize + t.reduceSize];
    widened<false>(dst, src, x, o, split, t, p,
                   [&] { float_steps(x, x, x, rowv, rowv, partials, t, split, p, nothing, nothing); });
}

// The operands that must not share bytes: sharedTmpBuffer with every tensor,
// the max/sum outputs with the rows (dst may be src).
template <class T1, class T2>
void check_operands(const char* api, const LocalTensor<T1>& dst, const LocalTensor<T2>* sum,
                    const LocalTensor<T2>* max, const LocalTensor<T1>& src, const LocalTensor<uint8_t>& tmp,
                    const SoftMaxShapeInfo& s, const SoftMaxTiling& t) {
    const uint32_t rows = s.srcM * s.srcK, tmpBytes = tmp.GetSize();
    check_disjoint(api, tmp, tmpBytes, "sharedTmpBuffer", src, rows, "srcTensor");
    check_disjoint(api, tmp, tmpBytes, "sharedTmpBuffer", dst, rows, "dstTensor");
    if (!sum) return;
    const uint32_t rowv = s.srcM * t.reduceK;  // reduceK copies a row
    check_count(api, rowv, *sum, "sumTensor");
    check_count(api, rowv, *max, "maxTensor");
    check_disjoint(api, tmp, tmpBytes, "sharedTmpBuffer", *sum, rowv, "sumTensor");
    check_disjoint(api, tmp, tmpBytes, "sharedTmpBuffer", *max, rowv, "maxTensor");
    check_disjoint(api, *sum, rowv, "sumTensor", *max, rowv, "maxTensor");
    check_disjoint(api, *sum, rowv, "sumTensor", src, rows, "srcTensor");
    check_disjoint(api, *max, rowv, "maxTensor", src, rows, "srcTensor");
    check_disjoint(api, *sum, rowv, "sumTensor", dst, rows, "dstTensor");
    check_disjoint(api, *max, rowv, "maxTensor", dst, rows, "dstTensor");
}

// The forms with max/sum outputs.
template <class T1, class T2, bool isBasicBlock, const SoftmaxConfig& config>
void with_outputs(const LocalTensor<T1>& dst, const LocalTensor<T2>& sum, const LocalTensor<T2>& max,
                  const LocalTensor<T1>& src, const LocalTensor<uint8_t>& tmp, const SoftMaxTiling& tiling,
                  const SoftMaxShapeInfo& s) {
    constexpr const char* api = "SoftMax";
    const LocalTensor<float> work = tmp.ReinterpretCast<float>();
    const SoftMaxTiling t = prepare<T1, T2, isBasicBlock, config>(api, dst, src, work, tiling, s);
    check_tmp(api, tmp, (ONE_BLK_SIZE / sizeof(T1) + s.srcK + kRep) * sizeof(float), "GetSoftMaxMinTmpSize");
    check_operands(api, dst, &sum, &max, src, tmp, s, t);
    if constexpr (isBasicBlock) {
        static_assert(std::is_same_v<T1, float> && std::is_same_v<T2, float>,
                      "SoftMax: the isBasicBlock path is modelled for float rows with float max/sum only");
        check_basic_block(api, s, t);
        check_chunk(api, work, basic_block_floats(t));
    } else {
        check_chunk(api, work, chunk_floats(t, sizeof(T1) == 2, sizeof(T1) == 2 && sizeof(T2) == 2));
    }
    SetMaskNorm();
    ResetMask();
    PipeBarrier<PIPE_V>();
    if constexpr (isBasicBlock) return basic_block(dst, sum, max, src, work, t);
    over_chunks(t, s.oriSrcK, [&](uint32_t o1, uint32_t o2, uint32_t split, uint32_t reduce, const ReduceLastND& p) {
        chunk(dst, sum, max, src, work, t, o1, o2, split, reduce, p);
    });
}

}  // namespace softmax
}  // namespace sim_adv

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
             const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
             const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    static_assert(!isDataFormatNZ, "SoftMax: the NZ format is not modelled");
    sim_adv::softmax::with_outputs<T, T, isBasicBlock, config>(dstTensor, sumTensor, maxTensor, srcTensor,
                                                               sharedTmpBuffer, tiling, softmaxShapeInfo);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
             const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
             const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    static_assert(!isDataFormatNZ, "SoftMax: the NZ format is not modelled");
    sim_adv::softmax::with_outputs<half, float, isBasicBlock, config>(dstTensor, sumTensor, maxTensor, srcTensor,
                                                                      sharedTmpBuffer, tiling, softmaxShapeInfo);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
             const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    namespace sm = sim_adv::softmax;
    constexpr const char* api = "SoftMax";
    const LocalTensor<float> work = sharedTmpBuffer.ReinterpretCast<float>();
    const SoftMaxTiling t =
        sm::prepare<T, float, isBasicBlock, config>(api, dstTensor, srcTensor, work, tiling, softmaxShapeInfo);
    sim_adv::check_tmp(api, sharedTmpBuffer,
                       (ONE_BLK_SIZE / sizeof(T) + softmaxShapeInfo.srcK + sm::kRep) * sizeof(float),
                       "GetSoftMaxMinTmpSize");
    sm::check_operands<T, float>(api, dstTensor, nullptr, nullptr, srcTensor, sharedTmpBuffer, softmaxShapeInfo, t);
    sm::check_chunk(api, work, sm::chunk_floats(t, sizeof(T) == 2, true));
    SetMaskNorm();
    ResetMask();
    PipeBarrier<PIPE_V>();
    sm::over_chunks(t, softmaxShapeInfo.oriSrcK,
                    [&](uint32_t o1, uint32_t, uint32_t split, uint32_t, const sm::ReduceLastND& p) {
                        sm::single_chunk<isReuseSource>(dstTensor, srcTensor, work, t, o1, split, p);
                    });
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
             const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    SoftMax<T, isReuseSource, isBasicBlock, isDataFormatNZ, config>(dstTensor, sumTensor, maxTensor, srcTensor,
                                                                    sim_adv::stack_tmp("SoftMax"), tiling,
                                                                    softmaxShapeInfo);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
             const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    SoftMax<T, isReuseSource, isBasicBlock, isDataFormatNZ, config>(dstTensor, sumTensor, maxTensor, srcTensor,
                                                                    sim_adv::stack_tmp("SoftMax"), tiling,
                                                                    softmaxShapeInfo);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    SoftMax<T, isReuseSource, isBasicBlock, config>(dstTensor, srcTensor, sim_adv::stack_tmp("SoftMax"), tiling,
                                                    softmaxShapeInfo);
}

}  // namespace AscendC

// SoftmaxFlashV3: SoftmaxFlashV2 with each row first shifted by its segment
// means (asc-devkit include/adv_api/activation/softmaxflashv3.h;
// impl/adv_api/detail/activation/softmax/softmax_flashv3_base_impl.h ::
// SoftmaxFlashV3Impl; dav_c220: membase/v220/softmax_flashv3_impl.h ::
// SoftmaxFlashV3Process, SoftmaxFlashV3ReduceSumImpl, ModifyInputImpl,
// ModifyMaxImpl, SoftmaxFlashV3NoUpdateImpl, SoftmaxFlashV3UpdateImpl,
// SoftmaxFlashV3UpdateMeanImpl). half rows, float mean/sum/max, all in float.
// With s = alpha / (1 - alpha), per row: the row is cut into splitMeanCnt
// segments, each shifted by s * (segment mean - row mean); mean is the row mean
// (update: (inMean * (loopCnt - 1) + row mean) / loopCnt); the max and sum are
// then SoftmaxFlashV2's with both maxima moved by s * (their mean - mean).
#pragma once
#include <cstdint>
#include <type_traits>

#include "softmax_flash_v2.h"

namespace AscendC {
namespace sim_adv {
namespace softmax {

struct V3Work {
    LocalTensor<float> x, meanTmp, partials, maxTmp, shiftCurr, shiftPrev, fill;
};
// dav_c220's layout of the work floats; the no-update form has no shiftPrev.
inline V3Work v3_work(const LocalTensor<float>& w, const SoftMaxTiling& t, bool update) {
    const uint32_t base = t.splitSize + t.splitM * kRep + t.reduceSize;
    return {w, w[t.splitSize], w[t.splitSize + t.reduceSize], w[base], w[base + t.reduceSize],
            w[base + 2 * t.reduceSize], w[base + (update ? 3 : 2) * t.reduceSize]};
}
inline uint32_t v3_floats(const SoftMaxTiling& t, bool update) {
    return t.splitSize + t.splitM * kRep + (update ? 4 : 3) * t.reduceSize + t.srcK;
}

// segMean (8 a row) = each segment's sum / baseK, rowMean (8 copies a row) and
// meanTmp = their mean. The partials are SoftMax's sum partials of the row.
inline void v3_means(const V3Work& w, const LocalTensor<float>& segMean, const LocalTensor<float>& rowMean,
                     const ReduceLastND& p, uint32_t baseK, uint32_t reduce) {
    // The row is whole repeats (v3_check), so dav_c220's partial-repeat step never runs.
    const uint32_t m = p.originalSrcM;
    const UnaryRepeatParams urp;
    big_rows<SumKind>(w.partials, w.x, p.originalSrcK / kRep, m, p.srcK);
    PipeBarrier<PIPE_V>();
    SetMaskCount();
    SetVectorMask<float, MaskMode::COUNTER>(0, m * kRep);
    BlockReduceSum<float, false>(segMean, w.partials, 1, int32_t(MASK_PLACEHOLDER), 1, 1, DEFAULT_REPEAT_STRIDE);
    PipeBarrier<PIPE_V>();
    // dav_c220 keeps the count at m * 64 for the next two; only the m * 8 values
    // written above are ever read, so the simulator counts those.
    SetVectorMask<float, MaskMode::COUNTER>(0, m * kBlk);
    if (baseK != 0) Muls<float, false>(segMean, segMean, 1.0f / float(baseK), MASK_PLACEHOLDER, 1, urp);
    PipeBarrier<PIPE_V>();
    BlockReduceSum<float, false>(rowMean, segMean, 1, int32_t(MASK_PLACEHOLDER), 1, 1, DEFAULT_REPEAT_STRIDE);
    PipeBarrier<PIPE_V>();
    SetMaskNorm();
    ResetMask();
    const uint32_t groups = (m + kBlk - 1) / kBlk;
    // Brcb reads whole groups of 8; the values past row m land in rows never read.
    ascend_sim::detail::ub_written("Brcb", rowMean[m].GetPhyAddr(), uint64_t(groups * kBlk - m) * sizeof(float));
    Brcb(w.partials, rowMean, uint8_t(groups), {1, DEFAULT_REPEAT_STRIDE});
    PipeBarrier<PIPE_V>();
    copy_counted(rowMean, w.partials, m * p.dstK);
    PipeBarrier<PIPE_V>();
    Muls(w.meanTmp, rowMean, 1.0f / float(kBlk), int32_t(reduce));
}

// Each block of 8 floats of `blocks` spread over baseK floats of `fill`.
// dav_c220 issues one Counter-mode Copy of baseK a repeat and splitMeanCnt
// repeats; the simulator's Copy takes 64 a repeat, so each segment is its own
// Copy of whole repeats and a masked tail, over the same bytes.
inline void fill_segments(const LocalTensor<float>& fill, const LocalTensor<float>& blocks, uint32_t cnt,
                          uint32_t baseK) {
    const CopyRepeatParams rp(1, 0, DEFAULT_REPEAT_STRIDE, 0);
    const uint32_t full = baseK / kRep, rest = baseK % kRep;
    for (uint32_t g = 0; g < cnt; ++g) {
        if (full != 0) Copy<float, true>(fill[g * baseK], blocks[g * kBlk], kRep, uint8_t(full), rp);
        if (rest != 0) Copy<float, true>(fill[g * baseK + full * kRep], blocks[g * kBlk], rest, 1, rp);
    }
}

// x -= s * (row mean - segment mean), segment by segment; meanTmp = the row mean.
inline void v3_modify_input(const V3Work& w, const ReduceLastND& p, const SoftMaxParams& params, uint32_t reduce) {
    const LocalTensor<float> segMean = w.maxTmp, shift = w.shiftCurr;
    const uint32_t baseK = p.originalSrcK / params.splitMeanCnt;
    const int32_t n = int32_t(reduce);
    v3_means(w, segMean, shift, p, baseK, reduce);
    PipeBarrier<PIPE_V>();
    Sub(shift, w.meanTmp, segMean, n);
    PipeBarrier<PIPE_V>();
    Muls(shift, shift, params.alpha / (1.0f - params.alpha), n);
    PipeBarrier<PIPE_V>();
    for (uint32_t i = 0; i < p.originalSrcM; ++i) {
        Brcb(w.partials, shift[i * params.splitMeanCnt], 1, {1, DEFAULT_REPEAT_STRIDE});
        PipeBarrier<PIPE_V>();
        fill_segments(w.fill, w.partials, params.splitMeanCnt, baseK);
        PipeBarrier<PIPE_V>();
        Sub(w.x[i * p.srcK], w.x[i * p.srcK], w.fill, int32_t(p.srcK));
        PipeBarrier<PIPE_V>();
    }
}

// out = base + shift, shift = s * (m - mean) (ModifyMaxImpl).
inline void v3_shifted(const LocalTensor<float>& out, const LocalTensor<float>& mean, const LocalTensor<float>& m,
                       const LocalTensor<float>& base, const LocalTensor<float>& shift, float s, int32_t n) {
    Sub(shift, m, mean, n);
    PipeBarrier<PIPE_V>();
    Muls(shift, shift, s, n);
    PipeBarrier<PIPE_V>();
    Add(out, base, shift, n);
}

struct V3Io {
    LocalTensor<half> dst, src, expMax;
    LocalTensor<float> mean, sum, max, inMean, inSum, inMax;
};

template <bool isUpdate>
void v3_chunk(const V3Io& io, const V3Work& w, const SoftMaxTiling& t, const SoftMaxParams& params,
              const ReduceLastND& p, uint32_t o1, uint32_t o2, uint32_t split, uint32_t reduce) {
    const float s = params.alpha / (1 - params.alpha);
    const int32_t n = int32_t(reduce);
    Cast(w.x, io.src[o1], RoundMode::CAST_NONE, split);
    PipeBarrier<PIPE_V>();
    v3_modify_input(w, p, params, reduce);
    PipeBarrier<PIPE_V>();
    if constexpr (isUpdate) {
        Muls(io.mean[o2], io.inMean[o2], float(params.loopCnt) - 1.0f, n);
        PipeBarrier<PIPE_V>();
        Add(io.mean[o2], io.mean[o2], w.meanTmp, n);
        PipeBarrier<PIPE_V>();
        Muls(io.mean[o2], io.mean[o2], 1.0f / float(params.loopCnt), n);
    } else {
        copy_counted(io.mean[o2], w.meanTmp, reduce);
    }
    PipeBarrier<PIPE_V>();
    reduce_rows<MaxKind>(w.maxTmp, w.x, w.partials, p);
    PipeBarrier<PIPE_V>();
    v3_shifted(io.max[o2], io.mean[o2], w.meanTmp, w.maxTmp, w.shiftCurr, s, n);
    PipeBarrier<PIPE_V>();
    if constexpr (isUpdate) {
        v3_shifted(w.maxTmp, io.mean[o2], io.inMean[o2], io.inMax[o2], w.shiftPrev, s, n);
        PipeBarrier<PIPE_V>();
        Max(io.max[o2], io.max[o2], w.maxTmp, n);
        PipeBarrier<PIPE_V>();
        Sub(w.maxTmp, io.inMax[o2], io.max[o2], n);
        PipeBarrier<PIPE_V>();
        Add(w.maxTmp, w.shiftPrev, w.maxTmp, n);
        PipeBarrier<PIPE_V>();
        Exp(w.maxTmp, w.maxTmp, n);
        PipeBarrier<PIPE_V>();
        Mul(io.sum[o2], w.maxTmp, io.inSum[o2], n);
        PipeBarrier<PIPE_V>();
    }
    Sub(w.shiftCurr, io.max[o2], w.shiftCurr, n);
    PipeBarrier<PIPE_V>();
    sub_rows(w.x, w.x, w.shiftCurr, p.originalSrcM, t.srcK, t.reduceK);
    PipeBarrier<PIPE_V>();
    Exp(w.x, w.x, int32_t(split));
    PipeBarrier<PIPE_V>();
    Cast(io.dst[o1], w.x, RoundMode::CAST_ROUND, split);
    PipeBarrier<PIPE_V>();
    if constexpr (!isUpdate) {
        reduce_rows<SumKind>(io.sum[o2], w.x, w.partials, p);
        return;
    }
    reduce_rows<SumKind>(w.meanTmp, w.x, w.partials, p);
    PipeBarrier<PIPE_V>();
    Add(io.sum[o2], io.sum[o2], w.meanTmp, n);
    PipeBarrier<PIPE_V>();
    widen_rows16(w.x, w.maxTmp, t.reduceM);
    PipeBarrier<PIPE_V>();
    Cast(io.expMax[o2 * 2], w.x, RoundMode::CAST_ROUND, reduce * 2);
}

inline void v3_check(const char* api, const V3Io& io, const LocalTensor<uint8_t>& tmp, const SoftMaxTiling& t,
                     const SoftMaxParams& params, bool update) {
    if (params.srcM == 0 || params.srcK == 0)
        d::fail(api, "no shape", "params.srcM x params.srcK is empty; the simulator's tensors carry no ShapeInfo");
    if (params.oriSrcM != params.srcM || params.oriSrcK != params.srcK)
        d::fail(api, "padded shape not modelled",
                "params has oriSrcM x oriSrcK %u x %u inside srcM x srcK %u x %u; the simulator models unpadded rows "
                "only",
                params.oriSrcM, params.oriSrcK, params.srcM, params.srcK);
    if (params.srcK < 512)
        d::fail(api, "row below 512", "params.srcK %u is below 512, the shortest row SoftmaxFlashV3 takes",
                params.srcK);
    if (params.splitMeanCnt != 8)
        d::fail(api, "splitMeanCnt not 8",
                "params.splitMeanCnt %u: the row's segment means are laid out 8 a row, so it must be 8",
                params.splitMeanCnt);
    if (params.srcK % (params.splitMeanCnt * kBlk) != 0)
        d::fail(api, "segment not whole blocks",
                "params.srcK %u over splitMeanCnt %u segments is not a whole number of 32 B float blocks", params.srcK,
                params.splitMeanCnt);
    if (update && params.loopCnt == 0) d::fail(api, "loopCnt zero", "params.loopCnt must be at least 1");
    if (params.alpha >= 1.0f) d::fail(api, "alpha not below 1", "params.alpha %f must be below 1", double(params.alpha));
    if (t.srcK != params.srcK || t.splitK != params.srcK || t.splitM == 0 || t.reduceK != kBlk ||
        t.rangeM * t.splitM + t.tailM != params.srcM)
        d::fail(api, "tiling does not match params",
                "the tiling splits %u x %u rows into %u chunks of %u and a tail of %u; params has %u x %u", t.srcM,
                t.splitK, t.rangeM, t.splitM, t.tailM, params.srcM, params.srcK);
    const uint32_t rows = params.srcM * params.srcK, rowv = params.srcM * kBlk, tmpBytes = tmp.GetSize();
    check_count(api, rows, io.src, "srcTensor");
    check_count(api, rows, io.dst, "dstTensor");
    check_count(api, rowv, io.mean, "meanTensor");
    check_count(api, rowv, io.sum, "expSumTensor");
    check_count(api, rowv, io.max, "maxTensor");
    check_disjoint(api, tmp, tmpBytes, "sharedTmpBuffer", io.src, rows, "srcTensor");
    check_disjoint(api, tmp, tmpBytes, "sharedTmpBuffer", io.dst, rows, "dstTensor");
    check_disjoint(api, tmp, tmpBytes, "sharedTmpBuffer", io.mean, rowv, "meanTensor");
    check_disjoint(api, tmp, tmpBytes, "sharedTmpBuffer", io.sum, rowv, "expSumTensor");
    check_disjoint(api, tmp, tmpBytes, "sharedTmpBuffer", io.max, rowv, "maxTensor");
    if (update) {
        check_count(api, rowv, io.inMean, "inMeanTensor");
        check_count(api, rowv, io.inSum, "inExpSumTensor");
        check_count(api, rowv, io.inMax, "inMaxTensor");
        check_count(api, params.srcM * 16, io.expMax, "expMaxTensor");
        check_disjoint(api, tmp, tmpBytes, "sharedTmpBuffer", io.expMax, params.srcM * 16, "expMaxTensor");
    }
    check_chunk(api, tmp.ReinterpretCast<float>(), v3_floats(t, update));
}

template <bool isUpdate>
void flash_v3(const V3Io& io, const LocalTensor<uint8_t>& tmp, const SoftMaxTiling& t, const SoftMaxParams& params) {
    v3_check("SoftmaxFlashV3", io, tmp, t, params, isUpdate);
    const V3Work w = v3_work(tmp.ReinterpretCast<float>(), t, isUpdate);
    SetMaskNorm();
    ResetMask();
    ReduceLastND p{t.splitM, params.oriSrcK, t.splitM, t.splitK, t.reduceM, t.reduceK};
    PipeBarrier<PIPE_V>();
    for (uint32_t i = 0; i < t.rangeM; ++i) {
        v3_chunk<isUpdate>(io, w, t, params, p, i * t.splitSize, i * t.reduceSize, t.splitSize, t.reduceSize);
        PipeBarrier<PIPE_V>();
    }
    if (t.tailM != 0) {
        p.originalSrcM = p.srcM = p.dstM = t.tailM;
        v3_chunk<isUpdate>(io, w, t, params, p, t.rangeM * t.splitSize, t.rangeM * t.reduceSize, t.tailSplitSize,
                           t.tailReduceSize);
        PipeBarrier<PIPE_V>();
    }
}

}  // namespace softmax
}  // namespace sim_adv

template <typename T, typename U, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftmaxFlashV3(const LocalTensor<T>& dstTensor, const LocalTensor<U>& meanTensor,
                    const LocalTensor<U>& expSumTensor, const LocalTensor<U>& maxTensor,
                    const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                    const LocalTensor<U>& inMeanTensor, const LocalTensor<U>& inExpSumTensor,
                    const LocalTensor<U>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                    const SoftMaxTiling& tiling, const SoftMaxParams& params) {
    static_assert(std::is_same_v<T, half> && std::is_same_v<U, float>,
                  "SoftmaxFlashV3: A2/A3 support T half with U float only");
    static_assert(!isDataFormatNZ, "SoftmaxFlashV3: the NZ format is not modelled");
    sim_adv::softmax::flash_v3<isUpdate>({dstTensor, srcTensor, expMaxTensor, meanTensor, expSumTensor, maxTensor,
                                          inMeanTensor, inExpSumTensor, inMaxTensor},
                                         sharedTmpBuffer, tiling, params);
}
template <typename T, typename U, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftmaxFlashV3(const LocalTensor<T>& dstTensor, const LocalTensor<U>& meanTensor,
                    const LocalTensor<U>& expSumTensor, const LocalTensor<U>& maxTensor,
                    const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                    const LocalTensor<U>& inMeanTensor, const LocalTensor<U>& inExpSumTensor,
                    const LocalTensor<U>& inMaxTensor, const SoftMaxTiling& tiling, const SoftMaxParams& params) {
    SoftmaxFlashV3<T, U, isUpdate, isReuseSource, isBasicBlock, isDataFormatNZ, config>(
        dstTensor, meanTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inMeanTensor, inExpSumTensor,
        inMaxTensor, sim_adv::stack_tmp("SoftmaxFlashV3"), tiling, params);
}

}  // namespace AscendC

// SoftmaxFlashV2: the softmax step of FlashAttention-2 over the last axis of ND
// rows (asc-devkit include/adv_api/activation/softmaxflashv2.h;
// impl/adv_api/detail/activation/softmax/softmax_flashv2_base_impl.h ::
// SoftMaxFlashV2TilingFuncImpl, SoftmaxFlashV2UpdateTilingImpl, SoftmaxFlashV2Impl;
// dav_c220: membase/common/softmax_flashv2_impl/softmax_flashv2_common_impl.h ::
// SoftmaxFlashV2PostProcess, softmax_flashv2_no_update_impl.h ::
// SoftmaxFlashV2NoUpdateImpl, softmax_flashv2_update_impl.h :: SoftmaxFlashV2UpdateImpl,
// softmax_flashv2_basic_block_impl.h :: SoftmaxFlashV2BasicBlockImpl,
// SoftmaxFlashV2NoUpdateBasicBlock).
// First call (isUpdate false): max = rowmax(x), dst = exp(x - max), sum = rowsum(dst).
// Update: max = max(inMax, rowmax(x)), expMax = exp(inMax - max), dst = exp(x - max),
// sum = expMax * inSum + rowsum(dst). max/sum/expMax hold a 32 B block a row.
#pragma once
#include <cstdint>
#include <type_traits>

#include "../kernel_vec_ops.h"
#include "softmax_basic_block.h"
#include "softmax_steps.h"

namespace AscendC {
namespace sim_adv {
namespace softmax {

// The split the kernel makes when the shape differs from the tiling's
// (SoftMaxFlashV2TilingFuncImpl): rows of the work floats, a multiple of 8
// when not all of them; the basic-block form as CalculateNDSplitM has it.
inline SoftMaxTiling flash_v2_retile(const char* api, uint32_t work, uint32_t srcM, uint32_t srcK, uint32_t size1,
                                     uint32_t size2, bool basicBlock) {
    const uint32_t perBlock = ONE_BLK_SIZE / size2;
    uint32_t m;
    if (basicBlock && srcK % kRep == 0 && srcM % kBlk == 0) {
        m = size1 == 2 ? work / (perBlock + srcK + kRep) : work / (perBlock + kRep);
        m = m < srcM ? m : srcM;
        if (m > kBlk) {
            m = m / kBlk * kBlk;
            while (srcM % m != 0) m -= kBlk;
            while (m * srcK >= kRep * 256) m /= 2;
        }
    } else {
        m = size1 == 2 ? work / (2 * perBlock + srcK + kRep) : work / (perBlock + kRep);
    }
    if (m < srcM && m > kBlk) m = m / kBlk * kBlk;
    m = m < srcM ? m : srcM;
    if (m == 0)
        d::fail(api, "sharedTmpBuffer below the minimum", "sharedTmpBuffer holds %u floats, not one row", work);
    SoftMaxTiling t;
    set_split(t, srcM, srcK, perBlock, m, srcM);
    return t;
}

// Rows of 8 floats widened to rows of 16 (the half expMax's 32 B a row): two
// strided Copies, 8 rows a repeat, the last group under a mask.
inline void widen_rows16(const LocalTensor<float>& dst, const LocalTensor<float>& src, uint32_t m) {
    const CopyRepeatParams rp(2, 1, 2 * DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE);
    const uint32_t full = m / kBlk, tail = m % kBlk;
    for (uint32_t half = 0; half < 2; ++half) {
        if (full != 0) Copy<float, true>(dst[half * kBlk], src, kRep, uint8_t(full), rp);
        if (tail != 0)
            Copy<float, true>(dst[half * kBlk + full * 2 * kRep], src[full * kRep], tail * kBlk, 1, rp);
    }
}

// The counted copy dav_c220 makes with a UB-to-UB DataCopy (not modelled): the
// same bytes through Copy.
inline void copy_rowv(const LocalTensor<float>& dst, const LocalTensor<float>& src, uint32_t count) {
    copy_counted(dst, src, count);
}

// ---- first call, general shapes ----
inline void v2_first(const LocalTensor<float>& dst, const LocalTensor<float>& sum, const LocalTensor<float>& max,
                     const LocalTensor<float>& src, const LocalTensor<float>& work, const SoftMaxTiling& t, uint32_t o1,
                     uint32_t o2, uint32_t split, uint32_t, const ReduceLastND& p) {
    reduce_rows<MaxKind>(max[o2], src[o1], work, p);
    PipeBarrier<PIPE_V>();
    sub_rows(dst[o1], src[o1], max[o2], p.originalSrcM, t.srcK, t.reduceK);
    PipeBarrier<PIPE_V>();
    Exp(dst[o1], dst[o1], int32_t(split));
    PipeBarrier<PIPE_V>();
    reduce_rows<SumKind>(sum[o2], dst[o1], work, p);
}
inline void v2_first(const LocalTensor<half>& dst, const LocalTensor<float>& sum, const LocalTensor<float>& max,
                     const LocalTensor<half>& src, const LocalTensor<float>& work, const SoftMaxTiling& t, uint32_t o1,
                     uint32_t o2, uint32_t split, uint32_t, const ReduceLastND& p) {
    const LocalTensor<float> x = work, partials = work[t.splitSize];
    Cast(x, src[o1], RoundMode::CAST_NONE, split);
    PipeBarrier<PIPE_V>();
    reduce_rows<MaxKind>(max[o2], x, partials, p);
    PipeBarrier<PIPE_V>();
    sub_rows(x, x, max[o2], p.originalSrcM, t.srcK, t.reduceK);
    PipeBarrier<PIPE_V>();
    Exp(x, x, int32_t(split));
    PipeBarrier<PIPE_V>();
    Cast(dst[o1], x, RoundMode::CAST_ROUND, split);
    PipeBarrier<PIPE_V>();
    reduce_rows<SumKind>(sum[o2], x, partials, p);
}

// ---- update, general shapes ----
inline void v2_update(const LocalTensor<float>& dst, const LocalTensor<float>& sum, const LocalTensor<float>& max,
                      const LocalTensor<float>& src, const LocalTensor<float>& expMax, const LocalTensor<float>& inSum,
                      const LocalTensor<float>& inMax, const LocalTensor<float>& work, const SoftMaxTiling& t,
                      uint32_t o1, uint32_t o2, uint32_t split, uint32_t reduce, const ReduceLastND& p) {
    const LocalTensor<float> rowMax = work, scratch = work[t.reduceSize];
    const int32_t n = int32_t(reduce);
    reduce_rows<MaxKind>(rowMax, src[o1], scratch, p);
    PipeBarrier<PIPE_V>();
    Max(rowMax, inMax[o2], rowMax, n);
    PipeBarrier<PIPE_V>();
    Sub(scratch, inMax[o2], rowMax, n);
    PipeBarrier<PIPE_V>();
    Exp(expMax[o2], scratch, n);
    sub_rows(dst[o1], src[o1], rowMax, p.originalSrcM, t.srcK, t.reduceK);
    PipeBarrier<PIPE_V>();
    Exp(dst[o1], dst[o1], int32_t(split));
    copy_rowv(max[o2], rowMax, reduce);
    PipeBarrier<PIPE_V>();
    reduce_rows<SumKind>(rowMax, dst[o1], scratch, p);
    Mul(sum[o2], expMax[o2], inSum[o2], n);
    PipeBarrier<PIPE_V>();
    Add(sum[o2], sum[o2], rowMax, n);
}
// half rows, float max/sum; expMax is half, 16 copies a row.
inline void v2_update(const LocalTensor<half>& dst, const LocalTensor<float>& sum, const LocalTensor<float>& max,
                      const LocalTensor<half>& src, const LocalTensor<half>& expMax, const LocalTensor<float>& inSum,
                      const LocalTensor<float>& inMax, const LocalTensor<float>& work, const SoftMaxTiling& t,
                      uint32_t o1, uint32_t o2, uint32_t split, uint32_t reduce, const ReduceLastND& p) {
    const LocalTensor<float> x = work, em = work[t.splitSize], partials = work[t.splitSize + t.reduceSize],
                             rowv = work[t.splitSize + t.reduceSize + t.splitM * kRep];
    const int32_t n = int32_t(reduce);
    copy_rowv(em, inMax[o2], reduce);
    Cast(x, src[o1], RoundMode::CAST_NONE, split);
    PipeBarrier<PIPE_V>();
    reduce_rows<MaxKind>(rowv, x, partials, p);
    PipeBarrier<PIPE_V>();
    Max(max[o2], inMax[o2], rowv, n);
    PipeBarrier<PIPE_V>();
    sub_rows(x, x, max[o2], p.originalSrcM, t.srcK, t.reduceK);
    PipeBarrier<PIPE_V>();
    Exp(x, x, int32_t(split));
    PipeBarrier<PIPE_V>();
    Cast(dst[o1], x, RoundMode::CAST_ROUND, split);
    reduce_rows<SumKind>(rowv, x, partials, p);
    Sub(em, em, max[o2], n);
    PipeBarrier<PIPE_V>();
    Exp(em, em, n);
    PipeBarrier<PIPE_V>();
    // dav_c220 widens reduceM rows whatever the chunk; a tail's extra rows are the previous chunk's.
    widen_rows16(x, em, t.reduceM);
    PipeBarrier<PIPE_V>();
    Cast(expMax[o2 * 2], x, RoundMode::CAST_ROUND, reduce * 2);
    Mul(em, em, inSum[o2], n);
    PipeBarrier<PIPE_V>();
    Add(sum[o2], em, rowv, n);
}

// ---- basic block (float rows, float max/sum) ----
inline uint32_t v2_basic_floats(const SoftMaxTiling& t) { return t.splitM * kRep + t.reduceSize; }

inline void v2_basic(const LocalTensor<float>& dst, const LocalTensor<float>& sum, const LocalTensor<float>& max,
                     const LocalTensor<float>& src, const LocalTensor<float>* expMax, const LocalTensor<float>* inSum,
                     const LocalTensor<float>* inMax, const LocalTensor<float>& work, const SoftMaxTiling& t) {
    const LocalTensor<float> rows = work, packed = work[t.splitM * kRep];
    const uint8_t reduceRep = uint8_t((t.reduceSize + kRep - 1) / kRep), repeats = uint8_t(t.splitSize / kRep);
    const BinaryRepeatParams brp;
    const UnaryRepeatParams urp;
    auto sub = [](const LocalTensor<float>& d, const LocalTensor<float>& a, const LocalTensor<float>& b, uint8_t rep,
                  const BinaryRepeatParams& rp) { Sub<float, false>(d, a, b, MASK_PLACEHOLDER, rep, rp); };
    SetMaskNorm();
    ResetMask();
    for (uint32_t i = 0; i < t.rangeM; ++i) {
        const uint32_t o1 = i * t.splitSize, o2 = i * t.reduceSize;
        PipeBarrier<PIPE_V>();
        if (!expMax) {
            basic_block_reduce<MaxKind>(max[o2], src[o1], rows, packed, t.splitM, t.splitK);
            basic_block_rows(sub, src[o1], src[o1], max[o2], t.splitM, t.splitK);
            PipeBarrier<PIPE_V>();
            Exp<float, false>(dst[o1], src[o1], MASK_PLACEHOLDER, repeats, urp);
            PipeBarrier<PIPE_V>();
            basic_block_reduce<SumKind>(sum[o2], dst[o1], rows, packed, t.splitM, t.splitK);
            continue;
        }
        // The row max broadcast into the partials' rows; inMax kept in packed.
        basic_block_reduce<MaxKind>(rows, src[o1], rows, packed, t.splitM, t.splitK);
        Copy<float, false>(packed, (*inMax)[o2], MASK_PLACEHOLDER, reduceRep,
                           {1, 1, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE});
        PipeBarrier<PIPE_V>();
        Max<float, false>(max[o2], packed, rows, MASK_PLACEHOLDER, reduceRep, brp);
        PipeBarrier<PIPE_V>();
        basic_block_rows(sub, dst[o1], src[o1], max[o2], t.splitM, t.splitK);
        Sub<float, false>(packed, packed, max[o2], MASK_PLACEHOLDER, reduceRep, brp);
        PipeBarrier<PIPE_V>();
        Exp<float, false>((*expMax)[o2], packed, MASK_PLACEHOLDER, reduceRep, urp);
        PipeBarrier<PIPE_V>();
        Exp<float, false>(dst[o1], dst[o1], MASK_PLACEHOLDER, repeats, urp);
        PipeBarrier<PIPE_V>();
        basic_block_reduce<SumKind>(rows, dst[o1], rows, packed, t.splitM, t.splitK);
        // inSum is scaled in place, as dav_c220 does.
        Mul<float, false>((*inSum)[o2], (*expMax)[o2], (*inSum)[o2], MASK_PLACEHOLDER, reduceRep, brp);
        PipeBarrier<PIPE_V>();
        Add<float, false>(sum[o2], (*inSum)[o2], rows, MASK_PLACEHOLDER, reduceRep, brp);
    }
}

// The checks and the tiling every form runs with.
template <class T1, class T2, bool isUpdate, bool isBasicBlock, bool isCheckTiling>
SoftMaxTiling v2_prepare(const char* api, const LocalTensor<T1>& dst, const LocalTensor<T2>& sum,
                         const LocalTensor<T2>& max, const LocalTensor<T1>& src, const LocalTensor<T1>& expMax,
                         const LocalTensor<T2>& inSum, const LocalTensor<T2>& inMax, const LocalTensor<uint8_t>& tmp,
                         const SoftMaxTiling& tiling, const SoftMaxShapeInfo& s) {
    const LocalTensor<float> work = tmp.ReinterpretCast<float>();
    check_shape_info(api, s, sizeof(T1));
    if (s.oriSrcK != s.srcK || s.oriSrcM != s.srcM)
        d::fail(api, "padded shape not modelled",
                "softmaxShapeInfo has oriSrcM x oriSrcK %u x %u inside srcM x srcK %u x %u; the simulator models "
                "unpadded rows only",
                s.oriSrcM, s.oriSrcK, s.srcM, s.srcK);
    const uint32_t rows = s.srcM * s.srcK;
    check_count(api, rows, src, "srcTensor");
    check_count(api, rows, dst, "dstTensor");
    // isCheckTiling false: the tiling is taken as it is (SoftmaxFlashV2UpdateTilingImpl).
    const SoftMaxTiling t = !isCheckTiling || (s.srcM == tiling.srcM && s.srcK == tiling.srcK)
                                ? tiling
                                : flash_v2_retile(api, work.GetSize(), s.srcM, s.srcK, sizeof(T1), sizeof(T2),
                                                  isBasicBlock);
    const uint32_t rowv = s.srcM * t.reduceK, tmpBytes = tmp.GetSize();
    check_count(api, rowv, sum, "expSumTensor");
    check_count(api, rowv, max, "maxTensor");
    check_disjoint(api, tmp, tmpBytes, "sharedTmpBuffer", src, rows, "srcTensor");
    check_disjoint(api, tmp, tmpBytes, "sharedTmpBuffer", dst, rows, "dstTensor");
    check_disjoint(api, tmp, tmpBytes, "sharedTmpBuffer", sum, rowv, "expSumTensor");
    check_disjoint(api, tmp, tmpBytes, "sharedTmpBuffer", max, rowv, "maxTensor");
    check_disjoint(api, sum, rowv, "expSumTensor", max, rowv, "maxTensor");
    if constexpr (isUpdate) {
        const uint32_t expRow = s.srcM * (ONE_BLK_SIZE / sizeof(T1));
        check_count(api, rowv, inSum, "inExpSumTensor");
        check_count(api, rowv, inMax, "inMaxTensor");
        check_count(api, expRow, expMax, "expMaxTensor");
        check_disjoint(api, tmp, tmpBytes, "sharedTmpBuffer", expMax, expRow, "expMaxTensor");
        check_disjoint(api, tmp, tmpBytes, "sharedTmpBuffer", inSum, rowv, "inExpSumTensor");
        check_disjoint(api, tmp, tmpBytes, "sharedTmpBuffer", inMax, rowv, "inMaxTensor");
    }
    uint32_t need;
    if constexpr (isBasicBlock) {
        check_basic_block(api, s, t);
        need = v2_basic_floats(t);
    } else if constexpr (sizeof(T1) == 2) {
        need = t.splitSize + (isUpdate ? 2 * t.reduceSize : 0) + t.splitM * kRep;
    } else {
        need = (isUpdate ? t.reduceSize : 0) + t.splitM * kRep;
    }
    check_chunk(api, work, need);
    return t;
}

template <class T1, class T2, bool isUpdate, bool isReuseSource, bool isBasicBlock, bool isDataFormatNZ,
          const SoftmaxConfig& config>
void flash_v2(const LocalTensor<T1>& dst, const LocalTensor<T2>& sum, const LocalTensor<T2>& max,
              const LocalTensor<T1>& src, const LocalTensor<T1>& expMax, const LocalTensor<T2>& inSum,
              const LocalTensor<T2>& inMax, const LocalTensor<uint8_t>& tmp, const SoftMaxTiling& tiling,
              const SoftMaxShapeInfo& s) {
    constexpr const char* api = "SoftmaxFlashV2";
    static_assert(std::is_same_v<T1, half> || std::is_same_v<T1, float>,
                  "SoftmaxFlashV2: A2/A3 support half and float srcTensor/dstTensor");
    static_assert(std::is_same_v<T2, float>,
                  "SoftmaxFlashV2: half max/sum tensors are not modelled; use the float max/sum form");
    static_assert(!isDataFormatNZ, "SoftmaxFlashV2: the NZ format is not modelled");
    static_assert(config.mode == SoftmaxMode::SOFTMAX_NORMAL,
                  "SoftmaxFlashV2: SOFTMAX_OUTPUT_WITHOUT_BRC is not modelled");
    static_assert(config.oriSrcM == 0 && config.oriSrcK == 0,
                  "SoftmaxFlashV2: a SoftmaxConfig with a constant shape is not modelled; use SOFTMAX_DEFAULT_CFG");
    static_assert(!isBasicBlock || std::is_same_v<T1, float>,
                  "SoftmaxFlashV2: the isBasicBlock path is modelled for float rows only");
    const SoftMaxTiling t =
        v2_prepare<T1, T2, isUpdate, isBasicBlock, config.isCheckTiling>(api, dst, sum, max, src, expMax, inSum, inMax, tmp, tiling, s);
    const LocalTensor<float> work = tmp.ReinterpretCast<float>();
    SetMaskNorm();
    ResetMask();
    if constexpr (isBasicBlock) {
        if constexpr (isUpdate)
            v2_basic(dst, sum, max, src, &expMax, &inSum, &inMax, work, t);
        else
            v2_basic(dst, sum, max, src, nullptr, nullptr, nullptr, work, t);
        return;
    }
    PipeBarrier<PIPE_V>();
    over_chunks(t, s.oriSrcK, [&](uint32_t o1, uint32_t o2, uint32_t split, uint32_t reduce, const ReduceLastND& p) {
        if constexpr (isUpdate)
            v2_update(dst, sum, max, src, expMax, inSum, inMax, work, t, o1, o2, split, reduce, p);
        else
            v2_first(dst, sum, max, src, work, t, o1, o2, split, reduce, p);
    });
}

}  // namespace softmax
}  // namespace sim_adv

// The kernel's own tiling of a shape (not constexpr here: a workspace without a row is refused).
inline SoftMaxTiling SoftMaxFlashV2TilingFunc(const SoftMaxShapeInfo& shapeInfo, const uint32_t dataTypeSize1,
                                              const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                              const bool isUpdate = false, const bool isBasicBlock = false,
                                              const bool isDataFormatNZ = false, const bool isFlashOutputBrc = false) {
    (void)isUpdate;
    constexpr const char* api = "SoftMaxFlashV2TilingFunc";
    if (isDataFormatNZ || isFlashOutputBrc)
        ascend_sim::detail::fail(api, "not modelled", "isDataFormatNZ and isFlashOutputBrc are not modelled");
    return sim_adv::softmax::flash_v2_retile(api, localWorkSpaceSize / uint32_t(sizeof(float)), shapeInfo.srcM,
                                             shapeInfo.srcK, dataTypeSize1, dataTypeSize2, isBasicBlock);
}

template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& expSumTensor,
                    const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                    const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inExpSumTensor,
                    const LocalTensor<T>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                    const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    sim_adv::softmax::flash_v2<T, T, isUpdate, isReuseSource, isBasicBlock, isDataFormatNZ, config>(
        dstTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor, sharedTmpBuffer,
        tiling, softmaxShapeInfo);
}
template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftmaxFlashV2(const LocalTensor<half>& dstTensor, const LocalTensor<float>& expSumTensor,
                    const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                    const LocalTensor<half>& expMaxTensor, const LocalTensor<float>& inExpSumTensor,
                    const LocalTensor<float>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                    const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    sim_adv::softmax::flash_v2<half, float, isUpdate, isReuseSource, isBasicBlock, isDataFormatNZ, config>(
        dstTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor, sharedTmpBuffer,
        tiling, softmaxShapeInfo);
}
template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& expSumTensor,
                    const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                    const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inExpSumTensor,
                    const LocalTensor<T>& inMaxTensor, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    SoftmaxFlashV2<T, isUpdate, isReuseSource, isBasicBlock, isDataFormatNZ, config>(
        dstTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor,
        sim_adv::stack_tmp("SoftmaxFlashV2"), tiling, softmaxShapeInfo);
}
template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftmaxFlashV2(const LocalTensor<half>& dstTensor, const LocalTensor<float>& expSumTensor,
                    const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                    const LocalTensor<half>& expMaxTensor, const LocalTensor<float>& inExpSumTensor,
                    const LocalTensor<float>& inMaxTensor, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    SoftmaxFlashV2<T, isUpdate, isReuseSource, isBasicBlock, isDataFormatNZ, config>(
        dstTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor,
        sim_adv::stack_tmp("SoftmaxFlashV2"), tiling, softmaxShapeInfo);
}

}  // namespace AscendC

// SoftmaxGrad and SoftmaxGradFront over ND rows (asc-devkit include/adv_api/
// activation/softmaxgrad.h; impl/adv_api/detail/activation/softmax/
// softmax_grad_base_impl.h :: SoftmaxGradImpl, SoftmaxGradFrontImpl; dav_c220:
// membase/common/softmax_grad_nd_impl.h :: SoftmaxGradPostProcess,
// SoftmaxGradNDImpl, SoftmaxGradNDGenericImpl, SoftmaxGradFrontNDImpl;
// membase/v220/softmax_common_impl/softmax_common_nd_reduce.h ::
// ReduceSumLastNDImpl, AlignedReduceSumNDImpl, ReduceSumLastNDSplitImpl;
// softmax_common_broadcast.h :: SingleBlockBroadCastImpl, BroadCastLastImpl
// (its NPU path); softmax_common/softmax_tiling_func.h :: SoftMaxGradTilingFunc).
// With y the softmax and g its gradient, per row: front = sum(y * g) (a block of
// copies a row), grad = (g - front) * y; half computed in float.
#pragma once
#include <cstdint>
#include <type_traits>

#include "../kernel_data_copy.h"
#include "../kernel_sync.h"
#include "../kernel_tpipe.h"
#include "../kernel_vec_binary.h"
#include "../kernel_vec_cast.h"
#include "../kernel_vec_ops.h"
#include "softmax_reduce.h"
#include "softmax_steps.h"

namespace AscendC {
namespace sim_adv {
namespace softmax_grad {
using softmax::kBlk;
using softmax::kMaxRep;
using softmax::kRep;
using softmax::ReduceLastND;

// The kernel's retiling when the shape differs from the tiling's (device SoftMaxGradTilingFunc).
inline SoftMaxTiling retile(const char* api, uint32_t workFloats, uint32_t m, uint32_t k, uint32_t typeSize,
                            bool isFront) {
    uint32_t rows = workFloats / grad_row_floats(k, typeSize, isFront);
    if (rows < m && rows > kBlk) rows = rows / kBlk * kBlk;
    rows = rows < m ? rows : m;
    if (rows == 0) d::fail(api, "sharedTmpBuffer below the minimum", "sharedTmpBuffer holds %u floats, not one row",
                           workFloats);
    SoftMaxTiling t;
    set_split(t, m, k, ONE_BLK_SIZE / typeSize, rows, m);
    return t;
}

// acc (a block a row, folded to one value a row) = the row sums of the whole
// repeats: each repeat column BlockReduceSum'd into scratch and added (AlignedReduceSumNDImpl).
inline void aligned_sums(const LocalTensor<float>& scratch, const LocalTensor<float>& src,
                         const LocalTensor<float>& acc, const ReduceLastND& p, uint32_t repeats) {
    const int32_t rowStride = int32_t(p.srcK / kBlk);
    SetMaskCount();
    SetVectorMask<float, MaskMode::COUNTER>(0, p.srcM * kRep);
    BlockReduceSum<float, false>(scratch, src, 1, int32_t(MASK_PLACEHOLDER), 1, 1, rowStride);
    SetMaskNorm();
    ResetMask();
    PipeBarrier<PIPE_V>();
    DataCopy(acc, scratch, DataCopyParams{1, uint16_t(p.srcM), 0, 0});
    PipeBarrier<PIPE_V>();
    SetMaskCount();
    for (uint32_t i = 1; i < repeats; ++i) {
        SetVectorMask<float, MaskMode::COUNTER>(0, p.srcM * kRep);
        BlockReduceSum<float, false>(scratch, src[i * kRep], 1, int32_t(MASK_PLACEHOLDER), 1, 1, rowStride);
        PipeBarrier<PIPE_V>();
        SetVectorMask<float, MaskMode::COUNTER>(0, p.srcM * kBlk);
        Add<float, false>(acc, acc, scratch, MASK_PLACEHOLDER, 1,
                          {1, 1, 1, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE});
        PipeBarrier<PIPE_V>();
    }
    SetVectorMask<float, MaskMode::COUNTER>(0, p.srcM * kBlk);
    BlockReduceSum<float, false>(acc, acc, 1, int32_t(MASK_PLACEHOLDER), 1, 1, DEFAULT_REPEAT_STRIDE);
    SetMaskNorm();
    ResetMask();
}

// dst (dstK copies a row) = the sum of each of src's rows; tmp holds a block a row
// (ReduceSumLastNDImpl: the sums gather in tmp, dst is the scratch until the broadcast).
inline void row_sums(const LocalTensor<float>& dst, const LocalTensor<float>& src, const LocalTensor<float>& tmp,
                     const ReduceLastND& p) {
    const uint32_t repeats = p.originalSrcK / kRep, tailK = p.originalSrcK % kRep;
    if (repeats > 0) aligned_sums(dst, src, tmp, p, repeats);
    if (tailK != 0) {
        const int32_t rowStride = int32_t(p.srcK / kBlk);
        const uint32_t full = p.srcM / kMaxRep, rest = p.srcM % kMaxRep;
        for (uint32_t i = 0; i < full; ++i)
            WholeReduceSum<float>(dst[i * kMaxRep], src[repeats * kRep + i * kMaxRep * p.srcK], int32_t(tailK),
                                  int32_t(kMaxRep), 1, 1, rowStride);
        if (rest != 0)
            WholeReduceSum<float>(dst[full * kMaxRep], src[repeats * kRep + full * kMaxRep * p.srcK],
                                  int32_t(tailK), int32_t(rest), 1, 1, rowStride);
        PipeBarrier<PIPE_V>();
        if (repeats == 0) {
            // The copy takes a block a row of the packed sums; the bytes past
            // the srcM sums were never written and are never read from tmp:
            // they count as defined so that the initcheck reports only reads
            // reaching a result.
            d::ub_written("DataCopy", dst[p.srcM].GetPhyAddr(), uint64_t(p.srcM) * (kBlk - 1) * sizeof(float));
            DataCopy(tmp, dst, DataCopyParams{1, uint16_t(p.srcM), 0, 0});
        } else {
            SetMaskCount();
            SetVectorMask<float, MaskMode::COUNTER>(0, p.srcM * kBlk);
            Add<float, false>(tmp, tmp, dst, MASK_PLACEHOLDER, 1,
                              {1, 1, 1, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE});
            SetMaskNorm();
            ResetMask();
        }
    }
    PipeBarrier<PIPE_V>();
    // SingleBlockBroadCastImpl: Brcb for whole groups of 8 rows, the scalar
    // unit and Duplicate for the rest.
    const uint32_t groups = p.originalSrcM / kBlk, tail = p.originalSrcM % kBlk;
    if (groups != 0) {
        if (p.dstK == 2 * kBlk) {
            Brcb(dst, tmp, uint8_t(groups), {2, 2 * kBlk});
            Brcb(dst[kBlk], tmp, uint8_t(groups), {2, 2 * kBlk});
        } else {
            Brcb(dst, tmp, uint8_t(groups), {1, kBlk});
        }
    }
    if (tail != 0) {
        const TEventID vs = GetTPipePtr()->FetchEventID(HardEvent::V_S);
        const TEventID sv = GetTPipePtr()->FetchEventID(HardEvent::S_V);
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
        float sums[kBlk] = {0};
        for (uint32_t j = 0; j < tail; ++j) sums[j] = tmp.GetValue(groups * kBlk + j);
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);
        for (uint32_t j = 0; j < tail; ++j)
            Duplicate(dst[(groups * kBlk + j) * p.dstK], sums[j], uint64_t(p.dstK), 1, DEFAULT_BLK_STRIDE,
                      DEFAULT_REPEAT_STRIDE);
    }
}

// dst (m rows of dstK) = src's per-row block (srcK apart) spread along each row:
// Counter-mode Copies of m blocks a repeat, a block column a repeat.
inline void broadcast_rows(const LocalTensor<float>& dst, const LocalTensor<float>& src, uint32_t m, uint32_t dstK,
                           uint32_t srcK) {
    const uint32_t repeats = dstK / kBlk, full = repeats / kMaxRep, rest = repeats % kMaxRep;
    const uint16_t dstBlk = uint16_t(repeats), srcBlk = uint16_t(srcK / kBlk);
    const uint64_t mask[2] = {uint64_t(m) * kBlk, 0};
    SetMaskCount();
    for (uint32_t i = 0; i < full; ++i)
        Copy<float>(dst[i * kBlk * kMaxRep], src, mask, uint8_t(kMaxRep), {dstBlk, srcBlk, 1, 0});
    if (rest != 0) Copy<float>(dst[full * kBlk * kMaxRep], src, mask, uint8_t(rest), {dstBlk, srcBlk, 1, 0});
    SetMaskNorm();
    ResetMask();
}

// float rows (SoftmaxGradPostProcess): split = y * g, its row sums, g - sum, times y.
inline void float_grad_chunk(const LocalTensor<float>& dst, const LocalTensor<float>& grad,
                             const LocalTensor<float>& src, const LocalTensor<float>& work, const SoftMaxTiling& t,
                             uint32_t o, uint32_t count, const ReduceLastND& p) {
    const LocalTensor<float> split = work, reduce = work[t.splitSize], add = work[t.splitSize + t.reduceSize];
    Mul(split, src[o], grad[o], int32_t(count));
    PipeBarrier<PIPE_V>();
    row_sums(add, split, reduce, p);
    PipeBarrier<PIPE_V>();
    // dav_c220 broadcasts reduceM rows also for the tail.
    broadcast_rows(split, add, t.reduceM, t.srcK, kBlk);
    PipeBarrier<PIPE_V>();
    Sub(split, grad[o], split, int32_t(count));
    PipeBarrier<PIPE_V>();
    Mul(dst[o], src[o], split, int32_t(count));
}
// float front (SoftmaxGradFrontNDImpl): dst's block a row = sum(y * g).
inline void float_front_chunk(const LocalTensor<float>& dst, const LocalTensor<float>& grad,
                              const LocalTensor<float>& src, const LocalTensor<float>& work, const SoftMaxTiling& t,
                              uint32_t o1, uint32_t o2, uint32_t count, const ReduceLastND& p) {
    Mul(work, src[o1], grad[o1], int32_t(count));
    PipeBarrier<PIPE_V>();
    row_sums(dst[o2], work, work[t.splitSize], p);
    PipeBarrier<PIPE_V>();
}
// half rows (SoftmaxGradNDGenericImpl): y and g widened, the float steps, narrowed with CAST_ROUND.
inline void half_chunk(const LocalTensor<half>& dst, const LocalTensor<half>& grad, const LocalTensor<half>& src,
                       const LocalTensor<float>& work, const SoftMaxTiling& t, bool isFront, uint32_t o1, uint32_t o2,
                       uint32_t count, uint32_t reduceCount, const ReduceLastND& p) {
    const LocalTensor<float> y = work, g = work[t.splitSize], prod = work[2 * t.splitSize],
                             reduce = work[3 * t.splitSize], add = work[3 * t.splitSize + t.reduceSize];
    Cast(y, src[o1], RoundMode::CAST_NONE, int32_t(count));
    Cast(g, grad[o1], RoundMode::CAST_NONE, int32_t(count));
    PipeBarrier<PIPE_V>();
    Mul(prod, y, g, int32_t(count));
    PipeBarrier<PIPE_V>();
    row_sums(add, prod, reduce, p);
    PipeBarrier<PIPE_V>();
    if (isFront) {
        Cast(dst[o2], add, RoundMode::CAST_ROUND, int32_t(reduceCount));
        return;
    }
    broadcast_rows(prod, add, t.reduceM, t.srcK, t.reduceK);
    PipeBarrier<PIPE_V>();
    Sub(prod, g, prod, int32_t(count));
    PipeBarrier<PIPE_V>();
    Mul(prod, prod, y, int32_t(count));
    PipeBarrier<PIPE_V>();
    Cast(dst[o1], prod, RoundMode::CAST_ROUND, int32_t(count));
}

// The checks both APIs make, and the tiling they run with.
template <class T>
SoftMaxTiling prepare(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& grad,
                      const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp, const SoftMaxTiling& tiling,
                      const SoftMaxShapeInfo& s, bool isFront) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "SoftmaxGrad: A2/A3 support half and float");
    softmax::check_shape_info(api, s, sizeof(T));
    const uint32_t rows = s.srcM * s.srcK, perBlock = ONE_BLK_SIZE / sizeof(T);
    check_count(api, rows, src, "srcTensor");
    check_count(api, rows, grad, "gradTensor");
    check_count(api, isFront ? s.srcM * perBlock : rows, dst, "dstTensor");
    check_tmp(api, tmp, grad_row_floats(s.srcK, sizeof(T), isFront) * sizeof(float), "GetSoftMaxGradMinTmpSize");
    const uint32_t tmpBytes = tmp.GetSize();
    check_disjoint(api, tmp, tmpBytes, "sharedTmpBuffer", src, rows, "srcTensor");
    check_disjoint(api, tmp, tmpBytes, "sharedTmpBuffer", grad, rows, "gradTensor");
    check_disjoint(api, tmp, tmpBytes, "sharedTmpBuffer", dst, isFront ? s.srcM * perBlock : rows, "dstTensor");
    const SoftMaxTiling t = s.srcK != tiling.srcK || s.srcM != tiling.srcM
                                ? retile(api, tmpBytes / sizeof(float), s.srcM, s.srcK, sizeof(T), isFront)
                                : tiling;
    // The chunk's floats: (half) y, g, the product, two blocks a row; (float) the product and its blocks.
    const uint32_t need = sizeof(T) == 2 ? 3 * t.splitSize + 2 * t.reduceSize
                                         : t.splitSize + (isFront ? 1 : 2) * t.reduceSize;
    if (tmpBytes / sizeof(float) < need)
        d::fail(api, "tiling beyond sharedTmpBuffer", "the tiling's chunk needs %u floats of sharedTmpBuffer, it holds %u",
                need, tmpBytes / uint32_t(sizeof(float)));
    return t;
}

// The chunks of splitM rows, then the tailM rows.
template <class Chunk>
void over_chunks(const SoftMaxTiling& t, uint32_t oriK, Chunk chunk) {
    ReduceLastND p{t.splitM, oriK, t.splitM, t.splitK, t.reduceM, t.reduceK};
    for (uint32_t i = 0; i < t.rangeM; ++i) chunk(i * t.splitSize, i * t.reduceSize, t.splitSize, t.reduceSize, p);
    if (t.tailM == 0) return;
    p.originalSrcM = p.srcM = p.dstM = t.tailM;
    chunk(t.rangeM * t.splitSize, t.rangeM * t.reduceSize, t.tailSplitSize, t.tailReduceSize, p);
}

template <class T>
void run(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& grad, const LocalTensor<T>& src,
         const LocalTensor<uint8_t>& tmp, const SoftMaxTiling& tiling, bool isFront, const SoftMaxShapeInfo& s) {
    const SoftMaxTiling t = prepare(api, dst, grad, src, tmp, tiling, s, isFront);
    const LocalTensor<float> work = tmp.ReinterpretCast<float>();
    if constexpr (sizeof(T) == 2) {
        over_chunks(t, s.oriSrcK, [&](uint32_t o1, uint32_t o2, uint32_t n, uint32_t r, const ReduceLastND& p) {
            half_chunk(dst, grad, src, work, t, isFront, o1, o2, n, r, p);
        });
    } else if (isFront) {
        SetMaskNorm();
        ResetMask();
        over_chunks(t, s.oriSrcK, [&](uint32_t o1, uint32_t o2, uint32_t n, uint32_t, const ReduceLastND& p) {
            float_front_chunk(dst, grad, src, work, t, o1, o2, n, p);
        });
    } else {
        over_chunks(t, s.oriSrcK, [&](uint32_t o1, uint32_t, uint32_t n, uint32_t, const ReduceLastND& p) {
            float_grad_chunk(dst, grad, src, work, t, o1, n, p);
        });
    }
}
}  // namespace softmax_grad
}  // namespace sim_adv

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling, bool isFront = false,
                 const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    static_assert(!isDataFormatNZ, "SoftmaxGrad: the NZ format is not modelled");
    sim_adv::softmax_grad::run("SoftmaxGrad", dstTensor, gradTensor, srcTensor, sharedTmpBuffer, tiling, isFront,
                               softmaxShapeInfo);
}
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor, const LocalTensor<T>& srcTensor,
                 const SoftMaxTiling& tiling, bool isFront = false, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    SoftmaxGrad<T, isReuseSource, isDataFormatNZ>(dstTensor, gradTensor, srcTensor,
                                                  sim_adv::stack_tmp("SoftmaxGrad"), tiling, isFront,
                                                  softmaxShapeInfo);
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                      const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                      const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    static_assert(!isDataFormatNZ, "SoftmaxGradFront: the NZ format is not modelled");
    static_assert(!isBasicBlock, "SoftmaxGradFront: the isBasicBlock path is not modelled; use isBasicBlock = false");
    sim_adv::softmax_grad::run("SoftmaxGradFront", dstTensor, gradTensor, srcTensor, sharedTmpBuffer, tiling, true,
                               softmaxShapeInfo);
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                      const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
                      const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    SoftmaxGradFront<T, isBasicBlock, isDataFormatNZ>(dstTensor, gradTensor, srcTensor,
                                                      sim_adv::stack_tmp("SoftmaxGradFront"), tiling,
                                                      softmaxShapeInfo);
}

}  // namespace AscendC

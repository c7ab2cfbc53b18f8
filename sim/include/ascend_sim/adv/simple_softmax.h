// SimpleSoftMax: exp(x - max) / sum with the max and sum given (asc-devkit
// include/adv_api/activation/simplesoftmax.h; impl/adv_api/detail/activation/
// softmax/simple_softmax_base_impl.h :: SimpleSoftMaxImpl; softmax_common/
// softmax_common_simple.h :: SimpleSoftMaxBaseImpl; dav_c220: membase/common/
// simple_softmax_common_impl.h :: SimpleSoftMaxNDImpl, SimpleSoftMaxGenericNDImpl).
#pragma once
#include <cstdint>

#include "../kernel_vec_ops.h"
#include "softmax_steps.h"

namespace AscendC {
namespace sim_adv {
namespace softmax {

// float: all srcM rows in one pass, in dst; no tmp.
inline void simple_rows(const LocalTensor<float>& dst, const LocalTensor<float>& sum, const LocalTensor<float>& max,
                        const LocalTensor<float>& src, const LocalTensor<float>&, const SoftMaxTiling& t, uint32_t o1,
                        uint32_t o2, uint32_t m) {
    sub_rows(dst[o1], src[o1], max[o2], m, t.srcK, t.reduceK);
    PipeBarrier<PIPE_V>();
    Exp(dst[o1], dst[o1], int32_t(m * t.splitK));
    PipeBarrier<PIPE_V>();
    div_rows(dst[o1], dst[o1], sum[o2], m, t.srcK, t.reduceK);
}

// half with half max/sum: rows and max/sum widened into work.
inline void simple_rows(const LocalTensor<half>& dst, const LocalTensor<half>& sum, const LocalTensor<half>& max,
                        const LocalTensor<half>& src, const LocalTensor<float>& work, const SoftMaxTiling& t,
                        uint32_t o1, uint32_t o2, uint32_t m) {
    const LocalTensor<float> x = work, rowv = work[t.splitSize];
    const uint32_t split = m * t.splitK, reduce = m * t.reduceK;
    Cast(x, src[o1], RoundMode::CAST_NONE, split);
    Cast(rowv, max[o2], RoundMode::CAST_NONE, reduce);
    PipeBarrier<PIPE_V>();
    sub_rows(x, x, rowv, m, t.srcK, t.reduceK);
    PipeBarrier<PIPE_V>();
    Exp(x, x, int32_t(split));
    Cast(rowv, sum[o2], RoundMode::CAST_NONE, reduce);
    PipeBarrier<PIPE_V>();
    div_rows(x, x, rowv, m, t.srcK, t.reduceK);
    PipeBarrier<PIPE_V>();
    Cast(dst[o1], x, RoundMode::CAST_ROUND, split);
}

// half with float max/sum: the Exp covers a whole chunk of splitM rows even
// for the tail, as dav_c220 has it.
inline void simple_rows(const LocalTensor<half>& dst, const LocalTensor<float>& sum, const LocalTensor<float>& max,
                        const LocalTensor<half>& src, const LocalTensor<float>& work, const SoftMaxTiling& t,
                        uint32_t o1, uint32_t o2, uint32_t m) {
    const uint32_t split = m * t.splitK;
    Cast(work, src[o1], RoundMode::CAST_NONE, split);
    PipeBarrier<PIPE_V>();
    sub_rows(work, work, max[o2], m, t.srcK, t.reduceK);
    PipeBarrier<PIPE_V>();
    Exp(work, work, int32_t(t.splitSize));
    PipeBarrier<PIPE_V>();
    div_rows(work, work, sum[o2], m, t.srcK, t.reduceK);
    PipeBarrier<PIPE_V>();
    Cast(dst[o1], work, RoundMode::CAST_ROUND, split);
}

template <class T1, class T2, bool isBasicBlock, const SoftmaxConfig& config>
void simple_softmax(const LocalTensor<T1>& dst, const LocalTensor<T2>& sum, const LocalTensor<T2>& max,
                    const LocalTensor<T1>& src, const LocalTensor<uint8_t>& tmp, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& s) {
    constexpr const char* api = "SimpleSoftMax";
    const LocalTensor<float> work = tmp.ReinterpretCast<float>();
    SetMaskNorm();
    ResetMask();
    static_assert(!isBasicBlock, "SimpleSoftMax: the isBasicBlock path is not modelled; use isBasicBlock = false");
    const SoftMaxTiling t = prepare<T1, T2, isBasicBlock, config>(api, dst, src, work, tiling, s);
    check_operands(api, dst, &sum, &max, src, tmp, s, t);
    if constexpr (sizeof(T1) == sizeof(float)) {
        simple_rows(dst, sum, max, src, work, t, 0, 0, t.srcM);
        return;
    }
    // The widened chunk, and for half max/sum their widened rows.
    check_chunk(api, work, t.splitSize + (sizeof(T2) == 2 ? t.reduceSize : 0));
    const uint32_t rowvStep = sizeof(T2) == 2 ? t.reduceSize : t.reduceM * (ONE_BLK_SIZE / sizeof(float));
    PipeBarrier<PIPE_V>();
    for (uint32_t i = 0; i < t.rangeM; ++i)
        simple_rows(dst, sum, max, src, work, t, i * t.splitSize, i * rowvStep, t.splitM);
    PipeBarrier<PIPE_V>();
    if (t.tailM != 0) simple_rows(dst, sum, max, src, work, t, t.rangeM * t.splitSize, t.rangeM * rowvStep, t.tailM);
}

}  // namespace softmax
}  // namespace sim_adv

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& inSumTensor,
                   const LocalTensor<T>& inMaxTensor, const LocalTensor<T>& srcTensor,
                   const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                   const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    static_assert(!isDataFormatNZ, "SimpleSoftMax: the NZ format is not modelled");
    sim_adv::softmax::simple_softmax<T, T, isBasicBlock, config>(dstTensor, inSumTensor, inMaxTensor, srcTensor,
                                                                 sharedTmpBuffer, tiling, softmaxShapeInfo);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SimpleSoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& inSumTensor,
                   const LocalTensor<float>& inMaxTensor, const LocalTensor<half>& srcTensor,
                   const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                   const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    static_assert(!isDataFormatNZ, "SimpleSoftMax: the NZ format is not modelled");
    sim_adv::softmax::simple_softmax<half, float, isBasicBlock, config>(dstTensor, inSumTensor, inMaxTensor,
                                                                        srcTensor, sharedTmpBuffer, tiling,
                                                                        softmaxShapeInfo);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& inSumTensor,
                   const LocalTensor<T>& inMaxTensor, const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
                   const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    SimpleSoftMax<T, isReuseSource, isBasicBlock, isDataFormatNZ, config>(
        dstTensor, inSumTensor, inMaxTensor, srcTensor, sim_adv::stack_tmp("SimpleSoftMax"), tiling, softmaxShapeInfo);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SimpleSoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& inSumTensor,
                   const LocalTensor<float>& inMaxTensor, const LocalTensor<half>& srcTensor,
                   const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    SimpleSoftMax<T, isReuseSource, isBasicBlock, isDataFormatNZ, config>(
        dstTensor, inSumTensor, inMaxTensor, srcTensor, sim_adv::stack_tmp("SimpleSoftMax"), tiling, softmaxShapeInfo);
}

}  // namespace AscendC

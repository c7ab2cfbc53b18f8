// Sum: the sum of each row's first n elements (asc-devkit include/adv_api/reduce/sum.h,
// sum_utils.h; impl/adv_api/detail/reduce/sum/sum_common_impl.h :: SumCompute,
// SumForOneRepeatTime): Counter-mode RepeatReduceSums, one partial sum per
// 256 B repeat into sharedTmpBuffer, folded again until one value is left.
#pragma once
#include <cstdint>
#include <type_traits>

#include "../kernel_sync.h"
#include "../kernel_vec_mask.h"
#include "../kernel_vec_reduce_repeat.h"
#include "adv_check.h"
#include "reduce_sum_tiling.h"

namespace AscendC {

struct SumParams {
    uint32_t outter = 1;
    uint32_t inner;  // n rounded up to whole 32 B blocks
    uint32_t n;      // the elements of a row that are summed
};

namespace sim_adv {
// RepeatReduceSum as Sum issues it (one repeat, the count in the mask
// register): dav_c220's RepeatReduceSumIntrinsicsImpl is the vcadd of
// WholeReduceSum, which the simulator models; the basic API itself is not.
template <class T>
void repeat_reduce_sum(const LocalTensor<T>& dst, const LocalTensor<T>& src) {
    sim_vec::rep_reduce<T, false>("RepeatReduceSum", sim_vec::d::VecOp::WholeReduceSum, dst, src,
                                  int32_t(MASK_PLACEHOLDER), 1, DEFAULT_BLK_STRIDE, DEFAULT_BLK_STRIDE,
                                  DEFAULT_REPEAT_STRIDE, sim_vec::Grouping::Repeat, ReduceType::SUM,
                                  ReduceOrder::ORDER_VALUE_INDEX);
}

// Sum.md's constraints on the shape and the tensors.
template <class T>
void check_sum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp,
               const SumParams& p, uint32_t tmpMin) {
    constexpr const char* api = "Sum";
    if (p.inner * sizeof(T) % ONE_BLK_SIZE != 0 || p.n == 0 || p.n > p.inner)
        ascend_sim::detail::fail(api, "bad SumParams",
                                 "inner %u must be whole 32 B blocks and n %u in [1, inner]", p.inner, p.n);
    check_count(api, p.outter * p.inner, src, "srcTensor");
    check_count(api, p.outter, dst, "dstTensor");
    check_disjoint(api, src, p.outter * p.inner, "srcTensor", dst, p.outter, "dstTensor");
    if (tmpMin == 0) return;  // one repeat a row: sharedTmpBuffer unused
    check_tmp(api, tmp, tmpMin, "GetSumMaxMinTmpSize");
    check_disjoint(api, tmp, tmp.GetSize(), "sharedTmpBuffer", src, p.outter * p.inner, "srcTensor");
    check_disjoint(api, tmp, tmp.GetSize(), "sharedTmpBuffer", dst, p.outter, "dstTensor");
}
}  // namespace sim_adv

template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
         const SumParams& sumParams) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "Sum: A2/A3 support half and float");
    constexpr uint32_t perRepeat = ONE_REPEAT_BYTE_SIZE / sizeof(T);
    const uint32_t firstRepeats = (sumParams.n + perRepeat - 1) / perRepeat;
    uint32_t tmpMin = 0;
    if (firstRepeats > 1) {
        uint32_t unused = 0;
        GetSumMaxMinTmpSize(sumParams.n, sizeof(T), isReuseSource, unused, tmpMin);
    }
    sim_adv::check_sum(dstTensor, srcTensor, sharedTmpBuffer, sumParams, tmpMin);
    SetMaskCount();
    if (firstRepeats == 1) {
        SetVectorMask<T>(0, sumParams.n);
        for (uint32_t row = 0; row < sumParams.outter; ++row)
            sim_adv::repeat_reduce_sum(dstTensor[row], srcTensor[row * sumParams.inner]);
        SetMaskNorm();
        ResetMask();
        return;
    }
    // The levels of partial sums: ceil(count / perRepeat) until one is left.
    uint32_t levels = 1;
    for (uint32_t left = firstRepeats; left > 1; left = (left + perRepeat - 1) / perRepeat) ++levels;
    const LocalTensor<T> partial = sharedTmpBuffer.ReinterpretCast<T>();
    for (uint32_t row = 0; row < sumParams.outter; ++row) {
        uint64_t count = sumParams.n;
        SetVectorMask<T>(0, count);
        sim_adv::repeat_reduce_sum(partial, srcTensor[row * sumParams.inner]);
        PipeBarrier<PIPE_V>();
        for (uint32_t level = levels - 1; level != 0; --level) {
            count = (count + perRepeat - 1) / perRepeat;
            SetVectorMask<T>(0, count);
            sim_adv::repeat_reduce_sum(level == 1 ? dstTensor[row] : partial, partial);
            PipeBarrier<PIPE_V>();
        }
    }
    // dav_c220 leaves the mask register as the last level set it.
    SetMaskNorm();
}
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const SumParams& sumParams) {
    Sum<T, reduceDim, isReuseSource, isBasicBlock>(dstTensor, srcTensor, sim_adv::stack_tmp("Sum"), sumParams);
}

}  // namespace AscendC

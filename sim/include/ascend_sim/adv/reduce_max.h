// The advanced ReduceMax over a 2-D shape (asc-devkit include/adv_api/reduce/
// reduce.h :: ReduceMax; reduce_common.h :: Pattern::Reduce; dav_c220:
// impl/adv_api/detail/reduce/reduce_max/reduce_max_v220_impl.h :: ReduceMaxImpl;
// reduce_common_util_v220_impl.h :: BinaryReduceByFirstAxis; the checks of
// api_check/kernel_check/reduce/reduce_check.h). RA (reduce the first axis):
// the rows past the largest power of two folded in, then halved pairwise, in
// Counter mode, in src (isReuseSource) or in tmp. AR is not modelled.
#pragma once
#include <cstdint>
#include <type_traits>

#include "../kernel_sync.h"
#include "../kernel_vec_binary.h"
#include "../kernel_vec_mask.h"
#include "../kernel_vec_scalar.h"
#include "adv_check.h"

namespace AscendC {
namespace Pattern {
namespace Reduce {
// R reduces an axis, A keeps it; one letter a dimension.
struct R {};
struct RA {};
struct AR {};
}  // namespace Reduce
}  // namespace Pattern

namespace sim_adv {
namespace reduce_max {
// FindClosestPowerOfTwo: the largest 2^k <= n.
inline uint32_t floor_pow2(uint32_t n) {
    uint32_t p = 1;
    while (p <= n / 2) p *= 2;
    return p;
}
// The elements of tmp the RA fold works in (GetReduceMaxMaxMinTmpSize).
inline uint32_t ra_tmp_elems(uint32_t first, uint32_t padLast) {
    uint32_t k = floor_pow2(first);
    if (k == first && first > 1) k /= 2;
    return k * padLast;
}

template <class T, bool isReuseSource>
void by_first_axis(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& tmp, uint32_t first,
                   uint32_t last, uint32_t padLast) {
    const BinaryRepeatParams b;
    const UnaryRepeatParams u;
    auto count = [](uint32_t n) { SetVectorMask<T, MaskMode::COUNTER>(0, n); };
    uint32_t split = floor_pow2(first);
    const uint32_t remain = first - split;
    SetMaskCount();
    if constexpr (isReuseSource) {
        if (remain != 0) {
            count(padLast * remain);
            Max<T, false>(src, src, src[split * padLast], MASK_PLACEHOLDER, 1, b);
            PipeBarrier<PIPE_V>();
        }
    } else if (remain != 0) {
        count(split * padLast);
        Adds<T, false>(tmp, src, T(0), MASK_PLACEHOLDER, 1, u);
        PipeBarrier<PIPE_V>();
        count(padLast * remain);
        Max<T, false>(tmp, tmp, src[split * padLast], MASK_PLACEHOLDER, 1, b);
        PipeBarrier<PIPE_V>();
    } else if (split > 1) {
        split /= 2;
        count(padLast * split);
        Max<T, false>(tmp, src, src[split * padLast], MASK_PLACEHOLDER, 1, b);
        PipeBarrier<PIPE_V>();
    } else {  // one row: copied
        count(last);
        Adds<T, false>(dst, src, T(0), MASK_PLACEHOLDER, 1, u);
        PipeBarrier<PIPE_V>();
        return;
    }
    const LocalTensor<T>& cur = isReuseSource ? src : tmp;
    while (split > 1) {
        split /= 2;
        count(padLast * split);
        Max<T, false>(cur, cur, cur[split * padLast], MASK_PLACEHOLDER, 1, b);
        PipeBarrier<PIPE_V>();
    }
    count(last);
    Adds<T, false>(dst, cur, T(0), MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
}
}  // namespace reduce_max
}  // namespace sim_adv

template <class T, class pattern, bool isReuseSource = false>
void ReduceMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
               const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t srcShape[], bool srcInnerPad) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "ReduceMax: A2/A3 support half and float");
    static_assert(std::is_same_v<pattern, Pattern::Reduce::RA> || std::is_same_v<pattern, Pattern::Reduce::AR>,
                  "ReduceMax: A2/A3 support the AR and RA patterns");
    static_assert(!std::is_same_v<pattern, Pattern::Reduce::AR>,
                  "ReduceMax: the AR pattern (BlockReduceByLastAxis) is not modelled; only RA is");
    namespace d = ascend_sim::detail;
    constexpr const char* api = "ReduceMax";
    const uint32_t first = srcShape[0], last = srcShape[1];
    constexpr uint32_t perBlock = ONE_BLK_SIZE / sizeof(T);
    const uint32_t padLast = (last + perBlock - 1) / perBlock * perBlock;
    if (first == 0 || last == 0)
        d::fail(api, "empty shape", "firstAxis and lastAxis must be greater than 0; they are %u and %u", first, last);
    if (!srcInnerPad) d::fail(api, "srcInnerPad false", "srcInnerPad must be true on A2/A3");
    sim_adv::check_count(api, first * padLast, srcTensor, "srcTensor");
    sim_adv::check_count(api, last, dstTensor, "dstTensor");
    sim_adv::check_disjoint(api, dstTensor, last, "dstTensor", srcTensor, first * padLast, "srcTensor");
    if constexpr (!isReuseSource) {
        const uint32_t tmpBytes = sharedTmpBuffer.GetSize();
        sim_adv::check_tmp(api, sharedTmpBuffer, sim_adv::reduce_max::ra_tmp_elems(first, padLast) * sizeof(T),
                           "GetReduceMaxMaxMinTmpSize");
        sim_adv::check_disjoint(api, sharedTmpBuffer, tmpBytes, "sharedTmpBuffer", srcTensor, first * padLast,
                                "srcTensor");
        sim_adv::check_disjoint(api, sharedTmpBuffer, tmpBytes, "sharedTmpBuffer", dstTensor, last, "dstTensor");
    }
    sim_adv::reduce_max::by_first_axis<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer.ReinterpretCast<T>(),
                                                         first, last, padLast);
    SetMaskNorm();
    ResetMask();
}
template <class T, class pattern, bool isReuseSource = false>
void ReduceMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t srcShape[],
               bool srcInnerPad) {
    ReduceMax<T, pattern, isReuseSource>(dstTensor, srcTensor, sim_adv::stack_tmp("ReduceMax"), srcShape,
                                         srcInnerPad);
}

}  // namespace AscendC

// The high-dimension ReduceSum/ReduceMax/ReduceMin (CANN: kernel_operator_vec_reduce_intf.h;
// kernel_operator_vec_reduce_intf_impl.h (mask | mask[2], repeatTime, srcRepStride);
// dav_c220 kernel_operator_vec_reduce_impl.h ReduceImplNoIndex, ReduceImplWithIndex). Modelled as
// dav_c220's sequence of vcadd/vcmax/vcmin, barriers, flags and scalar moves,
// each seen by the checks. One repeat: the reduction into tmp[0], V_S,
// dst[0] = tmp[0] by the scalar unit, S_V, S_MTE3. More:
//   ReduceSum (ReduceSumImpl, the NPU branch of ReduceSumSecondStep): a vcadd per
//   repeat into tmp[r] (255 repeats a call), PipeBarrier<PIPE_V>, a Counter-mode
//   vcadd of the partial sums in place, PipeBarrier<PIPE_V>, then the scalar move
//   (one sum left) or a vcadd of the sums into dst;
//   ReduceMax/Min (ReduceImplFirstStep, SecondStepNoIndex, ThirdStepNoIndex): a
//   (value, index) pair per repeat into tmp, then in-place passes over the values
//   (every other lane) until one repeat holds them, then the last pass and the scalar move;
//   with calIndex (ReduceImplWithIndex, SecondStep, ThirdStep, GetIndex) each pass
//   writes a region of its own and the index is traced back through the pairs.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernel_vec_ops.h"
#include "kernel_vec_reduce_repeat.h"

namespace AscendC {

namespace sim_vec {

constexpr const char* kReduceSumApi = "ReduceSum";

template <class T>
void reduce_sum_vcadd(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[2], int32_t repeats,
                      int32_t srcRepStride, const char* dstRole, const char* srcRole) {
    rep_reduce<T, true>(kReduceSumApi, d::VecOp::ReduceSum, dst, src, mask, repeats, 1, 1, srcRepStride,
                        Grouping::Repeat, ReduceType::SUM, ReduceOrder::ORDER_ONLY_VALUE, dstRole, srcRole);
}

// dst[0] = tmp[0] through the scalar unit, bracketed by the flags dav_c220 issues.
template <class T>
void reduce_scalar_move(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& tmp) {
    api_flag(api, HardEvent::V_S);
    d::scalar_ub(api, tmp.GetPhyAddr(), sizeof(T), false);
    d::scalar_ub(api, dst.GetPhyAddr(), sizeof(T), true);
    dst.GetPhyAddr()[0] = tmp.GetPhyAddr()[0];
    api_flag(api, HardEvent::S_V);
    api_flag(api, HardEvent::S_MTE3);
}

template <class T>
void reduce_sum_highdim(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& tmp,
                        const uint64_t mask[2], int32_t repeatTime, int32_t srcRepStride) {
    static_assert(f16f32_v<T>, "ReduceSum: A2/A3 support half and float only (not bfloat16_t)");
    constexpr int32_t perRepeat = 256 / sizeof(T);
    if (repeatTime < 1 || repeatTime > perRepeat * perRepeat)
        d::fail(kReduceSumApi, "repeatTime out of range",
                "repeatTime %d is outside [1, %d]: dav_c220's final vcadd sums at most %d partial sums", repeatTime,
                perRepeat * perRepeat, perRepeat);
    if (repeatTime == 1) {
        reduce_sum_vcadd(tmp, src, mask, 1, srcRepStride, "sharedTmpBuffer", "src");
        reduce_scalar_move(kReduceSumApi, dst, tmp);
        return;
    }
    const uint32_t srcChunk = 255u * uint32_t(srcRepStride) * 32 / sizeof(T);
    for (int32_t done = 0; done < repeatTime; done += 255)
        reduce_sum_vcadd(tmp[uint32_t(done)], src[uint32_t(done / 255) * srcChunk], mask,
                         repeatTime - done < 255 ? repeatTime - done : 255, srcRepStride, "sharedTmpBuffer", "src");
    d::pipe_barrier(kReduceSumApi, PIPE_V);
    d::vec_set_mask_mode(kReduceSumApi, true);  // the partial sums as one Counter-mode vcadd, in place
    d::vec_set_mask(kReduceSumApi, 0, uint64_t(repeatTime));
    rep_reduce<T, false>(kReduceSumApi, d::VecOp::ReduceSum, tmp, tmp, MASK_PLACEHOLDER, 1, 1, 1, 8, Grouping::Repeat,
                         ReduceType::SUM, ReduceOrder::ORDER_ONLY_VALUE, "sharedTmpBuffer", "sharedTmpBuffer");
    d::vec_set_mask_mode(kReduceSumApi, false);
    d::pipe_barrier(kReduceSumApi, PIPE_V);
    const int32_t left = (repeatTime + perRepeat - 1) / perRepeat;
    // ReduceSumFinalStep builds the lane mask with 1 << left (or left - 64): a shift by 64 there is undefined.
    if (left % 64 == 0)
        d::fail(kReduceSumApi, "partial sums fill a mask word",
                "repeatTime %d leaves %d partial sums; dav_c220 ReduceSumFinalStep's lane mask for that count "
                "shifts a 64-bit word by 64 (undefined)",
                repeatTime, left);
    if (left == 1) {
        reduce_scalar_move(kReduceSumApi, dst, tmp);
        return;
    }
    uint64_t lanes[2];
    mask_bits<T>(left, lanes[1], lanes[0]);
    reduce_sum_vcadd(dst, tmp, lanes, 1, 8, "dst", "sharedTmpBuffer");
}

// CreateSpecialFormatMask: the value lanes 0, 2, 4, ... of the first `pairs` (value, index) pairs.
inline void pair_value_lanes(int32_t pairs, uint64_t mask[2]) {
    mask[0] = mask[1] = 0;
    for (int32_t i = 0; i < pairs; ++i) mask[i / 32] |= 1ull << (2 * (i % 32));
}

// The index bits dav_c220 stores in a T slot of a (value, index) pair.
template <class T>
using index_bits_t = std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>;

// GetIndex's scalar read of the index bits at tmp[at], with its range check.
template <class T>
int32_t read_index(const char* api, const LocalTensor<T>& tmp, uint32_t at, const char* which) {
    if (at >= tmp.GetSize())
        d::fail(api, "index outside sharedTmpBuffer", "the %s index is read at sharedTmpBuffer[%u], past its %u elements",
                which, at, tmp.GetSize());
    d::scalar_ub(api, tmp.GetPhyAddr() + at, sizeof(T), false);
    index_bits_t<T> bits;
    std::memcpy(&bits, tmp.GetPhyAddr() + at, sizeof(T));
    constexpr int32_t perRepeat = 256 / sizeof(T);
    if (int32_t(bits) >= perRepeat)
        d::fail(api, "index out of range", "the %s index read back is %d, outside [0, %d] (GetIndex's check)", which,
                int32_t(bits), perRepeat - 1);
    return int32_t(bits);
}

// ReduceImplThirdStep's stores: dst[0] = tmp[at] and dst[1] = the low sizeof(T)
// bytes of the int32 index, by the scalar unit, then S_V and S_MTE3.
template <class T>
void store_value_index(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& tmp, uint32_t at,
                       int32_t index) {
    d::scalar_ub(api, tmp.GetPhyAddr() + at, sizeof(T), false);
    d::scalar_ub(api, dst.GetPhyAddr(), 2 * sizeof(T), true);
    dst.GetPhyAddr()[0] = tmp.GetPhyAddr()[at];
    std::memcpy(dst.GetPhyAddr() + 1, &index, sizeof(T));
    api_flag(api, HardEvent::S_V);
    api_flag(api, HardEvent::S_MTE3);
}

inline int32_t round_up_block(int32_t elems, uint32_t size) {
    return int32_t((uint32_t(elems) * size + 31) / 32 * 32 / size);
}

template <class T, bool isMax>
void reduce_extreme_highdim(const char* api, d::VecOp op, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                            const LocalTensor<T>& tmp, const uint64_t mask[2], int32_t repeatTime,
                            int32_t srcRepStride, bool calIndex) {
    static_assert(f16f32_v<T>, "ReduceMax, ReduceMin: A2/A3 support half and float only (not bfloat16_t)");
    if (repeatTime < 1) d::fail(api, "repeatTime out of range", "repeatTime %d is below 1", repeatTime);
    constexpr int32_t perRepeat = 256 / sizeof(T);
    constexpr ReduceType type = isMax ? ReduceType::MAX : ReduceType::MIN;
    auto pass = [&](const LocalTensor<T>& to, const LocalTensor<T>& from, const uint64_t m[2], int32_t reps,
                    int32_t stride, const char* toRole, const char* fromRole) {
        rep_reduce<T, true>(api, op, to, from, m, reps, 1, 1, stride, Grouping::Repeat, type,
                            ReduceOrder::ORDER_VALUE_INDEX, toRole, fromRole);
    };
    if (repeatTime == 1) {
        if (calIndex) {  // ReduceImplWithIndex: the one pass writes dst's (value, index) pair
            pass(dst, src, mask, 1, srcRepStride, "dst", "src");
            return;
        }
        pass(tmp, src, mask, 1, srcRepStride, "sharedTmpBuffer", "src");
        reduce_scalar_move(api, dst, tmp);
        return;
    }
    const uint32_t srcChunk = 255u * uint32_t(srcRepStride) * 32 / sizeof(T);
    for (int32_t done = 0; done < repeatTime; done += 255)
        pass(tmp[uint32_t(done) * 2], src[uint32_t(done / 255) * srcChunk], mask,
             repeatTime - done < 255 ? repeatTime - done : 255, srcRepStride, "sharedTmpBuffer", "src");
    int32_t cur = 2 * repeatTime;  // values and indices in tmp
    // ReduceImplSecondStep / SecondStepNoIndex: the values of tmp[from..] (every
    // other lane) reduced into tmp[to..], a pair per repeat of them.
    auto second = [&](uint32_t from, uint32_t to) {
        const int32_t full = cur / perRepeat, left = cur % perRepeat;
        uint64_t m[2];
        if (full) {
            pair_value_lanes(perRepeat / 2, m);
            pass(tmp[to], tmp[from], m, full, 8, "sharedTmpBuffer", "sharedTmpBuffer");
        }
        if (left) {
            pair_value_lanes(left / 2, m);
            pass(tmp[to + uint32_t(full) * 2], tmp[from + uint32_t(full) * perRepeat], m, 1, 8, "sharedTmpBuffer",
                 "sharedTmpBuffer");
        }
        cur = (full + (left ? 1 : 0)) * 2;
    };
    if (!calIndex) {
        auto third = [&] {
            uint64_t m[2];
            pair_value_lanes(cur / 2, m);
            pass(tmp, tmp, m, 1, 8, "sharedTmpBuffer", "sharedTmpBuffer");
            reduce_scalar_move(api, dst, tmp);
        };
        for (int step = 0; step < 2; ++step) {
            d::pipe_barrier(api, PIPE_V);
            second(0, 0);
            if (cur <= perRepeat) {
                d::pipe_barrier(api, PIPE_V);
                third();
                return;
            }
        }
        d::fail(api, "repeatTime too large",
                "repeatTime %d leaves %d values after dav_c220's two in-place passes, which then stores no result",
                repeatTime, cur / 2);
    }
    // ReduceImplWithIndex: each pass into its own 32 B-aligned region; the index
    // is traced back through the pairs and made repeat * srcRepStride blocks + lane.
    const int32_t perRepOffset = int32_t(32 / sizeof(T)) * srcRepStride;
    d::pipe_barrier(api, PIPE_V);
    const int32_t secondPos = round_up_block(cur, sizeof(T));
    second(0, uint32_t(secondPos));
    d::pipe_barrier(api, PIPE_V);
    const int32_t thirdPos = round_up_block(secondPos + cur, sizeof(T));
    if (cur == 2) {
        api_flag(api, HardEvent::V_S);
        const int32_t third = read_index(api, tmp, uint32_t(secondPos + 1), "third");
        const int32_t secondIdx = read_index(api, tmp, uint32_t(third + 1), "second");
        store_value_index(api, dst, tmp, uint32_t(secondPos), secondIdx + perRepOffset * (third / 2));
        return;
    }
    // The lanes of this level's pairs, also for the pass after a further level;
    // CreateSpecialFormatMask's words hold at most a repeat's pairs.
    uint64_t m[2];
    pair_value_lanes(cur / 2 < perRepeat / 2 ? cur / 2 : perRepeat / 2, m);
    if (cur > perRepeat) {
        second(uint32_t(secondPos), uint32_t(thirdPos));
        const int32_t fourthPos = round_up_block(thirdPos + cur, sizeof(T));
        d::pipe_barrier(api, PIPE_V);
        pass(tmp[uint32_t(fourthPos)], tmp[uint32_t(thirdPos)], m, 1, 8, "sharedTmpBuffer", "sharedTmpBuffer");
        api_flag(api, HardEvent::V_S);
        const int32_t fourth = read_index(api, tmp, uint32_t(fourthPos + 1), "fourth");
        const int32_t third = read_index(api, tmp, uint32_t(thirdPos + fourth + 1), "third");
        const int32_t secondIdx =
            read_index(api, tmp, uint32_t(secondPos + perRepeat * (fourth / 2) + third + 1), "second");
        const int32_t level1 = perRepeat * (perRepeat * (fourth / 2) + third) / 2 + secondIdx;
        const int32_t first = read_index(api, tmp, uint32_t(level1 + 1), "first");
        store_value_index(api, dst, tmp, uint32_t(fourthPos), first + perRepOffset * level1 / 2);
        return;
    }
    pass(tmp[uint32_t(thirdPos)], tmp[uint32_t(secondPos)], m, 1, 8, "sharedTmpBuffer", "sharedTmpBuffer");
    api_flag(api, HardEvent::V_S);
    const int32_t third = read_index(api, tmp, uint32_t(thirdPos + 1), "third");
    const int32_t secondIdx = read_index(api, tmp, uint32_t(secondPos + third + 1), "second");
    const int32_t level1 = perRepeat * (third / 2) + secondIdx;
    const int32_t first = read_index(api, tmp, uint32_t(level1 + 1), "first");
    store_value_index(api, dst, tmp, uint32_t(thirdPos), first + perRepOffset * level1 / 2);
}

}  // namespace sim_vec

template <class T>
void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
               const uint64_t mask[], const int32_t repeatTime, const int32_t srcRepStride) {
    if (mask[0] == 0 && mask[1] == 0) return;
    const uint64_t m[2] = {mask[0], mask[1]};
    sim_vec::reduce_sum_highdim(dst, src, sharedTmpBuffer, m, repeatTime, srcRepStride);
}
template <class T>
void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
               const int32_t mask, const int32_t repeatTime, const int32_t srcRepStride) {
    if (mask == 0) return;
    uint64_t m[2];
    sim_vec::mask_bits<T>(mask, m[1], m[0]);
    sim_vec::reduce_sum_highdim(dst, src, sharedTmpBuffer, m, repeatTime, srcRepStride);
}

#define ASCEND_SIM_REDUCE_EXTREME(NAME, IS_MAX)                                                                \
    template <class T>                                                                                         \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,     \
              const uint64_t mask[], const int32_t repeatTime, const int32_t srcRepStride, bool calIndex = 0) { \
        if (mask[0] == 0 && mask[1] == 0) return;                                                              \
        const uint64_t m[2] = {mask[0], mask[1]};                                                              \
        sim_vec::reduce_extreme_highdim<T, IS_MAX>(#NAME, sim_vec::d::VecOp::NAME, dst, src, sharedTmpBuffer, m, \
                                                   repeatTime, srcRepStride, calIndex);                        \
    }                                                                                                          \
    template <class T>                                                                                         \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,     \
              const int32_t mask, const int32_t repeatTime, const int32_t srcRepStride, bool calIndex = 0) {   \
        if (mask == 0) return;                                                                                 \
        uint64_t m[2];                                                                                         \
        sim_vec::mask_bits<T>(mask, m[1], m[0]);                                                               \
        sim_vec::reduce_extreme_highdim<T, IS_MAX>(#NAME, sim_vec::d::VecOp::NAME, dst, src, sharedTmpBuffer, m, \
                                                   repeatTime, srcRepStride, calIndex);                        \
    }
ASCEND_SIM_REDUCE_EXTREME(ReduceMax, true)
ASCEND_SIM_REDUCE_EXTREME(ReduceMin, false)
#undef ASCEND_SIM_REDUCE_EXTREME

}  // namespace AscendC

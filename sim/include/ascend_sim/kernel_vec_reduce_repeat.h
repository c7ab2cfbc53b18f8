// The per-repeat reductions (CANN: kernel_operator_vec_reduce_intf.h; dav_c220
// kernel_operator_vec_reduce_impl.h vcadd/vcmax/vcmin, vcgadd/vcgmax/vcgmin,
// vcpadd): WholeReduceSum/Max/Min, BlockReduceSum/Max/Min and PairReduceSum
// with their 9.1 names ReduceRepeat, ReduceDataBlock and ReducePairElem.
// Each repeat reduces its active elements into a result at dst + r x
// dstRepStride x (the result's size): ReduceRepeat.md table 3,
// ReduceDataBlock.md (16 B for half, 32 B for float), ReducePairElem.md (128 B).
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernel_vec_ops.h"
#include "kernel_vec_repeat.h"

namespace AscendC {

enum class ReduceType { NONE = -1, SUM = 0, MAX, MIN };
enum class ReduceOrder : uint8_t { ORDER_VALUE_INDEX = 0, ORDER_INDEX_VALUE, ORDER_ONLY_VALUE, ORDER_ONLY_INDEX };

namespace sim_vec {

enum class Grouping { Repeat, Block, Pair };

// The bytes one repeat's result takes (also the dstRepStride unit) and its alignment.
template <class T>
constexpr uint32_t result_bytes(Grouping g, ReduceType type, ReduceOrder order) {
    if (g == Grouping::Block) return 8 * sizeof(T);
    if (g == Grouping::Pair) return 128;
    if (type == ReduceType::SUM || order == ReduceOrder::ORDER_ONLY_VALUE) return sizeof(T);
    if (order == ReduceOrder::ORDER_ONLY_INDEX) return 4;
    return 2 * sizeof(T);
}

// Writes one repeat's result from its lanes (masked-off lanes: active false, value +0).
template <class T>
void reduce_one(uint8_t* out, T* lanes, const bool* active, Grouping g, ReduceType type, ReduceOrder order) {
    constexpr uint32_t perRepeat = 256 / sizeof(T), perBlock = 32 / sizeof(T);
    auto put = [&](uint32_t at, const void* v, size_t n) { std::memcpy(out + at, v, n); };
    if (type == ReduceType::SUM) {
        const uint32_t group = g == Grouping::Repeat ? perRepeat : g == Grouping::Block ? perBlock : 2;
        for (uint32_t k = 0; k < perRepeat / group; ++k) {
            const T v = num::tree_sum(lanes + k * group, group);
            put(k * sizeof(T), &v, sizeof(T));
        }
        return;
    }
    const bool isMax = type == ReduceType::MAX;
    T v;
    uint32_t idx;
    if (g == Grouping::Block) {
        for (uint32_t k = 0; k < 8; ++k) {
            num::extreme(lanes + k * perBlock, active + k * perBlock, perBlock, isMax, v, idx);
            put(k * sizeof(T), &v, sizeof(T));
        }
        return;
    }
    num::extreme(lanes, active, perRepeat, isMax, v, idx);
    using Index = std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>;  // the index in T's bits
    const Index ix = Index(idx);
    switch (order) {
        case ReduceOrder::ORDER_VALUE_INDEX: put(0, &v, sizeof(T)), put(sizeof(T), &ix, sizeof(T)); break;
        case ReduceOrder::ORDER_INDEX_VALUE: put(0, &ix, sizeof(T)), put(sizeof(T), &v, sizeof(T)); break;
        case ReduceOrder::ORDER_ONLY_VALUE: put(0, &v, sizeof(T)); break;
        case ReduceOrder::ORDER_ONLY_INDEX: put(0, &idx, 4); break;  // uint32 for half too (ReduceRepeat.md)
    }
}

template <class T, bool isSetMask, class M>
void rep_reduce(const char* api, d::VecOp op, const LocalTensor<T>& dst, const LocalTensor<T>& src, const M& mask,
                int32_t repeatTime, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride, Grouping g,
                ReduceType type, ReduceOrder order, const char* dstRole = "dst", const char* srcRole = "src") {
    static_assert(f16f32_v<T>, "the per-repeat reductions: A2/A3 support half and float only");
    constexpr uint32_t perRepeat = 256 / sizeof(T);
    if (repeatTime < 0 || repeatTime > 255 || dstRepStride < 0 || srcBlkStride < 0 || srcRepStride < 0)
        d::fail(api, "parameter out of range",
                "repeatTime %d (0..255), dstRepStride %d, srcBlkStride %d, srcRepStride %d (0..65535)", repeatTime,
                dstRepStride, srcBlkStride, srcRepStride);
    apply_mask<T, isSetMask>(api, mask);
    const uint32_t out = result_bytes<T>(g, type, order);
    d::RepArg a[2] = {rep_arg(src, uint32_t(srcBlkStride), uint32_t(srcRepStride), srcRole, false),
                      rep_arg(dst, 0, uint32_t(dstRepStride), dstRole, true)};
    a[1].repBytes = a[1].repUnit = out;
    a[1].align = g == Grouping::Pair ? 32 : out;
    size_t n = 0;
    const d::RepRun* runs = d::vec_repeat(api, op, a, 2, {perRepeat, uint32_t(repeatTime)}, &n);
    // vcadd leaves ACC_VAL holding nothing documented (GetReduceRepeatSumSpr.md: ReduceSum's count form only).
    if (n && g == Grouping::Repeat && type == ReduceType::SUM) d::vec_set_acc(api, 0, 0);
    T lanes[perRepeat];
    bool active[perRepeat];
    for (size_t i = 0; i < n;) {
        const uint32_t r = runs[i].repeat;
        std::fill(lanes, lanes + perRepeat, T(0.0f));
        std::fill(active, active + perRepeat, false);
        for (; i < n && runs[i].repeat == r; ++i) {
            std::memcpy(lanes + runs[i].first, at(src, a[0], runs[i]), runs[i].len * sizeof(T));
            std::fill(active + runs[i].first, active + runs[i].first + runs[i].len, true);
        }
        reduce_one(reinterpret_cast<uint8_t*>(dst.GetPhyAddr()) + uint64_t(r) * uint32_t(dstRepStride) * out, lanes,
                   active, g, type, order);
    }
}

}  // namespace sim_vec

// 9.0 names (BlockReduce/PairReduce take repeatTime before mask).
#define ASCEND_SIM_REDUCE_OLD(NAME, MASKT, G, TYPE)                                                            \
    template <class T, bool isSetMask = true>                                                                  \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime, MASKT mask,      \
              const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride) {            \
        sim_vec::rep_reduce<T, isSetMask>(#NAME, sim_vec::d::VecOp::NAME, dst, src, mask, repeatTime, dstRepStride, \
                                          srcBlkStride, srcRepStride, sim_vec::Grouping::G, ReduceType::TYPE,   \
                                          ReduceOrder::ORDER_VALUE_INDEX);                                     \
    }
ASCEND_SIM_REDUCE_OLD(BlockReduceSum, const int32_t, Block, SUM)
ASCEND_SIM_REDUCE_OLD(BlockReduceSum, const uint64_t*, Block, SUM)
ASCEND_SIM_REDUCE_OLD(BlockReduceMax, const int32_t, Block, MAX)
ASCEND_SIM_REDUCE_OLD(BlockReduceMax, const uint64_t*, Block, MAX)
ASCEND_SIM_REDUCE_OLD(BlockReduceMin, const int32_t, Block, MIN)
ASCEND_SIM_REDUCE_OLD(BlockReduceMin, const uint64_t*, Block, MIN)
ASCEND_SIM_REDUCE_OLD(PairReduceSum, const int32_t, Pair, SUM)
ASCEND_SIM_REDUCE_OLD(PairReduceSum, const uint64_t*, Pair, SUM)
#undef ASCEND_SIM_REDUCE_OLD

#define ASCEND_SIM_WHOLE_REDUCE(NAME, MASKT, TYPE, ORDER_PARAM, ORDER)                                         \
    template <class T, bool isSetMask = true>                                                                  \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, MASKT mask, const int32_t repeatTime,      \
              const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride ORDER_PARAM) { \
        sim_vec::rep_reduce<T, isSetMask>(#NAME, sim_vec::d::VecOp::NAME, dst, src, mask, repeatTime, dstRepStride, \
                                          srcBlkStride, srcRepStride, sim_vec::Grouping::Repeat, ReduceType::TYPE, \
                                          ORDER);                                                              \
    }
#define ASCEND_SIM_ORDER , ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX
ASCEND_SIM_WHOLE_REDUCE(WholeReduceSum, const int32_t, SUM, , ReduceOrder::ORDER_VALUE_INDEX)
ASCEND_SIM_WHOLE_REDUCE(WholeReduceSum, const uint64_t*, SUM, , ReduceOrder::ORDER_VALUE_INDEX)
ASCEND_SIM_WHOLE_REDUCE(WholeReduceMax, const int32_t, MAX, ASCEND_SIM_ORDER, order)
ASCEND_SIM_WHOLE_REDUCE(WholeReduceMax, const uint64_t*, MAX, ASCEND_SIM_ORDER, order)
ASCEND_SIM_WHOLE_REDUCE(WholeReduceMin, const int32_t, MIN, ASCEND_SIM_ORDER, order)
ASCEND_SIM_WHOLE_REDUCE(WholeReduceMin, const uint64_t*, MIN, ASCEND_SIM_ORDER, order)
#undef ASCEND_SIM_ORDER
#undef ASCEND_SIM_WHOLE_REDUCE

// 9.1 names: mask before repeatTime; dst and src types equal on A2/A3.
#define ASCEND_SIM_REDUCE_NEW(NAME, MASKT, G, ORDER_PARAM, ORDER)                                              \
    template <ReduceType reduceType, class T, class U, bool isSetMask = true>                                  \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<U>& src, MASKT mask, const int32_t repeatTime,      \
              const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride ORDER_PARAM) { \
        static_assert(std::is_same_v<T, U>, #NAME ": A2/A3 need dst and src of one type");                     \
        static_assert(reduceType != ReduceType::NONE, #NAME ": reduceType is SUM, MAX or MIN");               \
        static_assert(sim_vec::Grouping::G != sim_vec::Grouping::Pair || reduceType == ReduceType::SUM,        \
                      #NAME ": A2/A3 support ReduceType::SUM only");                                          \
        sim_vec::rep_reduce<T, isSetMask>(#NAME, sim_vec::d::VecOp::NAME, dst, src, mask, repeatTime, dstRepStride, \
                                          srcBlkStride, srcRepStride, sim_vec::Grouping::G, reduceType, ORDER); \
    }
#define ASCEND_SIM_ORDER , ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX
ASCEND_SIM_REDUCE_NEW(ReduceRepeat, const int32_t, Repeat, ASCEND_SIM_ORDER, order)
ASCEND_SIM_REDUCE_NEW(ReduceRepeat, const uint64_t*, Repeat, ASCEND_SIM_ORDER, order)
ASCEND_SIM_REDUCE_NEW(ReduceDataBlock, const int32_t, Block, , ReduceOrder::ORDER_VALUE_INDEX)
ASCEND_SIM_REDUCE_NEW(ReduceDataBlock, const uint64_t*, Block, , ReduceOrder::ORDER_VALUE_INDEX)
ASCEND_SIM_REDUCE_NEW(ReducePairElem, const int32_t, Pair, , ReduceOrder::ORDER_VALUE_INDEX)
ASCEND_SIM_REDUCE_NEW(ReducePairElem, const uint64_t*, Pair, , ReduceOrder::ORDER_VALUE_INDEX)
#undef ASCEND_SIM_ORDER
#undef ASCEND_SIM_REDUCE_NEW

}  // namespace AscendC

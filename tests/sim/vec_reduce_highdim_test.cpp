// The high-dimension ReduceSum/ReduceMax/ReduceMin (ReduceSum.md, ReduceMax.md,
// ReduceMin.md): the sum or extreme of the masked elements of every repeat.
// Integer-valued inputs, so every add is exact and the sum is the plain sum
// whatever the order.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "vec_test_util.h"
#include "xtest.h"

using namespace AscendC;
using vec_test::one;
using sim_test::fill;
using sim_test::sync;

XTEST(reduce_sum_highdim_one_repeat_and_many) {
    one([] {
        sim_test::Calc c(131072);
        auto s = c.get<float>(), d = c.get<float>()[20480], t = c.get<float>()[20488];
        fill(s, 300 * 64, [](uint32_t i) { return float(i % 7); });
        sync<HardEvent::S_V>();
        ReduceSum(d, s, t, 40, 1, 8);  // the first 40 elements; the scalar unit stores dst
        float want = 0;
        for (uint32_t i = 0; i < 40; ++i) want += float(i % 7);
        XCHECK_EQ(d.GetValue(0), want);
        ReduceSum(d, s, t, 64, 300, 8);  // 300 repeats: two vcadd calls, then 5 partial sums into dst
        sync<HardEvent::V_S>();
        want = 0;
        for (uint32_t i = 0; i < 300 * 64; ++i) want += float(i % 7);
        XCHECK_EQ(d.GetValue(0), want);
    });
}

XTEST(reduce_sum_highdim_bit_mask_and_stride) {
    // half, the odd lanes of the low word, 2 repeats 16 blocks apart: 64 repeats' worth in one scalar move.
    one([] {
        sim_test::Calc c(16384);
        auto s = c.get<half>(), d = c.get<half>()[4096], t = c.get<half>()[4112];
        fill(s, 512, [](uint32_t i) { return float(i % 5); });
        sync<HardEvent::S_V>();
        const uint64_t mask[2] = {0xAAAAAAAAAAAAAAAAull, 0};
        ReduceSum(d, s, t, mask, 2, 16);
        float want = 0;
        for (uint32_t r = 0; r < 2; ++r)
            for (uint32_t j = 1; j < 64; j += 2) want += float((r * 256 + j) % 5);
        XCHECK_EQ(float(d.GetValue(0)), want);
    });
}

XTEST(reduce_sum_highdim_checks) {
    {  // past the tensor inside UB: a warning unless ASCEND_XENT_PAST_TENSOR=error
        const sim_test::PastTensor error(2);
        XCHECK_THROWS_WITH(one([] {
                               sim_test::Calc c(16384);
                               auto s = c.get<float>(), d = c.get<float>()[2048], t = c.get<float>()[2056];
                               t.SetSize(8);
                               Duplicate(s, 1.0f, 2048);
                               PipeBarrier<PIPE_V>();
                               ReduceSum(d, s, t, 64, 20, 8);  // 20 partial sums in 8 elements
                           }),
                           "ReduceSum (block 0): write past the tensor: sharedTmpBuffer writes UB", "past the end of its tensor (32 B)");
    }
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(16384);
                           auto s = c.get<float>(), d = c.get<float>()[2048], t = c.get<float>()[2056];
                           Duplicate(s, 1.0f, 64);
                           PipeBarrier<PIPE_V>();
                           ReduceSum(d, s, t, 64, 2, 8);  // the second repeat was never written
                       }),
                       "ReduceSum (block 0): uninitialised read: src UB [0x0000, 0x0200)",
                       "first unwritten byte at 0x0100");
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(4096);
                           auto s = c.get<float>(), d = c.get<float>()[512], t = c.get<float>()[520];
                           ReduceSum(d, s, t, 64, 4097, 8);
                       }),
                       "ReduceSum (block 0): repeatTime 4097 is outside [1, 4096]");
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(131072);
                           auto s = c.get<float>(), d = c.get<float>()[4096], t = c.get<float>()[4104];
                           Duplicate(s, 1.0f, 4096);
                           PipeBarrier<PIPE_V>();
                           ReduceSum(d, s[0], t, 1, 4096, 0);  // every repeat reads the first element
                       }),
                       "ReduceSum (block 0): repeatTime 4096 leaves 64 partial sums");
}

XTEST(reduce_sum_highdim_vector_result_needs_v_s_in_strict_mode) {
    // More than one partial sum left: the last vcadd writes dst from the vector unit.
    auto k = [] {
        sim_test::Calc c(65536);
        auto s = c.get<float>(), d = c.get<float>()[8192], t = c.get<float>()[8200];
        Duplicate(s, 1.0f, 8192);
        PipeBarrier<PIPE_V>();
        ReduceSum(d, s, t, 64, 128, 8);
        XCHECK_EQ(d.GetValue(0), 8192.0f);
    };
    vec_test::clean_with_auto_sync(k);
    const sim_test::AutoSync strict(0);
    XCHECK_THROWS_WITH(one(k), "pipe hazard (block 0): RAW on UB [0x8000, 0x8004)", "PIPE_S LocalTensor::GetValue",
                       "written by PIPE_V ReduceSum");
}

XTEST(reduce_max_min_highdim) {
    one([] {
        sim_test::Calc c(172032);
        auto s = c.get<float>(), d = c.get<float>()[38400], t = c.get<float>()[38408];
        // 544 repeats of 64 (vcmax calls of 255, 255 and 34, one in-place pass); the maximum in repeat 413, lane 17
        fill(s, 544 * 64, [](uint32_t i) { return i == 413 * 64 + 17 ? 500.0f : float(int(i % 97) - 40); });
        sync<HardEvent::S_V>();
        ReduceMax(d, s, t, 64, 544, 8);
        XCHECK_EQ(d.GetValue(0), 500.0f);
        ReduceMin(d, s, t, 32, 544, 8);  // only the first 32 lanes of each repeat
        float want = 1e9f;
        for (uint32_t r = 0; r < 544; ++r)
            for (uint32_t j = 0; j < 32; ++j) want = std::min(want, float(int((r * 64 + j) % 97) - 40));
        XCHECK_EQ(d.GetValue(0), want);
        // 2048 repeats of the same 64 elements (srcRepStride 0): two in-place passes before the last
        ReduceMin(d, s[413 * 64], t, 64, 2048, 0);
        want = 1e9f;
        for (uint32_t j = 0; j < 64; ++j) want = std::min(want, j == 17 ? 500.0f : float(int((413 * 64 + j) % 97) - 40));
        XCHECK_EQ(d.GetValue(0), want);
    });
    one([] {  // half, a bit mask (lane 0 off), 3 repeats: a single in-place pass
        sim_test::Calc c(16384);
        auto s = c.get<half>(), d = c.get<half>()[2048], t = c.get<half>()[2064];
        fill(s, 384, [](uint32_t i) { return i % 128 == 0 ? 99.0f : float(i % 50); });
        sync<HardEvent::S_V>();
        const uint64_t mask[2] = {~1ull, ~0ull};
        ReduceMax(d, s, t, mask, 3, 8);
        XCHECK_EQ(float(d.GetValue(0)), 49.0f);
        ReduceMax(d, s, t, 128, 1, 8);  // one repeat: lane 0 counts
        XCHECK_EQ(float(d.GetValue(0)), 99.0f);
    });
}

XTEST(reduce_max_highdim_checks) {
    {  // past the tensor inside UB: a warning unless ASCEND_XENT_PAST_TENSOR=error
        const sim_test::PastTensor error(2);
        XCHECK_THROWS_WITH(one([] {
                               sim_test::Calc c(4096);
                               auto s = c.get<float>(), d = c.get<float>()[512], t = c.get<float>()[520];
                               t.SetSize(4);
                               Duplicate(s, 1.0f, 256);
                               PipeBarrier<PIPE_V>();
                               ReduceMin(d, s, t, 64, 4, 8);  // 4 (value, index) pairs in 4 elements
                           }),
                           "ReduceMin (block 0): write past the tensor: sharedTmpBuffer writes UB", "past the end of its tensor (16 B)");
    }
    const sim_test::AutoSync strict(0);
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(4096);
                           auto s = c.get<float>(), d = c.get<float>()[512], t = c.get<float>()[520];
                           Duplicate(s, 1.0f, 256);
                           ReduceMax(d, s, t, 64, 4, 8);  // no barrier after Duplicate
                       }),
                       "pipe hazard (block 0): RAW on UB", "PIPE_V ReduceMax", "written by PIPE_V Duplicate");
}

namespace {
// dst = [extreme, index bits] of calIndex = true: the index counts elements
// from src, repeat r starting at r * srcRepStride blocks.
template <class T>
uint32_t index_of(const LocalTensor<T>& d) {
    std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t> bits;
    const T v = d.GetValue(1);
    std::memcpy(&bits, &v, sizeof(T));
    return bits;
}

// Small values everywhere, one extreme at `at` (a masked lane); the result
// traced back through dav_c220's passes must name it.
template <class T, bool isMax>
void check_index(uint32_t elems, uint32_t at, int32_t mask, int32_t repeats, int32_t stride, bool prefillTmp) {
    sim_test::Calc c(131072);
    auto s = c.get<T>(), d = c.get<T>()[elems + (32 / sizeof(T))], t = c.get<T>()[elems + (64 / sizeof(T))];
    fill(s, elems, [&](uint32_t i) { return i == at ? (isMax ? 99.0f : -9.0f) : float(i % 50); });
    if (prefillTmp) fill(t, t.GetSize(), [](uint32_t) { return isMax ? -99.0f : 99.0f; });
    sync<HardEvent::S_V>();
    if (isMax)
        ReduceMax(d, s, t, mask, repeats, stride, true);
    else
        ReduceMin(d, s, t, mask, repeats, stride, true);
    sync<HardEvent::V_S>();
    XCHECK_EQ(float(d.GetValue(0)), isMax ? 99.0f : -9.0f);
    XCHECK_EQ(index_of(d), at);
}
}  // namespace

XTEST(reduce_max_min_highdim_with_index) {
    one([] { check_index<float, true>(64, 37, 64, 1, 8, false); });  // one repeat: the pass writes dst
    // 3 repeats 16 blocks apart, 40 lanes each: two levels of pairs.
    one([] { check_index<float, true>(3 * 128, 2 * 128 + 13, 40, 3, 16, false); });
    one([] { check_index<float, false>(100 * 64, 77 * 64 + 50, 64, 100, 8, false); });  // three levels
    one([] { check_index<half, false>(300 * 128, 201 * 128 + 90, 128, 300, 8, false); });
    one([] { check_index<half, true>(300 * 128, 3 * 128 + 1, 128, 300, 8, false); });
}

XTEST(reduce_max_highdim_with_index_four_levels) {
    // 1100 repeats one block apart (they overlap): four levels of pairs; the
    // last pass reads a full repeat's value lanes, past the 2 pairs its level
    // wrote, as dav_c220 does: from a filled tmp the result stands, from an
    // unset one it is an uninitialised read.
    one([] { check_index<float, true>(1100 * 8 + 56, 5000, 64, 1100, 1, true); });
    XCHECK_THROWS_WITH(one([] { check_index<float, true>(1100 * 8 + 56, 5000, 64, 1100, 1, false); }),
                       "ReduceMax (block 0): uninitialised read");
}

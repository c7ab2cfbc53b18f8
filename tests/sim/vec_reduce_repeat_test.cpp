// The per-repeat reductions (WholeReduceSum/Max/Min, BlockReduceSum/Max/Min,
// PairReduceSum and their 9.1 names) against a scalar model of
// ReduceRepeat.md / ReduceDataBlock.md / ReducePairElem.md: each repeat reduces
// its active elements (sums by the adjacent-pair binary tree, half rounded
// after every add), the result of repeat r lands at r x dstRepStride x its size.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "xtest.h"

using namespace AscendC;
using ascend_sim::run_kernel;
using sim_test::fill;
using sim_test::sync;

namespace {
void one(const std::function<void()>& body) { run_kernel("reduce", 1, body); }


// The documented tree over n lanes, masked-off lanes as +0, each add rounded to T.
template <class T>
T tree(std::vector<T> v) {
    for (size_t n = v.size(); n > 1; n /= 2)
        for (size_t k = 0; k < n / 2; ++k) v[k] = T(float(v[2 * k]) + float(v[2 * k + 1]));
    return v[0];
}

uint16_t bits(half h) {
    uint16_t b;
    std::memcpy(&b, &h, 2);
    return b;
}
}  // namespace

XTEST(whole_reduce_sum_half_tree_order_with_mask_and_strides) {
    // 3 repeats of the first 100 halves, src rows 10 blocks apart; results 2 apart.
    one([] {
        sim_test::Calc c(8192);
        auto src = c.get<half>(), dst = c.get<half>()[2048];
        fill(src, 3 * 160, [](uint32_t i) { return 1.0f + float(i % 37) / 1024; });
        fill(dst, 16, [](uint32_t) { return -1.0f; });
        sync<HardEvent::S_V>();
        WholeReduceSum(dst, src, 100, 3, 2, 1, 10);
        sync<HardEvent::V_S>();
        for (uint32_t r = 0; r < 3; ++r) {
            std::vector<half> lanes(128, half(0.0f));
            for (uint32_t j = 0; j < 100; ++j) lanes[j] = src.GetValue(r * 160 + j);
            XCHECK_EQ(bits(dst.GetValue(2 * r)), bits(tree(lanes)));
            XCHECK_EQ(float(dst.GetValue(2 * r + 1)), -1.0f);
        }
    });
}

XTEST(whole_reduce_max_orders_and_ties) {
    // Two maxima in a repeat: the smaller index wins; each ReduceOrder lays out its result.
    one([] {
        sim_test::Calc c(8192);
        auto src = c.get<half>(), d = c.get<half>()[512];
        fill(src, 256, [](uint32_t i) { return (i % 128 == 37 || i % 128 == 90) ? 9.0f : float(i % 7); });
        sync<HardEvent::S_V>();
        WholeReduceMax(d, src, 128, 2, 1, 1, 8);  // [value, index] pairs, 4 B apart
        WholeReduceMax(d[8], src, 128, 2, 1, 1, 8, ReduceOrder::ORDER_INDEX_VALUE);
        WholeReduceMax(d[16], src, 128, 2, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE);
        WholeReduceMax(d[32], src, 128, 2, 1, 1, 8, ReduceOrder::ORDER_ONLY_INDEX);
        uint64_t low[2] = {~0ull, 0};  // lanes 0..63: the max 9 at lane 37
        WholeReduceMin(d[48], src, low, 1, 1, 1, 8, ReduceOrder::ORDER_VALUE_INDEX);
        sync<HardEvent::V_S>();
        for (uint32_t r = 0; r < 2; ++r) {
            XCHECK_EQ(float(d.GetValue(2 * r)), 9.0f);
            XCHECK_EQ(bits(d.GetValue(2 * r + 1)), 37u);
            XCHECK_EQ(bits(d.GetValue(8 + 2 * r)), 37u);
            XCHECK_EQ(float(d.GetValue(8 + 2 * r + 1)), 9.0f);
            XCHECK_EQ(float(d.GetValue(16 + r)), 9.0f);
            auto idx = d[32].ReinterpretCast<uint32_t>();
            XCHECK_EQ(idx.GetValue(r), 37u);
        }
        XCHECK_EQ(float(d.GetValue(48)), 0.0f);
        XCHECK_EQ(bits(d.GetValue(49)), 0u);
    });
}

XTEST(block_reduce_sum_and_max_per_block) {
    // float: 8 results of a repeat in 32 B; srcBlkStride 2 reads every other block.
    one([] {
        sim_test::Calc c(8192);
        auto src = c.get<float>(), sum = c.get<float>()[1024], mx = c.get<float>()[1088];
        fill(src, 512, [](uint32_t i) { return float(i % 13) - 6; });
        sync<HardEvent::S_V>();
        BlockReduceSum(sum, src, 2, 64, 1, 2, 16);
        uint64_t odd[2] = {0xAAAAAAAAAAAAAAAAull, 0};
        BlockReduceMax(mx, src, 2, odd, 1, 2, 16);
        sync<HardEvent::V_S>();
        for (uint32_t r = 0; r < 2; ++r)
            for (uint32_t b = 0; b < 8; ++b) {
                std::vector<float> lanes(8);
                float m = -INFINITY;
                for (uint32_t k = 0; k < 8; ++k) {
                    lanes[k] = src.GetValue((r * 16 + b * 2) * 8 + k);
                    if (k % 2) m = std::max(m, lanes[k]);
                }
                XCHECK_EQ(sum.GetValue(r * 8 + b), tree(lanes));
                XCHECK_EQ(mx.GetValue(r * 8 + b), m);
            }
    });
}

XTEST(pair_reduce_sum_and_the_9_1_names) {
    one([] {
        sim_test::Calc c(8192);
        auto src = c.get<half>(), p = c.get<half>()[512], q = c.get<half>()[768], w = c.get<half>()[1024];
        auto v = c.get<half>()[1040];
        fill(src, 256, [](uint32_t i) { return float(i) / 8; });
        sync<HardEvent::S_V>();
        PairReduceSum(p, src, 2, 128, 1, 1, 8);
        ReducePairElem<ReduceType::SUM, half, half>(q, src, 128, 2, 1, 1, 8);
        ReduceRepeat<ReduceType::SUM, half, half>(w, src, 128, 2, 1, 1, 8);
        ReduceDataBlock<ReduceType::MAX, half, half>(v, src, 128, 1, 1, 1, 8);
        sync<HardEvent::V_S>();
        for (uint32_t k = 0; k < 128; ++k) {
            const float want = float(half(float(src.GetValue(2 * k)) + float(src.GetValue(2 * k + 1))));
            XCHECK_EQ(float(p.GetValue(k)), want);
            XCHECK_EQ(float(q.GetValue(k)), want);
        }
        for (uint32_t r = 0; r < 2; ++r) {
            std::vector<half> lanes(128);
            for (uint32_t j = 0; j < 128; ++j) lanes[j] = src.GetValue(r * 128 + j);
            XCHECK_EQ(bits(w.GetValue(r)), bits(tree(lanes)));
        }
        for (uint32_t b = 0; b < 8; ++b) XCHECK_EQ(float(v.GetValue(b)), float(b * 16 + 15) / 8);
    });
}

XTEST(reduce_in_place_and_ahead_of_its_source) {
    // dst at the start of src: each repeat's result lands on bytes already read.
    one([] {
        sim_test::Calc c(4096);
        auto x = c.get<float>();
        fill(x, 256, [](uint32_t i) { return float(i / 64 + 1); });
        sync<HardEvent::S_V>();
        WholeReduceSum(x, x, 64, 4, 1, 1, 8);
        sync<HardEvent::V_S>();
        for (uint32_t r = 0; r < 4; ++r) XCHECK_EQ(x.GetValue(r), 64.0f * float(r + 1));
    });
    // dst inside the next repeat's source: refused.
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(4096);
                           auto x = c.get<float>();
                           fill(x, 512, [](uint32_t) { return 1.0f; });
                           sync<HardEvent::S_V>();
                           WholeReduceSum(x[64], x, 64, 4, 1, 1, 8);
                       }),
                       "WholeReduceSum (block 0): dst (UB 0x0100", "a repeat would read what an earlier one wrote");
}

XTEST(reduce_checks_bounds_alignment_initcheck_hazard) {
    {  // past the tensor inside UB: a warning unless ASCEND_XENT_PAST_TENSOR=error
        const sim_test::PastTensor error(2);
        XCHECK_THROWS_WITH(one([] {
                               sim_test::Calc c(4096);
                               auto s = c.get<float>(), d = c.get<float>()[512];
                               d.SetSize(8);
                               fill(s, 512, [](uint32_t) { return 1.0f; });
                               sync<HardEvent::S_V>();
                               WholeReduceMax(d, s, 64, 8, 1, 1, 8);  // 8 [value, index] pairs of 8 B
                           }),
                           "WholeReduceMax (block 0): write past the tensor: dst writes UB", "past the end of its tensor (32 B)");
    }
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(4096);
                           auto s = c.get<half>(), d = c.get<half>()[1028];
                           fill(s, 128, [](uint32_t) { return 1.0f; });
                           sync<HardEvent::S_V>();
                           BlockReduceSum(d, s, 1, 128, 1, 1, 8);
                       }),
                       "BlockReduceSum (block 0): dst starts at UB 0x0808, not 16-byte aligned");
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(4096);
                           auto s = c.get<float>(), d = c.get<float>()[512];
                           fill(s, 64, [](uint32_t) { return 1.0f; });
                           sync<HardEvent::S_V>();
                           uint64_t second[2] = {0xFF00ull, 0};  // block 1 of repeat 1 was never written
                           WholeReduceMin(d, s, second, 2, 1, 1, 8);
                       }),
                       "WholeReduceMin (block 0): uninitialised read: src UB [0x0120, 0x0140) (32 B)");
    const sim_test::AutoSync strict(0);  // a V->V pair: the kernel's own barrier
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(4096);
                           auto s = c.get<float>(), d = c.get<float>()[512];
                           Duplicate(s, 1.0f, 512);
                           PipeBarrier<PIPE_V>();
                           BlockReduceSum(d, s, 2, 64, 1, 1, 8);
                           Adds(d, d, 1.0f, 16);
                       }),
                       "pipe hazard (block 0): RAW on UB [0x0800, 0x0840)",
                       "PIPE_V Adds", "written by PIPE_V BlockReduceSum");
}

XTEST(reduce_min_count_form) {
    // ReduceMin.md: dst[0] the minimum, dst[1] the first index holding it (uint32 bits for float).
    one([] {
        sim_test::Calc c(8192);
        auto src = c.get<float>(), dst = c.get<float>()[512], tmp = c.get<float>()[520];
        fill(src, 300, [](uint32_t i) { return (i == 77 || i == 250) ? -5.0f : float(i % 11); });
        sync<HardEvent::S_V>();
        ReduceMin(dst, src, tmp, 300, true);
        XCHECK_EQ(dst.GetValue(0), -5.0f);
        XCHECK_EQ(dst.ReinterpretCast<uint32_t>().GetValue(1), 77u);
        ReduceMin(dst, src, tmp, 60);
        XCHECK_EQ(dst.GetValue(0), 0.0f);
    });
}

XTEST(row_softmax_pattern_of_the_high_level_apis) {
    // 8 rows of 64 floats: row max (WholeReduceMax ONLY_VALUE), broadcast per row
    // (Brcb), x - max with src1 reusing one block per row (blkStride 0, repStride 1),
    // Exp, row sum; every step behind a PipeBarrier<PIPE_V>.
    auto kernel = [](bool barriers) {
        return [barriers] {
            sim_test::Calc c(8192);
            auto x = c.get<float>(), mx = c.get<float>()[512], bc = c.get<float>()[576], sum = c.get<float>()[640];
            fill(x, 512, [](uint32_t i) { return float((i * 37) % 29) / 8 - float(i / 64); });
            sync<HardEvent::S_V>();
            auto bar = [&] {
                if (barriers) PipeBarrier<PIPE_V>();
            };
            WholeReduceMax(mx, x, 64, 8, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE);
            bar();
            Brcb(bc, mx, 1, {1, 8});
            bar();
            std::vector<float> ref(512);
            for (uint32_t i = 0; i < 512; ++i) ref[i] = x.GetValue(i);
            Sub(x, x, bc, 64, 8, {1, 1, 0, 8, 8, 1});
            bar();
            Exp(x, x, 64, 8, {1, 1, 8, 8});
            bar();
            WholeReduceSum(sum, x, 64, 8, 1, 1, 8);
            sync<HardEvent::V_S>();
            for (uint32_t r = 0; r < 8; ++r) {
                const float m = *std::max_element(ref.begin() + r * 64, ref.begin() + r * 64 + 64);
                XCHECK_EQ(mx.GetValue(r), m);
                double s = 0;
                for (uint32_t j = 0; j < 64; ++j) {
                    const float e = x.GetValue(r * 64 + j);
                    XCHECK_NEAR(e, std::exp(ref[r * 64 + j] - m), 1e-6f);
                    s += e;
                }
                XCHECK_NEAR(sum.GetValue(r), float(s), 1e-4f);
            }
        };
    };
    one(kernel(true));
    one(kernel(false));  // the compiler's auto-sync inserts the V->V barriers
    const sim_test::AutoSync strict(0);
    XCHECK_THROWS_WITH(one(kernel(false)), "pipe hazard (block 0): RAW on UB", "PIPE_V Brcb",
                       "written by PIPE_V WholeReduceMax");
}

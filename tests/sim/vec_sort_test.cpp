// Sort32 (Sort32.md): each repeat sorts 32 scores descending, equal scores in
// index order, into (score, index) pairs of 8 B; repeats do not mix.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "vec_test_util.h"
#include "xtest.h"

using namespace AscendC;
using vec_test::one;
using sim_test::fill;
using sim_test::sync;

namespace {
float score(uint32_t i) { return float(int((i * 37) % 11) - 5); }  // many ties
}  // namespace

XTEST(sort32_float_descending_ties_in_index_order) {
    one([] {
        sim_test::Calc c(8192);
        auto s = c.get<float>(), d = c.get<float>()[256];
        auto ix = c.get<uint32_t>()[128];
        fill(s, 64, score);
        fill(ix, 64, [](uint32_t i) { return 1000 + i; });
        sync<HardEvent::S_V>();
        Sort32(d, s, ix, 2);
        sync<HardEvent::V_S>();
        for (uint32_t r = 0; r < 2; ++r) {
            std::vector<uint32_t> want(32);
            for (uint32_t i = 0; i < 32; ++i) want[i] = i;
            // insertion sort: a later equal score never passes an earlier one
            for (uint32_t i = 1; i < 32; ++i)
                for (uint32_t k = i; k > 0 && score(r * 32 + want[k]) > score(r * 32 + want[k - 1]); --k)
                    std::swap(want[k], want[k - 1]);
            for (uint32_t k = 0; k < 32; ++k) {
                XCHECK_EQ(d.GetValue(r * 64 + 2 * k), score(r * 32 + want[k]));
                XCHECK_EQ(d.ReinterpretCast<uint32_t>().GetValue(r * 64 + 2 * k + 1), 1000 + r * 32 + want[k]);
            }
        }
    });
}

XTEST(sort32_half_layout) {
    one([] {
        sim_test::Calc c(4096);
        auto s = c.get<half>(), d = c.get<half>()[512];
        auto ix = c.get<uint32_t>()[64];
        fill(s, 32, [](uint32_t i) { return float(i) / 8; });  // ascending: the output reverses it
        fill(ix, 32, [](uint32_t i) { return i; });
        sync<HardEvent::S_V>();
        Sort32(d, s, ix, 1);
        sync<HardEvent::V_S>();
        for (uint32_t k = 0; k < 32; ++k) {
            XCHECK_EQ(float(d.GetValue(4 * k)), float(31 - k) / 8);  // score in the low 2 B of 8
            XCHECK_EQ(d.ReinterpretCast<uint32_t>().GetValue(2 * k + 1), 31 - k);
        }
    });
}

XTEST(sort32_checks) {
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(4096);
                           auto s = c.get<float>()[16], d = c.get<float>()[256];
                           auto ix = c.get<uint32_t>()[128];
                           Duplicate(c.get<float>(), 1.0f, 256);
                           PipeBarrier<PIPE_V>();
                           Sort32(d, s, ix, 1);
                       }),
                       "Sort32 (block 0): src0 starts at UB 0x0040, not 128-byte aligned");
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(4096);
                           auto s = c.get<float>(), d = c.get<float>()[256];
                           auto ix = c.get<uint32_t>()[128];
                           Duplicate(s, 1.0f, 32);
                           Duplicate(ix, 0u, 32);
                           PipeBarrier<PIPE_V>();
                           Sort32(d, s, ix, 2);  // the second repeat's scores were never written
                       }),
                       "Sort32 (block 0): uninitialised read: src0 UB [0x0000, 0x0100)",
                       "first unwritten byte at 0x0080");
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(4096);
                           auto s = c.get<float>(), d = c.get<float>()[256];
                           auto ix = c.get<uint32_t>()[128];
                           d.SetSize(64);
                           Duplicate(s, 1.0f, 256);
                           PipeBarrier<PIPE_V>();
                           Sort32(d, s, ix, 2);
                       }),
                       "Sort32 (block 0): repeat 1 of dst touches bytes [256, 512) (repStride 1 x 256 B) but the "
                       "tensor holds 256 B");
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(4096);
                           auto s = c.get<float>();
                           auto ix = c.get<uint32_t>()[32];
                           Duplicate(s, 1.0f, 64);
                           PipeBarrier<PIPE_V>();
                           Sort32(s, s, ix, 1);
                       }),
                       "Sort32 (block 0): dst's 256 B of proposals overlap src0 or src1");
}

XTEST(sort32_missing_barrier_in_strict_mode) {
    auto k = [] {
        sim_test::Calc c(4096);
        auto s = c.get<float>(), d = c.get<float>()[256];
        auto ix = c.get<uint32_t>()[128];
        Duplicate(s, 2.0f, 32);
        Duplicate(ix, 7u, 32);
        Sort32(d, s, ix, 1);
        sync<HardEvent::V_S>();
        XCHECK_EQ(d.GetValue(0), 2.0f);
    };
    vec_test::clean_with_auto_sync(k);
    const sim_test::AutoSync strict(0);
    XCHECK_THROWS_WITH(one(k), "pipe hazard (block 0): RAW on UB", "PIPE_V Sort32", "written by PIPE_V Duplicate");
}

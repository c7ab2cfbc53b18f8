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
    // Starts need 32 B alignment only (Sort32.md's parameter table; asc-devkit's TopK
    // runs it at such addresses): src0 at 0x40, src1 at 0x220, dst at 0x420.
    one([] {
        sim_test::Calc c(4096);
        auto s = c.get<float>()[16], d = c.get<float>()[264];
        auto ix = c.get<uint32_t>()[136];
        for (uint32_t k = 0; k < 32; ++k) {
            s.SetValue(k, float(k));
            ix.SetValue(k, k);
        }
        sync<HardEvent::S_V>();
        Sort32(d, s, ix, 1);
        sync<HardEvent::V_S>();
        XCHECK_EQ(d.GetValue(0), 31.0f);
        XCHECK_EQ(d.ReinterpretCast<uint32_t>().GetValue(63), 0u);
    });
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(4096);
                           auto s = c.get<float>()[4], d = c.get<float>()[256];
                           auto ix = c.get<uint32_t>()[128];
                           Duplicate(c.get<float>(), 1.0f, 256);
                           PipeBarrier<PIPE_V>();
                           Sort32(d, s, ix, 1);
                       }),
                       "Sort32 (block 0)", "not 32-byte aligned");
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
    {  // past the tensor inside UB: a warning unless ASCEND_XENT_PAST_TENSOR=error
        const sim_test::PastTensor error(2);
        XCHECK_THROWS_WITH(one([] {
                               sim_test::Calc c(4096);
                               auto s = c.get<float>(), d = c.get<float>()[256];
                               auto ix = c.get<uint32_t>()[128];
                               d.SetSize(64);
                               Duplicate(s, 1.0f, 256);
                               PipeBarrier<PIPE_V>();
                               Sort32(d, s, ix, 2);
                           }),
                           "Sort32 (block 0): write past the tensor: dst writes UB", "past the end of its tensor (256 B)");
    }
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

namespace {
// Queue q of `len` proposals (score, index) written by the scalar unit: scores with
// ties, sorted descending in place; the indices q * 100 + i stay where they were written.
void queue(const LocalTensor<float>& t, uint32_t len, uint32_t q) {
    auto u = t.ReinterpretCast<uint32_t>();
    for (uint32_t i = 0; i < len; ++i) {
        t.SetValue(2 * i, float(int(len - i) * int(q + 2) % 7));
        u.SetValue(2 * i + 1, q * 100 + i);
    }
    for (uint32_t i = 1; i < len; ++i)
        for (uint32_t k = i; k > 0 && t.GetValue(2 * k) > t.GetValue(2 * k - 2); --k) {
            const float s = t.GetValue(2 * k);
            t.SetValue(2 * k, t.GetValue(2 * k - 2));
            t.SetValue(2 * k - 2, s);
        }
}
struct P {
    float s;
    uint32_t i;
};
// The documented merge: descending, an equal score from an earlier queue (or earlier in its queue) first.
std::vector<P> merged(const std::vector<std::vector<P>>& qs) {
    std::vector<P> all;
    for (const auto& q : qs) all.insert(all.end(), q.begin(), q.end());
    std::stable_sort(all.begin(), all.end(), [](const P& a, const P& b) { return a.s > b.s; });
    return all;
}
// Two queues of eight equal scores merged, then GetMrgSortResult's first two counts.
void merge_two_and_read(bool suspend, uint16_t& a, uint16_t& b) {
    sim_test::Calc c(8192);
    auto q = c.get<float>(), d = c.get<float>()[512];
    Duplicate(q, 1.0f, 512);
    PipeBarrier<PIPE_V>();
    const uint16_t lens[4] = {8, 8, 0, 0};
    MrgSort(d, MrgSortSrcList<float>(q, q[16], q, q), MrgSort4Info(lens, suspend, 3, 1));
    uint16_t x, y;
    GetMrgSortResult(a, b, x, y);
}
void check_same(const std::vector<P>& got, const std::vector<P>& want) {
    XCHECK_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size() && i < want.size(); ++i) {
        XCHECK_EQ(got[i].s, want[i].s);
        XCHECK_EQ(got[i].i, want[i].i);
    }
}
std::vector<P> read(const LocalTensor<float>& t, uint32_t n) {
    std::vector<P> v(n);
    for (uint32_t i = 0; i < n; ++i) v[i] = {t.GetValue(2 * i), t.ReinterpretCast<uint32_t>().GetValue(2 * i + 1)};
    return v;
}
}  // namespace

XTEST(mrgsort_three_queues_of_different_lengths) {
    one([] {
        sim_test::Calc c(16384);
        auto q1 = c.get<float>(), q2 = c.get<float>()[64], q3 = c.get<float>()[128], d = c.get<float>()[1024];
        queue(q1, 20, 0);
        queue(q2, 7, 1);
        queue(q3, 13, 2);
        const std::vector<P> want = merged({read(q1, 20), read(q2, 7), read(q3, 13)});
        sync<HardEvent::S_V>();
        const uint16_t lens[4] = {20, 7, 13, 0};
        MrgSort(d, MrgSortSrcList<float>(q1, q2, q3, q3), MrgSort4Info(lens, false, 7, 1));
        sync<HardEvent::V_S>();
        check_same(read(d, 40), want);
    });
}

XTEST(mrgsort_repeats_over_sort32_output) {
    // Sort32 makes 8 sorted queues of 32; MrgSort with repeatTimes 2 merges each group of four.
    one([] {
        sim_test::Calc c(32768);
        auto s = c.get<float>(), t = c.get<float>()[256], d = c.get<float>()[2048];
        auto ix = c.get<uint32_t>()[4096];
        fill(s, 256, score);
        fill(ix, 256, [](uint32_t i) { return i; });
        sync<HardEvent::S_V>();
        Sort32(t, s, ix, 8);
        PipeBarrier<PIPE_V>();
        const uint16_t lens[4] = {32, 32, 32, 32};
        MrgSort(d, MrgSortSrcList<float>(t, t[64], t[128], t[192]), MrgSort4Info(lens, false, 15, 2));
        sync<HardEvent::V_S>();
        for (uint32_t r = 0; r < 2; ++r) {
            std::vector<std::vector<P>> qs;
            for (uint32_t k = 0; k < 4; ++k) qs.push_back(read(t[(r * 4 + k) * 64], 32));
            check_same(read(d[r * 256], 128), merged(qs));
        }
    });
}

XTEST(mrgsort_exhausted_suspension_and_result) {
    one([] {
        sim_test::Calc c(8192);
        auto q1 = c.get<float>(), q2 = c.get<float>()[64], d = c.get<float>()[512];
        auto u1 = q1.ReinterpretCast<uint32_t>(), u2 = q2.ReinterpretCast<uint32_t>();
        for (uint32_t i = 0; i < 8; ++i) {  // q1: 9 7 5 3, q2: 8 6 4 2 0 -2 -4 -6
            if (i < 4) q1.SetValue(2 * i, 9.0f - 2 * float(i)), u1.SetValue(2 * i + 1, i);
            q2.SetValue(2 * i, 8.0f - 2 * float(i)), u2.SetValue(2 * i + 1, 10 + i);
        }
        sync<HardEvent::S_V>();
        const uint16_t lens[4] = {4, 8, 0, 0};
        MrgSort(d, MrgSortSrcList<float>(q1, q2, q2, q2), MrgSort4Info(lens, true, 3, 1));
        sync<HardEvent::V_S>();
        uint16_t a, b, x, y;
        GetMrgSortResult(a, b, x, y);
        XCHECK_EQ(int(a), 4);  // q1 ran out after 9 8 7 6 5 4 3
        XCHECK_EQ(int(b), 3);
        const float want[7] = {9, 8, 7, 6, 5, 4, 3};
        for (uint32_t i = 0; i < 7; ++i) XCHECK_EQ(d.GetValue(2 * i), want[i]);
    });
}

XTEST(mrgsort_checks) {
    auto base = [](uint16_t valid, uint8_t reps, bool suspend, bool overlap) {
        return [=] {
            sim_test::Calc c(8192);
            auto q = c.get<float>(), d = c.get<float>()[512];
            Duplicate(q, 1.0f, 512);
            PipeBarrier<PIPE_V>();
            const uint16_t lens[4] = {8, 8, 8, 8};
            MrgSort(overlap ? q[32] : d, MrgSortSrcList<float>(q, q[16], q[32], q[48]),
                    MrgSort4Info(lens, suspend, valid, reps));
        };
    };
    XCHECK_THROWS_WITH(one(base(5, 1, false, false)), "MrgSort (block 0): validBit 5 is not 3, 7 or 15");
    XCHECK_THROWS_WITH(one(base(7, 2, false, false)), "MrgSort (block 0): repeatTimes 2 takes effect only with four");
    XCHECK_THROWS_WITH(one(base(15, 1, false, true)), "MrgSort (block 0): dst overlaps src3");
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(8192);
                           auto q = c.get<float>(), d = c.get<float>()[512];
                           Duplicate(q, 1.0f, 16);  // queue 2 never written
                           PipeBarrier<PIPE_V>();
                           const uint16_t lens[4] = {8, 8, 0, 0};
                           MrgSort(d, MrgSortSrcList<float>(q, q[16], q, q), MrgSort4Info(lens, false, 3, 1));
                       }),
                       "MrgSort (block 0): uninitialised read: src2 UB [0x0040, 0x0080)");
    XCHECK_THROWS_WITH(one([] {
                           uint16_t a, b;
                           merge_two_and_read(false, a, b);
                       }),
                       "GetMrgSortResult (block 0): VMS4_SR holds no counts");
}

XTEST(get_mrgsort_result_needs_v_s_in_strict_mode) {
    auto k = [] {
        uint16_t a, b;
        merge_two_and_read(true, a, b);
        XCHECK_EQ(int(a), 8);  // equal scores: queue 1 first, and the merge stops when it runs out
        XCHECK_EQ(int(b), 0);
    };
    vec_test::clean_with_auto_sync(k);
    const sim_test::AutoSync strict(0);
    XCHECK_THROWS_WITH(one(k), "pipe hazard (block 0): RAW on VMS4_SR: PIPE_S GetMrgSortResult",
                       "written by PIPE_V MrgSort", "no V_S flag");
}

XTEST(proposal_apis_a2_lacks_are_refused) {
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(1024);
                           auto t = c.get<float>();
                           MrgSort4(t, t, 1);
                       }),
                       "MrgSort4 (block 0): not supported on A2/A3 (dav_c220 reports ASCENDC_REPORT_NOT_SUPPORT)");
}

// CrossCoreSetFlag / CrossCoreWaitFlag (CrossCoreSetFlag(ISASI).md, 关键特性说明.md):
// mode 0 syncs every AIV, mode 1 the two AIV of an AI Core (blocks 2k, 2k + 1);
// a wait takes one from its 4-bit counter. The GM writes a set covers are
// ordered before the reads after the wait it releases; a wait no set can
// satisfy, a bad flagId or mode, and mode 2 without an AIC are reported.
#include <vector>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "xtest.h"

using namespace AscendC;
using ascend_sim::run_kernel;
using sim_test::global;
using sim_test::Gm;

namespace {
constexpr int32_t kN = 64;  // floats per block

enum class Sync { NONE, MODE0, MODE1, MODE0_AFTER_V };

// Block i writes i + 1 to its slot, syncs, then copies the slot of block
// peer(i) plus 100 to its output.
template <class Peer>
void exchange(float* slots, float* out, Sync sync, Peer peer) {
    const int32_t i = int32_t(GetBlockIdx());
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kN * sizeof(float));
    auto t = buf.Get<float>();
    Duplicate(t, float(i + 1), kN);
    sim_test::sync<HardEvent::V_MTE3>();
    DataCopy(global(slots + i * kN, kN), t, kN);
    if (sync == Sync::MODE0) CrossCoreSetFlag<0, PIPE_MTE3>(3);
    if (sync == Sync::MODE1) CrossCoreSetFlag<1, PIPE_MTE3>(3);
    // A set behind PIPE_V does not wait for the MTE3 copy above.
    if (sync == Sync::MODE0_AFTER_V) CrossCoreSetFlag<0, PIPE_V>(3);
    if (sync != Sync::NONE) CrossCoreWaitFlag(3);
    sim_test::sync<HardEvent::MTE3_MTE2>();
    DataCopy(t, global(slots + peer(i) * kN, kN), kN);
    sim_test::sync<HardEvent::MTE2_V>();
    Adds(t, t, 100.0f, kN);
    sim_test::sync<HardEvent::V_MTE3>();
    DataCopy(global(out + i * kN, kN), t, kN);
}
}  // namespace

XTEST(mode0_orders_every_blocks_writes_before_the_reads_after_the_wait) {
    constexpr uint32_t n = 8;
    for (int autoSync : {1, 0}) {
        const sim_test::AutoSync mode(autoSync);
        Gm<float> slots(n * kN, "slots"), out(n * kN, "out");
        run_kernel("xcore_mode0", n, [&] {
            exchange(slots.p, out.p, Sync::MODE0, [](int32_t i) { return (i + 3) % int32_t(n); });
        });
        for (uint32_t b = 0; b < n; ++b)
            for (int32_t e = 0; e < kN; ++e) XCHECK_EQ(out.p[b * kN + e], float((b + 3) % n + 1) + 100.0f);
    }
}

XTEST(without_the_flags_the_exchange_races) {
    Gm<float> slots(4 * kN, "slots"), out(4 * kN, "out");
    XCHECK_THROWS_WITH(run_kernel("xcore_none", 4,
                                  [&] { exchange(slots.p, out.p, Sync::NONE, [](int32_t i) { return (i + 1) % 4; }); }),
                       "GM race");
}

XTEST(a_set_on_pipe_v_does_not_cover_an_mte3_copy_in_flight) {
    Gm<float> slots(4 * kN, "slots"), out(4 * kN, "out");
    XCHECK_THROWS_WITH(run_kernel("xcore_after_v", 4,
                                  [&] {
                                      exchange(slots.p, out.p, Sync::MODE0_AFTER_V,
                                               [](int32_t i) { return (i + 1) % 4; });
                                  }),
                       "GM race");
}

XTEST(mode1_syncs_the_two_aiv_of_an_ai_core) {
    constexpr uint32_t n = 6;  // three AI Cores
    for (int autoSync : {1, 0}) {
        const sim_test::AutoSync mode(autoSync);
        Gm<float> slots(n * kN, "slots"), out(n * kN, "out");
        run_kernel("xcore_mode1", n,
                   [&] { exchange(slots.p, out.p, Sync::MODE1, [](int32_t i) { return i ^ 1; }); });
        for (uint32_t b = 0; b < n; ++b)
            for (int32_t e = 0; e < kN; ++e) XCHECK_EQ(out.p[b * kN + e], float((b ^ 1) + 1) + 100.0f);
    }
}

XTEST(mode1_does_not_order_another_ai_cores_writes) {
    Gm<float> slots(4 * kN, "slots"), out(4 * kN, "out");
    const auto otherCore = [](int32_t i) { return (i + 2) % 4; };
    XCHECK_THROWS_WITH(
        run_kernel("xcore_mode1_other_core", 4, [&] { exchange(slots.p, out.p, Sync::MODE1, otherCore); }),
        "GM race");
}

// Each round of sets raises every member's counter by one; each wait takes one.
XTEST(each_wait_takes_one_round) {
    Gm<int32_t> seen(32, "seen");  // one DCache line per block
    run_kernel("xcore_rounds", 2, [&] {
        CrossCoreSetFlag<0, PIPE_V>(5);
        CrossCoreSetFlag<0, PIPE_V>(5);
        CrossCoreWaitFlag(5);
        CrossCoreWaitFlag(5);
        auto g = global(seen.p + GetBlockIdx() * 16, 16);
        g.SetValue(0, 7);
        DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE>(g);
    });
    XCHECK_EQ(seen.p[0], 7);
    XCHECK_EQ(seen.p[16], 7);
    XCHECK_THROWS_WITH(run_kernel("xcore_one_wait_too_many", 2,
                                  [&] {
                                      CrossCoreSetFlag<0, PIPE_V>(5);
                                      CrossCoreWaitFlag(5);
                                      CrossCoreWaitFlag(5);
                                  }),
                       "counter of flagId 5, which stays 0", "the NPU would hang");
}

XTEST(a_block_that_never_sets_is_a_deadlock) {
    XCHECK_THROWS_WITH(run_kernel("xcore_missing_set", 4,
                                  [&] {
                                      if (GetBlockIdx() == 3) return;
                                      CrossCoreSetFlag<0, PIPE_MTE3>(0);
                                      CrossCoreWaitFlag(0);
                                  }),
                       "CrossCoreWaitFlag",
                       "flagId 0, which stays 0 (mode 0: 3 of 4 blocks have set it", "the NPU would hang");
}

XTEST(sixteen_rounds_overflow_the_counter) {
    run_kernel("xcore_fifteen", 1, [&] {
        for (int k = 0; k < 15; ++k) CrossCoreSetFlag<0, PIPE_MTE2>(1);
        for (int k = 0; k < 15; ++k) CrossCoreWaitFlag(1);
    });
    XCHECK_THROWS_WITH(run_kernel("xcore_sixteen", 1,
                                  [&] {
                                      for (int k = 0; k < 16; ++k) CrossCoreSetFlag<0, PIPE_MTE2>(1);
                                  }),
                       "the counter of flagId 1 on block 0 would exceed 15");
}

XTEST(bad_flag_ids_modes_and_pipes_are_refused) {
    XCHECK_THROWS_WITH(run_kernel("xcore_flag16", 2, [&] { CrossCoreSetFlag<0, PIPE_MTE3>(16); }),
                       "flagId 16 is outside 0..15", "it would be flagId 0");
    XCHECK_THROWS_WITH(run_kernel("xcore_wait16", 2, [&] { CrossCoreWaitFlag(17); }),
                       "CrossCoreWaitFlag", "flagId 17 is outside 0..15");
    XCHECK_THROWS_WITH(run_kernel("xcore_mode4", 2, [&] { CrossCoreSetFlag<4, PIPE_MTE3>(0); }),
                       "modeId 4: A2 has modes 0");
    XCHECK_THROWS_WITH(run_kernel("xcore_pipe_s", 2, [&] { CrossCoreSetFlag<0, PIPE_S>(0); }),
                       "pipe PIPE_S: modes 0, 1 and 2 take");
    XCHECK_THROWS_WITH(run_kernel("xcore_pipe_fix", 2, [&] { CrossCoreSetFlag<0, PIPE_FIX>(0); }),
                       "pipe_t 10: a vector core sets the flag after");
}

XTEST(mode2_is_refused_without_an_aic) {
    XCHECK_THROWS_WITH(run_kernel("xcore_mode2", 2, [&] { CrossCoreSetFlag<2, PIPE_MTE3>(0); }), "CrossCoreSetFlag<2>",
                       "this launch has no AIC");
}

XTEST(mode1_needs_both_aiv_of_the_ai_core) {
    XCHECK_THROWS_WITH(run_kernel("xcore_mode1_odd", 3,
                                  [&] {
                                      CrossCoreSetFlag<1, PIPE_MTE3>(0);
                                      CrossCoreWaitFlag(0);
                                  }),
                       "block 2 is sub-block 0 of AI Core 1", "not in this launch of 3 blocks");
}

namespace {
// Block i copies i + 1 to its slot, syncs with a set behind `pipe`, reads the
// slot back with no MTE3_MTE2 flag of its own, and stores it plus 100.
template <pipe_t pipe>
void read_back(float* slots, float* out) {
    const int32_t i = int32_t(GetBlockIdx());
    TPipe tp;
    TBuf<TPosition::VECCALC> buf;
    tp.InitBuffer(buf, kN * sizeof(float));
    auto t = buf.Get<float>();
    Duplicate(t, float(i + 1), kN);
    sim_test::sync<HardEvent::V_MTE3>();
    DataCopy(global(slots + i * kN, kN), t, kN);
    CrossCoreSetFlag<0, pipe>(2);
    CrossCoreWaitFlag(2);
    DataCopy(t, global(slots + i * kN, kN), kN);
    sim_test::sync<HardEvent::MTE2_V>();
    Adds(t, t, 100.0f, kN);
    sim_test::sync<HardEvent::V_MTE3>();
    DataCopy(global(out + i * kN, kN), t, kN);
}
}  // namespace

// The wait ends only after this block's own set has fired, which waited for
// the MTE3 copy: the read after it is ordered (the example's mode-0 pattern).
XTEST(the_wait_orders_the_blocks_own_work_before_its_set) {
    const sim_test::AutoSync mode(0);
    Gm<float> slots(4 * kN, "slots"), out(4 * kN, "out");
    run_kernel("xcore_read_back", 4, [&] { read_back<PIPE_MTE3>(slots.p, out.p); });
    for (uint32_t b = 0; b < 4; ++b)
        for (int32_t e = 0; e < kN; ++e) XCHECK_EQ(out.p[b * kN + e], float(b + 1) + 100.0f);
    XCHECK_THROWS_WITH(run_kernel("xcore_read_back_v", 4, [&] { read_back<PIPE_V>(slots.p, out.p); }),
                       "RAW on GM", "PIPE_MTE2 DataCopy", "with no MTE3_MTE2 flag");
}

// One flagId may serve mode 0 and then mode 1 once the mode-0 sync is done.
XTEST(a_flag_changes_mode_only_after_its_syncs) {
    run_kernel("xcore_mode_switch", 4, [&] {
        CrossCoreSetFlag<0, PIPE_MTE3>(4);
        CrossCoreWaitFlag(4);
        CrossCoreSetFlag<1, PIPE_MTE3>(4);
        CrossCoreWaitFlag(4);
    });
    XCHECK_THROWS_WITH(run_kernel("xcore_mode_switch_early", 4,
                                  [&] {
                                      CrossCoreSetFlag<0, PIPE_MTE3>(4);
                                      CrossCoreSetFlag<1, PIPE_MTE3>(4);
                                      CrossCoreWaitFlag(4);
                                      CrossCoreWaitFlag(4);
                                  }),
                       "sets flagId 4 in mode 1 while its mode-0 syncs of that flagId are not done");
}

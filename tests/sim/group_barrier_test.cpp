// GroupBarrier (dav_c220 kernel_operator_group_barrier_impl.h), InitOutput and the
// super-kernel task syncs WaitPreTaskEnd / SetNextTaskStart: kernels written from
// the documentation, values checked against references computed here.
#include <cstdint>
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
constexpr uint32_t kArrive = 2, kWait = 3, kBlocks = kArrive + kWait;
constexpr int32_t kN = 8;  // int32 per slot (one 32 B block)
constexpr uint32_t kRounds = 2;

// Round r: arriver a writes a + 10 r to its slot of the round and arrives;
// waiter w waits, then writes the sum of the arrivers' slots plus w to its own.
// A round has its own slots: the next Arrive waits only until every waiter has
// passed its Wait, not until it has read.
void rounds(int32_t* slots, uint8_t* ws, bool withBarrier) {
    const uint32_t id = uint32_t(GetBlockIdx());
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * kN * sizeof(int32_t));
    auto t = buf.Get<int32_t>();
    GroupBarrier<PipeMode::MTE3_MODE> bar(ws, kArrive, kWait);
    for (uint32_t r = 0; r < kRounds; ++r) {
        if (id < kArrive) {
            Duplicate(t, int32_t(id + 10 * r), kN);
            sim_test::sync<HardEvent::V_MTE3>();
            DataCopy(global(slots + (r * kBlocks + id) * kN, kN), t, kN);
            if (withBarrier) bar.Arrive(id);
            sim_test::sync<HardEvent::MTE3_V>();
        } else {
            if (withBarrier) bar.Wait(id - kArrive);
            DataCopy(t, global(slots + r * kBlocks * kN, kN), kN);
            DataCopy(t[kN], global(slots + (r * kBlocks + 1) * kN, kN), kN);
            sim_test::sync<HardEvent::MTE2_V>();
            Add(t, t, t[kN], kN);
            Adds(t, t, int32_t(id - kArrive), kN);
            sim_test::sync<HardEvent::V_MTE3>();
            DataCopy(global(slots + (r * kBlocks + id) * kN, kN), t, kN);
            sim_test::sync<HardEvent::MTE3_MTE2>();
        }
    }
}
}  // namespace

XTEST(group_barrier_releases_the_waiters_after_every_arrival) {
    Gm<int32_t> slots(kRounds * kBlocks * kN, "slots");
    Gm<uint8_t> ws(kWait * 512, "ws");  // max(arrive, wait) x 512 B, zeroed
    run_kernel("group_barrier_rounds", kBlocks, [&] { rounds(slots.p, ws.p, true); });
    for (uint32_t r = 0; r < kRounds; ++r)
        for (uint32_t w = 0; w < kWait; ++w)
            for (int32_t e = 0; e < kN; ++e)
                XCHECK_EQ(slots.p[(r * kBlocks + kArrive + w) * kN + e], int32_t(0 + 1 + 20 * r + w));
    // Every step adds 1 to each of the max(arrive, wait) counters of its kind.
    for (uint32_t i = 0; i < kWait; ++i) {
        int32_t arrive, wait;
        std::memcpy(&arrive, ws.p + i * 512, 4);
        std::memcpy(&wait, ws.p + i * 512 + 64, 4);
        XCHECK_EQ(arrive, int32_t(kArrive * kRounds));
        XCHECK_EQ(wait, int32_t(kWait * kRounds));
    }
}

XTEST(group_barrier_workspace_length_is_a_line_per_counter) {
    Gm<uint8_t> ws(6 * 512, "ws");
    uint64_t len = 0;
    run_kernel("group_barrier_len", 6, [&] {
        TPipe pipe;
        GroupBarrier<PipeMode::MTE3_MODE> bar(ws.p, 2, 6);
        if (GetBlockIdx() == 0) len = bar.GetWorkspaceLen();
    });
    XCHECK_EQ(len, uint64_t(6 * 512));
}

XTEST(without_the_barrier_the_waiters_race_the_arrivers) {
    Gm<int32_t> slots(kRounds * kBlocks * kN, "slots");
    Gm<uint8_t> ws(kWait * 512, "ws");
    XCHECK_THROWS_WITH(run_kernel("group_barrier_none", kBlocks, [&] { rounds(slots.p, ws.p, false); }),
                       "GM race", "slots");
}

XTEST(a_wait_for_an_arrival_that_never_comes_is_reported) {
    Gm<uint8_t> ws(2 * 512, "ws");
    XCHECK_THROWS_WITH(run_kernel("group_barrier_missing", 3,
                                  [&] {
                                      TPipe pipe;
                                      GroupBarrier<PipeMode::MTE3_MODE> bar(ws.p, 2, 1);
                                      const uint32_t id = uint32_t(GetBlockIdx());
                                      if (id == 0) bar.Arrive(0);  // block 1 never arrives
                                      if (id == 2) bar.Wait(0);
                                  }),
                       "GroupBarrier::Wait (block 2)", "to read at least 2 (it reads 1)", "the NPU would hang");
}

XTEST(group_barrier_refuses_sizes_and_indices_it_cannot_hold) {
    Gm<uint8_t> ws(4 * 512, "ws");
    XCHECK_THROWS_WITH(run_kernel("gb_zero", 2, [&] { GroupBarrier<PipeMode::MTE3_MODE> b(ws.p, 0, 1); }),
                       "GroupBarrier", "arriveSizeIn is 0");
    XCHECK_THROWS_WITH(run_kernel("gb_big", 2, [&] { GroupBarrier<PipeMode::MTE3_MODE> b(ws.p, 1, 3); }),
                       "GroupBarrier", "waitSizeIn 3 is larger than GetBlockNum() 2");
    XCHECK_THROWS_WITH(run_kernel("gb_mode", 2, [&] { GroupBarrier<PipeMode::SCALAR_MODE> b(ws.p, 1, 1); }),
                       "GroupBarrier", "MTE3_MODE only");
    XCHECK_THROWS_WITH(run_kernel("gb_index", 2,
                                  [&] {
                                      TPipe pipe;
                                      GroupBarrier<PipeMode::MTE3_MODE> b(ws.p, 1, 2);
                                      b.Arrive(2);
                                  }),
                       "GroupBarrier::Arrive", "arriveIndex 2 is outside [0, 2)");
}

XTEST(init_output_fills_every_element_in_rounds_and_a_tail) {
    // 5000 int32: two full rounds of 255 x 32 B / 4 = 2040 elements and a tail of 920.
    const uint32_t n = 5000;
    Gm<int32_t> out(n + 8, "out");
    for (uint32_t i = 0; i < n + 8; ++i) out.p[i] = -1;
    run_kernel("init_output", 1, [&] {
        TPipe pipe;
        InitOutput<int32_t>(global(out.p, n), n, 7);
    });
    for (uint32_t i = 0; i < n; ++i) XCHECK_EQ(out.p[i], 7);
    for (uint32_t i = n; i < n + 8; ++i) XCHECK_EQ(out.p[i], -1);
}

XTEST(task_syncs_outside_a_super_kernel_leave_the_kernel_unchanged) {
    // The task_sync pattern: WaitPreTaskEnd before the first copy, SetNextTaskStart after the last.
    Gm<float> x(64, "x"), y(64, "y");
    for (int i = 0; i < 64; ++i) x.p[i] = float(i) * 0.5f;
    run_kernel("task_sync", 1, [&] {
        sim_test::Calc c(64 * sizeof(float));
        auto t = c.get<float>();
        WaitPreTaskEnd();
        DataCopy(t, global(x.p, 64), 64);
        sim_test::sync<HardEvent::MTE2_V>();
        Muls(t, t, 3.0f, 64);
        sim_test::sync<HardEvent::V_MTE3>();
        DataCopy(global(y.p, 64), t, 64);
        SetNextTaskStart();
        WaitPreTaskEnd<true>();
        SetNextTaskStart<PIPE_MTE3, PIPE_FIX, true>();
    });
    for (int i = 0; i < 64; ++i) XCHECK_EQ(y.p[i], float(i) * 1.5f);
}

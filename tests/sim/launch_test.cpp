// Launches: SyncAll across 48 blocks on few host threads (ctest also runs this
// binary with ASCEND_XENT_THREADS=1 and 2), failure propagation without hangs,
// deterministic error choice, counters of a kernel whose traffic is known by
// hand, SoC profiles and settings.
#include <atomic>
#include <cstdlib>
#include <string>
#include <thread>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "xtest.h"

using namespace AscendC;
using ascend_sim::run_kernel;
using sim_test::Gm;

namespace {
// Each block writes (idx + 1) into its own 32-byte slot, SyncAll, then reads
// every slot and stores the total in its result slot; repeated `rounds` times.
void syncall_kernel(float* slots, float* result, int rounds) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    const uint32_t n = uint32_t(GetBlockNum()), me = uint32_t(GetBlockIdx());
    pipe.InitBuffer(b, n * 32 + 64);
    GlobalTensor<float> gs, gr;
    gs.SetGlobalBuffer(slots, n * 8);
    gr.SetGlobalBuffer(result, n * 8);
    auto all = b.Get<float>();
    auto mine = all[n * 8];
    for (int r = 0; r < rounds; ++r) {
        Duplicate(mine, float(me + 1 + r), 8);
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        DataCopy(gs[me * 8], mine, 8);
        SyncAll();
        DataCopy(all, gs, n * 8);
        SetFlag<HardEvent::MTE2_S>(0);
        WaitFlag<HardEvent::MTE2_S>(0);
        float total = 0;
        for (uint32_t i = 0; i < n; ++i) total += all.GetValue(i * 8);
        SetFlag<HardEvent::S_V>(0);
        WaitFlag<HardEvent::S_V>(0);
        Duplicate(mine, total, 8);
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        DataCopy(gr[me * 8], mine, 8);
        SetFlag<HardEvent::MTE3_V>(0);
        WaitFlag<HardEvent::MTE3_V>(0);
        SyncAll();  // everyone has read the slots before they are rewritten
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
    }
}

void check_syncall(uint32_t threads, uint32_t blockDim, int rounds) {
    ascend_sim::set_threads(threads);
    Gm<float> slots(blockDim * 8, "slots"), result(blockDim * 8, "result");
    run_kernel("syncall", blockDim, [&] { syncall_kernel(slots.p, result.p, rounds); });
    const float expect = float(blockDim) * float(blockDim + 1) / 2 + float(blockDim) * float(rounds - 1);
    for (uint32_t i = 0; i < blockDim; ++i) XCHECK_EQ(result.p[i * 8], expect);
    const auto s = ascend_sim::last_launch_stats();
    XCHECK_EQ(s.blockDim, blockDim);
    XCHECK_EQ(s.blocksUsed, blockDim);
    ascend_sim::set_threads(0);
}
}  // namespace

XTEST(syncall_48_blocks_default_threads) { check_syncall(0, 48, 3); }
XTEST(syncall_48_blocks_1_thread) { check_syncall(1, 48, 3); }
XTEST(syncall_48_blocks_2_threads) { check_syncall(2, 48, 2); }
XTEST(syncall_64_blocks_on_ascend950_1_thread) {
    ascend_sim::set_soc("ascend950");
    check_syncall(1, 64, 1);
    ascend_sim::set_soc("");
}

// A launch on a given profile ignores the current one: 64 blocks sync on
// ascend950's 64 cores while ascend910b (48) is current, and not the other way round.
XTEST(run_kernel_on_a_given_profile) {
    ascend_sim::SocProfile a950;
    for (const auto& p : ascend_sim::profiles())
        if (p.name == "ascend950") a950 = p;
    ascend_sim::set_soc("ascend910b");
    run_kernel("k", 64, a950, [] { SyncAll(); });
    XCHECK_EQ(ascend_sim::last_launch_stats().soc, std::string("ascend950"));
    ascend_sim::set_soc("ascend950");
    ascend_sim::SocProfile few = a950;
    few.vectorCores = 8;
    XCHECK_THROWS_WITH(run_kernel("k", 64, few, [] { SyncAll(); }), "blockDim 64 exceeds the 8 vector cores of ascend950");
    ascend_sim::set_soc("");
}

XTEST(failure_while_others_wait_in_syncall_does_not_hang) {
    for (uint32_t threads : {1u, 2u, 0u}) {
        ascend_sim::set_threads(threads);
        XCHECK_THROWS_WITH(run_kernel("k", 48,
                                      [] {
                                          if (GetBlockIdx() == 17) WaitFlag<HardEvent::V_S>(0);
                                          SyncAll();
                                      }),
                           "WaitFlag (block 17)");
    }
    ascend_sim::set_threads(0);
}

XTEST(block_ending_without_syncall_is_reported) {
    for (uint32_t threads : {1u, 2u}) {
        ascend_sim::set_threads(threads);
        XCHECK_THROWS_WITH(run_kernel("k", 8,
                                      [] {
                                          SyncAll();
                                          if (GetBlockIdx() != 3) SyncAll();
                                      }),
                           "block 3 ended without reaching SyncAll #2");
    }
    ascend_sim::set_threads(0);
}

XTEST(lowest_failing_block_is_reported) {
    for (int rep = 0; rep < 5; ++rep)
        XCHECK_THROWS_WITH(run_kernel("k", 40, [] { if (GetBlockIdx() >= 5) WaitFlag<HardEvent::MTE2_V>(1); }),
                           "WaitFlag (block 5)");
}

XTEST(blockdim_range) {
    XCHECK_THROWS_WITH(run_kernel("k", 0, [] {}), "run_kernel: blockDim 0 of k is outside [1, 65535]");
    XCHECK_THROWS_WITH(run_kernel("k", 65536, [] {}), "blockDim 65536");
    std::atomic<uint32_t> ran{0};
    run_kernel("many", 1000, [&] { ran += uint32_t(GetBlockNum() == 1000); });  // more blocks than cores: a pool
    XCHECK_EQ(ran.load(), 1000u);
}

XTEST(counters_of_a_known_kernel) {
    // 3 blocks; blocks 0 and 1 each: DataCopy 1000 floats in (4000 B, 1 DMA),
    // Exp 1000 (16 repeats of 256 B), Muls 1000 (16), Cast float->half 1000
    // (16: the widest operand), 2 scalar UB reads, one DataCopyPad out of 2000 B
    // of halves; block 2 only reads one GM scalar.
    ascend_sim::set_threads(2);
    Gm<float> x(2000, "x");
    Gm<half> y(2000, "y");
    run_kernel("counted", 3, [&] {
        const uint32_t me = uint32_t(GetBlockIdx());
        GlobalTensor<float> gx;
        gx.SetGlobalBuffer(x.p, 2000);
        if (me == 2) {
            (void)gx.GetValue(0);
            return;
        }
        TPipe pipe;
        TQue<TPosition::VECIN, 1> qin;
        TQue<TPosition::VECOUT, 1> qout;
        pipe.InitBuffer(qin, 1, 4000);   // 4000 -> 4000 (a multiple of 32)
        pipe.InitBuffer(qout, 1, 2001);  // rounded up to 2016
        GlobalTensor<half> gy;
        gy.SetGlobalBuffer(y.p, 2000);
        auto in = qin.AllocTensor<float>();
        DataCopy(in, gx[me * 1000], 1000);
        qin.EnQue(in);
        auto a = qin.DeQue<float>();
        Exp(a, a, 1000);
        PipeBarrier<PIPE_V>();
        Muls(a, a, 0.5f, 1000);
        auto o = qout.AllocTensor<half>();
        PipeBarrier<PIPE_V>();
        Cast(o, a, RoundMode::CAST_RINT, 1000);
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
        (void)a.GetValue(0);
        (void)o.GetValue(1);
        qin.FreeTensor(a);
        qout.EnQue(o);
        auto r = qout.DeQue<half>();
        DataCopyPad(gy[me * 1000], r, {1, 2000, 0, 0, 0});
        qout.FreeTensor(r);
    });
    const auto s = ascend_sim::last_launch_stats();
    XCHECK_EQ(s.kernel, std::string("counted"));
    XCHECK_EQ(s.soc, std::string("ascend910b"));
    XCHECK_EQ(s.blockDim, 3u);
    XCHECK_EQ(s.blocksUsed, 2u);
    XCHECK_EQ(s.hostThreads, 2u);
    XCHECK_EQ(s.perBlock.size(), size_t(3));
    XCHECK_EQ(s.total.gmReadBytes, 8000u);
    XCHECK_EQ(s.total.gmWriteBytes, 4000u);
    XCHECK_EQ(s.total.dmaIn, 2u);
    XCHECK_EQ(s.total.dmaOut, 2u);
    XCHECK_EQ(s.total.vectorInstructions, 6u);
    XCHECK_EQ(s.total.vectorRepeats, 96u);
    XCHECK_EQ(s.total.vectorRepeatsByOp.at("Exp"), 32u);
    XCHECK_EQ(s.total.vectorRepeatsByOp.at("Muls"), 32u);
    XCHECK_EQ(s.total.vectorRepeatsByOp.at("Cast"), 32u);
    XCHECK_EQ(s.total.scalarUbReads, 4u);
    XCHECK_EQ(s.total.scalarUbWrites, 0u);
    XCHECK_EQ(s.total.scalarGmReads, 1u);
    XCHECK_EQ(s.total.ubPeakBytes, 6016u);
    XCHECK_EQ(s.perBlock[1].gmReadBytes, 4000u);
    XCHECK_EQ(s.perBlock[2].scalarGmReads, 1u);
    XCHECK_EQ(s.perBlock[2].ubPeakBytes, 0u);
    for (int i = 0; i < 2000; ++i) XCHECK_NEAR(float(y.p[i]), 0.5f * 1.0f, 1e-3);  // exp(0) * 0.5
    ascend_sim::set_threads(0);
}

XTEST(profiles_and_settings) {
    const auto& ps = ascend_sim::profiles();
    XCHECK(ps.size() >= 5);
    auto p = ascend_sim::current_profile();
    XCHECK_EQ(p.name, std::string("ascend910b"));
    XCHECK_EQ(p.vectorCores, 48u);
    XCHECK_EQ(p.ubBytes, uint64_t(188416));
    XCHECK_EQ(p.npuArch, 2201u);
    XCHECK_EQ(p.libApiWorkspaceBytes, uint64_t(16) << 20);
    ascend_sim::set_soc("ascend910b4");
    XCHECK_EQ(ascend_sim::current_profile().vectorCores, 40u);
    ascend_sim::set_soc("ascend950");
    XCHECK_EQ(ascend_sim::current_profile().ubBytes, uint64_t(253952));
    XCHECK_EQ(ascend_sim::current_profile().npuArch, 3510u);
    ascend_sim::set_cores(20);
    XCHECK_EQ(ascend_sim::current_profile().vectorCores, 20u);
    ascend_sim::set_cores(0);
    ascend_sim::set_soc("");
    XCHECK_THROWS_WITH(ascend_sim::set_soc("ascend310p"), "unknown SoC profile \"ascend310p\"", "ascend910b",
                       "ascend910_93", "ascend950");
    // The environment, when no setter is in force.
    setenv("ASCEND_XENT_SOC", "ascend910_93", 1);
    setenv("ASCEND_XENT_CORES", "24", 1);
    p = ascend_sim::current_profile();
    XCHECK_EQ(p.name, std::string("ascend910_93"));
    XCHECK_EQ(p.vectorCores, 24u);
    ascend_sim::set_soc("ascend910b3");  // setters win
    XCHECK_EQ(ascend_sim::current_profile().name, std::string("ascend910b3"));
    ascend_sim::set_soc("");
    unsetenv("ASCEND_XENT_SOC");
    unsetenv("ASCEND_XENT_CORES");
    ascend_sim::set_threads(3);
    XCHECK_EQ(ascend_sim::host_threads(), 3u);
    ascend_sim::set_threads(0);
    XCHECK(ascend_sim::host_threads() >= 1);
}

XTEST(a_thread_cap_bounds_this_threads_launches_only) {
    ascend_sim::set_threads(3);
    {
        const ascend_sim::ScopedHostThreadCap one(1);
        XCHECK_EQ(ascend_sim::host_threads(), 1u);
        {
            const ascend_sim::ScopedHostThreadCap none(0);  // no cap inside
            XCHECK_EQ(ascend_sim::host_threads(), 3u);
        }
        XCHECK_EQ(ascend_sim::host_threads(), 1u);
        uint32_t elsewhere = 0;
        std::thread([&] { elsewhere = ascend_sim::host_threads(); }).join();
        XCHECK_EQ(elsewhere, 3u);
        ascend_sim::run_kernel("capped", 8, [] { SyncAll(); });
        XCHECK_EQ(ascend_sim::last_launch_stats().hostThreads, 1u);
    }
    XCHECK_EQ(ascend_sim::host_threads(), 3u);
    {
        const ascend_sim::ScopedHostThreadCap many(16);  // a cap above the setting changes nothing
        XCHECK_EQ(ascend_sim::host_threads(), 3u);
    }
    ascend_sim::set_threads(0);
}

XTEST(ub_limit_follows_the_profile) {
    auto kernel = [] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> b;
        pipe.InitBuffer(b, 200 * 1024);
    };
    XCHECK_THROWS_WITH(run_kernel("k", 1, kernel), "exceeds the UB of ascend910b");
    ascend_sim::set_soc("ascend950");
    run_kernel("k", 1, kernel);
    ascend_sim::set_soc("");
}

// Blocks of later launches run on the stores (UB, pools, vector capacity) of
// earlier ones: nothing else of a launch may reach the next. Here a leaked DCache
// line would make the second launch's read after its own DMA "stale", and leaked
// counters would show the first launch's Exp.
XTEST(a_launch_starts_with_nothing_of_the_last) {
    Gm<float> x(64, "x");
    auto kernel = [&](bool first) {
        TPipe pipe;
        TBuf<TPosition::VECCALC> b;
        pipe.InitBuffer(b, 32);
        auto t = b.Get<float>();
        GlobalTensor<float> g;
        g.SetGlobalBuffer(x.p, 64);
        const uint32_t at = uint32_t(GetBlockIdx()) * 16;
        if (first) {
            XCHECK_EQ(g.GetValue(at), 0.0f);  // caches the line
            Duplicate(t, 1.0f, 8);
            PipeBarrier<PIPE_V>();
            Exp(t, t, 8);
            return;
        }
        Duplicate(t, 2.0f, 8);
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        DataCopy(g[at], t, 8);
        SetFlag<HardEvent::MTE3_S>(0);
        WaitFlag<HardEvent::MTE3_S>(0);
        XCHECK_EQ(g.GetValue(at), 2.0f);
    };
    for (uint32_t threads : {1u, 2u}) {
        ascend_sim::set_threads(threads);
        for (int i = 0; i < 64; ++i) x.p[i] = 0.0f;
        run_kernel("first", 2, [&] { kernel(true); });
        XCHECK_EQ(ascend_sim::last_launch_stats().total.vectorRepeatsByOp.count("Exp"), 1u);
        run_kernel("second", 2, [&] { kernel(false); });
        const auto s = ascend_sim::last_launch_stats();
        XCHECK_EQ(s.total.vectorRepeatsByOp.count("Exp"), 0u);
        XCHECK_EQ(s.total.vectorRepeatsByOp.at("Duplicate"), 2u);
        XCHECK_EQ(s.perBlock[1].dmaOut, 1u);
    }
    ascend_sim::set_threads(0);
}

XTEST(concurrent_launches_from_two_host_threads) {
    Gm<float> a(48 * 8, "a"), b(48 * 8, "b"), ra(48 * 8, "ra"), rb(48 * 8, "rb");
    std::atomic<int> ok{0};
    auto go = [&](float* s, float* r) {
        run_kernel("concurrent", 16, [&] { syncall_kernel(s, r, 2); });
        ok += ascend_sim::last_launch_stats().blockDim == 16;
    };
    std::thread t1(go, a.p, ra.p), t2(go, b.p, rb.p);
    t1.join();
    t2.join();
    XCHECK_EQ(ok.load(), 2);
    XCHECK_EQ(ra.p[0], rb.p[0]);
}

XTEST(gm_registry_rules) {
    void* p = ascend_sim::gm_alloc(100);
    XCHECK_EQ(reinterpret_cast<uintptr_t>(p) % 64, uintptr_t(0));
    ascend_sim::gm_free(p);
    XCHECK_THROWS_WITH(ascend_sim::gm_free(p), "GmFree", "freed already");
    float local[16];
    {
        ascend_sim::GmRegion r(local, sizeof local, "local");
        XCHECK_THROWS_WITH(ascend_sim::gm_free(local), "not returned by GmAlloc");
    }
}

XTEST(no_race_across_syncall_epochs) {
    Gm<float> x(64, "x");
    run_kernel("epochs", 2, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> b;
        pipe.InitBuffer(b, 256);
        GlobalTensor<float> g;
        g.SetGlobalBuffer(x.p, 64);
        auto t = b.Get<float>();
        if (GetBlockIdx() == 0) {
            Duplicate(t, 3.0f, 64);
            SetFlag<HardEvent::V_MTE3>(0);
            WaitFlag<HardEvent::V_MTE3>(0);
            DataCopy(g, t, 64);
        }
        SyncAll();
        if (GetBlockIdx() == 1) {
            DataCopy(t, g, 64);
            SetFlag<HardEvent::MTE2_S>(0);
            WaitFlag<HardEvent::MTE2_S>(0);
            XCHECK_EQ(t.GetValue(5), 3.0f);
        }
    });
}

// A launch in which no block wrote to GM (say, a body the preprocessor emptied) says so,
// once per kernel name; a launch that writes GM, by DMA or a scalar store, does not.
XTEST(a_launch_that_writes_no_gm_warns_once) {
    Gm<float> y(8, "y");
    const std::string quiet = sim_test::captured(stderr, [&] {
        run_kernel("writes_by_dma", 2, [&] {
            sim_test::Calc c(32);
            auto t = c.get<float>();
            Duplicate(t, 1.0f, 8);
            sim_test::sync<HardEvent::V_MTE3>();
            if (GetBlockIdx() == 1) DataCopy(sim_test::global(y.p, 8), t, 8);
        });
        run_kernel("writes_by_scalar", 1, [&] { sim_test::global(y.p, 8).SetValue(0, 2.0f); });
    });
    XCHECK_EQ(quiet, std::string());
    const std::string err = sim_test::captured(stderr, [] {
        for (int i = 0; i < 2; ++i)
            run_kernel("writes_nothing", 3, [] {
                sim_test::Calc c(32);
                Duplicate(c.get<float>(), 1.0f, 8);
            });
    });
    XCHECK_EQ(err, std::string("[ascend_sim] warning: writes_nothing: no block of the 3 wrote to GM: the launch "
                               "produced no output (is the kernel's body compiled out, e.g. under "
                               "#if __CCE_AICORE__ == 220?)\n"));
}

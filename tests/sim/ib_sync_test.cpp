// IBSet / IBWait between blocks (kernel_operator_block_sync_intf_impl.h): a flag
// word per (block, event) in a zeroed GM workspace. A wait yields to the other
// blocks, a wait nothing can satisfy is reported, and a pair orders the GM
// accesses around it for the race check.
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
constexpr uint32_t kBlocks = 4;

// A chain: block i waits for block i-1's flag, reads what it wrote, adds its own
// index, writes its slot, raises its own flag. Without the flags the reads of the
// previous slot race its writes.
void chain(float* data, int32_t* ws, bool synced) {
    const int32_t i = int32_t(GetBlockIdx());
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf, wsBuf;
    pipe.InitBuffer(buf, kN * sizeof(float));
    pipe.InitBuffer(wsBuf, 32);
    auto t = buf.Get<float>();
    auto gws = global(ws, kBlocks * 8);
    auto ubws = wsBuf.Get<int32_t>();
    if (i > 0) {
        if (synced) IBWait(gws, ubws, i - 1, 0);
        DataCopy(t, global(data + (i - 1) * kN, kN), kN);
        sim_test::sync<HardEvent::MTE2_V>();
        Adds(t, t, float(i), kN);
    } else {
        Duplicate(t, 100.0f, kN);
    }
    sim_test::sync<HardEvent::V_MTE3>();
    DataCopy(global(data + i * kN, kN), t, kN);
    if (synced) IBSet(gws, ubws, i, 0);
}
}  // namespace

XTEST(a_chain_of_flags_orders_the_blocks) {
    for (int autoSync : {1, 0}) {
        sim_test::AutoSync mode(autoSync);
        Gm<float> data(kN * kBlocks, "data");
        Gm<int32_t> ws(kBlocks * 8, "ws");
        run_kernel("ib_chain", kBlocks, [&] { chain(data.p, ws.p, true); });
        float want = 100.0f;
        for (uint32_t b = 0; b < kBlocks; ++b) {
            if (b > 0) want += float(b);
            for (int32_t e = 0; e < kN; ++e) XCHECK_EQ(data.p[b * kN + e], want);
        }
        // Every flag raised by the last block's IBSet only (the others were consumed).
        for (uint32_t b = 0; b < kBlocks; ++b) XCHECK_EQ(ws.p[b * 8], b + 1 == kBlocks ? 1 : 0);
    }
}

XTEST(without_the_flags_the_chain_races) {
    Gm<float> data(kN * kBlocks, "data");
    Gm<int32_t> ws(kBlocks * 8, "ws");
    XCHECK_THROWS_WITH(run_kernel("ib_chain_unsynced", kBlocks, [&] { chain(data.p, ws.p, false); }),
                       "GM race", "with no SyncAll in between");
}

// A write after the IBSet is not covered by it.
XTEST(an_access_after_the_set_still_races) {
    Gm<float> data(kN, "data");
    Gm<int32_t> ws(2 * 8, "ws");
    XCHECK_THROWS_WITH(run_kernel("ib_late_write", 2,
                                  [&] {
                                      TPipe pipe;
                                      TBuf<TPosition::VECCALC> buf, wsBuf;
                                      pipe.InitBuffer(buf, kN * sizeof(float));
                                      pipe.InitBuffer(wsBuf, 32);
                                      auto t = buf.Get<float>();
                                      auto gws = global(ws.p, 2 * 8);
                                      if (GetBlockIdx() == 0) {
                                          Duplicate(t, 1.0f, kN);
                                          IBSet(gws, wsBuf.Get<int32_t>(), 0, 0);
                                          DataCopy(global(data.p, kN), t, kN);
                                      } else {
                                          IBWait(gws, wsBuf.Get<int32_t>(), 0, 0);
                                          DataCopy(t, global(data.p, kN), kN);
                                      }
                                  }),
                       "GM race (blocks 0 and 1", "no SyncAll or IBSet/IBWait pair in between");
}

// Nobody sets the flag: reported once every other block has ended, not spun on.
XTEST(a_wait_nothing_satisfies_is_reported) {
    Gm<int32_t> ws(2 * 8, "ws");
    XCHECK_THROWS_WITH(run_kernel("ib_hang", 2,
                                  [&] {
                                      TPipe pipe;
                                      TBuf<TPosition::VECCALC> wsBuf;
                                      pipe.InitBuffer(wsBuf, 32);
                                      if (GetBlockIdx() == 1) IBWait(global(ws.p, 2 * 8), wsBuf.Get<int32_t>(), 0, 0);
                                  }),
                       "IBWait (block 1)", "waits for the flag of block 0, event 0 to read 1 (it reads 0)",
                       "the NPU would hang");
    // Two blocks waiting for each other.
    XCHECK_THROWS_WITH(run_kernel("ib_deadlock", 2,
                                  [&] {
                                      TPipe pipe;
                                      TBuf<TPosition::VECCALC> wsBuf;
                                      pipe.InitBuffer(wsBuf, 32);
                                      const int32_t i = int32_t(GetBlockIdx());
                                      IBWait(global(ws.p, 2 * 8), wsBuf.Get<int32_t>(), 1 - i, 0);
                                  }),
                       "IBWait", "nothing can change it");
}

XTEST(flag_arguments_are_checked) {
    const sim_test::PastTensor error(2);
    Gm<int32_t> ws(8, "ws");
    const auto with = [&](int32_t blockIdx, int32_t event) {
        return [&, blockIdx, event] {
            TPipe pipe;
            TBuf<TPosition::VECCALC> wsBuf;
            pipe.InitBuffer(wsBuf, 32);
            IBSet(global(ws.p, 8), wsBuf.Get<int32_t>(), blockIdx, event);
        };
    };
    XCHECK_THROWS_WITH(run_kernel("ib_idx", 1, with(1, 0)), "IBSet (block 0)", "blockIdx 1 is outside [0, 1)");
    XCHECK_THROWS_WITH(run_kernel("ib_ws", 1, with(0, 1)), "IBSet", "outside the GlobalTensor's SetGlobalBuffer range");
    run_kernel("ib_ok", 1, with(0, 0));
    XCHECK_EQ(ws.p[0], 1);
}

namespace {
// Each round, in block order: acc = acc * 2 + (block + 1), a GM read-modify-write
// that only WaitPreBlock / NotifyNextBlock keep from racing.
void ordered_rounds(float* acc, int32_t* ws, int32_t rounds, bool init) {
    const int32_t i = int32_t(GetBlockIdx());
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf, wsBuf;
    pipe.InitBuffer(buf, kN * sizeof(float));
    pipe.InitBuffer(wsBuf, kBlocks * 32 + 32);
    auto t = buf.Get<float>();
    auto gws = global(ws, kBlocks * 8);
    auto ubws = wsBuf.Get<int32_t>();
    if (init) InitDetermineComputeWorkspace(gws, ubws);
    for (int32_t r = 0; r < rounds; ++r) {
        WaitPreBlock(gws, ubws);
        DataCopy(t, global(acc, kN), kN);
        sim_test::sync<HardEvent::MTE2_V>();
        Muls(t, t, 2.0f, kN);
        PipeBarrier<PIPE_V>();
        Adds(t, t, float(i + 1), kN);
        sim_test::sync<HardEvent::V_MTE3>();
        DataCopy(global(acc, kN), t, kN);
        NotifyNextBlock(gws, ubws);
    }
}
}  // namespace

XTEST(determine_compute_runs_the_blocks_in_order) {
    for (int autoSync : {1, 0}) {
        sim_test::AutoSync mode(autoSync);
        Gm<float> acc(kN, "acc");
        Gm<int32_t> ws(kBlocks * 8, "ws");
        for (int32_t k = 0; k < kBlocks * 8; ++k) ws.p[k] = 7;  // need not be zero (InitDetermineComputeWorkspace.md)
        run_kernel("determine", kBlocks, [&] { ordered_rounds(acc.p, ws.p, 2, true); });
        float want = 0.0f;
        for (int r = 0; r < 2; ++r)
            for (uint32_t b = 0; b < kBlocks; ++b) want = want * 2.0f + float(b + 1);
        for (int32_t e = 0; e < kN; ++e) XCHECK_EQ(acc.p[e], want);
        for (int32_t k = 0; k < kBlocks * 8; ++k) XCHECK_EQ(ws.p[k], 0);  // the last block's notify
    }
}

XTEST(determine_compute_is_checked) {
    Gm<float> acc(kN, "acc");
    Gm<int32_t> ws(kBlocks * 8, "ws");
    XCHECK_THROWS_WITH(run_kernel("determine_no_init", kBlocks, [&] { ordered_rounds(acc.p, ws.p, 1, false); }),
                       "WaitPreBlock", "call InitDetermineComputeWorkspace first");
    // Block 2 waits twice in a round where block 1 never notifies.
    XCHECK_THROWS_WITH(run_kernel("determine_hang", 3,
                                  [&] {
                                      TPipe pipe;
                                      TBuf<TPosition::VECCALC> wsBuf;
                                      pipe.InitBuffer(wsBuf, 3 * 32 + 32);
                                      auto gws = global(ws.p, 3 * 8);
                                      auto ubws = wsBuf.Get<int32_t>();
                                      InitDetermineComputeWorkspace(gws, ubws);
                                      if (GetBlockIdx() == 1) return;
                                      WaitPreBlock(gws, ubws);
                                      NotifyNextBlock(gws, ubws);
                                  }),
                       "WaitPreBlock (block 2)", "waits for the slots of the blocks before 2 to read 1",
                       "the NPU would hang");
}

// ---- GM flags the kernel writes and polls itself ----
// Block 0 writes kN floats by DMA and raises a flag; block 1 waits for the flag,
// then copies the data to out. A flag write publishes what its block has
// completed, a read that sees it learns that (ib_sync.cpp).
namespace {
enum class Flag { BYPASS, CLEAN };  // WriteGmByPassDCache / SetValue + DataCacheCleanAndInvalid
struct Handoff {
    Flag flag = Flag::BYPASS;
    bool waitDma = true;    // block 0 waits for its data DMA (MTE3_S) before raising the flag
    bool poll = true;       // block 1 waits for the flag
    bool dataAfter = false; // block 0 raises the flag first, then writes the data
};

void clean(const GlobalTensor<int32_t>& f) {
    DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(f);
}

void handoff(float* data, float* out, int32_t* flag, Handoff h) {
    sim_test::Calc c(kN * sizeof(float));
    auto t = c.get<float>();
    const auto f = global(flag, 16);
    if (GetBlockIdx() == 0) {
        const auto raise = [&] {
            if (h.flag == Flag::BYPASS) {
                WriteGmByPassDCache<int32_t>(flag, 1);
            } else {
                f.SetValue(0, 1);
                clean(f);  // the write-back is the flag write
            }
        };
        if (h.dataAfter) raise();
        sim_test::fill_for_mte3(t, 5.0f, kN);
        DataCopy(global(data, kN), t, kN);
        if (h.waitDma) sim_test::sync<HardEvent::MTE3_S>();
        if (!h.dataAfter) raise();
        return;
    }
    if (h.poll && h.flag == Flag::BYPASS) {
        while (ReadGmByPassDCache<int32_t>(flag) != 1) {
        }
    } else if (h.poll) {
        do {
            clean(f);  // so that GetValue reads GM, not the line it cached
        } while (f.GetValue(0) != 1);
    }
    DataCopy(t, global(data, kN), kN);
    sim_test::sync<HardEvent::MTE2_MTE3>();
    DataCopy(global(out, kN), t, kN);
}

void run_handoff(Handoff h) {
    Gm<float> data(kN, "data"), out(kN, "out");
    Gm<int32_t> flag(16, "flag");
    flag.p[0] = 0;
    run_kernel("gm_flag", 2, [&] { handoff(data.p, out.p, flag.p, h); });
    for (int32_t e = 0; e < kN; ++e) XCHECK_EQ(out.p[e], 5.0f);
}
}  // namespace

XTEST(a_gm_flag_orders_the_blocks) {
    for (int autoSync : {1, 0})
        for (Flag f : {Flag::BYPASS, Flag::CLEAN})
            for (uint32_t threads : {1u, 2u}) {  // one host thread: the poll must let block 0 run
                sim_test::AutoSync mode(autoSync);
                ascend_sim::set_threads(threads);
                run_handoff({f});
            }
    ascend_sim::set_threads(0);
}

// On two host threads block 1 polls while block 0 raises the flag: a poll that
// sees the flag's bytes must learn what it publishes, however the two interleave
// (the launch's first flag write also sets up its clocks, which widens the gap).
XTEST(a_gm_flag_seen_from_another_host_thread_orders_the_blocks) {
    ascend_sim::set_threads(2);
    for (int round = 0; round < 150; ++round)
        for (Flag f : {Flag::BYPASS, Flag::CLEAN}) run_handoff({f});
    ascend_sim::set_threads(0);
}

XTEST(a_gm_flag_does_not_order_what_it_does_not_cover) {
    const char* race[] = {"GM race (blocks 0 and 1", "written by block 0 (DataCopy)", "read by block 1 (DataCopy)",
                          "no SyncAll, IBSet/IBWait pair or GM flag in between"};
    for (int autoSync : {1, 0})
        for (Flag f : {Flag::BYPASS, Flag::CLEAN}) {
            sim_test::AutoSync mode(autoSync);
            Handoff noWait{f}, inFlight{f}, after{f};
            noWait.poll = false;       // block 1 never waits for the flag
            inFlight.waitDma = false;  // the data DMA may not have reached GM when the flag does
            after.dataAfter = true;    // block 1 sees the flag, the data comes later
            for (const Handoff& h : {noWait, inFlight, after})
                XCHECK_THROWS_WITH(run_handoff(h), race[0], race[1], race[2], race[3]);
        }
}

// WriteGmByPassDCache(ISASI).md: a clean and a bypass write are not ordered
// without DataSyncBarrier; a flag raised without it does not cover the line the
// clean wrote back.
XTEST(a_bypass_flag_covers_earlier_scalar_writes_only_after_data_sync_barrier) {
    const auto kernel = [](float* data, int32_t* flag, bool dsb) {
        const auto d = global(data, kN);
        if (GetBlockIdx() == 0) {
            d.SetValue(0, 7.0f);
            DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(d);
            if (dsb) DataSyncBarrier<MemDsbT::DDR>();
            WriteGmByPassDCache<int32_t>(flag, 1);
            return;
        }
        while (ReadGmByPassDCache<int32_t>(flag) != 1) {
        }
        sim_test::Calc c(kN * sizeof(float));
        DataCopy(c.get<float>(), d, kN);
    };
    Gm<float> data(kN, "data");
    Gm<int32_t> flag(16, "flag");
    flag.p[0] = 0;
    run_kernel("dsb", 2, [&] { kernel(data.p, flag.p, true); });
    flag.p[0] = 0;
    XCHECK_THROWS_WITH(run_kernel("no_dsb", 2, [&] { kernel(data.p, flag.p, false); }), "GM race (blocks 0 and 1",
                       "written by block 0 (GlobalTensor::SetValue)", "read by block 1 (DataCopy)");
}

// A poll of a flag no block will write any more (block 0 has ended) is the hang
// it would be on the NPU, through either DCache path.
XTEST(a_poll_nothing_can_satisfy_is_reported) {
    Gm<int32_t> flag(16, "flag");
    flag.p[0] = 0;
    for (bool bypass : {true, false}) {
        XCHECK_THROWS_WITH(run_kernel("gm_poll_hang", 2,
                                      [&] {
                                          const auto f = global(flag.p, 16);
                                          if (GetBlockIdx() == 0) return;
                                          if (bypass) {
                                              while (ReadGmByPassDCache<int32_t>(flag.p) != 1) {
                                              }
                                          } else {
                                              do {
                                                  clean(f);
                                              } while (f.GetValue(0) != 1);
                                          }
                                      }),
                           bypass ? "ReadGmByPassDCache (block 1)" : "GlobalTensor::GetValue (block 1)",
                           "polls GM flag+0x0000, which keeps reading 0", "the NPU would hang");
    }
    // One block alone: nothing else runs that could write the flag.
    XCHECK_THROWS_WITH(run_kernel("gm_poll_alone", 1,
                                  [&] {
                                      while (ReadGmByPassDCache<int32_t>(flag.p) != 1) {
                                      }
                                  }),
                       "ReadGmByPassDCache (block 0)", "polls GM flag+0x0000, which keeps reading 0");
}

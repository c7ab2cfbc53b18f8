// Pipe hazard detection: unordered accesses to the same UB (or GM) bytes by
// different pipes, and dependent instructions within a pipe without
// PipeBarrier, are reported naming both accesses; the ordered versions of the
// same kernels pass. Tests of pairs the compiler syncs with --cce-auto-sync=on
// run in the strict mode (auto_sync_test.cpp covers both modes).
#include <random>
#include <string>

#include "ascend_sim/runtime_state.h"  // HazardTracker, for the property test
#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "xtest.h"

using namespace AscendC;
using ascend_sim::run_kernel;
using sim_test::AutoSync;
using sim_test::Calc;
using sim_test::fill_for_mte3;
using sim_test::global;
using sim_test::Gm;
using sim_test::sync;

namespace {
void one(const std::function<void()>& body) { run_kernel("hazard", 1, body); }
}  // namespace

XTEST(raw_scalar_getvalue_after_vector_write_needs_v_s) {
    AutoSync strict(0);
    auto kernel = [](bool sync) {
        return [sync] {
            TPipe pipe;
            TBuf<TPosition::VECCALC> b;
            pipe.InitBuffer(b, 2048);
            auto t = b.Get<float>();
            Duplicate(t, 0.5f, 512);
            PipeBarrier<PIPE_V>();
            Exp(t[256], t, 64);
            if (sync) {
                SetFlag<HardEvent::V_S>(0);
                WaitFlag<HardEvent::V_S>(0);
            }
            (void)t.GetValue(256 + 10);
        };
    };
    XCHECK_THROWS_WITH(one(kernel(false)), "[ascend_sim] pipe hazard (block 0): RAW on UB [0x0428, 0x042c)",
                       "PIPE_S LocalTensor::GetValue (#3) reads bytes written by PIPE_V Exp (#2)",
                       "no V_S flag, PipeBarrier<PIPE_ALL> or queue handshake in between");
    one(kernel(true));
}

XTEST(raw_scalar_after_datacopy_needs_mte2_s_even_through_a_queue) {
    AutoSync strict(0);
    Gm<float> x(64, "x");
    auto kernel = [&](bool sync) {
        return [&, sync] {
            TPipe pipe;
            TQue<TPosition::VECIN, 1> q;
            pipe.InitBuffer(q, 1, 256);
            GlobalTensor<float> g;
            g.SetGlobalBuffer(x.p, 64);
            auto t = q.AllocTensor<float>();
            DataCopy(t, g, 64);
            q.EnQue(t);
            auto in = q.DeQue<float>();  // orders MTE2 -> V only
            if (sync) {
                SetFlag<HardEvent::MTE2_S>(0);
                WaitFlag<HardEvent::MTE2_S>(0);
            }
            (void)in.GetValue(0);
            q.FreeTensor(in);
        };
    };
    XCHECK_THROWS_WITH(one(kernel(false)), "RAW on UB [0x0000, 0x0004)", "PIPE_S LocalTensor::GetValue",
                       "written by PIPE_MTE2 DataCopy", "no MTE2_S flag");
    one(kernel(true));
}

XTEST(war_mte2_overwrites_buffer_vector_still_reads) {
    Gm<float> x(256, "x");
    auto kernel = [&](bool sync) {
        return [&, sync] {
            TPipe pipe;
            TBuf<TPosition::VECCALC> b;
            pipe.InitBuffer(b, 2048);
            GlobalTensor<float> g;
            g.SetGlobalBuffer(x.p, 256);
            auto in = b.Get<float>();
            auto out = in[256];
            DataCopy(in, g, 256);
            SetFlag<HardEvent::MTE2_V>(0);
            WaitFlag<HardEvent::MTE2_V>(0);
            Exp(out, in, 256);
            if (sync) {
                SetFlag<HardEvent::V_MTE2>(0);
                WaitFlag<HardEvent::V_MTE2>(0);
            }
            DataCopy(in, g, 256);  // next tile into the same buffer
            SetFlag<HardEvent::MTE2_V>(0);
            WaitFlag<HardEvent::MTE2_V>(0);
        };
    };
    XCHECK_THROWS_WITH(one(kernel(false)), "WAR on UB [0x0000, 0x0400)",
                       "PIPE_MTE2 DataCopy (#", "writes bytes read by PIPE_V Exp", "no V_MTE2 flag");
    one(kernel(true));
}

XTEST(raw_vector_after_datacopy_without_mte2_v) {
    Gm<float> x(64, "x");
    XCHECK_THROWS_WITH(one([&] {
                           TPipe pipe;
                           TBuf<TPosition::VECCALC> b;
                           pipe.InitBuffer(b, 512);
                           GlobalTensor<float> g;
                           g.SetGlobalBuffer(x.p, 64);
                           auto t = b.Get<float>();
                           DataCopy(t, g, 64);
                           Muls(t[64], t, 2.0f, 64);
                       }),
                       "RAW on UB [0x0000, 0x0100)", "PIPE_V Muls", "written by PIPE_MTE2 DataCopy", "no MTE2_V flag");
}

XTEST(intra_pipe_v_dependency_needs_pipebarrier_v) {
    AutoSync strict(0);
    auto kernel = [](bool barrier) {
        return [barrier] {
            TPipe pipe;
            TBuf<TPosition::VECCALC> b;
            pipe.InitBuffer(b, 1024);
            auto t = b.Get<float>();
            Duplicate(t, 1.0f, 128);
            if (barrier) PipeBarrier<PIPE_V>();
            Exp(t, t, 128);  // in place: one instruction reading and writing the same bytes is fine
            if (barrier) PipeBarrier<PIPE_V>();
            Muls(t[128], t, 2.0f, 128);
        };
    };
    XCHECK_THROWS_WITH(one(kernel(false)), "RAW on UB [0x0000, 0x0200)", "PIPE_V Exp (#2) reads bytes written by PIPE_V Duplicate (#1)",
                       "no PipeBarrier<PIPE_V> in between");
    one(kernel(true));
}

XTEST(intra_pipe_v_war) {
    AutoSync strict(0);
    XCHECK_THROWS_WITH(one([] {
                           TPipe pipe;
                           TBuf<TPosition::VECCALC> b;
                           pipe.InitBuffer(b, 2048);
                           auto t = b.Get<float>();
                           Duplicate(t, 1.0f, 512);
                           PipeBarrier<PIPE_V>();
                           Add(t[256], t, t[128], 64);
                           Duplicate(t[128], 0.0f, 64);  // overwrites Add's src1
                       }),
                       "WAR on UB", "PIPE_V Duplicate", "read by PIPE_V Add", "no PipeBarrier<PIPE_V>");
}

XTEST(raw_vector_reads_scalar_setvalue_needs_s_v) {
    AutoSync strict(0);
    auto kernel = [](bool sync) {
        return [sync] {
            TPipe pipe;
            TBuf<TPosition::VECCALC> b;
            pipe.InitBuffer(b, 512);
            auto t = b.Get<float>();
            for (int i = 0; i < 8; ++i) t.SetValue(i, float(i));
            if (sync) {
                SetFlag<HardEvent::S_V>(1);
                WaitFlag<HardEvent::S_V>(1);
            }
            Muls(t[64], t, 3.0f, 8);
        };
    };
    XCHECK_THROWS_WITH(one(kernel(false)), "RAW on UB [0x0000, 0x0004)", "PIPE_V Muls", "written by PIPE_S LocalTensor::SetValue",
                       "no S_V flag");
    one(kernel(true));
}

XTEST(gm_raw_mte3_write_then_mte2_read_needs_mte3_mte2) {
    Gm<float> ws(64, "workspace");
    auto kernel = [&](bool sync) {
        return [&, sync] {
            Calc c(512);
            const auto g = global(ws.p, 64);
            auto t = c.get<float>();
            fill_for_mte3(t, 1.0f, 64);
            DataCopy(g, t, 64);
            if (sync) {
                SetFlag<HardEvent::MTE3_MTE2>(0);
                WaitFlag<HardEvent::MTE3_MTE2>(0);
            }
            DataCopy(t[64], g, 64);
        };
    };
    XCHECK_THROWS_WITH(one(kernel(false)), "RAW on GM [workspace+0x0000, workspace+0x0100)", "PIPE_MTE2 DataCopy",
                       "written by PIPE_MTE3 DataCopy", "no MTE3_MTE2 flag");
    one(kernel(true));
}

// Two strided MTE3 writes whose GM rows interleave (pitch 256 B, 128 B rows)
// touch different bytes: no PipeBarrier<PIPE_MTE3> is needed between them, nor
// MTE3_MTE2 before an MTE2 read of rows neither wrote. Writing the first
// write's rows again (or reading them) is still a hazard.
XTEST(gm_strided_dma_rows_interleaved_vs_overlapping) {
    Gm<float> y(256, "y");
    auto kernel = [&](uint32_t secondWrite, uint32_t read) {
        return [&, secondWrite, read] {
            Calc c(1024);
            const auto g = global(y.p, 256);
            auto t = c.get<float>();
            fill_for_mte3(t, 1.0f, 128);
            DataCopyPad(g, t, {4, 128, 0, 128, 0});  // rows [256k, 256k + 128)
            if (secondWrite < 256) DataCopyPad(g[secondWrite], t, {2, 128, 0, 128, 0});
            if (read < 256) DataCopyPad(t[128], g[read], {2, 128, 128, 0, 0}, {false, 0, 0, 0.0f});
        };
    };
    one(kernel(32, 160));  // 128 B rows: writes 0, 2, 4, 6, then 1, 3; reads 5, 7
    XCHECK_THROWS_WITH(one(kernel(64, 999)), "WAW on GM [y+0x0100, y+0x0180)", "PIPE_MTE3 DataCopyPad",
                       "written by PIPE_MTE3 DataCopyPad", "no PipeBarrier<PIPE_MTE3>");
    XCHECK_THROWS_WITH(one(kernel(999, 64)), "RAW on GM [y+0x0100, y+0x0180)", "PIPE_MTE2 DataCopyPad",
                       "written by PIPE_MTE3 DataCopyPad", "no MTE3_MTE2 flag");
}

XTEST(raw_mte3_reads_vector_output_without_v_mte3) {
    Gm<float> y(64, "y");
    XCHECK_THROWS_WITH(one([&] {
                           TPipe pipe;
                           TBuf<TPosition::VECOUT> b;
                           pipe.InitBuffer(b, 256);
                           GlobalTensor<float> g;
                           g.SetGlobalBuffer(y.p, 64);
                           auto t = b.Get<float>();
                           Duplicate(t, 1.0f, 64);
                           DataCopy(g, t, 64);
                       }),
                       "RAW on UB", "PIPE_MTE3 DataCopy", "written by PIPE_V Duplicate", "no V_MTE3 flag");
}

XTEST(pipebarrier_all_orders_everything) {
    Gm<float> x(64, "x");
    one([&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> b;
        pipe.InitBuffer(b, 512);
        GlobalTensor<float> g;
        g.SetGlobalBuffer(x.p, 64);
        auto t = b.Get<float>();
        DataCopy(t, g, 64);
        PipeBarrier<PIPE_ALL>();
        Exp(t, t, 64);
        PipeBarrier<PIPE_ALL>();
        t.SetValue(0, 1.0f);
        PipeBarrier<PIPE_ALL>();
        DataCopy(g, t, 64);
    });
}

XTEST(reducesum_result_readable_by_scalar_without_flag) {
    // The A2 count-form ReduceSum stores dst[0] from the scalar unit after its own V_S sync.
    one([] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> b;
        pipe.InitBuffer(b, 2048);
        auto t = b.Get<float>();
        Duplicate(t, 1.0f, 256);
        PipeBarrier<PIPE_V>();
        ReduceSum(t[256], t, t[384], 256);
        XCHECK_EQ(t[256].GetValue(0), 256.0f);
        Muls(t[264], t[256], 2.0f, 1);  // V after the scalar store: ordered by the internal S_V
    });
}

XTEST(scalar_read_then_vector_write_is_ordered) {
    one([] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> b;
        pipe.InitBuffer(b, 512);
        auto t = b.Get<float>();
        Duplicate(t, 1.0f, 64);
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
        const float v = t.GetValue(3);
        Duplicate(t, v + 1.0f, 64);  // WAR after a scalar read: the scalar unit is in order
    });
}

XTEST(double_buffered_queue_pipeline_needs_no_extra_sync) {
    constexpr int kTile = 256, kTiles = 8;
    Gm<float> x(kTile * kTiles, "x"), y(kTile * kTiles, "y");
    for (int i = 0; i < kTile * kTiles; ++i) x.p[i] = float(i % 7);
    one([&] {
        TPipe pipe;
        TQue<TPosition::VECIN, 2> qin;
        TQue<TPosition::VECOUT, 2> qout;
        pipe.InitBuffer(qin, 2, kTile * 4);
        pipe.InitBuffer(qout, 2, kTile * 4);
        GlobalTensor<float> gx, gy;
        gx.SetGlobalBuffer(x.p, kTile * kTiles);
        gy.SetGlobalBuffer(y.p, kTile * kTiles);
        for (int i = 0; i < kTiles; ++i) {
            auto in = qin.AllocTensor<float>();
            DataCopy(in, gx[i * kTile], kTile);
            qin.EnQue(in);
            auto a = qin.DeQue<float>();
            auto o = qout.AllocTensor<float>();
            Muls(o, a, 2.0f, kTile);
            PipeBarrier<PIPE_V>();
            Adds(o, o, 1.0f, kTile);
            qout.EnQue(o);
            qin.FreeTensor(a);
            auto r = qout.DeQue<float>();
            DataCopy(gy[i * kTile], r, kTile);
            qout.FreeTensor(r);
        }
    });
    for (int i = 0; i < kTile * kTiles; ++i) XCHECK_EQ(y.p[i], float(i % 7) * 2.0f + 1.0f);
}

// Scalar stores into a vector-written buffer (a fix-up per row): each stored element
// keeps its own last write, the bytes between keep the vector's, and a later access
// sees both in address order.
namespace {
// n floats of a VECCALC buffer written by the vector unit (zeros), then handed to the
// scalar unit (V_S).
LocalTensor<float> vector_zeros(TPipe& pipe, TBuf<TPosition::VECCALC>& b, int32_t n) {
    pipe.InitBuffer(b, uint32_t(n) * 4);
    auto t = b.Get<float>();
    Duplicate(t, 0.0f, n);
    sync<HardEvent::V_S>();
    return t;
}
}  // namespace

XTEST(scalar_stores_inside_a_vector_write_keep_their_own_writer) {
    AutoSync strict(0);
    Gm<float> x(256, "x");
    auto kernel = [&](int step) {
        return [&, step] {
            TPipe pipe;
            TBuf<TPosition::VECCALC> b;
            GlobalTensor<float> g;
            g.SetGlobalBuffer(x.p, 256);
            auto t = vector_zeros(pipe, b, 256);
            for (int i : {10, 40, 41, 100}) t.SetValue(i, float(i));
            if (step > 0) sync<HardEvent::S_V>();
            Muls(t[128], t, 2.0f, 128);  // reads the stores and the bytes around them
            if (step > 1) sync<HardEvent::V_MTE2>();
            DataCopy(t, g, 256);
        };
    };
    XCHECK_THROWS_WITH(one(kernel(0)), "RAW on UB [0x0028, 0x002c)", "PIPE_V Muls",
                       "written by PIPE_S LocalTensor::SetValue", "no S_V flag");
    // The first bytes Muls read, up to the first store.
    XCHECK_THROWS_WITH(one(kernel(1)), "WAR on UB [0x0000, 0x0028)", "PIPE_MTE2 DataCopy", "read by PIPE_V Muls",
                       "no V_MTE2 flag");
    one(kernel(2));
}

XTEST(vector_write_over_part_of_a_scalar_store) {
    AutoSync strict(0);
    auto kernel = [](bool ordered) {
        return [ordered] {
            TPipe pipe;
            TBuf<TPosition::VECCALC> b;
            auto t = vector_zeros(pipe, b, 64);
            t.ReinterpretCast<int64_t>().SetValue(3, int64_t(0x40a00000) << 32);  // bytes [24, 32); t[7] = 5
            sync<HardEvent::S_V>();
            Duplicate(t, 1.0f, 7);  // bytes [0, 28): the store's upper half stays the scalar unit's
            XCHECK_EQ(t.GetValue(7), 5.0f);
            if (ordered) sync<HardEvent::V_S>();
            XCHECK_EQ(t.GetValue(6), 1.0f);
        };
    };
    XCHECK_THROWS_WITH(one(kernel(false)), "RAW on UB [0x0018, 0x001c)", "PIPE_S LocalTensor::GetValue",
                       "written by PIPE_V Duplicate", "no V_S flag");
    one(kernel(true));
}

XTEST(scalar_read_inside_a_wider_scalar_store) {
    AutoSync strict(0);
    auto kernel = [](bool ordered) {
        return [ordered] {
            TPipe pipe;
            TBuf<TPosition::VECCALC> b;
            auto t = vector_zeros(pipe, b, 64);
            t.ReinterpretCast<int64_t>().SetValue(1, int64_t(0x3f80000000000000));  // bytes [8, 16)
            XCHECK_EQ(t.GetValue(3), 1.0f);  // S after S: in order
            if (ordered) sync<HardEvent::S_V>();
            Muls(t[32], t, 1.0f, 8);
        };
    };
    XCHECK_THROWS_WITH(one(kernel(false)), "RAW on UB [0x0008, 0x0010)", "PIPE_V Muls",
                       "written by PIPE_S LocalTensor::SetValue");
    one(kernel(true));
}

XTEST(scalar_read_across_two_scalar_stores) {
    AutoSync strict(0);
    auto kernel = [](bool ordered) {
        return [ordered] {
            TPipe pipe;
            TBuf<TPosition::VECCALC> b;
            auto t = vector_zeros(pipe, b, 64);
            for (int i : {2, 3, 5}) t.SetValue(i, 1.0f);
            const int64_t both = t.ReinterpretCast<int64_t>().GetValue(1);  // bytes [8, 16)
            XCHECK_EQ(both, (int64_t(0x3f800000) << 32) | 0x3f800000);
            if (ordered) sync<HardEvent::S_V>();
            Muls(t[32], t, 1.0f, 8);
        };
    };
    XCHECK_THROWS_WITH(one(kernel(false)), "RAW on UB [0x0008, 0x000c)", "PIPE_V Muls",
                       "written by PIPE_S LocalTensor::SetValue");
    one(kernel(true));
}

XTEST(many_scalar_stores_then_a_covering_vector_write) {
    // More stores than one 4 KiB page keeps aside; a vector write over all of them
    // makes the whole buffer the vector's again.
    AutoSync strict(0);
    Gm<float> y(512, "y");
    auto kernel = [&](int step) {
        return [&, step] {
            TPipe pipe;
            TBuf<TPosition::VECCALC> b;
            GlobalTensor<float> g;
            g.SetGlobalBuffer(y.p, 512);
            auto t = vector_zeros(pipe, b, 512);
            for (int i = 0; i < 300; ++i) t.SetValue(i, float(i));
            if (step > 0) sync<HardEvent::S_V>();
            Muls(t[320], t, 2.0f, 64);
            PipeBarrier<PIPE_V>();
            Duplicate(t, 3.0f, 320);
            sync<HardEvent::V_MTE3>();
            DataCopy(g, t, 512);
        };
    };
    XCHECK_THROWS_WITH(one(kernel(0)), "RAW on UB [0x0000, 0x0004)", "PIPE_V Muls",
                       "written by PIPE_S LocalTensor::SetValue");
    one(kernel(1));
    XCHECK_EQ(y.p[299], 3.0f);
    XCHECK_EQ(y.p[320 + 63], 126.0f);
}

// ---- the range map's speckles, against the plain split map ----

XTEST(speckled_map_reports_as_the_split_map) {
    // Random scalar and vector accesses, flags and barriers on two trackers, one keeping
    // scalar stores as speckles: every access must pass or fail alike, with the same message.
    namespace d = ascend_sim::detail;
    std::mt19937 rng(20261203);
    int reports = 0, accesses = 0;
    for (int trial = 0; trial < 60; ++trial) {
        d::NodePool ubA, gmA, ubB, gmB;
        d::HazardTracker speckled(ubA, gmA, true), plain(ubB, gmB, false);
        const bool autoSync = trial % 3 == 0;
        speckled.set_auto_sync(autoSync);
        plain.set_auto_sync(autoSync);
        constexpr uint64_t kBytes = 12288;  // three 4 KiB pages
        for (int step = 0; step < 3000; ++step) {
            const int what = int(rng() % 16);
            if (what == 0) {  // a flag q -> p (SetFlag at q's current clock, WaitFlag on p)
                const auto q = d::Pipe(rng() % 4), p = d::Pipe(rng() % 4);
                speckled.join(p, speckled.snapshot(q));
                plain.join(p, plain.snapshot(q));
                continue;
            }
            if (what == 1) {
                const auto p = d::Pipe(1 + rng() % 3);
                speckled.barrier(p);
                plain.barrier(p);
                continue;
            }
            const bool scalar = what < 10;
            const d::Pipe pipe = scalar ? d::P_S : d::Pipe(1 + rng() % 3);
            uint64_t lo, hi;
            if (scalar) {
                const uint64_t size = uint64_t(2) << (rng() % 3);  // 2, 4 or 8 bytes, aligned
                lo = (rng() % (kBytes / size)) * size;
                hi = lo + size;
            } else {
                lo = (rng() % (kBytes / 32)) * 32 + (rng() % 8 == 0 ? 4 * (rng() % 8) : 0);
                hi = std::min<uint64_t>(kBytes, lo + 4 * (1 + rng() % 600));
            }
            const bool write = rng() % 2 == 0;
            const bool rw = !scalar && write && rng() % 3 == 0;
            std::string a = "ok", b = "ok";
            const d::Instr ia = speckled.issue(pipe, "opA"), ib = plain.issue(pipe, "opA");
            try {
                rw ? speckled.access_rw("api", ia, d::Space::UB, lo, hi)
                   : speckled.access("api", ia, d::Space::UB, lo, hi, write);
            } catch (const std::exception& e) {
                a = e.what();
            }
            try {
                rw ? plain.access_rw("api", ib, d::Space::UB, lo, hi) : plain.access("api", ib, d::Space::UB, lo, hi, write);
            } catch (const std::exception& e) {
                b = e.what();
            }
            ++accesses;
            reports += a != "ok";
            if (a != b) {
                XCHECK_EQ(a, b);
                return;
            }
        }
    }

    // Both outcomes are common, so the comparison means something.
    XCHECK(reports > accesses / 20);
    XCHECK(reports < accesses / 2);
}

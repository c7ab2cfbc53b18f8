// DMA atomics (SetAtomicAdd.md, SetAtomicMax(ISASI).md, SetAtomicMin(ISASI).md,
// SetAtomicType.md, DisableDmaAtomic.md): UB->GM copies combine with GM in the
// mode's type; writes of different blocks under one mode do not race each
// other, but race plain accesses and other modes. Each kernel runs with
// auto-sync on and off (its syncs are explicit).
#include <cstring>
#include <vector>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "xtest.h"

using namespace AscendC;
using ascend_sim::run_kernel;
using sim_test::Gm;

namespace {
constexpr uint32_t kN = 64;  // floats per block: 256 B

// Block i adds v[k] = (i + 1) * (k + 1) / 4 into out[0, kN) (DataCopy, count form).
void reduce_kernel(float* out) {
    sim_test::Calc c(kN * sizeof(float));
    auto t = c.get<float>();
    const int64_t me = GetBlockIdx();
    sim_test::fill(t, kN, [&](uint32_t k) { return float(me + 1) * float(k + 1) / 4.0f; });
    sim_test::sync<HardEvent::S_MTE3>();
    SetAtomicAdd<float>();
    DataCopy(sim_test::global(out, kN), t, kN);
    DisableDmaAtomic();
}

void both_modes(void (*f)()) {
    for (int on : {1, 0}) {
        sim_test::AutoSync a(on);
        f();
    }
}
}  // namespace

XTEST(atomic_add_multi_block_reduction_is_exact) {
    both_modes([] {
        constexpr uint32_t blocks = 8;
        Gm<float> out(kN, "out");
        for (uint32_t k = 0; k < kN; ++k) out.p[k] = 1.0f;  // not cleared: the adds start from GM
        run_kernel("atomic_reduce", blocks, [&] { reduce_kernel(out.p); });
        for (uint32_t k = 0; k < kN; ++k) {
            double want = 1.0;
            for (uint32_t i = 0; i < blocks; ++i) want += double(i + 1) * double(k + 1) / 4.0;
            XCHECK_EQ(double(out.p[k]), want);
        }
    });
}

XTEST(atomic_max_min_int32_and_add_half_in_one_block) {
    both_modes([] {
        Gm<int32_t> mx(8, "mx"), mn(8, "mn");
        Gm<half> h(16, "h");
        const int32_t init[8] = {5, -7, 0, 100, -100, 3, 3, 9};
        for (int k = 0; k < 8; ++k) mx.p[k] = mn.p[k] = init[k];
        for (int k = 0; k < 16; ++k) h.p[k] = half(0.5f * float(k));
        run_kernel("atomic_max_min", 1, [&] {
            sim_test::Calc c(64);
            auto t = c.get<int32_t>();
            auto th = t.ReinterpretCast<half>();
            sim_test::fill(t, 8, [](uint32_t k) { return int32_t(k) * 10 - 20; });
            sim_test::sync<HardEvent::S_MTE3>();
            SetAtomicMax<int32_t>();
            DataCopy(sim_test::global(mx.p, 8), t, 8);
            SetAtomicMin<int32_t>();
            DataCopy(sim_test::global(mn.p, 8), t, 8);
            sim_test::sync<HardEvent::MTE3_S>();
            sim_test::fill(th, 16, [](uint32_t k) { return 0.25f * float(k); });
            sim_test::sync<HardEvent::S_MTE3>();
            SetAtomicAdd<half>();
            DataCopy(sim_test::global(h.p, 16), th, 16);
            SetAtomicNone();
        });
        for (int k = 0; k < 8; ++k) {
            const int32_t v = k * 10 - 20;
            XCHECK_EQ(mx.p[k], init[k] > v ? init[k] : v);
            XCHECK_EQ(mn.p[k], init[k] < v ? init[k] : v);
        }
        for (int k = 0; k < 16; ++k) XCHECK_EQ(float(h.p[k]), 0.75f * float(k));
    });
}

XTEST(atomic_add_data_copy_pad_and_disable) {
    both_modes([] {
        Gm<float> g(24, "g");
        for (int k = 0; k < 24; ++k) g.p[k] = 100.0f;
        run_kernel("atomic_pad", 1, [&] {
            sim_test::Calc c(128);
            auto t = c.get<float>();
            sim_test::fill(t, 32, [](uint32_t k) { return float(k); });
            sim_test::sync<HardEvent::S_MTE3>();
            SetAtomicAdd<float>();
            // 2 blocks of 3 floats: UB at 0 and 32 B, GM at 0 and 5 floats (dstStride 8 B).
            DataCopyPad(sim_test::global(g.p, 24), t, DataCopyExtParams{2, 12, 0, 8, 0});
            DisableDmaAtomic();
            DataCopy(sim_test::global(g.p + 16, 8), t, 8);  // a plain copy overwrites again
        });
        const float want[10] = {100, 101, 102, 100, 100, 108, 109, 110, 100, 100};
        for (int k = 0; k < 10; ++k) XCHECK_EQ(g.p[k], want[k]);
        for (int k = 0; k < 8; ++k) XCHECK_EQ(g.p[16 + k], float(k));
    });
}

XTEST(atomic_type_alone_does_not_enable_atomics_and_init_soc_state_disables) {
    Gm<float> g(8, "g");
    for (int k = 0; k < 8; ++k) g.p[k] = 1.0f;
    run_kernel("atomic_type", 1, [&] {
        sim_test::Calc c(32);
        auto t = c.get<float>();
        sim_test::fill(t, 8, [](uint32_t) { return 2.0f; });
        sim_test::sync<HardEvent::S_MTE3>();
        SetAtomicType<float>();
        DataCopy(sim_test::global(g.p, 8), t, 8);  // overwrites: no operation was set
        PipeBarrier<PIPE_MTE3>();
        SetAtomicAdd<float>();
        InitSocState();
        DataCopy(sim_test::global(g.p, 8), t, 8);  // overwrites again: InitSocState clears the mode
    });
    for (int k = 0; k < 8; ++k) XCHECK_EQ(g.p[k], 2.0f);
}

XTEST(atomic_mode_type_governs_the_combine) {
    Gm<int32_t> g(8, "g");
    for (int k = 0; k < 8; ++k) g.p[k] = 0x00010001;  // two int16_t 1s per word
    run_kernel("atomic_type_width", 1, [&] {
        sim_test::Calc c(32);
        auto t = c.get<int32_t>();
        sim_test::fill(t, 8, [](uint32_t) { return 0x00020003; });
        sim_test::sync<HardEvent::S_MTE3>();
        SetAtomicAdd<int16_t>();  // the copy's int32_t words are combined as int16_t pairs
        DataCopy(sim_test::global(g.p, 8), t, 8);
    });
    for (int k = 0; k < 8; ++k) XCHECK_EQ(g.p[k], 0x00030004);
}

XTEST(atomic_integer_overflow_is_reported) {
    Gm<int8_t> g(32, "g");
    std::memset(g.p, 100, 32);
    XCHECK_THROWS_WITH(run_kernel("atomic_overflow", 1,
                                  [&] {
                                      sim_test::Calc c(32);
                                      auto t = c.get<int8_t>();
                                      sim_test::fill(t, 32, [](uint32_t) { return 100; });
                                      sim_test::sync<HardEvent::S_MTE3>();
                                      SetAtomicAdd<int8_t>();
                                      DataCopy(sim_test::global(g.p, 32), t, 32);
                                  }),
                       "DataCopy (block 0)", "atomic add of 100 to 100 overflows", "[-128, 127]");
}

XTEST(plain_write_racing_an_atomic_add_is_reported) {
    for (int on : {1, 0}) {
        sim_test::AutoSync a(on);
        Gm<float> out(kN, "out");
        XCHECK_THROWS_WITH(run_kernel("atomic_vs_plain", 2,
                                      [&] {
                                          sim_test::Calc c(kN * sizeof(float));
                                          auto t = c.get<float>();
                                          sim_test::fill(t, kN, [](uint32_t) { return 1.0f; });
                                          sim_test::sync<HardEvent::S_MTE3>();
                                          if (GetBlockIdx() == 1) SetAtomicAdd<float>();
                                          DataCopy(sim_test::global(out.p, kN), t, kN);
                                      }),
                           "GM race (blocks 0 and 1", "is written by block 0 (DataCopy)",
                           "written by an atomic add (float) by block 1");
    }
}

XTEST(atomic_add_racing_an_atomic_max_or_a_read_is_reported) {
    Gm<float> out(kN, "out");
    XCHECK_THROWS_WITH(run_kernel("atomic_add_vs_max", 2,
                                  [&] {
                                      sim_test::Calc c(kN * sizeof(float));
                                      auto t = c.get<float>();
                                      sim_test::fill(t, kN, [](uint32_t) { return 1.0f; });
                                      sim_test::sync<HardEvent::S_MTE3>();
                                      if (GetBlockIdx() == 0) SetAtomicAdd<float>();
                                      else SetAtomicMax<float>();
                                      DataCopy(sim_test::global(out.p, kN), t, kN);
                                  }),
                       "atomic add (float) by block 0", "atomic max (float) by block 1");
    XCHECK_THROWS_WITH(run_kernel("atomic_add_vs_read", 2,
                                  [&] {
                                      sim_test::Calc c(kN * sizeof(float));
                                      auto t = c.get<float>();
                                      if (GetBlockIdx() == 0) {
                                          DataCopy(t, sim_test::global(out.p, kN), kN);
                                          return;
                                      }
                                      sim_test::fill(t, kN, [](uint32_t) { return 1.0f; });
                                      sim_test::sync<HardEvent::S_MTE3>();
                                      SetAtomicAdd<float>();
                                      DataCopy(sim_test::global(out.p, kN), t, kN);
                                  }),
                       "is read by block 0", "atomic add (float) by block 1");
}

XTEST(atomic_adds_of_two_epochs_and_a_read_after_sync_all_do_not_race) {
    Gm<float> out(kN, "out");
    std::memset(out.p, 0, kN * sizeof(float));
    Gm<float> seen(2 * kN, "seen");
    run_kernel("atomic_epochs", 2, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> b;
        pipe.InitBuffer(b, kN * sizeof(float));
        auto t = b.Get<float>();
        sim_test::fill(t, kN, [](uint32_t) { return 1.0f; });
        sim_test::sync<HardEvent::S_MTE3>();
        SetAtomicAdd<float>();
        DataCopy(sim_test::global(out.p, kN), t, kN);
        DisableDmaAtomic();
        SyncAll();
        DataCopy(t, sim_test::global(out.p, kN), kN);
        sim_test::sync<HardEvent::MTE2_MTE3>();
        DataCopy(sim_test::global(seen.p + GetBlockIdx() * kN, kN), t, kN);
    });
    for (uint32_t k = 0; k < 2 * kN; ++k) XCHECK_EQ(seen.p[k], 2.0f);
}

// The hazard checker in both auto-sync modes, one kernel per pipe pair. With
// --cce-auto-sync=on (the default) the pairs the compiler syncs on arch 2201
// (V->V; PIPE_S tensor accesses with V, MTE2, MTE3, both ways) pass without the
// kernel's own sync; with it off (ASCEND_XENT_AUTO_SYNC=0) they are hazards.
// The pairs the compiler leaves to the kernel are hazards in both modes.
// Every kernel passes in both modes once it has its own sync.
#include <functional>
#include <cstdlib>
#include <initializer_list>
#include <string>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "xtest.h"

using namespace AscendC;
using sim_test::AutoSync;
using sim_test::Calc;
using sim_test::fill_for_mte3;
using sim_test::global;
using sim_test::Gm;
using sim_test::sync;

namespace {
// A kernel over 2 KiB of float UB, with or without its own sync.
using Kernel = std::function<void(const LocalTensor<float>& t, bool sync)>;

void run(const Kernel& k, bool withSync) {
    ascend_sim::run_kernel("auto_sync", 1, [&] {
        Calc c(2048);
        k(c.get<float>(), withSync);
    });
}

// The kernel without its sync reports a hazard whose message holds every part.
void expect_hazard(const Kernel& k, std::initializer_list<const char*> parts) {
    try {
        run(k, false);
    } catch (const ascend_sim::SimViolation& e) {
        const std::string what = e.what();
        if (what.find("pipe hazard") == std::string::npos) ::xtest::fail(__FILE__, __LINE__, "not a hazard: " + what);
        for (const char* p : parts)
            if (what.find(p) == std::string::npos)
                ::xtest::fail(__FILE__, __LINE__, std::string("\"") + p + "\" is not in: " + what);
        return;
    }
    ::xtest::fail(__FILE__, __LINE__, "expected a pipe hazard");
}

// A pair the compiler syncs: ordered with auto-sync on; without it, the hazard
// names the missing sync and says the compiler would insert it.
void compiler_synced(const Kernel& k, std::initializer_list<const char*> parts) {
    {
        AutoSync on(1);
        run(k, false);
        run(k, true);
    }
    AutoSync off(0);
    expect_hazard(k, parts);
    expect_hazard(k, {"(--cce-auto-sync=off; with it on the compiler inserts this sync)"});
    run(k, true);
}

// A pair the kernel must sync in both modes.
void kernels_job(const Kernel& k, std::initializer_list<const char*> parts) {
    for (int mode : {1, 0}) {
        AutoSync m(mode);
        expect_hazard(k, parts);
        run(k, true);
    }
}
}  // namespace

XTEST(v_to_s_raw_getvalue_after_vector_write) {
    compiler_synced(
        [](const LocalTensor<float>& t, bool s) {
            Duplicate(t, 0.5f, 256);
            if (s) sync<HardEvent::V_S>();
            XCHECK_EQ(t.GetValue(3), 0.5f);
        },
        {"RAW on UB", "PIPE_S LocalTensor::GetValue", "written by PIPE_V Duplicate", "no V_S flag"});
}

XTEST(v_to_s_war_setvalue_over_vector_source) {
    compiler_synced(
        [](const LocalTensor<float>& t, bool s) {
            for (int i = 0; i < 8; ++i) t.SetValue(i, 1.0f);
            sync<HardEvent::S_V>();
            Muls(t[64], t, 2.0f, 8);
            if (s) sync<HardEvent::V_S>();
            t.SetValue(0, 3.0f);
        },
        {"WAR on UB", "PIPE_S LocalTensor::SetValue", "read by PIPE_V Muls", "no V_S flag"});
}

XTEST(s_to_v_raw_vector_reads_setvalue) {
    compiler_synced(
        [](const LocalTensor<float>& t, bool s) {
            for (int i = 0; i < 8; ++i) t.SetValue(i, float(i));
            if (s) sync<HardEvent::S_V>();
            Muls(t[64], t, 3.0f, 8);
        },
        {"RAW on UB", "PIPE_V Muls", "written by PIPE_S LocalTensor::SetValue", "no S_V flag"});
}

XTEST(s_to_v_waw_vector_overwrites_setvalue) {
    compiler_synced(
        [](const LocalTensor<float>& t, bool s) {
            t(0) = 1.0f;
            if (s) sync<HardEvent::S_V>();
            Duplicate(t, 2.0f, 64);
        },
        {"WAW on UB", "PIPE_V Duplicate", "written by PIPE_S LocalTensor::operator()", "no S_V flag"});
}

XTEST(mte2_to_s_raw_getvalue_after_datacopy) {
    Gm<float> x(64, "x");
    compiler_synced(
        [&](const LocalTensor<float>& t, bool s) {
            DataCopy(t, global(x.p, 64), 64);
            if (s) sync<HardEvent::MTE2_S>();
            (void)t.GetValue(5);
        },
        {"RAW on UB", "PIPE_S LocalTensor::GetValue", "written by PIPE_MTE2 DataCopy", "no MTE2_S flag"});
}

XTEST(s_to_mte2_waw_datacopy_over_setvalue) {
    Gm<float> x(64, "x");
    compiler_synced(
        [&](const LocalTensor<float>& t, bool s) {
            t.SetValue(0, 1.0f);
            if (s) sync<HardEvent::S_MTE2>();
            DataCopy(t, global(x.p, 64), 64);
        },
        {"WAW on UB", "PIPE_MTE2 DataCopy", "written by PIPE_S LocalTensor::SetValue", "no S_MTE2 flag"});
}

XTEST(s_to_mte3_raw_datacopy_out_of_setvalue) {
    Gm<float> y(64, "y");
    compiler_synced(
        [&](const LocalTensor<float>& t, bool s) {
            fill_for_mte3(t, 1.0f, 64);
            sync<HardEvent::V_S>();
            t.SetValue(0, 2.0f);
            if (s) sync<HardEvent::S_MTE3>();
            DataCopy(global(y.p, 64), t, 64);
        },
        {"RAW on UB", "PIPE_MTE3 DataCopy", "written by PIPE_S LocalTensor::SetValue", "no S_MTE3 flag"});
}

XTEST(mte3_to_s_war_setvalue_over_datacopy_source) {
    Gm<float> y(64, "y");
    compiler_synced(
        [&](const LocalTensor<float>& t, bool s) {
            fill_for_mte3(t, 1.0f, 64);
            sync<HardEvent::V_S>();
            DataCopy(global(y.p, 64), t, 64);
            if (s) sync<HardEvent::MTE3_S>();
            t.SetValue(0, 2.0f);
        },
        {"WAR on UB", "PIPE_S LocalTensor::SetValue", "read by PIPE_MTE3 DataCopy", "no MTE3_S flag"});
}

XTEST(mte3_to_s_raw_global_getvalue_after_datacopy_out) {
    Gm<float> y(64, "y");
    compiler_synced(
        [&](const LocalTensor<float>& t, bool s) {
            fill_for_mte3(t, 1.0f, 64);
            const auto g = global(y.p, 64);
            DataCopy(g, t, 64);
            if (s) sync<HardEvent::MTE3_S>();
            XCHECK_EQ(g.GetValue(7), 1.0f);
        },
        {"RAW on GM [y+0x001c, y+0x0020)", "PIPE_S GlobalTensor::GetValue", "written by PIPE_MTE3 DataCopy",
         "no MTE3_S flag"});
}

XTEST(v_to_v_raw_dependent_vector_instructions) {
    compiler_synced(
        [](const LocalTensor<float>& t, bool s) {
            Duplicate(t, 1.0f, 128);
            if (s) PipeBarrier<PIPE_V>();
            Exp(t[128], t, 128);
        },
        {"RAW on UB", "PIPE_V Exp", "written by PIPE_V Duplicate", "no PipeBarrier<PIPE_V>"});
}

XTEST(v_to_v_war_vector_overwrites_a_source) {
    compiler_synced(
        [](const LocalTensor<float>& t, bool s) {
            Duplicate(t, 1.0f, 512);
            PipeBarrier<PIPE_V>();
            Add(t[256], t, t[128], 64);
            if (s) PipeBarrier<PIPE_V>();
            Duplicate(t[128], 0.0f, 64);
        },
        {"WAR on UB", "PIPE_V Duplicate", "read by PIPE_V Add", "no PipeBarrier<PIPE_V>"});
}

XTEST(mte2_to_v_stays_the_kernels_job) {
    Gm<float> x(64, "x");
    kernels_job(
        [&](const LocalTensor<float>& t, bool s) {
            DataCopy(t, global(x.p, 64), 64);
            if (s) sync<HardEvent::MTE2_V>();
            Muls(t[64], t, 2.0f, 64);
        },
        {"RAW on UB", "PIPE_V Muls", "written by PIPE_MTE2 DataCopy", "no MTE2_V flag"});
}

XTEST(v_to_mte3_stays_the_kernels_job) {
    Gm<float> y(64, "y");
    kernels_job(
        [&](const LocalTensor<float>& t, bool s) {
            Duplicate(t, 1.0f, 64);
            if (s) sync<HardEvent::V_MTE3>();
            DataCopy(global(y.p, 64), t, 64);
        },
        {"RAW on UB", "PIPE_MTE3 DataCopy", "written by PIPE_V Duplicate", "no V_MTE3 flag"});
}

XTEST(v_to_mte2_war_stays_the_kernels_job) {
    Gm<float> x(64, "x");
    kernels_job(
        [&](const LocalTensor<float>& t, bool s) {
            DataCopy(t, global(x.p, 64), 64);
            sync<HardEvent::MTE2_V>();
            Muls(t[64], t, 2.0f, 64);
            if (s) sync<HardEvent::V_MTE2>();
            DataCopy(t, global(x.p, 64), 64);
        },
        {"WAR on UB", "PIPE_MTE2 DataCopy", "read by PIPE_V Muls", "no V_MTE2 flag"});
}

XTEST(mte3_to_mte2_on_gm_stays_the_kernels_job) {
    Gm<float> ws(64, "ws");
    kernels_job(
        [&](const LocalTensor<float>& t, bool s) {
            const auto g = global(ws.p, 64);
            fill_for_mte3(t, 1.0f, 64);
            DataCopy(g, t, 64);
            if (s) sync<HardEvent::MTE3_MTE2>();
            DataCopy(t[64], g, 64);
        },
        {"RAW on GM", "PIPE_MTE2 DataCopy", "written by PIPE_MTE3 DataCopy", "no MTE3_MTE2 flag"});
}

XTEST(overlapping_mte2_copies_stay_the_kernels_job) {
    Gm<float> x(128, "x");
    kernels_job(
        [&](const LocalTensor<float>& t, bool s) {
            DataCopy(t, global(x.p, 128), 64);
            if (s) PipeBarrier<PIPE_MTE2>();
            DataCopy(t, global(x.p + 64, 64), 64);
        },
        {"WAW on UB", "PIPE_MTE2 DataCopy", "written by PIPE_MTE2 DataCopy", "no PipeBarrier<PIPE_MTE2>"});
}

// GlobalTensor::SetValue is not among the scalar accesses the compiler syncs.
XTEST(global_setvalue_after_dma_stays_the_kernels_job) {
    Gm<float> x(64, "x");
    kernels_job(
        [&](const LocalTensor<float>& t, bool s) {
            const auto g = global(x.p, 64);
            DataCopy(t, g, 64);
            if (s) sync<HardEvent::MTE2_S>();
            g.SetValue(0, 1.0f);
            DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE>(g);
        },
        {"WAR on GM [x+0x0000, x+0x0004)", "PIPE_S GlobalTensor::SetValue", "read by PIPE_MTE2 DataCopy",
         "no MTE2_S flag"});
}

XTEST(mode_follows_the_environment_and_the_setter) {
    const char* old = std::getenv("ASCEND_XENT_AUTO_SYNC");
    const std::string saved = old ? old : "";
    ::setenv("ASCEND_XENT_AUTO_SYNC", "0", 1);
    XCHECK(!ascend_sim::auto_sync_enabled());
    ascend_sim::set_auto_sync(1);
    XCHECK(ascend_sim::auto_sync_enabled());
    ascend_sim::set_auto_sync(-1);
    ::setenv("ASCEND_XENT_AUTO_SYNC", "yes", 1);
    XCHECK_THROWS_WITH(ascend_sim::auto_sync_enabled(), "ASCEND_XENT_AUTO_SYNC=yes is not 0 or 1");
    ::unsetenv("ASCEND_XENT_AUTO_SYNC");
    XCHECK(ascend_sim::auto_sync_enabled());
    if (old) ::setenv("ASCEND_XENT_AUTO_SYNC", saved.c_str(), 1);
}

// Continue on report: with set_continue_on_report(1) a pipe hazard, an inter-block
// GM race or an uninitialised read is recorded once per site and counted, the
// launch goes on and returns, and last_launch_reports() lists them; every other
// check still stops the launch. Off (the default), the same kernels throw.
#include <cstdlib>
#include <functional>
#include <stdexcept>
#include <string>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "xtest.h"

using namespace AscendC;
using ascend_sim::run_kernel;
using sim_test::Calc;
using sim_test::fill_for_mte3;
using sim_test::global;
using sim_test::Gm;

namespace {
struct ContinueOnReport {
    explicit ContinueOnReport(int on) { ascend_sim::set_continue_on_report(on); }
    ~ContinueOnReport() { ascend_sim::set_continue_on_report(-1); }
};

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// `rounds` pairs of GM->UB copies into the same 256 B with no PipeBarrier<PIPE_MTE2>
// between them (one WAW site), then the buffer out to GM in order.
std::function<void()> mte2_waw(float* in, float* out, int rounds) {
    return [=] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 256);
        auto t = buf.Get<float>();
        for (int r = 0; r < rounds; ++r) {
            DataCopy(t, global(in, 64), 64);
            DataCopy(t, global(in, 64), 64);
            PipeBarrier<PIPE_ALL>();
        }
        DataCopy(global(out, 64), t, 64);
    };
}

// Every block writes its own value (block + 2) into the same 512 B of out: one race site,
// one pair per overlap the sweep meets.
std::function<void()> same_window(float* out) {
    return [=] {
        Calc c(512);
        auto t = c.get<float>();
        fill_for_mte3(t, float(GetBlockIdx() + 2), 128);  // different bytes per block
        DataCopy(global(out, 128), t, 128);
    };
}
}  // namespace

XTEST(off_by_default_and_the_same_kernels_throw) {
    XCHECK(!ascend_sim::continue_on_report_enabled());
    Gm<float> in(64, "in"), out(128, "out");
    XCHECK_THROWS_WITH(run_kernel("waw", 1, mte2_waw(in.p, out.p, 1)), "pipe hazard (block 0): WAW on UB");
    XCHECK_THROWS_WITH(run_kernel("racy", 2, same_window(out.p)), "GM race (blocks 0 and 1");
    XCHECK(ascend_sim::last_launch_reports().empty());
}

XTEST(pipe_hazard_is_counted_per_site_and_the_launch_returns) {
    ContinueOnReport on(1);
    Gm<float> in(64, "in"), out(64, "out");
    for (int i = 0; i < 64; ++i) in.p[i] = float(i) + 0.5f;
    run_kernel("waw", 1, mte2_waw(in.p, out.p, 3));
    const auto reports = ascend_sim::last_launch_reports();
    XCHECK_EQ(reports.size(), size_t(1));
    XCHECK_EQ(reports[0].count, uint64_t(3));
    XCHECK_EQ(reports[0].violation.rule(), std::string("pipe hazard WAW"));
    XCHECK_EQ(reports[0].violation.block(), int64_t(0));
    XCHECK(has(reports[0].violation.what(), "PIPE_MTE2 DataCopy"));
    for (int i = 0; i < 64; ++i) XCHECK_EQ(out.p[i], float(i) + 0.5f);  // the launch ran to its end
}

XTEST(gm_race_is_recorded_once_for_all_blocks) {
    ContinueOnReport on(1);
    Gm<float> out(128, "out");
    run_kernel("racy", 4, same_window(out.p));
    const auto reports = ascend_sim::last_launch_reports();
    XCHECK_EQ(reports.size(), size_t(1));
    XCHECK_EQ(reports[0].violation.rule(), std::string("inter-block GM race"));
    XCHECK(has(reports[0].violation.what(), "written by block 0"));
    XCHECK(reports[0].count >= 3);  // each later block overlaps an earlier one
    for (int i = 0; i < 128; ++i)  // some block's value: the order of the writes is the race
        XCHECK(out.p[i] == 2.0f || out.p[i] == 3.0f || out.p[i] == 4.0f || out.p[i] == 5.0f);
}

XTEST(uninitialised_reads_in_every_block_share_one_site) {
    ContinueOnReport on(1);
    Gm<float> out(64, "out");
    run_kernel("two", 2, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a, b;
        pipe.InitBuffer(a, 256);
        pipe.InitBuffer(b, 256);
        auto dst = a.Get<float>(), src = b.Get<float>();
        Exp(dst, src, 64);  // src never written
        Exp(dst, src, 64);
        if (GetBlockIdx() == 1) {
            Duplicate(src, 1.0f, 64);
            PipeBarrier<PIPE_V>();
            Ln(dst, src, 64);
        }
    });
    const auto reports = ascend_sim::last_launch_reports();
    XCHECK_EQ(reports.size(), size_t(1));
    XCHECK_EQ(reports[0].violation.rule(), std::string("uninitialised read"));
    XCHECK_EQ(reports[0].count, uint64_t(4));  // two reads in each of two blocks
    XCHECK(has(reports[0].violation.what(), "Exp (block 0): uninitialised read: src UB"));
}

XTEST(other_checks_still_stop_the_launch) {
    ContinueOnReport on(1);
    XCHECK_THROWS_WITH(run_kernel("oob", 1,
                                  [] {
                                      TPipe pipe;
                                      TBuf<TPosition::VECCALC> a;
                                      pipe.InitBuffer(a, 256);
                                      auto t = a.Get<float>();
                                      Duplicate(t[1], 1.0f, 8);  // a dst 4 B past a 32 B boundary
                                  }),
                       "Duplicate (block 0)", "not 32-byte aligned");
}

XTEST(environment_switch) {
    setenv("ASCEND_XENT_CONTINUE_ON_REPORT", "1", 1);
    XCHECK(ascend_sim::continue_on_report_enabled());
    setenv("ASCEND_XENT_CONTINUE_ON_REPORT", "0", 1);
    XCHECK(!ascend_sim::continue_on_report_enabled());
    setenv("ASCEND_XENT_CONTINUE_ON_REPORT", "yes", 1);
    XCHECK_THROWS_WITH(ascend_sim::continue_on_report_enabled(), "ASCEND_XENT_CONTINUE_ON_REPORT=yes is not 0 or 1");
    unsetenv("ASCEND_XENT_CONTINUE_ON_REPORT");
}

// Phase 1 tiles for the SoC profile (and core count) in force at that moment;
// phase 2 must launch on that same profile even if set_soc / set_cores changed
// the current one in between, on this thread or another. A launch on the new
// profile would break the tiling's assumptions: more blocks than vector cores
// (the launch refuses) or tiles larger than the UB (InitBuffer overflows).
#include <atomic>
#include <thread>

#include "xent_test_util.h"
#include "xtest.h"

using namespace xtest_util;

namespace {

// Restores the default profile and core count however the test ends.
struct DefaultProfileAfter {
    ~DefaultProfileAfter() {
        ascend_sim::set_soc("");
        ascend_sim::set_cores(0);
    }
};

// Mean with weight: the sums launch, then the main kernel over every block (64 on ascend950).
Options MeanWeighted() {
    Options o;
    o.reduction = "mean";
    o.weight = true;
    o.labelSmoothing = 0.1;
    return o;
}

// Column-split fp32 tiles sized for ascend950's 248 KiB of UB (more than ascend910b's 184 KiB).
Options WideNone() {
    Options o;
    o.reduction = "none";
    return o;
}

void ExpectGood(int line, const RunResult& r, const Options& o, const char* label) {
    if (r.status != ACLNN_SUCCESS) xtest::fail(__FILE__, line, std::string(label) + ": " + r.message);
    const int64_t bad = CompareWithReference(r, o, ACL_FLOAT, label);
    if (bad) xtest::fail(__FILE__, line, std::string(label) + ": " + std::to_string(bad) + " elements outside tolerance");
}

}  // namespace

XTEST(phase_two_runs_on_the_phase_one_profile) {
    DefaultProfileAfter restore;
    struct Case {
        int64_t n, c;
        Options o;
        const char* label;
    } cases[] = {{16384, 64, MeanWeighted(), "mean 16384x64"}, {2, 400003, WideNone(), "none 2x400003"}};
    for (const Case& k : cases) {
        const Problem p = RandomProblem(k.n, k.c, k.o, 11);
        ascend_sim::set_soc("ascend950");
        const RunResult whole = Run(p, k.o, ACL_FLOAT, ACL_INT64);
        const ascend_sim::LaunchStats wholeStats = ascend_sim::last_launch_stats();
        // Phase 1 on ascend950, phase 2 after switching to ascend910b.
        const RunResult split = Run(p, k.o, ACL_FLOAT, ACL_INT64, false, [] { ascend_sim::set_soc("ascend910b"); });
        const ascend_sim::LaunchStats splitStats = ascend_sim::last_launch_stats();
        ExpectGood(__LINE__, split, k.o, k.label);
        XCHECK_EQ(splitStats.soc, std::string("ascend950"));
        XCHECK_EQ(splitStats.blockDim, wholeStats.blockDim);
        XCHECK(split.outBytes == whole.outBytes);
        // The case is one that ascend910b could not run: more blocks or more UB than it has.
        XCHECK(splitStats.blockDim > 48 || splitStats.perBlock[0].ubPeakBytes > 184 * 1024);
    }
    // Phase 1 on 7 cores, phase 2 after set_cores(48): still 7 blocks.
    const Options o = MeanWeighted();
    const Problem p = RandomProblem(16384, 64, o, 12);
    ascend_sim::set_soc("ascend910b");
    ascend_sim::set_cores(7);
    const RunResult r = Run(p, o, ACL_FLOAT, ACL_INT64, false, [] { ascend_sim::set_cores(48); });
    ExpectGood(__LINE__, r, o, "7 cores, then 48");
    XCHECK_EQ(ascend_sim::last_launch_stats().blockDim, 7u);
    // And the other way: phase 1 on ascend910b's 48 cores, phase 2 after set_cores(5).
    ascend_sim::set_cores(0);
    const RunResult fewer = Run(p, o, ACL_FLOAT, ACL_INT64, false, [] { ascend_sim::set_cores(5); });
    ExpectGood(__LINE__, fewer, o, "48 cores, then 5");
    XCHECK_EQ(ascend_sim::last_launch_stats().blockDim, 48u);
}

// One thread switches profile and core count as fast as it can while another
// calls the op: every call succeeds and matches the reference.
XTEST(profile_switches_on_another_thread) {
    DefaultProfileAfter restore;
    // Stops and joins the switcher also when a check below fails (throws).
    struct Switcher {
        std::atomic<bool> stop{false};
        std::thread thread{[this] {
            const char* socs[] = {"ascend950", "ascend910b", "ascend910b4"};
            const uint32_t cores[] = {0, 0, 5, 64};
            for (uint32_t i = 0; !stop.load(); ++i) {
                ascend_sim::set_soc(socs[i % 3]);
                ascend_sim::set_cores(cores[i % 4]);
            }
        }};
        ~Switcher() {
            stop = true;
            thread.join();
        }
    } switcher;
    const Options mean = MeanWeighted(), wide = WideNone();
    const Problem pm = RandomProblem(4096, 64, mean, 21), pw = RandomProblem(2, 400003, wide, 22);
    for (int i = 0; i < 30; ++i) {
        ExpectGood(__LINE__, Run(pm, mean, ACL_FLOAT, ACL_INT64), mean, "mean 4096x64 under switching");
        ExpectGood(__LINE__, Run(pw, wide, ACL_FLOAT, ACL_INT64), wide, "none 2x400003 under switching");
    }
}

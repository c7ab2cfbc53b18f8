// How a CPU-twin program ends: a violation nobody catches is printed once (by
// ICPU_RUN_KF, not again by the runtime's terminate message) and the process fails;
// a run under continue on report that carried a report exits with status 1 and
// says how many; a clean one exits 0. Each case runs in a child process.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>

#include "tikicpulib.h"
#include "xtest.h"

namespace {
struct Child {
    int status;
    std::string err;
};

// Runs body in a forked child that then returns from main (std::exit(0)); an exception
// leaving body is uncaught there (std::terminate), as in a program's main.
Child in_child(const std::function<void()>& body) {
    std::fflush(nullptr);
    std::FILE* f = std::tmpfile();
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(fileno(f), fileno(stderr));
        [&]() noexcept { body(); }();
        std::exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    std::rewind(f);
    std::string err;
    char buf[512];
    while (std::fgets(buf, sizeof buf, f)) err += buf;
    std::fclose(f);
    return {status, err};
}

size_t count(const std::string& s, const std::string& what) {
    size_t n = 0;
    for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
    return n;
}

// Copies 64 floats in and adds 1, without waiting for the copy unless `wait` (two pipe
// hazards, RAW and WAW, two report sites a launch).
__global__ __aicore__ void add_one(GM_ADDR x, bool wait) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> b;
    pipe.InitBuffer(b, 256);
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)x, 64);
    auto t = b.Get<float>();
    AscendC::DataCopy(t, g, 64);
    if (wait) {
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(0);
    }
    AscendC::Adds(t, t, 1.0f, 64);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(g, t, 64);
}
}  // namespace

XTEST(an_uncaught_violation_is_printed_once) {
    const Child c = in_child([] {
        GM_ADDR x = (GM_ADDR)AscendC::GmAlloc(256);
        ICPU_RUN_KF(add_one, 1, x, false);
    });
    XCHECK(!(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0));
    XCHECK_EQ(count(c.err, "RAW on UB"), size_t(1));
    XCHECK_EQ(count(c.err, "terminate called"), size_t(0));
}

XTEST(a_run_that_went_on_after_reports_exits_nonzero_with_a_count) {
    const Child c = in_child([] {
        ascend_sim::set_continue_on_report(1);
        GM_ADDR x = (GM_ADDR)AscendC::GmAlloc(256);
        ICPU_RUN_KF(add_one, 1, x, false);
        ICPU_RUN_KF(add_one, 1, x, false);
    });
    XCHECK(WIFEXITED(c.status));
    XCHECK_EQ(WEXITSTATUS(c.status), 1);
    XCHECK(c.err.find("[ascend_sim] this run went on after 4 report(s) at 4 site(s) "
                      "(ASCEND_XENT_CONTINUE_ON_REPORT): exit status 1") != std::string::npos);
    const Child clean = in_child([] {
        ascend_sim::set_continue_on_report(1);
        GM_ADDR x = (GM_ADDR)AscendC::GmAlloc(256);
        ICPU_RUN_KF(add_one, 1, x, true);
    });
    XCHECK(WIFEXITED(clean.status));
    XCHECK_EQ(WEXITSTATUS(clean.status), 0);
    XCHECK_EQ(clean.err, std::string());
}

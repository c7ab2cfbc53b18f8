// A report's call site comes from addr2line (sim/src/stack_site.cpp). One on PATH that
// never exits must not hold the report: it is killed after the time-out, the report
// comes without the line, and later reports do not wait for it again.
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "xtest.h"

using namespace AscendC;

namespace {
std::string violation_of(const char* name, const std::function<void()>& body) {
    try {
        ascend_sim::run_kernel(name, 1, body);
    } catch (const ascend_sim::SimViolation& v) {
        return v.what();
    }
    return "no violation";
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

XTEST(a_hung_addr2line_is_killed_and_the_report_comes_without_the_line) {
    char dir[] = "/tmp/xent_addr2line_XXXXXX";
    XCHECK(mkdtemp(dir) != nullptr);
    const std::string fake = std::string(dir) + "/addr2line", pidFile = std::string(dir) + "/pid";
    {
        std::ofstream f(fake);  // a shell that records its pid and waits on a child for 60 s
        f << "#!/bin/sh\necho $$ > " << pidFile << "\nsleep 60\n";
    }
    XCHECK(chmod(fake.c_str(), 0755) == 0);
    const std::string oldPath = std::getenv("PATH") ? std::getenv("PATH") : "";
    setenv("PATH", (std::string(dir) + ":" + oldPath).c_str(), 1);

    const sim_test::PastTensor error(2);  // the writes past the tensor below stop
    auto t0 = std::chrono::steady_clock::now();
    const std::string first = violation_of("bad_exp", [] {
        sim_test::Calc c(256);
        LocalTensor<float> t = c.get<float>();
        Exp(t, t, 1024);  // 4096 B into a 256 B dst
    });
    const double firstSeconds = seconds_since(t0);
    t0 = std::chrono::steady_clock::now();
    const std::string second = violation_of("bad_ln", [] {
        sim_test::Calc c(256);
        LocalTensor<float> t = c.get<float>();
        Ln(t, t, 1024);
    });
    const double secondSeconds = seconds_since(t0);
    setenv("PATH", oldPath.c_str(), 1);

    // The time-out is 10 s; the fake would take 60.
    XCHECK(firstSeconds < 30.0);
    XCHECK(secondSeconds < 5.0);  // not run again
    XCHECK(first.find("Exp (block 0): write past the tensor: dst writes UB [0x0000, 0x1000) (4096 B)") !=
           std::string::npos);
    XCHECK(first.find(".cpp:") == std::string::npos);  // no line named
    XCHECK(second.find("Ln (block 0): ") != std::string::npos);
    // The fake's shell was killed and reaped, not left running.
    std::ifstream pf(pidFile);
    long pid = 0;
    XCHECK(static_cast<bool>(pf >> pid));
    XCHECK(pid > 0 && kill(pid_t(pid), 0) != 0 && errno == ESRCH);
    std::remove(pidFile.c_str());
    std::remove(fake.c_str());
    rmdir(dir);
}

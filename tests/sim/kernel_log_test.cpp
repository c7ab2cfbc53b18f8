// KERNEL_LOG's line (level, block, file, function) and ASCENDC_ASSERT: the
// behaviour runs and the block stops only when the condition is false.
#include <cstdio>
#include <functional>
#include <string>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "xtest.h"

namespace {
void one(const std::function<void()>& body) { ascend_sim::run_kernel("kernel_log", 2, body); }

// What `body` prints to stdout.
std::string captured(const std::function<void()>& body) { return sim_test::captured(stdout, body); }
}  // namespace

XTEST(kernel_log_line) {
    const std::string out = captured([] {
        one([] {
            if (AscendC::GetBlockIdx() == 1) KERNEL_LOG(KERNEL_ERROR, "value %d", 42);
        });
    });
    XCHECK(out.find("[ERROR][Block_1][AIV_0][") == 0);
    XCHECK(out.find("kernel_log_test.cpp:") != std::string::npos);
    XCHECK(out.find("] value 42\n") != std::string::npos);
    XCHECK(captured([] { KERNEL_LOG(KERNEL_WARN, "host"); }).find("[WARN][Block_-1]") == 0);
}

XTEST(assert_runs_its_behaviour_then_stops) {
    int ran = 0;
    one([&] { ASCENDC_ASSERT(AscendC::GetBlockNum() != 0, { ++ran; }); });
    XCHECK_EQ(ran, 0);
    XCHECK_THROWS_WITH(one([] {
                           ASCENDC_ASSERT(AscendC::GetBlockIdx() != 1,
                                          { KERNEL_LOG(KERNEL_ERROR, "block one"); });
                       }),
                       "assert (block 1): ", "Assertion `AscendC::GetBlockIdx() != 1' failed.");
}

XTEST(debug_code_runs_and_a_true_assert_passes) {
    // CPU-debug builds keep DEBUG_CODE's statement and check ASSERT's condition.
    int seen = 0;
    ascend_sim::run_kernel("kernel_macros", 1, [&] {
        DEBUG_CODE(seen = int(AscendC::GetBlockNum()) + 41);
        ASSERT(seen == 42);
    });
    XCHECK_EQ(seen, 42);
}

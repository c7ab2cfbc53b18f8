// System variables and globals as CANN kernels use them: the UB size queries
// (0 on A2/A3, kernel_operator_sys_var_intf.h), GetSystemCycle and GetTPipePtr, which
// kernel_common.h declares in the global namespace (called here without AscendC::).
#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "xtest.h"

static_assert(AscendC::GetUBSizeInBytes() == 0, "GetUBSizeInBytes is 0 on arch 2201");

namespace {
AscendC::TPipe* seen_inside_a_kernel_namespace();
}

XTEST(ub_size_queries_are_zero_on_a2) {
    uint32_t runtime = 1;
    ascend_sim::run_kernel("ub_size", 1, [&] { runtime = AscendC::GetRuntimeUBSize(); });
    XCHECK_EQ(runtime, 0u);
    XCHECK_EQ(AscendC::GetUBSizeInBytes(), 0u);
}

XTEST(get_system_cycle_is_monotone) {
    ascend_sim::run_kernel("system_cycle", 1, [] {
        int64_t last = AscendC::GetSystemCycle();
        for (int i = 0; i < 1000; ++i) {
            const int64_t now = AscendC::GetSystemCycle();
            XCHECK(now >= last);
            last = now;
        }
        XCHECK(last > 0);
    });
}

XTEST(get_tpipe_ptr_is_global) {
    ascend_sim::run_kernel("tpipe_ptr", 1, [] {
        XCHECK(::GetTPipePtr() == nullptr);
        AscendC::TPipe pipe;
        XCHECK(GetTPipePtr() == &pipe);
        XCHECK(seen_inside_a_kernel_namespace() == &pipe);
    });
}

namespace {
AscendC::TPipe* seen_inside_a_kernel_namespace() { return GetTPipePtr(); }
}  // namespace

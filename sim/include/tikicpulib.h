// CANN's CPU-twin launcher surface (tikicpulib.h), backed by the simulator:
// a CPU-twin test written for CANN compiles and runs against it unchanged.
//   uint8_t* x = (uint8_t*)AscendC::GmAlloc(bytes);
//   AscendC::SetKernelMode(KernelMode::AIV_MODE);
//   ICPU_RUN_KF(my_kernel, blockDim, x, y, workspace, tiling);
//   AscendC::GmFree(x);
// Differences: blocks run as fibers on host threads (CANN forks a process per
// core), and a check failure throws ascend_sim::SimViolation after printing it.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "ascend_sim/sim.h"
#include "ascend_sim/twin_program.h"
#include "kernel_operator.h"

enum class KernelMode { MIX_MODE = 0, AIC_MODE, AIV_MODE };

namespace AscendC {

// Named GmAlloc#1, #2, ... in the order of the calls: a report tells the buffers apart.
inline void* GmAlloc(size_t size) {
    static std::atomic<uint64_t> calls{0};
    return ascend_sim::gm_alloc(size, ("GmAlloc#" + std::to_string(++calls)).c_str());
}
inline void GmFree(void* ptr) { ascend_sim::gm_free(ptr); }

namespace sim_twin {
inline KernelMode& kernel_mode() {
    static thread_local KernelMode m = KernelMode::MIX_MODE;
    return m;
}
// The SoC of the tikicpulib::<soc> target linked, at the first launch, unless
// ASCEND_XENT_SOC names one (a static initialiser could run before the
// simulator's own).
inline void choose_soc() {
#ifdef ASCEND_XENT_TWIN_SOC
    static const bool chosen = [] {
        const char* e = std::getenv("ASCEND_XENT_SOC");
        if (!e || !*e) ascend_sim::set_soc(ASCEND_XENT_TWIN_SOC);
        return true;
    }();
    (void)chosen;
#endif
}
}  // namespace sim_twin

// Recorded only: every simulated block is an AIV core.
inline void SetKernelMode(KernelMode mode) { sim_twin::kernel_mode() = mode; }

}  // namespace AscendC

// The key TILING_KEY_IS compares with in the next launches.
#define ICPU_SET_TILING_KEY(key) (g_tilingKey = uint64_t(key))

#define ICPU_RUN_KF(func, blockdim, ...)                                                   \
    do {                                                                                \
        try {                                                                           \
            AscendC::sim_twin::choose_soc();                                            \
            ascend_sim::install_twin_program_hooks();                                   \
            ascend_sim::run_kernel(#func, (blockdim), [&] { func(__VA_ARGS__); });       \
        } catch (const ascend_sim::SimViolation& icpu_e_) {                            \
            std::fprintf(stderr, "%s\n", icpu_e_.what());                               \
            ascend_sim::twin_violation_printed(std::current_exception());               \
            throw;                                                                      \
        }                                                                               \
    } while (0)

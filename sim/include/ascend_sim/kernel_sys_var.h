// CPU-twin globals and per-core setup: block_idx / block_num (the built-in
// variables of SIMD-BuiltIn关键字.md, equal to GetBlockIdx()/GetBlockNum() on an
// AIV-only kernel), InitSocState, the UB size queries and GetSystemCycle.
#pragma once
#include <chrono>
#include <cstdint>

#include "device_runtime.h"
#include "kernel_sync.h"

namespace ascend_sim::twin {
// Reads as the calling block's value wherever an int64_t is expected: blocks
// are fibers that may move between host threads, so no thread_local copy.
struct BlockIdxVar {
    operator int64_t() const { return AscendC::GetBlockIdx(); }
};
struct BlockNumVar {
    operator int64_t() const { return AscendC::GetBlockNum(); }
};
}  // namespace ascend_sim::twin

inline constexpr ascend_sim::twin::BlockIdxVar block_idx{};
inline constexpr ascend_sim::twin::BlockNumVar block_num{};

namespace AscendC {
// kernel_utils_base.h InitSocStateImpl on 2201: no DMA atomic, Normal mask mode, full mask.
inline void InitSocState() { ascend_sim::detail::init_soc_state("InitSocState"); }

// As kernel_operator_sys_var_intf.h defines them: the UB size queries give
// TOTAL_UB_SIZE (248 KiB) on arch 3510 and 0 on the others, 2201 included
// (GetUBSizeInBytes.md: not supported on A2/A3). CANN's CPU twin's
// GetRuntimeUBSize gives TOTAL_UB_SIZE too.
constexpr int16_t GetDataBlockSizeInBytes() { return 32; }
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510
constexpr uint32_t GetUBSizeInBytes() { return 248 * 1024; }
#else
constexpr uint32_t GetUBSizeInBytes() { return 0; }
#endif
inline uint32_t GetRuntimeUBSize() { return GetUBSizeInBytes(); }

// The NPU reads its SYS_CNT register; CANN's CPU twin returns CLOCK_REALTIME in
// ns. The simulator returns host steady-clock ns: monotone, not a cycle count.
inline int64_t GetSystemCycle() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}
}  // namespace AscendC

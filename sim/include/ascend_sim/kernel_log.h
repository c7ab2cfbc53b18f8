// KERNEL_LOG and ASCENDC_ASSERT (asc-devkit impl/basic_api/kernel_log.h, the
// ASCENDC_CPU_DEBUG branch for __NPU_ARCH__ 2201): KERNEL_LOG(level, fmt, ...)
// prints "[ERROR][Block_<i>][AIV_0][file:line][function][pid] message" for the
// levels KERNEL_DEBUG, KERNEL_INFO, KERNEL_WARN and KERNEL_ERROR;
// ASCENDC_ASSERT(cond, behavior) runs `behavior` (usually a KERNEL_LOG) when
// cond is false and then, where CANN raises SIGABRT, stops the block with a
// SimViolation (on the host: abort), as a failed assert does.
#pragma once
#include <cstdint>
#include <cstdio>
#include <unistd.h>

#include "device_runtime.h"
#include "kernel_assert.h"

namespace AscendC {
enum class LogLevel : uint8_t {
    KERNEL_DEBUG = 0,
    KERNEL_INFO = 1,
    KERNEL_WARN = 2,
    KERNEL_ERROR = 3,
};
}  // namespace AscendC

namespace ascend_sim::twin {
// The block index of the line's prefix; -1 outside a launch.
inline long long log_block() { return static_cast<long long>(detail::block_idx_or_none()); }
}  // namespace ascend_sim::twin

#define ASCEND_SIM_KERNEL_LOG_LINE(tag, format, ...)                                                         \
    std::printf("[" tag "][Block_%lld][AIV_0][%s:%d][%s][%u] " format "\n", ascend_sim::twin::log_block(), \
                __FILE__, __LINE__, __FUNCTION__, static_cast<uint32_t>(getpid()), ##__VA_ARGS__)
#define KERNEL_LOG_KERNEL_DEBUG(format, ...) ASCEND_SIM_KERNEL_LOG_LINE("DEBUG", format, ##__VA_ARGS__)
#define KERNEL_LOG_KERNEL_INFO(format, ...) ASCEND_SIM_KERNEL_LOG_LINE("INFO", format, ##__VA_ARGS__)
#define KERNEL_LOG_KERNEL_WARN(format, ...) ASCEND_SIM_KERNEL_LOG_LINE("WARN", format, ##__VA_ARGS__)
#define KERNEL_LOG_KERNEL_ERROR(format, ...) ASCEND_SIM_KERNEL_LOG_LINE("ERROR", format, ##__VA_ARGS__)
#define KERNEL_LOG(level, format, ...) KERNEL_LOG_##level(format, ##__VA_ARGS__)

#define ASCENDC_ASSERT(cond, behavior)                                                              \
    do {                                                                                            \
        if (!(cond)) {                                                                              \
            behavior;                                                                               \
            ascend_sim::twin::assert_failed(#cond, __FILE__, __LINE__, __PRETTY_FUNCTION__);       \
        }                                                                                           \
    } while (0)

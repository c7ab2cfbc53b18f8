// CANN's utils/debug/asc_assert.h: assert(expr) and assert(expr, fmt, ...)
// (and ascendc_assert) in kernels. Inside a launch a failed assertion is a
// SimViolation of its block, carrying the formatted message as the NPU prints
// it; on the host it is the C library's assert. Empty with NDEBUG or
// ASCENDC_DUMP=0, as in CANN.
#pragma once
#include <cassert>

#include "../../ascend_sim/kernel_assert.h"

#undef assert
#undef ascendc_assert
#if !(defined(ASCENDC_DUMP) && ASCENDC_DUMP == 0) && !defined(NDEBUG)
#define assert(expr, ...) \
    (static_cast<bool>(expr) ? void(0) : ascend_sim::twin::assert_failed(#expr, __FILE__, __LINE__, __PRETTY_FUNCTION__, ##__VA_ARGS__))
#define ascendc_assert(expr, ...) assert(expr, ##__VA_ARGS__)
#else
#define assert(...) ((void)0)
#define ascendc_assert(...) ((void)0)
#endif

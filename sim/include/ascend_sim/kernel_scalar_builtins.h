// The CCE compiler's scalar min/max built-ins, callable unqualified in kernel
// code (bisheng provides them at global scope; CANN's CPU-twin stubs too).
// Non-template overloads, so that a program's `using namespace std` still
// resolves a same-typed call to these rather than finding it ambiguous.
#pragma once
#include <cstdint>

#define ASCEND_SIM_SCALAR_MINMAX(T)                             \
    inline constexpr T min(T a, T b) { return b < a ? b : a; } \
    inline constexpr T max(T a, T b) { return a < b ? b : a; }
ASCEND_SIM_SCALAR_MINMAX(int16_t)
ASCEND_SIM_SCALAR_MINMAX(uint16_t)
ASCEND_SIM_SCALAR_MINMAX(int32_t)
ASCEND_SIM_SCALAR_MINMAX(uint32_t)
ASCEND_SIM_SCALAR_MINMAX(int64_t)
ASCEND_SIM_SCALAR_MINMAX(uint64_t)
ASCEND_SIM_SCALAR_MINMAX(float)
#undef ASCEND_SIM_SCALAR_MINMAX

// The CPU-debug forms of CANN's kernel debugging macros (asc-devkit
// impl/basic_api/kernel_macros.h under ASCENDC_CPU_DEBUG == 1): ASSERT is the C
// assert, DEBUG_CODE keeps its code. A device build compiles both away.
#pragma once
#include <cassert>

#ifndef ASSERT
#define ASSERT(x) assert(x)
#endif
#ifndef DEBUG_CODE
#define DEBUG_CODE(T) T
#endif

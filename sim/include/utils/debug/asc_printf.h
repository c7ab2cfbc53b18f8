// CANN's utils/debug/asc_printf.h: the kernel-side printf (AscendC::printf),
// for kernels that include it without kernel_operator.h.
#pragma once
#include "../../ascend_sim/kernel_print.h"

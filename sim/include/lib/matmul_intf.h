// CANN's lib/matmul_intf.h (adv_api/matmul/matmul_intf.h), as far as a vector kernel
// needs it: vector kernels include it without using Matmul, which the simulator does
// not model (the cube unit is not simulated), so it brings the device API and no more.
#pragma once
#include "kernel_operator.h"

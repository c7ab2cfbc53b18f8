// CANN's lib/math/kernel_operator_tanh_intf.h (asc-devkit include/adv_api/math/
// kernel_operator_tanh_intf.h, which includes tanh.h): Tanh comes with kernel_operator.h.
#pragma once
#include "kernel_operator.h"

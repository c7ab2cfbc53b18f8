// CANN's lib/math/kernel_operator_sign_intf.h (asc-devkit include/adv_api/math/
// kernel_operator_sign_intf.h, which includes sign.h): Sign comes with kernel_operator.h.
#pragma once
#include "kernel_operator.h"

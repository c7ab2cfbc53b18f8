// CANN's dav_c220 register accessors (asc-devkit impl/basic_api/dav_c220/
// kernel_operator_reg_others_impl.h: HsetFlag, GetSubBlockId, GetCmpmask, the AIPP
// special registers, ...), which some ops-nn kernels include without calling. The
// registers behind them are not modelled, so none of its functions is provided: the
// include compiles, and a call names the missing function at compile time.
#pragma once
#include "kernel_operator.h"

// The Ascend C device API as a kernel includes it (CANN: kernel_operator.h),
// for the simulator: namespace AscendC, CANN's spellings, CPU-twin keywords.
#pragma once
#include <cstdint>

#include "ascend_sim/numerics/numerics.h"  // half, bfloat16_t, RoundMode, CMPMODE, SELMODE
#include "ascend_sim/kernel_defs.h"
#include "ascend_sim/kernel_tensor.h"
#include "ascend_sim/kernel_tpipe.h"
#include "ascend_sim/kernel_data_copy.h"
#include "ascend_sim/kernel_vec_ops.h"
#include "ascend_sim/kernel_vec_mask.h"
#include "ascend_sim/kernel_vec_unary.h"
#include "ascend_sim/kernel_vec_binary.h"
#include "ascend_sim/kernel_vec_scalar.h"
#include "ascend_sim/kernel_vec_cast.h"
#include "ascend_sim/kernel_vec_gather_mask.h"
#include "ascend_sim/kernel_vec_gather.h"
#include "ascend_sim/kernel_vec_compare.h"
#include "ascend_sim/kernel_vec_shift.h"
#include "ascend_sim/kernel_vec_reduce_repeat.h"
#include "ascend_sim/kernel_sync.h"

#ifndef ASCENDC_CPU_DEBUG
#define ASCENDC_CPU_DEBUG 1
#endif
#ifndef __CCE_KT_TEST__
#define __CCE_KT_TEST__ 1
#endif

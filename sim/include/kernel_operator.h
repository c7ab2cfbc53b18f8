// The Ascend C device API as a kernel includes it (CANN: kernel_operator.h),
// for the simulator: namespace AscendC, CANN's spellings, CPU-twin keywords.
#pragma once
#ifndef ASCENDC_CPU_DEBUG
#define ASCENDC_CPU_DEBUG 1
#endif
// The architecture the simulator models (A2/A3); a build for another SoC sets it.
#ifndef __NPU_ARCH__
#define __NPU_ARCH__ 2201
#endif
// What CANN's compiler defines for a dav-c220 (A2/A3) AI core: ops-nn's A2 kernels keep
// their bodies under #if __CCE_AICORE__ == 220.
#if !defined(__CCE_AICORE__) && __NPU_ARCH__ == 2201
#define __CCE_AICORE__ 220
#endif
// utils/kernel_utils_macros.h
#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

// What CANN's headers bring in under ASCENDC_CPU_DEBUG (kernel_utils_macros.h,
// the CPU printf), which CPU-twin code may lean on.
#include <cstdint>
#include <cstdio>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>
#include <thread>
#include <type_traits>

#include "ascend_sim/numerics/numerics.h"  // half, bfloat16_t, RoundMode, CMPMODE, SELMODE
#include "ascend_sim/kernel_defs.h"
#include "ascend_sim/kernel_scalar_builtins.h"
#include "ascend_sim/kernel_tensor.h"
#include "ascend_sim/kernel_tpipe.h"
#include "ascend_sim/kernel_data_copy.h"
#include "ascend_sim/kernel_data_copy_slice.h"
#include "ascend_sim/kernel_cube_decl.h"
#include "ascend_sim/kernel_set_atomic.h"
#include "ascend_sim/kernel_vec_ops.h"
#include "ascend_sim/kernel_vec_mask.h"
#include "ascend_sim/kernel_vec_unary.h"
#include "ascend_sim/kernel_vec_binary.h"
#include "ascend_sim/kernel_vec_fused.h"
#include "ascend_sim/kernel_vec_scalar.h"
#include "ascend_sim/kernel_vec_cast.h"
#include "ascend_sim/kernel_vec_gather_mask.h"
#include "ascend_sim/kernel_vec_gather.h"
#include "ascend_sim/kernel_vec_compare.h"
#include "ascend_sim/kernel_vec_shift.h"
#include "ascend_sim/kernel_vec_reduce_repeat.h"
#include "ascend_sim/kernel_vec_reduce_spr.h"
#include "ascend_sim/kernel_vec_reduce_highdim.h"
#include "ascend_sim/kernel_vec_index.h"
#include "ascend_sim/kernel_vec_transpose.h"
#include "ascend_sim/kernel_vec_sort.h"
#include "ascend_sim/kernel_vec_not_on_a2.h"
#include "ascend_sim/kernel_sync.h"
#include "ascend_sim/kernel_group_barrier.h"
#include "ascend_sim/kernel_init_output.h"
#include "ascend_sim/kernel_cache.h"
#include "ascend_sim/kernel_local_mem.h"
#include "ascend_sim/kernel_print.h"
#include "ascend_sim/kernel_log.h"
#include "ascend_sim/kernel_macros.h"
#include "ascend_sim/kernel_sys_var.h"
#include "ascend_sim/kernel_tiling.h"
#include "ascend_sim/kernel_utils.h"
#include "ascend_sim/std_algorithm.h"
#include "ascend_sim/kernel_cross_core.h"
// The advanced APIs (asc-devkit adv_api/kernel_api.h), built from the basic ones above.
#include "ascend_sim/adv/activation.h"
#include "ascend_sim/adv/activation_gelu.h"
#include "ascend_sim/adv/activation_geglu.h"
#include "ascend_sim/adv/filter.h"
#include "ascend_sim/adv/select.h"
#include "ascend_sim/adv/index.h"
#include "ascend_sim/adv/normalization_rmsnorm.h"
#include "ascend_sim/adv/pad.h"
#include "ascend_sim/adv/quant.h"
#include "ascend_sim/adv/quant_channel.h"
#include "ascend_sim/adv/quant_dequant.h"
#include "ascend_sim/adv/quant_antiquant.h"
#include "ascend_sim/adv/softmax.h"
#include "ascend_sim/adv/softmax_adjust.h"
#include "ascend_sim/adv/softmax_grad.h"
#include "ascend_sim/adv/simple_softmax.h"
#include "ascend_sim/adv/logsoftmax.h"
#include "ascend_sim/adv/softmax_flash_v2.h"
#include "ascend_sim/adv/softmax_flash_v3.h"
#include "ascend_sim/adv/reduce_sum.h"
#include "ascend_sim/adv/reduce_max.h"
#include "ascend_sim/adv/math_round.h"
#include "ascend_sim/adv/math_clamp.h"
#include "ascend_sim/adv/math_xor.h"
#include "ascend_sim/adv/math_log.h"
#include "ascend_sim/adv/math_erf.h"
#include "ascend_sim/adv/math_exp.h"
#include "ascend_sim/adv/math_acosh.h"
#include "ascend_sim/adv/math_tanh.h"
#include "ascend_sim/adv/math_sign.h"
#include "ascend_sim/adv/math_axpy.h"
#include "ascend_sim/adv/math_fmod.h"
#include "ascend_sim/adv/math_cumsum.h"
#include "ascend_sim/adv/utils_type_traits.h"
#include "ascend_sim/adv/fill_global.h"
#include "ascend_sim/adv/broadcast.h"
#include "ascend_sim/adv/normalization_deepnorm.h"
#include "ascend_sim/adv/normalization_welford.h"
#include "ascend_sim/adv/normalization_layernorm.h"
#include "ascend_sim/adv/normalization_layernorm_grad.h"
#include "ascend_sim/adv/normalization_layernorm_grad_beta.h"
#include "ascend_sim/adv/transdata.h"
#include "utils/debug/asc_assert.h"
#include "ascend_sim/adv/sort.h"
#include "ascend_sim/adv/math_power.h"
#include "ascend_sim/adv/topk.h"
// The DT_* and FORMAT_* ids of an op build that passes its dtypes as CANN's op compiler
// does (ascend_xent_kernel_dtypes() in kernel_dtypes.cmake; kernel_type.h).
#ifdef ASCEND_XENT_KERNEL_TYPE
#include "kernel_type.h"
#endif

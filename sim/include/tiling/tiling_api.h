// The host tiling API of the advanced vector APIs (asc-devkit include/adv_api/tiling_api.h),
// for the APIs the simulator models.
#pragma once
#include "register/tilingdata_base.h"
#include "ascend_sim/adv/activation_tiling.h"
#include "ascend_sim/adv/index_tiling.h"
#include "ascend_sim/adv/quant_tiling.h"
#include "ascend_sim/adv/pad_tiling.h"
#include "ascend_sim/adv/filter_tiling.h"
#include "ascend_sim/adv/normalization_tiling.h"
#include "ascend_sim/adv/softmax_tiling.h"
#include "ascend_sim/adv/logsoftmax_tiling.h"
#include "ascend_sim/adv/reduce_sum_tiling.h"
#include "ascend_sim/adv/math_round_tiling.h"
#include "ascend_sim/adv/math_clamp_tiling.h"

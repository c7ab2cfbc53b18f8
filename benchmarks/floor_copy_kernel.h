// The floor of CrossEntropyLossGrad on the timing model: a plain copy of the bytes the
// backward must move (logProb in, xGrad out: same dtype, same shape), GM -> UB -> GM,
// written as the vendor's best-practice guide (add_high_performance, case 6) asks:
// large copies, the copy in of one buffer beside the copy out of another, logProb read
// around the L2 (SetL2CacheHint(CACHE_MODE_DISABLE): it is never read again), and the
// part of xGrad the L2 cannot keep written around it too. No kernel that reads logProb
// and writes xGrad through UB should beat it on the model.
#pragma once
#include <cstdint>

#include "ascend_sim/timing.h"

namespace xent_bench {

struct FloorCopyPlan {
    uint64_t elems = 0;       // N * C
    uint32_t elemBytes = 4;   // 4 (fp32) or 2 (fp16, bf16: the same bytes)
    uint32_t blockDim = 0;    // cores: each takes one contiguous share
    uint32_t copyBytes = 0;   // one DMA, a multiple of 32
    uint32_t buffers = 0;     // UB buffers in flight
    // Of each core's share, the fraction written around the L2 (CACHE_MODE_DISABLE): the
    // part of a tensor larger than the L2 that would be evicted before the launch ends
    // anyway, so its lines skip the L2 and its write-back. The rest stays in the L2.
    double outBypassFraction = 0;
};

// The plan for a tensor of `elems` elements on `cores` vector cores with `ubBytes` of UB
// and an L2 of `l2Bytes`: every core, unless a share would be under one copy.
FloorCopyPlan PlanFloorCopy(uint64_t elems, uint32_t elemBytes, uint32_t cores, uint64_t ubBytes, uint64_t l2Bytes);

// Copies src to dst (device memory of plan.elems elements) on the simulator with its
// timing model on; the launch's timing record.
ascend_sim::LaunchTiming RunFloorCopy(void* src, void* dst, const FloorCopyPlan& plan);

}  // namespace xent_bench

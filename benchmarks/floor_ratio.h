// CrossEntropyLossGrad against its floor on the timing model: the backward's launches
// (the sums launch, when it runs, then the main kernel) and the floor copy of the same
// bytes (floor_copy_kernel.h), each run once with timing on. A MODEL, not a measurement.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ascend_sim/timing.h"

namespace xent_bench {

struct BackwardCase {
    int64_t n = 4096, c = 32000;
    std::string dtype = "fp32";  // fp32, fp16, bf16
    double labelSmoothing = 0.0;
    bool weight = false, zloss = false;
    std::string reduction = "mean";
};

struct FloorRatio {
    std::vector<ascend_sim::LaunchTiming> ours;  // the backward's launches, in order
    ascend_sim::LaunchTiming floor;              // the floor copy
    double oursUs = 0;    // the backward's Task Durations, summed (launches on one stream run one after the other)
    double floorUs = 0;   // the floor copy's Task Duration
    double ratio = 0;     // oursUs / floorUs
    // The model's launch cost alone (launchUs + launchUsPerBlock x blockDim) of each of the
    // backward's launches, summed, and of one launch on one core.
    double oursLaunchCostUs = 0, oneCoreLaunchCostUs = 0;
    uint64_t floorReadBytes = 0, floorWriteBytes = 0;  // GM bytes the floor copy moved
    bool floorCopied = false;  // its output holds logProb's bytes
};

// The inputs are ascend-xent model's (python/ascend_xent/perf_model.py): log_prob of
// uniform logits, target (i * 7919) mod C, weight 1, lse 10, grad 1 (a row of ones under
// none), z-loss scale 1e-4.
FloorRatio ModelFloorRatio(const BackwardCase& k);

std::string CaseLabel(const BackwardCase& k);

}  // namespace xent_bench

// ModelFloorRatio (floor_ratio.h): the backward through the aclnn API, then the floor copy
// of its logProb into its output buffer, each once with timing on.
#include "floor_ratio.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "aclnnop/aclnn_cross_entropy_loss_grad.h"
#include "ascend_sim/sim.h"
#include "ascend_xent/launch_info.h"
#include "bench_device_tensor.h"
#include "floor_copy_kernel.h"

namespace xent_bench {

namespace {

aclDataType DtypeOf(const std::string& d) {
    if (d == "fp32") return ACL_FLOAT;
    if (d == "fp16") return ACL_FLOAT16;
    if (d == "bf16") return ACL_BF16;
    throw std::invalid_argument("dtype: expected fp32, fp16 or bf16, got " + d);
}

double LaunchCostUs(const ascend_sim::TimingParams& p, uint32_t blockDim) {
    return p.launchUs + p.launchUsPerBlock * blockDim;
}

}  // namespace

std::string CaseLabel(const BackwardCase& k) {
    std::string s = k.dtype + " " + std::to_string(k.n) + " x " + std::to_string(k.c);
    std::string opts;
    if (k.weight) opts += "weight";
    if (k.labelSmoothing > 0) {
        char ls[32];
        std::snprintf(ls, sizeof ls, "ls %g", k.labelSmoothing);
        opts += (opts.empty() ? "" : " + ") + std::string(ls);
    }
    if (k.zloss) opts += std::string(opts.empty() ? "" : " + ") + "z-loss";
    if (k.reduction != "mean") opts += std::string(opts.empty() ? "" : ", ") + k.reduction;
    return opts.empty() ? s : s + " " + opts;
}

FloorRatio ModelFloorRatio(const BackwardCase& k) {
    const aclDataType dt = DtypeOf(k.dtype);
    const int64_t N = k.n, C = k.c;
    const bool none = k.reduction == "none";
    const std::vector<int64_t> gshape = none ? std::vector<int64_t>{N} : std::vector<int64_t>{};
    Dev gradLoss(gshape, dt), logProb({N, C}, dt), target({N}, ACL_INT64), out({N, C}, dt);
    Dev weight({C}, ACL_FLOAT), lse({N}, dt);
    const size_t elems = size_t(N) * size_t(C);
    const float lp = -std::log(float(C));
    for (size_t i = 0; i < elems; ++i) StoreAs(dt, logProb.p, i, lp);
    for (int64_t i = 0; i < N; ++i) static_cast<int64_t*>(target.p)[i] = (i * 7919) % C;
    for (int64_t i = 0; i < (none ? N : 1); ++i) StoreAs(dt, gradLoss.p, size_t(i), 1.0f);
    for (int64_t j = 0; j < C; ++j) static_cast<float*>(weight.p)[j] = 1.0f;
    for (int64_t i = 0; i < N; ++i) StoreAs(dt, lse.p, size_t(i), 10.0f);

    FloorRatio r;
    const bool was = ascend_sim::timing_enabled();
    ascend_sim::set_timing(1);
    uint64_t wsSize = 0;
    aclOpExecutor* exec = nullptr;
    std::string red = k.reduction;
    aclnnStatus st = aclnnCrossEntropyLossGradGetWorkspaceSize(
        gradLoss.t, logProb.t, target.t, k.weight ? weight.t : nullptr, nullptr, k.zloss ? lse.t : nullptr,
        red.data(), -100, k.labelSmoothing, k.zloss ? 1e-4 : 0.0, out.t, &wsSize, &exec);
    void* ws = nullptr;
    if (st == ACLNN_SUCCESS && wsSize) aclrtMalloc(&ws, wsSize, ACL_MEM_MALLOC_HUGE_FIRST);
    if (st == ACLNN_SUCCESS) st = aclnnCrossEntropyLossGrad(ws, wsSize, exec, nullptr);
    if (ws) aclrtFree(ws);
    if (!was) ascend_sim::set_timing(-1);
    if (st != ACLNN_SUCCESS) throw std::runtime_error(std::string("CrossEntropyLossGrad: ") + aclGetRecentErrMsg());
    const size_t launches = size_t(ascend_xent::last_launch_info().launches);
    r.ours = ascend_sim::recent_launch_timings(launches);

    const ascend_sim::SocProfile prof = ascend_sim::current_profile();
    const ascend_sim::TimingParams p = ascend_sim::timing_params(prof.name);
    for (const auto& t : r.ours) {
        r.oursUs += t.taskDurationUs;
        r.oursLaunchCostUs += LaunchCostUs(p, t.blockDim);
    }
    r.oneCoreLaunchCostUs = LaunchCostUs(p, 1);

    // The floor writes over the backward's output: the same bytes, the same buffer.
    const uint32_t elemBytes = uint32_t(aclDataTypeSize(dt));
    r.floor = RunFloorCopy(logProb.p, out.p, PlanFloorCopy(elems, elemBytes, prof.vectorCores, prof.ubBytes, prof.l2Bytes));
    const ascend_sim::LaunchStats stats = ascend_sim::last_launch_stats();
    r.floorReadBytes = stats.total.gmReadBytes;
    r.floorWriteBytes = stats.total.gmWriteBytes;
    r.floorCopied = std::memcmp(logProb.p, out.p, elems * elemBytes) == 0;
    r.floorUs = r.floor.taskDurationUs;
    r.ratio = r.oursUs / r.floorUs;
    return r;
}

}  // namespace xent_bench

// The two-phase aclnn API: phase 1 validates and tiles into a single-use
// executor; phase 2 launches it, reads the bad-target slots back and frees it.
#include "aclnnop/aclnn_cross_entropy_loss_grad.h"

#include <memory>
#include <string>
#include <vector>

#include "aclnn_phase_common.h"
#include "ascend_xent/launch_info.h"
#include "bad_target_slots.h"
#include "cross_entropy_loss_grad_checks.h"
#include "cross_entropy_loss_grad_executor.h"
#include "cross_entropy_loss_grad_launch.h"
#include "cross_entropy_loss_grad_tiling.h"
#include "error_report.h"
#include "executor_registry.h"
#include "launch_info_record.h"
#include "platform_info.h"

namespace xent {
namespace {

constexpr const char* kPhase1 = "aclnnCrossEntropyLossGradGetWorkspaceSize";
constexpr const char* kPhase2 = "aclnnCrossEntropyLossGrad";

using Executor = PhaseExecutor<CheckedArgs, TilingResult>;

// The tensors the launch reads or writes (z-loss inputs only with z-loss on), as the API names them.
std::vector<NamedTensor> LaunchTensors(CheckedArgs& a, bool zloss) {
    std::vector<NamedTensor> v = {{&a.gradLoss, "gradLoss"}, {&a.logProb, "logProb"}, {&a.target, "target"},
                                  {&a.weight, "weightOptional"}, {&a.out, "out"}};
    if (zloss) v.insert(v.end(), {{&a.gradZloss, "gradZlossOptional"}, {&a.lseForZloss, "lseForZlossOptional"}});
    return v;
}

ascend_xent::LaunchInfo InfoOf(const Executor& e) {
    const CrossEntropyLossGradTilingData& t = e.tiling.data;
    ascend_xent::LaunchInfo info;
    info.mode = t.n == 0 ? "empty" : (t.colTiles == 1 ? "row_packed" : "column_split");
    info.tileRows = t.tileRows;
    info.tileCols = t.tileCols;
    info.rowTiles = t.rowTiles;
    info.colTiles = t.colTiles;
    info.blockDim = t.n == 0 ? 0 : t.blockDim;
    info.prologue = t.n != 0 && t.sumsBlockDim > 0;
    info.launches = t.n == 0 ? 0 : (t.sumsBlockDim > 0 ? 2 : 1);
    info.workspaceBytes = e.tiling.workspaceBytes;
    info.minTrafficBytes = uint64_t(t.n) * uint64_t(t.c) * 2 * uint64_t(DtypeBytes(t.dtype));
    info.ubBytes = e.tiling.ubBytesUsed;
    return info;
}

// After a completed launch: the smallest bad row over all cores' slots, if any.
aclnnStatus CheckTargets(const Executor& e, void* workspace) {
    const CrossEntropyLossGradTilingData& t = e.tiling.data;
    std::string message;
    const aclnnStatus status =
        CheckBadTargets(static_cast<const char*>(workspace) + e.libApiWorkspaceBytes + t.badSlotOffset, t.blockDim,
                        t.classTotal, t.ignoreIndex, "rows with such targets got a zero gradient", &message);
    return status == ACLNN_SUCCESS ? status : Report(status, kPhase2, message);
}

}  // namespace

aclnnStatus MakeExecutor(const char* api, const CheckedArgs& args, uint64_t* workspaceSize,
                         aclOpExecutor** executor) {
    auto e = std::make_unique<Executor>();
    e->args = args;
    e->platform = CurrentPlatform();  // the launch runs on it, whatever the profile is by then
    e->libApiWorkspaceBytes = e->platform.libApiWorkspaceBytes;
    e->tiling = ComputeTiling(e->args.problem, e->platform);
    if (!e->tiling.ok) return Report(ACLNN_ERR_INNER_TILING_ERROR, api, "tiling failed: " + e->tiling.error);
    // Phase 2 refuses a tensor whose memory was freed (or reallocated) in between.
    RecordAllocations(LaunchTensors(e->args, e->tiling.data.hasZloss != 0));

    *workspaceSize = e->tiling.workspaceBytes;
    *executor = RegisterExecutor(std::move(e));
    return ACLNN_SUCCESS;
}

}  // namespace xent

extern "C" aclnnStatus aclnnXentCrossEntropyLossGradGetWorkspaceSize(
    const aclTensor* gradLoss, const aclTensor* logProb, const aclTensor* target, const aclTensor* weightOptional,
    const aclTensor* gradZlossOptional, const aclTensor* lseForZlossOptional, char* reductionOptional,
    int64_t ignoreIndex, double labelSmoothing, double lseSquareScaleForZloss, const aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
    using namespace xent;
    if (!workspaceSize) return Report(ACLNN_ERR_PARAM_NULLPTR, kPhase1, "workspaceSize is null");
    if (!executor) return Report(ACLNN_ERR_PARAM_NULLPTR, kPhase1, "executor is null");
    CheckedArgs args;
    const CheckResult check = CheckCrossEntropyLossGradArgs(
        gradLoss, logProb, target, weightOptional, gradZlossOptional, lseForZlossOptional, reductionOptional,
        ignoreIndex, labelSmoothing, lseSquareScaleForZloss, out, &args);
    if (check.status != ACLNN_SUCCESS) return Report(check.status, kPhase1, check.message);
    return MakeExecutor(kPhase1, args, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnXentCrossEntropyLossGrad(void* workspace, uint64_t workspaceSize,
                                                     aclOpExecutor* executor, aclrtStream stream) {
    using namespace xent;
    if (!executor) return Report(ACLNN_ERR_PARAM_NULLPTR, kPhase2, "executor is null");
    // Single use: freed on every path from here.
    const std::unique_ptr<Executor> e = TakeExecutor<Executor>(executor);
    if (!e)
        return Report(ACLNN_ERR_PARAM_INVALID, kPhase2,
                      "executor was already used or did not come from aclnnCrossEntropyLossGradGetWorkspaceSize");
    const CrossEntropyLossGradTilingData& t = e->tiling.data;
    if (t.n == 0) {
        RecordLaunchInfo(InfoOf(*e));
        return ACLNN_SUCCESS;  // nothing to compute: no launch
    }
    if (workspaceSize < e->tiling.workspaceBytes)
        return Report(ACLNN_ERR_PARAM_INVALID, kPhase2,
                      "workspaceSize " + std::to_string(workspaceSize) + " is smaller than the " +
                          std::to_string(e->tiling.workspaceBytes) + " bytes phase 1 asked for");
    if (!workspace) return Report(ACLNN_ERR_PARAM_NULLPTR, kPhase2, "workspace is null");
    const bool zloss = t.hasZloss != 0;
    const std::string freed = FreedSincePhase1(LaunchTensors(e->args, zloss), workspace, kPhase1, kPhase2);
    if (!freed.empty()) return Report(ACLNN_ERR_PARAM_INVALID, kPhase2, freed);

    LaunchArgs la;
    la.gradLoss = Buffer(e->args.gradLoss);
    la.logProb = Buffer(e->args.logProb);
    la.target = Buffer(e->args.target);
    la.weight = Buffer(e->args.weight);
    if (zloss) la.gradZloss = Buffer(e->args.gradZloss);  // z-loss inputs are read only when z-loss is on
    if (zloss) la.lseForZloss = Buffer(e->args.lseForZloss);
    la.xGrad = Buffer(e->args.out);
    la.workspace = workspace;
    la.workspaceBytes = workspaceSize;
    la.libApiWorkspaceBytes = e->libApiWorkspaceBytes;
    la.tiling = t;
    la.blockDim = e->tiling.blockDim;
    la.platform = e->platform;

    const LaunchOutcome outcome = launch_cross_entropy_loss_grad(la, stream);
    RecordLaunchInfo(InfoOf(*e));
    if (outcome.status != ACLNN_SUCCESS) return Report(outcome.status, kPhase2, outcome.message);
    // Asynchronous launches (NPU) cannot be checked here without a stream sync;
    // see docs/cross_entropy_loss_grad.md, "Out-of-range targets".
    if (outcome.completed) return CheckTargets(*e, workspace);
    return ACLNN_SUCCESS;
}

#ifdef ASCEND_XENT_ACLNN_ALIAS
extern "C" aclnnStatus aclnnCrossEntropyLossGradGetWorkspaceSize(
    const aclTensor* gradLoss, const aclTensor* logProb, const aclTensor* target, const aclTensor* weightOptional,
    const aclTensor* gradZlossOptional, const aclTensor* lseForZlossOptional, char* reductionOptional,
    int64_t ignoreIndex, double labelSmoothing, double lseSquareScaleForZloss, const aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
    return aclnnXentCrossEntropyLossGradGetWorkspaceSize(gradLoss, logProb, target, weightOptional, gradZlossOptional,
                                                          lseForZlossOptional, reductionOptional, ignoreIndex,
                                                          labelSmoothing, lseSquareScaleForZloss, out, workspaceSize,
                                                          executor);
}

extern "C" aclnnStatus aclnnCrossEntropyLossGrad(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                                 aclrtStream stream) {
    return aclnnXentCrossEntropyLossGrad(workspace, workspaceSize, executor, stream);
}
#endif

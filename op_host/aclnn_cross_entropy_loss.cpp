// The forward's two-phase aclnn APIs, aclnnCrossEntropyLoss and the fused loss and
// gradient aclnnXentCrossEntropyLossWithGrad (one kernel; fused, the gradient goes where
// log_prob would): phase 1 validates and tiles into a single-use executor; phase 2
// launches it, reads the bad-target slots back and frees it.
#include "aclnnop/aclnn_cross_entropy_loss.h"
#include "aclnnop/aclnn_cross_entropy_loss_with_grad.h"

#include <memory>
#include <string>
#include <vector>

#include "aclnn_phase_common.h"
#include "bad_target_slots.h"
#include "cross_entropy_loss_checks.h"
#include "cross_entropy_loss_launch.h"
#include "cross_entropy_loss_tiling.h"
#include "error_report.h"
#include "executor_registry.h"
#include "launch_info_record.h"
#include "platform_info.h"

namespace xent {
namespace {

constexpr const char* kPhase1 = "aclnnCrossEntropyLossGetWorkspaceSize";
constexpr const char* kPhase2 = "aclnnCrossEntropyLoss";
constexpr const char* kFusedPhase1 = "aclnnXentCrossEntropyLossWithGradGetWorkspaceSize";
constexpr const char* kFusedPhase2 = "aclnnXentCrossEntropyLossWithGrad";

using ForwardExecutor = PhaseExecutor<ForwardCheckedArgs, ForwardTilingResult>;

std::vector<NamedTensor> LaunchTensors(ForwardCheckedArgs& a) {
    return {{&a.input, "input"},     {&a.target, "target"},     {&a.weight, "weightOptional"},
            {&a.loss, "lossOut"},    {&a.logProb, a.problem.fused ? "gradOut" : "logProbOut"}, {&a.zloss, "zlossOut"},
            {&a.lseForZloss, "lseForZlossOut"}};
}

ascend_xent::LaunchInfo InfoOf(const ForwardExecutor& e) {
    const CrossEntropyLossTilingData& t = e.tiling.data;
    ascend_xent::LaunchInfo info;
    info.mode = !Launches(t) ? "empty" : (t.wholeRows ? "whole_rows" : "column_tiles");
    info.tileRows = t.tileRows;
    info.tileCols = t.tileCols;
    info.rowTiles = (t.n + t.tileRows - 1) / t.tileRows;
    info.colTiles = (t.c + t.tileCols - 1) / t.tileCols;
    info.blockDim = Launches(t) ? t.blockDim : 0;
    info.launches = Launches(t) ? 1 : 0;
    info.prologue = t.fused && t.grad.prologue != 0 && t.grad.prologueLocal == 0;
    info.workspaceBytes = e.tiling.workspaceBytes;
    info.minTrafficBytes = uint64_t(t.n) * uint64_t(t.c) * 2 * uint64_t(DtypeBytes(t.dtype));
    info.ubBytes = e.tiling.ubBytesUsed;
    return info;
}

// After a completed launch: the smallest bad row over all cores' slots, if any.
aclnnStatus CheckTargets(const ForwardExecutor& e, void* workspace, const char* api) {
    const CrossEntropyLossTilingData& t = e.tiling.data;
    std::string message;
    const aclnnStatus status =
        CheckBadTargets(static_cast<const char*>(workspace) + e.libApiWorkspaceBytes + t.badSlotOffset, t.blockDim,
                        t.c, t.ignoreIndex, "such rows were counted as ignored", &message);
    return status == ACLNN_SUCCESS ? status : Report(status, api, message);
}

// Phase 1 after the checks: tiling, then the executor.
aclnnStatus MakeForwardExecutor(const char* api, std::unique_ptr<ForwardExecutor> e, uint64_t* workspaceSize,
                                aclOpExecutor** executor) {
    e->platform = CurrentPlatform();  // the launch runs on it, whatever the profile is by then
    e->libApiWorkspaceBytes = e->platform.libApiWorkspaceBytes;
    e->tiling = ComputeForwardTiling(e->args.problem, e->platform);
    if (!e->tiling.ok) return Report(ACLNN_ERR_INNER_TILING_ERROR, api, "tiling failed: " + e->tiling.error);
    RecordAllocations(LaunchTensors(e->args));
    *workspaceSize = e->tiling.workspaceBytes;
    *executor = RegisterExecutor(std::move(e));
    return ACLNN_SUCCESS;
}

// Phase 2 of either API; an executor of the other one is refused.
aclnnStatus RunForward(bool fused, void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                       aclrtStream stream) {
    const char* phase1 = fused ? kFusedPhase1 : kPhase1;
    const char* phase2 = fused ? kFusedPhase2 : kPhase2;
    if (!executor) return Report(ACLNN_ERR_PARAM_NULLPTR, phase2, "executor is null");
    std::unique_ptr<ForwardExecutor> e = TakeExecutor<ForwardExecutor>(executor);  // freed on every path
    if (!e || e->args.problem.fused != fused)
        return Report(ACLNN_ERR_PARAM_INVALID, phase2,
                      std::string("executor was already used or did not come from ") + phase1);
    const CrossEntropyLossTilingData& t = e->tiling.data;
    if (!Launches(t)) {
        RecordLaunchInfo(InfoOf(*e));
        return ACLNN_SUCCESS;  // no rows under "none": nothing to write
    }
    if (workspaceSize < e->tiling.workspaceBytes)
        return Report(ACLNN_ERR_PARAM_INVALID, phase2,
                      "workspaceSize " + std::to_string(workspaceSize) + " is smaller than the " +
                          std::to_string(e->tiling.workspaceBytes) + " bytes phase 1 asked for");
    if (!workspace) return Report(ACLNN_ERR_PARAM_NULLPTR, phase2, "workspace is null");
    const std::string freed = FreedSincePhase1(LaunchTensors(e->args), workspace, phase1, phase2);
    if (!freed.empty()) return Report(ACLNN_ERR_PARAM_INVALID, phase2, freed);

    ForwardLaunchArgs la;
    la.input = Buffer(e->args.input);
    la.target = Buffer(e->args.target);
    la.weight = Buffer(e->args.weight);
    la.loss = Buffer(e->args.loss);
    la.logProb = Buffer(e->args.logProb);
    la.zloss = Buffer(e->args.zloss);
    la.lseForZloss = Buffer(e->args.lseForZloss);
    la.workspace = workspace;
    la.workspaceBytes = workspaceSize;
    la.libApiWorkspaceBytes = e->libApiWorkspaceBytes;
    la.tiling = t;
    la.blockDim = e->tiling.blockDim;
    la.platform = e->platform;
    const LaunchOutcome outcome = launch_cross_entropy_loss(la, stream);
    RecordLaunchInfo(InfoOf(*e));
    if (outcome.status != ACLNN_SUCCESS) return Report(outcome.status, phase2, outcome.message);
    // Asynchronous launches (NPU) cannot be checked here without a stream sync.
    if (outcome.completed) return CheckTargets(*e, workspace, phase2);
    return ACLNN_SUCCESS;
}

}  // namespace
}  // namespace xent

extern "C" aclnnStatus aclnnXentCrossEntropyLossGetWorkspaceSize(
    const aclTensor* input, const aclTensor* target, const aclTensor* weightOptional, char* reductionOptional,
    int64_t ignoreIndex, double labelSmoothing, double lseSquareScaleForZloss, bool returnZloss,
    const aclTensor* lossOut, const aclTensor* logProbOut, const aclTensor* zlossOut,
    const aclTensor* lseForZlossOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
    using namespace xent;
    if (!workspaceSize) return Report(ACLNN_ERR_PARAM_NULLPTR, kPhase1, "workspaceSize is null");
    if (!executor) return Report(ACLNN_ERR_PARAM_NULLPTR, kPhase1, "executor is null");
    auto e = std::make_unique<ForwardExecutor>();
    const CheckResult check = CheckCrossEntropyLossArgs(input, target, weightOptional, reductionOptional, ignoreIndex,
                                                        labelSmoothing, lseSquareScaleForZloss, returnZloss, lossOut,
                                                        logProbOut, zlossOut, lseForZlossOut, &e->args);
    if (check.status != ACLNN_SUCCESS) return Report(check.status, kPhase1, check.message);
    return MakeForwardExecutor(kPhase1, std::move(e), workspaceSize, executor);
}

extern "C" aclnnStatus aclnnXentCrossEntropyLoss(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                                 aclrtStream stream) {
    return xent::RunForward(false, workspace, workspaceSize, executor, stream);
}

extern "C" aclnnStatus aclnnXentCrossEntropyLossWithGradGetWorkspaceSize(
    const aclTensor* input, const aclTensor* target, const aclTensor* weightOptional, char* reductionOptional,
    int64_t ignoreIndex, double labelSmoothing, double lseSquareScaleForZloss, double softcap,
    const aclTensor* lossOut, const aclTensor* zlossOut, const aclTensor* lseForZlossOut, const aclTensor* gradOut,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
    using namespace xent;
    if (!workspaceSize) return Report(ACLNN_ERR_PARAM_NULLPTR, kFusedPhase1, "workspaceSize is null");
    if (!executor) return Report(ACLNN_ERR_PARAM_NULLPTR, kFusedPhase1, "executor is null");
    auto e = std::make_unique<ForwardExecutor>();
    const CheckResult check = CheckCrossEntropyLossWithGradArgs(
        input, target, weightOptional, reductionOptional, ignoreIndex, labelSmoothing, lseSquareScaleForZloss, softcap,
        lossOut, zlossOut, lseForZlossOut, gradOut, &e->args);
    if (check.status != ACLNN_SUCCESS) return Report(check.status, kFusedPhase1, check.message);
    return MakeForwardExecutor(kFusedPhase1, std::move(e), workspaceSize, executor);
}

extern "C" aclnnStatus aclnnXentCrossEntropyLossWithGrad(void* workspace, uint64_t workspaceSize,
                                                         aclOpExecutor* executor, aclrtStream stream) {
    return xent::RunForward(true, workspace, workspaceSize, executor, stream);
}

#ifdef ASCEND_XENT_ACLNN_ALIAS
extern "C" aclnnStatus aclnnCrossEntropyLossGetWorkspaceSize(
    const aclTensor* input, const aclTensor* target, const aclTensor* weightOptional, char* reductionOptional,
    int64_t ignoreIndex, double labelSmoothing, double lseSquareScaleForZloss, bool returnZloss,
    const aclTensor* lossOut, const aclTensor* logProbOut, const aclTensor* zlossOut,
    const aclTensor* lseForZlossOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
    return aclnnXentCrossEntropyLossGetWorkspaceSize(input, target, weightOptional, reductionOptional, ignoreIndex,
                                                      labelSmoothing, lseSquareScaleForZloss, returnZloss, lossOut,
                                                      logProbOut, zlossOut, lseForZlossOut, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnCrossEntropyLoss(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                             aclrtStream stream) {
    return aclnnXentCrossEntropyLoss(workspace, workspaceSize, executor, stream);
}
#endif

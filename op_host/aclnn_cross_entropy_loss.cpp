// The forward's two-phase aclnn API: phase 1 validates and tiles into a single-use
// executor; phase 2 launches it, reads the bad-target slots back and frees it.
#include "aclnnop/aclnn_cross_entropy_loss.h"

#include <memory>
#include <string>
#include <vector>

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

struct ForwardExecutor : ExecutorBase {
    ForwardCheckedArgs args;
    ForwardTilingResult tiling;
    uint64_t libApiWorkspaceBytes = 0;
    TilingPlatform platform;  // captured at phase 1; phase 2 launches on it
};

aclnnStatus Report(aclnnStatus status, const char* api, const std::string& message) {
    ReportError(std::string(api) + ": " + message);
    return status;
}

GmBuffer Buffer(const TensorArg& t) { return GmBuffer{t.data, t.bytes}; }

std::vector<NamedTensor> LaunchTensors(ForwardCheckedArgs& a) {
    return {{&a.input, "input"},     {&a.target, "target"},     {&a.weight, "weightOptional"},
            {&a.loss, "lossOut"},    {&a.logProb, "logProbOut"}, {&a.zloss, "zlossOut"},
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
    info.workspaceBytes = e.tiling.workspaceBytes;
    info.minTrafficBytes = uint64_t(t.n) * uint64_t(t.c) * 2 * uint64_t(DtypeBytes(t.dtype));
    info.ubBytes = e.tiling.ubBytesUsed;
    return info;
}

// After a completed launch: the smallest bad row over all cores' slots, if any.
aclnnStatus CheckTargets(const ForwardExecutor& e, void* workspace) {
    const CrossEntropyLossTilingData& t = e.tiling.data;
    std::string message;
    const aclnnStatus status =
        CheckBadTargets(static_cast<const char*>(workspace) + e.libApiWorkspaceBytes + t.badSlotOffset, t.blockDim,
                        t.c, t.ignoreIndex, "such rows were counted as ignored", &message);
    return status == ACLNN_SUCCESS ? status : Report(status, kPhase2, message);
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
    e->platform = CurrentPlatform();  // the launch runs on it, whatever the profile is by then
    e->libApiWorkspaceBytes = e->platform.libApiWorkspaceBytes;
    e->tiling = ComputeForwardTiling(e->args.problem, e->platform);
    if (!e->tiling.ok) return Report(ACLNN_ERR_INNER_TILING_ERROR, kPhase1, "tiling failed: " + e->tiling.error);
    RecordAllocations(LaunchTensors(e->args));
    *workspaceSize = e->tiling.workspaceBytes;
    *executor = RegisterExecutor(std::move(e));
    return ACLNN_SUCCESS;
}

extern "C" aclnnStatus aclnnXentCrossEntropyLoss(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                                 aclrtStream stream) {
    using namespace xent;
    if (!executor) return Report(ACLNN_ERR_PARAM_NULLPTR, kPhase2, "executor is null");
    const std::unique_ptr<ForwardExecutor> e = TakeExecutor<ForwardExecutor>(executor);  // freed on every path
    if (!e)
        return Report(ACLNN_ERR_PARAM_INVALID, kPhase2,
                      std::string("executor was already used or did not come from ") + kPhase1);
    const CrossEntropyLossTilingData& t = e->tiling.data;
    if (!Launches(t)) {
        RecordLaunchInfo(InfoOf(*e));
        return ACLNN_SUCCESS;  // no rows under "none": nothing to write
    }
    if (workspaceSize < e->tiling.workspaceBytes)
        return Report(ACLNN_ERR_PARAM_INVALID, kPhase2,
                      "workspaceSize " + std::to_string(workspaceSize) + " is smaller than the " +
                          std::to_string(e->tiling.workspaceBytes) + " bytes phase 1 asked for");
    if (!workspace) return Report(ACLNN_ERR_PARAM_NULLPTR, kPhase2, "workspace is null");
    const std::string freed = FreedSincePhase1(LaunchTensors(e->args), workspace, kPhase1, kPhase2);
    if (!freed.empty()) return Report(ACLNN_ERR_PARAM_INVALID, kPhase2, freed);

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
    if (outcome.status != ACLNN_SUCCESS) return Report(outcome.status, kPhase2, outcome.message);
    // Asynchronous launches (NPU) cannot be checked here without a stream sync.
    if (outcome.completed) return CheckTargets(*e, workspace);
    return ACLNN_SUCCESS;
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

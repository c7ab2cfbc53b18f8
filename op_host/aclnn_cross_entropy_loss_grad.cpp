// The two-phase aclnn API: phase 1 validates and tiles into a single-use
// executor; phase 2 launches it, reads the bad-target slots back and frees it.
#include "aclnnop/aclnn_cross_entropy_loss_grad.h"

#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>
#include <vector>

#include "ascend_xent/launch_info.h"
#include "cross_entropy_loss_grad_checks.h"
#include "cross_entropy_loss_grad_executor.h"
#include "cross_entropy_loss_grad_launch.h"
#include "cross_entropy_loss_grad_tiling.h"
#include "device_memory.h"
#include "error_report.h"
#include "platform_info.h"

namespace xent {
namespace {

constexpr const char* kPhase1 = "aclnnCrossEntropyLossGradGetWorkspaceSize";
constexpr const char* kPhase2 = "aclnnCrossEntropyLossGrad";

struct Executor {
    CheckedArgs args;
    TilingResult tiling;
    uint64_t libApiWorkspaceBytes = 0;
    TilingPlatform platform;  // captured at phase 1; phase 2 launches on it
};

// Live executors: phase 2 accepts only these, so a used (freed) one is refused.
std::mutex g_mutex;
std::unordered_set<const Executor*> g_live;

thread_local ascend_xent::LaunchInfo t_lastLaunch;

aclnnStatus Report(aclnnStatus status, const char* api, const std::string& message) {
    ReportError(std::string(api) + ": " + message);
    return status;
}

GmBuffer Buffer(const TensorArg& t) { return GmBuffer{t.data, t.bytes}; }

struct NamedTensor {
    TensorArg* arg;
    const char* name;
};

// The tensors the launch reads or writes (z-loss inputs only with z-loss on), as the API names them.
std::vector<NamedTensor> LaunchTensors(CheckedArgs& a, bool zloss) {
    std::vector<NamedTensor> v = {{&a.gradLoss, "gradLoss"}, {&a.logProb, "logProb"}, {&a.target, "target"},
                                  {&a.weight, "weightOptional"}, {&a.out, "out"}};
    if (zloss) v.insert(v.end(), {{&a.gradZloss, "gradZlossOptional"}, {&a.lseForZloss, "lseForZlossOptional"}});
    return v;
}

// Phase 2: each tensor's memory must still be the allocation phase 1 saw.
aclnnStatus CheckStillAllocated(CheckedArgs& a, bool zloss) {
    for (const NamedTensor& t : LaunchTensors(a, zloss)) {
        if (t.arg->allocation == 0 || DeviceAllocationOf(t.arg->data, t.arg->bytes) == t.arg->allocation) continue;
        return Report(ACLNN_ERR_PARAM_INVALID, kPhase2,
                      std::string(t.name) + ": its device memory was freed (aclrtFree) after " + kPhase1 +
                          "; every tensor's memory must stay allocated until " + kPhase2 + " returns");
    }
    return ACLNN_SUCCESS;
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
    info.prologue = t.n != 0 && t.prologue != 0 && t.prologueLocal == 0;  // the cross-core sums and their SyncAll
    info.workspaceBytes = e.tiling.workspaceBytes;
    info.minTrafficBytes = uint64_t(t.n) * uint64_t(t.c) * 2 * uint64_t(DtypeBytes(t.dtype));
    info.ubBytes = e.tiling.ubBytesUsed;
    return info;
}

// After a completed launch: the smallest bad row over all cores' slots, if any.
aclnnStatus CheckTargets(const Executor& e, void* workspace) {
    const CrossEntropyLossGradTilingData& t = e.tiling.data;
    const uint64_t slotWords = kSlotBytes / 8;
    std::unique_ptr<int64_t[]> slots(new int64_t[t.blockDim * slotWords]);
    const char* src = static_cast<const char*>(workspace) + e.libApiWorkspaceBytes + t.badSlotOffset;
    const size_t bytes = size_t(t.blockDim) * kSlotBytes;
    if (aclrtMemcpy(slots.get(), bytes, src, bytes, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS)
        return Report(ACLNN_ERR_RUNTIME_ERROR, kPhase2, "could not read the target check back from the workspace");
    int64_t row = kNoBadRow, value = 0;
    for (int64_t core = 0; core < t.blockDim; ++core) {
        const int64_t r = slots[core * slotWords], v = slots[core * slotWords + 1];
        if (r != kNoBadRow && (row == kNoBadRow || r < row)) {
            row = r;
            value = v;
        }
    }
    if (row == kNoBadRow) return ACLNN_SUCCESS;
    return Report(ACLNN_ERR_PARAM_INVALID, kPhase2,
                  "target[" + std::to_string(row) + "] = " + std::to_string(value) + " is outside [0, " +
                      std::to_string(t.classTotal) + ") and is not ignoreIndex (" + std::to_string(t.ignoreIndex) +
                      "); rows with such targets got a zero gradient");
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
    for (const NamedTensor& t : LaunchTensors(e->args, e->tiling.data.hasZloss != 0))
        t.arg->allocation = DeviceAllocationOf(t.arg->data, t.arg->bytes);

    *workspaceSize = e->tiling.workspaceBytes;
    {
        std::lock_guard<std::mutex> lock(g_mutex);
        g_live.insert(e.get());
    }
    *executor = reinterpret_cast<aclOpExecutor*>(e.release());
    return ACLNN_SUCCESS;
}

}  // namespace xent

namespace ascend_xent {
LaunchInfo last_launch_info() { return xent::t_lastLaunch; }
}  // namespace ascend_xent

using xent::Executor;

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
    std::unique_ptr<Executor> e;
    {
        std::lock_guard<std::mutex> lock(g_mutex);
        auto it = g_live.find(reinterpret_cast<const Executor*>(executor));
        if (it == g_live.end())
            return Report(ACLNN_ERR_PARAM_INVALID, kPhase2,
                          "executor was already used or did not come from aclnnCrossEntropyLossGradGetWorkspaceSize");
        g_live.erase(it);
        e.reset(reinterpret_cast<Executor*>(executor));  // single use: freed on every path from here
    }
    const CrossEntropyLossGradTilingData& t = e->tiling.data;
    if (t.n == 0) {
        t_lastLaunch = InfoOf(*e);
        return ACLNN_SUCCESS;  // nothing to compute: no launch
    }
    if (workspaceSize < e->tiling.workspaceBytes)
        return Report(ACLNN_ERR_PARAM_INVALID, kPhase2,
                      "workspaceSize " + std::to_string(workspaceSize) + " is smaller than the " +
                          std::to_string(e->tiling.workspaceBytes) + " bytes phase 1 asked for");
    if (!workspace) return Report(ACLNN_ERR_PARAM_NULLPTR, kPhase2, "workspace is null");
    const bool zloss = t.hasZloss != 0;
    const aclnnStatus live = CheckStillAllocated(e->args, zloss);
    if (live != ACLNN_SUCCESS) return live;

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
    t_lastLaunch = InfoOf(*e);
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

#ifndef ASCEND_XENT_WITH_CANN
// acl_meta.h's executor destructor (CANN's nnopbase provides it in a CANN build).
extern "C" aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor* executor) {
    if (!executor) return ACLNN_ERR_PARAM_NULLPTR;
    std::lock_guard<std::mutex> lock(xent::g_mutex);
    auto it = xent::g_live.find(reinterpret_cast<const Executor*>(executor));
    if (it == xent::g_live.end()) return ACLNN_ERR_PARAM_INVALID;
    xent::g_live.erase(it);
    delete reinterpret_cast<Executor*>(executor);
    return ACLNN_SUCCESS;
}
#endif

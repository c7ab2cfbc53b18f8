// The vocabulary-shard API: the vendor API's checks with the shard's class range,
// then its executor and phase 2 unchanged (the kernel reads the range from the tiling).
#include "aclnnop/aclnn_cross_entropy_loss_grad_shard.h"

#include <string>

#include "cross_entropy_loss_grad_checks.h"
#include "cross_entropy_loss_grad_executor.h"
#include "error_report.h"

namespace {
constexpr const char* kShardPhase1 = "aclnnXentCrossEntropyLossGradShardGetWorkspaceSize";
}  // namespace

extern "C" aclnnStatus aclnnXentCrossEntropyLossGradShardGetWorkspaceSize(
    const aclTensor* gradLoss, const aclTensor* logProb, const aclTensor* target, const aclTensor* weightOptional,
    const aclTensor* gradZlossOptional, const aclTensor* lseForZlossOptional, char* reductionOptional,
    int64_t ignoreIndex, double labelSmoothing, double lseSquareScaleForZloss, int64_t classOffset,
    int64_t classCount, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    using namespace xent;
    auto report = [](aclnnStatus status, const std::string& message) {
        ReportError(std::string(kShardPhase1) + ": " + message);
        return status;
    };
    if (!workspaceSize) return report(ACLNN_ERR_PARAM_NULLPTR, "workspaceSize is null");
    if (!executor) return report(ACLNN_ERR_PARAM_NULLPTR, "executor is null");
    CheckedArgs args;
    const ClassShard shard{classOffset, classCount};
    const CheckResult check = CheckCrossEntropyLossGradArgs(
        gradLoss, logProb, target, weightOptional, gradZlossOptional, lseForZlossOptional, reductionOptional,
        ignoreIndex, labelSmoothing, lseSquareScaleForZloss, out, &args, &shard);
    if (check.status != ACLNN_SUCCESS) return report(check.status, check.message);
    return MakeExecutor(kShardPhase1, args, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnXentCrossEntropyLossGradShard(void* workspace, uint64_t workspaceSize,
                                                          aclOpExecutor* executor, aclrtStream stream) {
    return aclnnXentCrossEntropyLossGrad(workspace, workspaceSize, executor, stream);
}

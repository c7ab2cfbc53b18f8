// Argument validation of aclnnCrossEntropyLossGetWorkspaceSize (and of the fused
// aclnnXentCrossEntropyLossWithGradGetWorkspaceSize): every tensor,
// option and layout, with a message naming the argument as the API names it.
#pragma once
#include <cstdint>

#include "aclnn/acl_meta.h"
#include "cross_entropy_loss_tiling.h"
#include "tensor_checks.h"

namespace xent {

struct ForwardCheckedArgs {
    TensorArg input, target, weight, loss, logProb, zloss, lseForZloss;
    ForwardProblem problem;
};

CheckResult CheckCrossEntropyLossArgs(const aclTensor* input, const aclTensor* target, const aclTensor* weightOptional,
                                      const char* reductionOptional, int64_t ignoreIndex, double labelSmoothing,
                                      double lseSquareScaleForZloss, bool returnZloss, const aclTensor* lossOut,
                                      const aclTensor* logProbOut, const aclTensor* zlossOut,
                                      const aclTensor* lseForZlossOut, ForwardCheckedArgs* args);

// aclnnXentCrossEntropyLossWithGradGetWorkspaceSize: as above, with softcap and gradOut
// (held in args->logProb) in place of logProbOut.
CheckResult CheckCrossEntropyLossWithGradArgs(const aclTensor* input, const aclTensor* target,
                                              const aclTensor* weightOptional, const char* reductionOptional,
                                              int64_t ignoreIndex, double labelSmoothing,
                                              double lseSquareScaleForZloss, double softcap, const aclTensor* lossOut,
                                              const aclTensor* zlossOut, const aclTensor* lseForZlossOut,
                                              const aclTensor* gradOut, ForwardCheckedArgs* args);

}  // namespace xent

// Argument validation of aclnnCrossEntropyLossGetWorkspaceSize: every tensor,
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

}  // namespace xent

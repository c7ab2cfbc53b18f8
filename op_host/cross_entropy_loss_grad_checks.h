// Argument validation of aclnnCrossEntropyLossGradGetWorkspaceSize: every
// tensor, option and layout, with a message naming the argument as the API
// names it. Reads tensors only through CANN's public accessors (acl_meta.h).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "aclnn/acl_meta.h"
#include "cross_entropy_loss_grad_tiling.h"
#include "tensor_checks.h"

namespace xent {

struct CheckedArgs {
    TensorArg gradLoss, logProb, target, weight, gradZloss, lseForZloss, out;
    TilingProblem problem;
};

// The classes of a vocabulary shard (the extended API): logProb's columns are classes
// [offset, offset + C) of count; weightOptional is then (count,) and targets are in [0, count).
struct ClassShard {
    int64_t offset = 0, count = 0;
};

CheckResult CheckCrossEntropyLossGradArgs(const aclTensor* gradLoss, const aclTensor* logProb, const aclTensor* target,
                                          const aclTensor* weightOptional, const aclTensor* gradZlossOptional,
                                          const aclTensor* lseForZlossOptional, const char* reductionOptional,
                                          int64_t ignoreIndex, double labelSmoothing, double lseSquareScaleForZloss,
                                          const aclTensor* out, CheckedArgs* args,
                                          const ClassShard* shard = nullptr);

}  // namespace xent

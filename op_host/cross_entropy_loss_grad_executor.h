// Phase 1's common tail, shared by the vendor API and the vocabulary-shard API
// (aclnn_cross_entropy_loss_grad_shard.cpp): checked arguments -> tiling -> a
// single-use executor that aclnnXentCrossEntropyLossGrad (phase 2) accepts.
#pragma once
#include <cstdint>

#include "aclnn/acl_meta.h"
#include "cross_entropy_loss_grad_checks.h"

namespace xent {

// Reports a tiling failure under `api`'s name.
aclnnStatus MakeExecutor(const char* api, const CheckedArgs& args, uint64_t* workspaceSize,
                         aclOpExecutor** executor);

}  // namespace xent

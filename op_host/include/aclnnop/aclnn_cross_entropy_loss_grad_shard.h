// CrossEntropyLossGrad of one vocabulary shard: an ascend-xent extension beside the
// vendor's API (aclnn_cross_entropy_loss_grad.h), for vocab-parallel training where
// each device holds the columns [classOffset, classOffset + C) of a classCount-class
// vocabulary (docs/vocab_parallel.md).
//
// It computes exactly the columns [classOffset, classOffset + C) of what
// aclnnXentCrossEntropyLossGrad computes on the whole (N, classCount) problem, given
//   logProb              (N, C): this shard's logits minus the whole row's logsumexp
//   target               (N,) indices into the whole vocabulary, [0, classCount) or
//                        ignoreIndex; a target outside this shard's columns is a live
//                        row with no target fix-up here
//   weightOptional       (classCount,) float32: the whole vocabulary's class weights, so
//                        W, M and sum_k w_k are the whole problem's (each device reduces
//                        them itself; no collective)
//   lseForZlossOptional  (N,): the whole row's logsumexp
//   labelSmoothing       smoothing over classCount classes
// and every other argument as in aclnnXentCrossEntropyLossGradGetWorkspaceSize.
// classOffset in [0, classCount - C]; classCount in [1, 2^30]. Status codes and
// messages as the vendor API's; the out-of-range target report names classCount.
#ifndef ASCEND_XENT_ACLNN_CROSS_ENTROPY_LOSS_GRAD_SHARD_H_
#define ASCEND_XENT_ACLNN_CROSS_ENTROPY_LOSS_GRAD_SHARD_H_

#include "aclnnop/aclnn_cross_entropy_loss_grad.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnXentCrossEntropyLossGradShardGetWorkspaceSize(
    const aclTensor* gradLoss, const aclTensor* logProb, const aclTensor* target, const aclTensor* weightOptional,
    const aclTensor* gradZlossOptional, const aclTensor* lseForZlossOptional, char* reductionOptional,
    int64_t ignoreIndex, double labelSmoothing, double lseSquareScaleForZloss, int64_t classOffset,
    int64_t classCount, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);

// Phase 2: aclnnXentCrossEntropyLossGrad under this name (its messages name that API).
ACL_FUNC_VISIBILITY aclnnStatus aclnnXentCrossEntropyLossGradShard(void* workspace, uint64_t workspaceSize,
                                                                   aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // ASCEND_XENT_ACLNN_CROSS_ENTROPY_LOSS_GRAD_SHARD_H_

// The fused loss and gradient of the cross-entropy: one launch reads the logits and
// writes the loss, the z-loss, each row's logsumexp and d loss / d input for an
// upstream gradient of 1, into a new buffer or over the logits. A training step's
// backward then only scales that gradient by the loss's upstream gradient (or uses it
// as it is when that is 1): no log_prob is written, kept or read back.
//
// ascend-xent's own API (no CANN counterpart); status codes as
// aclnn_cross_entropy_loss_grad.h; aclGetRecentErrMsg() names the argument.
#ifndef ASCEND_XENT_ACLNN_CROSS_ENTROPY_LOSS_WITH_GRAD_H_
#define ASCEND_XENT_ACLNN_CROSS_ENTROPY_LOSS_WITH_GRAD_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_cross_entropy_loss_grad.h"  // the ACLNN_* status codes

#ifdef __cplusplus
extern "C" {
#endif

// Phase 1: checks the arguments, computes the tiling, returns the device workspace
// size (bytes) and a single-use executor.
//   input, target, weightOptional, reductionOptional, ignoreIndex, labelSmoothing,
//   lseSquareScaleForZloss, lossOut, zlossOut, lseForZlossOut
//                  as aclnnCrossEntropyLossGetWorkspaceSize (aclnn_cross_entropy_loss.h),
//                  of the capped logits when softcap > 0
//   softcap        finite, >= 0; > 0: the logits are first capped to
//                  softcap * tanh(input / softcap) (Gemma 2), and the gradient is taken
//                  through the cap; 0: no capping
//   gradOut        (N, C), input's dtype: d lossOut / d input for an upstream gradient of
//                  1 (lossOut includes the z-loss term; mean: over the launch's W and M).
//                  May be input itself (the gradient then replaces the logits); must
//                  not overlap it otherwise.
// No other output may overlap an input or another output. Everything is computed in
// float32 and rounded once into the outputs (the target column's gradient too).
ACL_FUNC_VISIBILITY aclnnStatus aclnnXentCrossEntropyLossWithGradGetWorkspaceSize(
    const aclTensor* input, const aclTensor* target, const aclTensor* weightOptional, char* reductionOptional,
    int64_t ignoreIndex, double labelSmoothing, double lseSquareScaleForZloss, double softcap,
    const aclTensor* lossOut, const aclTensor* zlossOut, const aclTensor* lseForZlossOut, const aclTensor* gradOut,
    uint64_t* workspaceSize, aclOpExecutor** executor);

// Phase 2: runs the executor on the stream and frees it (in every case). Returns
// ACLNN_ERR_PARAM_INVALID, after writing the outputs, when a target was outside [0, C)
// and not ignoreIndex (those rows count as ignored; their gradient is 0).
ACL_FUNC_VISIBILITY aclnnStatus aclnnXentCrossEntropyLossWithGrad(void* workspace, uint64_t workspaceSize,
                                                                  aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // ASCEND_XENT_ACLNN_CROSS_ENTROPY_LOSS_WITH_GRAD_H_

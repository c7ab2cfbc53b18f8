// CrossEntropyLoss (the forward: loss, log-softmax, z-loss and logsumexp), two-phase
// aclnn API with CANN's signatures.
//
// ascend-xent implements it as aclnnXentCrossEntropyLoss*; the canonical
// aclnnCrossEntropyLoss* names are thin aliases, present in the library when it was
// built with ASCEND_XENT_ACLNN_ALIAS=ON (the default without CANN; CANN's
// libopapi.so has its own functions of those names).
//
// Status codes as aclnn_cross_entropy_loss_grad.h; aclGetRecentErrMsg() names the
// argument, e.g. "aclnnCrossEntropyLossGetWorkspaceSize: lossOut must have shape ...".
#ifndef ASCEND_XENT_ACLNN_CROSS_ENTROPY_LOSS_H_
#define ASCEND_XENT_ACLNN_CROSS_ENTROPY_LOSS_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_cross_entropy_loss_grad.h"  // the ACLNN_* status codes

#ifdef __cplusplus
extern "C" {
#endif

// Phase 1: checks the arguments, computes the tiling, returns the device workspace
// size (bytes) and a single-use executor.
//   input                   (N, C), C >= 1, N >= 0; float32, float16 or bfloat16
//   target                  (N,), int64 or int32; values in [0, C) or == ignoreIndex
//   weightOptional          (C,) float32, or nullptr
//   reductionOptional       "none", "mean" or "sum"; nullptr means "mean"
//   ignoreIndex             any int64; rows with this target count for nothing
//   labelSmoothing          in [0, 1]; labelSmoothing / C must be 0 or a normal float32
//   lseSquareScaleForZloss  finite, >= 0 (2x it 0 or a normal float32)
//   returnZloss             accepted for the vendor signature; zlossOut is written either way
//   lossOut                 (N,) for "none", (1,) or () otherwise; input's dtype. The loss
//                           (PyTorch's F.cross_entropy value) plus the z-loss term
//   logProbOut              (N, C), input's dtype: log_softmax(input)
//   zlossOut                as lossOut: lseSquareScaleForZloss * lse_i^2 over the rows not
//                           ignored, reduced like the loss (mean: / their count, 0 when none)
//   lseForZlossOut          (N,), input's dtype: logsumexp of each row of input
// No output may overlap an input or another output. Every result is computed in float32.
ACL_FUNC_VISIBILITY aclnnStatus aclnnXentCrossEntropyLossGetWorkspaceSize(
    const aclTensor* input, const aclTensor* target, const aclTensor* weightOptional, char* reductionOptional,
    int64_t ignoreIndex, double labelSmoothing, double lseSquareScaleForZloss, bool returnZloss,
    const aclTensor* lossOut, const aclTensor* logProbOut, const aclTensor* zlossOut,
    const aclTensor* lseForZlossOut, uint64_t* workspaceSize, aclOpExecutor** executor);

// Phase 2: runs the executor on the stream and frees it (in every case). Returns
// ACLNN_ERR_PARAM_INVALID, after writing the outputs, when a target was outside [0, C)
// and not ignoreIndex (those rows count as ignored).
ACL_FUNC_VISIBILITY aclnnStatus aclnnXentCrossEntropyLoss(void* workspace, uint64_t workspaceSize,
                                                          aclOpExecutor* executor, aclrtStream stream);

// CANN's names (aliases of the two above).
ACL_FUNC_VISIBILITY aclnnStatus aclnnCrossEntropyLossGetWorkspaceSize(
    const aclTensor* input, const aclTensor* target, const aclTensor* weightOptional, char* reductionOptional,
    int64_t ignoreIndex, double labelSmoothing, double lseSquareScaleForZloss, bool returnZloss,
    const aclTensor* lossOut, const aclTensor* logProbOut, const aclTensor* zlossOut,
    const aclTensor* lseForZlossOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnCrossEntropyLoss(void* workspace, uint64_t workspaceSize,
                                                      aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // ASCEND_XENT_ACLNN_CROSS_ENTROPY_LOSS_H_

// CrossEntropyLossGrad (the backward of aclnnCrossEntropyLoss), two-phase
// aclnn API with CANN's signatures.
//
// ascend-xent implements it as aclnnXentCrossEntropyLossGrad*; the canonical
// aclnnCrossEntropyLossGrad* names are thin aliases, present in the library
// when it was built with ASCEND_XENT_ACLNN_ALIAS=ON (the default without CANN;
// CANN's libopapi.so has its own functions of those names).
//
// Status codes (opdev/op_errno.h): ACLNN_SUCCESS, ACLNN_ERR_PARAM_NULLPTR
// (a required pointer is null), ACLNN_ERR_PARAM_INVALID (a dtype, shape,
// option, layout or target value is not supported), ACLNN_ERR_INNER_TILING_ERROR,
// ACLNN_ERR_RUNTIME_ERROR (the launch failed). aclGetRecentErrMsg() names the
// argument, e.g. "aclnnCrossEntropyLossGrad: reductionOptional must be ...".
#ifndef ASCEND_XENT_ACLNN_CROSS_ENTROPY_LOSS_GRAD_H_
#define ASCEND_XENT_ACLNN_CROSS_ENTROPY_LOSS_GRAD_H_

#include "aclnn/aclnn_base.h"

#ifndef ACLNN_SUCCESS
#define ACLNN_SUCCESS 0
#define ACLNN_ERR_PARAM_NULLPTR 161001
#define ACLNN_ERR_PARAM_INVALID 161002
#define ACLNN_ERR_RUNTIME_ERROR 361001
#define ACLNN_ERR_INNER 561000
#define ACLNN_ERR_INNER_TILING_ERROR 561002
#endif

#ifdef __cplusplus
extern "C" {
#endif

// Phase 1: checks the arguments, computes the tiling, returns the device
// workspace size (bytes) and a single-use executor.
//   gradLoss             (N,) for "none", 0-D for "mean"/"sum"; float32, float16 or bfloat16
//   logProb              (N, C), C >= 1, N >= 0; same dtype as gradLoss
//   target               (N,), int64 or int32; values in [0, C) or == ignoreIndex
//   weightOptional       (C,) float32, or nullptr; with labelSmoothing > 0 the sum of
//                        |weight| must be below 2^127 (summed in float32; not checked)
//   gradZlossOptional    as gradLoss, or nullptr (read only when lseSquareScaleForZloss != 0)
//   lseForZlossOptional  (N,), logProb's dtype; required when lseSquareScaleForZloss != 0
//   reductionOptional    "none", "mean" or "sum"; nullptr means "mean"
//   labelSmoothing       in [0, 1]; labelSmoothing / C and 2 * lseSquareScaleForZloss must each be
//                        0 or a normal float32 (the kernel's float32 factors)
//   out                  (N, C), logProb's dtype; logProb itself (in place) or overlapping no input
// Phase 2 launches on the SoC figures (core count, UB) phase 1 tiled for, and every
// tensor's memory must stay allocated until it returns.
ACL_FUNC_VISIBILITY aclnnStatus aclnnXentCrossEntropyLossGradGetWorkspaceSize(
    const aclTensor* gradLoss, const aclTensor* logProb, const aclTensor* target, const aclTensor* weightOptional,
    const aclTensor* gradZlossOptional, const aclTensor* lseForZlossOptional, char* reductionOptional,
    int64_t ignoreIndex, double labelSmoothing, double lseSquareScaleForZloss, const aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor);

// Phase 2: runs the executor on the stream and frees it (in every case).
// Returns ACLNN_ERR_PARAM_INVALID, after writing out, when a target was
// outside [0, C) and not ignoreIndex (those rows get a zero gradient).
ACL_FUNC_VISIBILITY aclnnStatus aclnnXentCrossEntropyLossGrad(void* workspace, uint64_t workspaceSize,
                                                              aclOpExecutor* executor, aclrtStream stream);

// CANN's names (aliases of the two above).
ACL_FUNC_VISIBILITY aclnnStatus aclnnCrossEntropyLossGradGetWorkspaceSize(
    const aclTensor* gradLoss, const aclTensor* logProb, const aclTensor* target, const aclTensor* weightOptional,
    const aclTensor* gradZlossOptional, const aclTensor* lseForZlossOptional, char* reductionOptional,
    int64_t ignoreIndex, double labelSmoothing, double lseSquareScaleForZloss, const aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnCrossEntropyLossGrad(void* workspace, uint64_t workspaceSize,
                                                          aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // ASCEND_XENT_ACLNN_CROSS_ENTROPY_LOSS_GRAD_H_

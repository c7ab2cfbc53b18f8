// The cann_stand_in_signatures check (-fsyntax-only, tests/cann/cann_checks.cmake): the
// hand-written aclnn stand-ins (tests/cann_stubs) and ascend-xent's phase 2 against the
// signatures torch_npu's op-plugin declares for them (op_api_types.h, extracted from the
// torch-npu wheel by scripts/fetch_cann_headers.py).
#include <type_traits>

#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_cross_entropy_loss_grad.h"
#include "op_plugin/op_api_types.h"

static_assert(std::is_same<decltype(&aclCreateTensor), _aclCreateTensor>::value,
              "aclCreateTensor: the stand-in differs from op-plugin's _aclCreateTensor");
static_assert(std::is_same<decltype(&aclDestroyTensor), _aclDestroyTensor>::value,
              "aclDestroyTensor: the stand-in differs from op-plugin's _aclDestroyTensor");
// Phase 2 has the shape op-plugin gives every aclnn operator's second phase.
static_assert(std::is_same<decltype(&aclnnXentCrossEntropyLossGrad), OpApiFunc>::value,
              "aclnnXentCrossEntropyLossGrad: not op-plugin's OpApiFunc");

// STAND-IN for CANN's aclnn/acl_meta.h (nnopbase), for the -fsyntax-only check
// in tests/cann only (see tests/cann_stubs/README.md). Declarations only; not CANN.
// Signatures as docs/zh/nnopbase/aclnn/aclGet*.md of opbase give them; the
// arrays returned by the shape/stride getters are the caller's to delete[].
#ifndef XENT_CANN_STUB_ACLNN_ACL_META_H_
#define XENT_CANN_STUB_ACLNN_ACL_META_H_

#include <cstdint>
#include <cstdlib>

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct aclOpExecutor aclOpExecutor;  // opaque: never defined by the user
typedef struct aclTensor aclTensor;
typedef int32_t aclnnStatus;

ACL_FUNC_VISIBILITY aclnnStatus aclGetViewShape(const aclTensor* tensor, int64_t** viewDims, uint64_t* viewDimsNum);
ACL_FUNC_VISIBILITY aclnnStatus aclGetStorageShape(const aclTensor* tensor, int64_t** storageDims,
                                                   uint64_t* storageDimsNum);
ACL_FUNC_VISIBILITY aclnnStatus aclGetViewStrides(const aclTensor* tensor, int64_t** stridesValue,
                                                  uint64_t* stridesNum);
ACL_FUNC_VISIBILITY aclnnStatus aclGetViewOffset(const aclTensor* tensor, int64_t* offset);
ACL_FUNC_VISIBILITY aclnnStatus aclGetFormat(const aclTensor* tensor, aclFormat* format);
ACL_FUNC_VISIBILITY aclnnStatus aclGetDataType(const aclTensor* tensor, aclDataType* dataType);
ACL_FUNC_VISIBILITY aclnnStatus aclGetRawTensorAddr(const aclTensor* tensor, void** addr);

// Caller-side API (XENT_CANN_STUB_CALLER_API): what a caller of the two-phase API uses
// (python/src/bindings*.cpp), declared only for the binding's syntax check so that the
// op_host check still proves op_host does not use it.
#ifdef XENT_CANN_STUB_CALLER_API
ACL_FUNC_VISIBILITY aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType,
                                               const int64_t* stride, int64_t offset, aclFormat format,
                                               const int64_t* storageDims, uint64_t storageDimsNum,
                                               void* tensorData);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyTensor(const aclTensor* tensor);
#endif

#ifdef __cplusplus
}
#endif

#endif

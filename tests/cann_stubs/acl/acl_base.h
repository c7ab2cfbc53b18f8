// STAND-IN for CANN's acl/acl_base.h, for the -fsyntax-only check in tests/cann
// only (see tests/cann_stubs/README.md). Declarations only; not CANN.
#ifndef XENT_CANN_STUB_ACL_ACL_BASE_H_
#define XENT_CANN_STUB_ACL_ACL_BASE_H_

#include <stddef.h>
#include <stdint.h>

#define ACL_FUNC_VISIBILITY __attribute__((visibility("default")))

#ifdef __cplusplus
extern "C" {
#endif

typedef void* aclrtStream;
typedef int aclError;
static const int ACL_SUCCESS = 0;

typedef enum {
    ACL_DT_UNDEFINED = -1, ACL_FLOAT = 0, ACL_FLOAT16 = 1, ACL_INT8 = 2, ACL_INT32 = 3, ACL_UINT8 = 4,
    ACL_INT16 = 6, ACL_UINT16 = 7, ACL_UINT32 = 8, ACL_INT64 = 9, ACL_UINT64 = 10, ACL_DOUBLE = 11,
    ACL_BOOL = 12, ACL_STRING = 13, ACL_COMPLEX64 = 16, ACL_COMPLEX128 = 17, ACL_BF16 = 27,
    ACL_INT4 = 29, ACL_UINT1 = 30, ACL_COMPLEX32 = 33,
} aclDataType;

typedef enum {
    ACL_FORMAT_UNDEFINED = -1, ACL_FORMAT_NCHW = 0, ACL_FORMAT_NHWC = 1, ACL_FORMAT_ND = 2,
    ACL_FORMAT_NC1HWC0 = 3, ACL_FORMAT_FRACTAL_Z = 4, ACL_FORMAT_HWCN = 16, ACL_FORMAT_NDHWC = 27,
    ACL_FORMAT_FRACTAL_NZ = 29, ACL_FORMAT_NCDHW = 30, ACL_FORMAT_NC = 35, ACL_FORMAT_NCL = 47,
} aclFormat;

ACL_FUNC_VISIBILITY size_t aclDataTypeSize(aclDataType dataType);

// Caller-side API (XENT_CANN_STUB_CALLER_API): what a caller of the two-phase API uses
// (python/src/bindings*.cpp), declared only for the binding's syntax check so that the
// op_host check still proves op_host does not use it.
#ifdef XENT_CANN_STUB_CALLER_API
ACL_FUNC_VISIBILITY const char* aclGetRecentErrMsg(void);
#endif

#ifdef __cplusplus
}
#endif

#endif

// STAND-IN for CANN's acl/acl_rt.h, for the -fsyntax-only check in tests/cann
// only (see tests/cann_stubs/README.md). Declarations only; not CANN.
#ifndef XENT_CANN_STUB_ACL_ACL_RT_H_
#define XENT_CANN_STUB_ACL_ACL_RT_H_

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum aclrtMemcpyKind {
    ACL_MEMCPY_HOST_TO_HOST = 0,
    ACL_MEMCPY_HOST_TO_DEVICE = 1,
    ACL_MEMCPY_DEVICE_TO_HOST = 2,
    ACL_MEMCPY_DEVICE_TO_DEVICE = 3,
    ACL_MEMCPY_DEFAULT = 4,
} aclrtMemcpyKind;

ACL_FUNC_VISIBILITY aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count,
                                         aclrtMemcpyKind kind);
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count,
                                              aclrtMemcpyKind kind, aclrtStream stream);

// Caller-side API (XENT_CANN_STUB_CALLER_API): what a caller of the two-phase API uses
// (python/src/bindings*.cpp), declared only for the binding's syntax check so that the
// op_host check still proves op_host does not use it.
#ifdef XENT_CANN_STUB_CALLER_API
typedef enum aclrtMemMallocPolicy {
    ACL_MEM_MALLOC_HUGE_FIRST = 0,
    ACL_MEM_MALLOC_HUGE_ONLY = 1,
    ACL_MEM_MALLOC_NORMAL_ONLY = 2,
} aclrtMemMallocPolicy;
ACL_FUNC_VISIBILITY aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy);
ACL_FUNC_VISIBILITY aclError aclrtFree(void* devPtr);
#endif

#ifdef __cplusplus
}
#endif

#endif

// ascend-xent's stand-in for CANN's model runtime instances built by stream
// capture (aclmdlRI): the async work queued on a capturing stream, and on the
// streams that wait for its events, is recorded instead of run, then replayed
// in the order it was queued by aclmdlRIExecuteAsync.
#ifndef ASCEND_XENT_COMPAT_ACL_ACL_MDL_H_
#define ASCEND_XENT_COMPAT_ACL_ACL_MDL_H_

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef void* aclmdlRI;

typedef enum aclmdlRICaptureMode {
    ACL_MODEL_RI_CAPTURE_MODE_GLOBAL = 0,
    ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL = 1,
    ACL_MODEL_RI_CAPTURE_MODE_RELAXED = 2,
} aclmdlRICaptureMode;

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode);
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI* modelRI);
ACL_FUNC_VISIBILITY aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclmdlRIDestroy(aclmdlRI modelRI);
// Writes the recorded tasks as JSON to path.
ACL_FUNC_VISIBILITY aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char* path, uint32_t flags);

#ifdef __cplusplus
}
#endif

#endif  // ASCEND_XENT_COMPAT_ACL_ACL_MDL_H_

// ascend-xent's stand-in for CANN's acl/acl.h (see acl_base.h, acl_rt.h, acl_mdl.h).
#ifndef ASCEND_XENT_COMPAT_ACL_ACL_H_
#define ASCEND_XENT_COMPAT_ACL_ACL_H_

#include "acl_base.h"
#include "acl_rt.h"
#include "acl_mdl.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclError aclInit(const char* configPath);
ACL_FUNC_VISIBILITY aclError aclFinalize(void);
// The calling thread's most recent error message ("" when none).
ACL_FUNC_VISIBILITY const char* aclGetRecentErrMsg(void);

#ifdef __cplusplus
}
#endif

#endif  // ASCEND_XENT_COMPAT_ACL_ACL_H_

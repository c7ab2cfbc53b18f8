// ascend-xent's stand-in for CANN's aclnn/aclnn_base.h.
#ifndef ASCEND_XENT_COMPAT_ACLNN_ACLNN_BASE_H_
#define ASCEND_XENT_COMPAT_ACLNN_ACLNN_BASE_H_

#include <cstdint>
#include <cstdlib>

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnInit(const char* configPath);
ACL_FUNC_VISIBILITY aclnnStatus aclnnFinalize();

#ifdef __cplusplus
}
#endif

#endif  // ASCEND_XENT_COMPAT_ACLNN_ACLNN_BASE_H_

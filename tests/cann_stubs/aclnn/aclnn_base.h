// STAND-IN for CANN's aclnn/aclnn_base.h, for the -fsyntax-only check in
// tests/cann only (see tests/cann_stubs/README.md). Declarations only; not CANN.
#ifndef XENT_CANN_STUB_ACLNN_ACLNN_BASE_H_
#define XENT_CANN_STUB_ACLNN_ACLNN_BASE_H_

#include "aclnn/acl_meta.h"

#endif

// STAND-IN for CANN's acl/acl.h, for the -fsyntax-only check in tests/cann
// only (see tests/cann_stubs/README.md). Declarations only; not CANN.
#ifndef XENT_CANN_STUB_ACL_ACL_H_
#define XENT_CANN_STUB_ACL_ACL_H_

#include "acl_base.h"
#include "acl_rt.h"

#endif

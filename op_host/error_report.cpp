#include "error_report.h"

#ifdef ASCEND_XENT_WITH_CANN
#include <cstdio>
#else
#include "../acl_compat/src/acl_compat_internal.h"
#endif

namespace xent {
void ReportError(const std::string& message) {
#ifdef ASCEND_XENT_WITH_CANN
    std::fprintf(stderr, "[ascend_xent] %s\n", message.c_str());
#else
    acl_compat::SetRecentErrMsg(message);
#endif
}
}  // namespace xent

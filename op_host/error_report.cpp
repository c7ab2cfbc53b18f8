#include "error_report.h"

#ifdef ASCEND_XENT_WITH_CANN
#include <cstdio>
#else
#include "../acl_compat/src/acl_compat_internal.h"
#endif

namespace xent {
namespace {
thread_local std::string t_pending;   // set by ReportError
thread_local std::string t_returned;  // what xent_last_error_message last returned
}  // namespace

void ReportError(const std::string& message) {
    t_pending = message;
#ifdef ASCEND_XENT_WITH_CANN
    std::fprintf(stderr, "[ascend_xent] %s\n", message.c_str());
#else
    acl_compat::SetRecentErrMsg(message);
#endif
}
}  // namespace xent

extern "C" const char* xent_last_error_message(void) {
    xent::t_returned.swap(xent::t_pending);
    xent::t_pending.clear();
    return xent::t_returned.c_str();
}

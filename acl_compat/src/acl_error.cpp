// aclGetRecentErrMsg: a per-thread message, "obtained and cleared" as CANN's is.
#include <string>

#include "acl/acl.h"
#include "acl_compat_internal.h"

namespace {
thread_local std::string t_pending;   // set by a failing call
thread_local std::string t_returned;  // what the last aclGetRecentErrMsg returned (keeps the pointer valid)
}  // namespace

namespace acl_compat {
void SetRecentErrMsg(const std::string& msg) { t_pending = msg; }
}  // namespace acl_compat

extern "C" const char* aclGetRecentErrMsg(void) {
    t_returned.swap(t_pending);
    t_pending.clear();
    return t_returned.c_str();
}

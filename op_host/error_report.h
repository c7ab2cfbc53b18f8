// Where argument and launch errors go: aclGetRecentErrMsg() in the
// simulator build (acl_compat), stderr in a CANN build (CANN's error manager
// has no public hook for custom operators).
#pragma once
#include <string>

namespace xent {
void ReportError(const std::string& message);
}

// Where argument and launch errors go: aclGetRecentErrMsg() in the
// simulator build (acl_compat), stderr in a CANN build (CANN's error manager
// has no public hook for custom operators). In both builds the calling
// thread's last message is also kept for xent_last_error_message().
#pragma once
#include <string>

namespace xent {
void ReportError(const std::string& message);
}

// The calling thread's most recent ascend-xent error message ("" if none), obtained
// and cleared like aclGetRecentErrMsg(): the way for a caller of the CANN build (where
// aclGetRecentErrMsg() is CANN's and never sees ours) to get it; the Python binding uses
// it in both builds. The pointer stays valid until the thread's next call.
extern "C" const char* xent_last_error_message(void);

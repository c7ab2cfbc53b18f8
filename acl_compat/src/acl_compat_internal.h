// Internals of the acl compatibility layer shared with op_host (sim build only).
#pragma once
#include <cstddef>
#include <string>

namespace acl_compat {

// Records msg as the calling thread's most recent error (aclGetRecentErrMsg).
void SetRecentErrMsg(const std::string& msg);

// True when [p, p + bytes) lies inside one live aclrtMalloc allocation, i.e.
// memory the simulator already knows as GM.
bool IsDeviceMemory(const void* p, size_t bytes);

}  // namespace acl_compat

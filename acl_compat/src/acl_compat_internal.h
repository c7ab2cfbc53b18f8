// Internals of the acl compatibility layer shared with op_host (sim build only).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace acl_compat {

// Records msg as the calling thread's most recent error (aclGetRecentErrMsg).
void SetRecentErrMsg(const std::string& msg);

// True when [p, p + bytes) lies inside one live aclrtMalloc allocation, i.e.
// memory the simulator already knows as GM.
bool IsDeviceMemory(const void* p, size_t bytes);

// That allocation's id (unique for the process's lifetime, never 0), or 0 when
// [p, p + bytes) lies inside none: an id that stops being returned for a range
// means its memory was freed, even if a later aclrtMalloc reuses the address.
uint64_t DeviceAllocationOf(const void* p, size_t bytes);

// True when p lies in a block aclrtFree freed recently (the last 64 blocks, up to 64
// MiB, are held back from reuse, so such a p can be nothing else).
bool IsFreedDeviceMemory(const void* p);

}  // namespace acl_compat

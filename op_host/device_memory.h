// Which device allocation holds a tensor's bytes, so that phase 2 can refuse a
// tensor whose memory was freed (aclrtFree) after phase 1 instead of reading or
// writing freed memory, and whether a workspace points into freed device memory. The simulator build asks its acl layer
// (device_memory_sim.cpp); CANN has no such query (device_memory_cann.cpp: 0).
#pragma once
#include <cstdint>

namespace xent {
// An id unique to the live allocation holding [p, p + bytes), or 0 (none, or not known).
uint64_t DeviceAllocationOf(const void* p, uint64_t bytes);
// True when p lies in device memory freed by aclrtFree and not allocated again (false: not known).
bool IsFreedDeviceMemory(const void* p);
}  // namespace xent

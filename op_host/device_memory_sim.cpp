#include "device_memory.h"

#include "../acl_compat/src/acl_compat_internal.h"

namespace xent {
uint64_t DeviceAllocationOf(const void* p, uint64_t bytes) { return acl_compat::DeviceAllocationOf(p, bytes); }
bool IsFreedDeviceMemory(const void* p) { return acl_compat::IsFreedDeviceMemory(p); }
}  // namespace xent

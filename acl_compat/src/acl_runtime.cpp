// aclInit, devices, streams and memory over the simulator. One device (0);
// streams are tokens and every launch on them is synchronous; device memory
// is simulator GM (ascend_sim::gm_alloc), so kernels may touch it.
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>

#include "acl/acl.h"
#include "acl_compat_internal.h"
#include "ascend_sim/numerics/types.h"
#include "ascend_sim/sim.h"

namespace {

struct Allocation {
    size_t bytes;
    uint64_t id;  // never reused: memory freed and allocated again at the same address is a new allocation
};
std::mutex g_mutex;
std::map<const char*, Allocation> g_device;  // live aclrtMalloc allocations by start
uint64_t g_lastId = 0;                       // under g_mutex
std::atomic<bool> g_initialized{false};

struct StreamToken {
    int magic = 0x57e4;
};
// A context of device 0: a token, current per thread as in CANN.
struct ContextToken {
    int magic = 0xc0e7;
};
thread_local aclrtContext t_current = nullptr;

aclError Fail(aclError code, const std::string& msg) {
    acl_compat::SetRecentErrMsg(msg);
    return code;
}

}  // namespace

namespace acl_compat {
uint64_t DeviceAllocationOf(const void* p, size_t bytes) {
    const char* c = static_cast<const char*>(p);
    std::lock_guard<std::mutex> lock(g_mutex);
    auto it = g_device.upper_bound(c);
    if (it == g_device.begin()) return 0;
    --it;
    const bool inside = c >= it->first && bytes <= it->second.bytes && size_t(c - it->first) <= it->second.bytes - bytes;
    return inside ? it->second.id : 0;
}

bool IsDeviceMemory(const void* p, size_t bytes) { return DeviceAllocationOf(p, bytes) != 0; }
}  // namespace acl_compat

extern "C" {

aclError aclInit(const char*) {
    if (g_initialized.exchange(true)) return Fail(ACL_ERROR_REPEAT_INITIALIZE, "aclInit: already initialized");
    return ACL_SUCCESS;
}

aclError aclFinalize(void) {
    g_initialized = false;
    return ACL_SUCCESS;
}

size_t aclDataTypeSize(aclDataType t) {
    switch (t) {
        case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: return 4;
        case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: case ACL_UINT16: return 2;
        case ACL_INT8: case ACL_UINT8: case ACL_BOOL: return 1;
        case ACL_INT64: case ACL_UINT64: case ACL_DOUBLE: case ACL_COMPLEX64: return 8;
        case ACL_COMPLEX128: return 16;
        case ACL_COMPLEX32: return 4;
        default: return 0;
    }
}

aclError aclrtSetDevice(int32_t deviceId) {
    if (deviceId != 0) return Fail(ACL_ERROR_INVALID_DEVICE, "aclrtSetDevice: the simulator has one device, 0");
    return ACL_SUCCESS;
}
aclError aclrtResetDevice(int32_t deviceId) { return aclrtSetDevice(deviceId); }
aclError aclrtGetDevice(int32_t* deviceId) {
    if (!deviceId) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtGetDevice: deviceId is null");
    *deviceId = 0;
    return ACL_SUCCESS;
}
aclError aclrtGetDeviceCount(uint32_t* count) {
    if (!count) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceCount: count is null");
    *count = 1;
    return ACL_SUCCESS;
}

aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId) {
    if (!context) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateContext: context is null");
    if (deviceId != 0) return Fail(ACL_ERROR_INVALID_DEVICE, "aclrtCreateContext: the simulator has one device, 0");
    *context = t_current = new ContextToken;  // the new context becomes the thread's current one
    return ACL_SUCCESS;
}
aclError aclrtDestroyContext(aclrtContext context) {
    if (!context) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtDestroyContext: context is null");
    if (t_current == context) t_current = nullptr;
    delete static_cast<ContextToken*>(context);
    return ACL_SUCCESS;
}
aclError aclrtSetCurrentContext(aclrtContext context) {
    if (!context) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtSetCurrentContext: context is null");
    t_current = context;
    return ACL_SUCCESS;
}
aclError aclrtGetCurrentContext(aclrtContext* context) {
    if (!context) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtGetCurrentContext: context is null");
    if (!t_current) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtGetCurrentContext: this thread has no current context");
    *context = t_current;
    return ACL_SUCCESS;
}

float aclFloat16ToFloat(aclFloat16 value) { return float(half::from_bits(value)); }
aclFloat16 aclFloatToFloat16(float value) { return half(value).bits(); }

aclError aclrtCreateStream(aclrtStream* stream) {
    if (!stream) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateStream: stream is null");
    *stream = new StreamToken;
    return ACL_SUCCESS;
}
aclError aclrtDestroyStream(aclrtStream stream) {
    if (!stream) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtDestroyStream: stream is null");
    delete static_cast<StreamToken*>(stream);
    return ACL_SUCCESS;
}
// Launches complete before aclnnXxx returns, so there is nothing to wait for.
aclError aclrtSynchronizeStream(aclrtStream) { return ACL_SUCCESS; }
aclError aclrtSynchronizeDevice(void) { return ACL_SUCCESS; }

aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy) {
    if (!devPtr) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: devPtr is null");
    if (size == 0) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: size must be > 0");
    void* p = nullptr;
    try {
        // Uninitialised, as on the device (the simulator fills it with 0xFF bytes).
        p = ascend_sim::gm_alloc(size, "aclrtMalloc", /*zeroed=*/false);
    } catch (const std::exception& e) {
        return Fail(ACL_ERROR_BAD_ALLOC, std::string("aclrtMalloc: ") + e.what());
    }
    if (!p) return Fail(ACL_ERROR_BAD_ALLOC, "aclrtMalloc: out of memory");
    {
        std::lock_guard<std::mutex> lock(g_mutex);
        g_device[static_cast<const char*>(p)] = Allocation{size, ++g_lastId};
    }
    *devPtr = p;
    return ACL_SUCCESS;
}

aclError aclrtFree(void* devPtr) {
    if (!devPtr) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtFree: devPtr is null");
    {
        std::lock_guard<std::mutex> lock(g_mutex);
        auto it = g_device.find(static_cast<const char*>(devPtr));
        if (it == g_device.end()) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtFree: not an aclrtMalloc pointer");
        g_device.erase(it);
    }
    try {
        ascend_sim::gm_free(devPtr);
    } catch (const std::exception& e) {
        return Fail(ACL_ERROR_INVALID_PARAM, std::string("aclrtFree: ") + e.what());
    }
    return ACL_SUCCESS;
}

aclError aclrtMallocHost(void** hostPtr, size_t size) {
    if (!hostPtr || size == 0) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMallocHost: null pointer or size 0");
    void* p = std::aligned_alloc(64, (size + 63) / 64 * 64);
    if (!p) return Fail(ACL_ERROR_BAD_ALLOC, "aclrtMallocHost: out of memory");
    *hostPtr = p;
    return ACL_SUCCESS;
}
aclError aclrtFreeHost(void* hostPtr) {
    if (!hostPtr) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtFreeHost: hostPtr is null");
    std::free(hostPtr);
    return ACL_SUCCESS;
}

// Host and device memory are both host memory here; the kind is not needed
// (recent CANN infers it from the pointers too).
aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind) {
    if (count == 0) return ACL_SUCCESS;
    if (!dst || !src) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy: dst or src is null");
    if (count > destMax) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy: count exceeds destMax");
    std::memmove(dst, src, count);
    return ACL_SUCCESS;
}
aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                          aclrtStream) {
    return aclrtMemcpy(dst, destMax, src, count, kind);
}
aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
    if (count == 0) return ACL_SUCCESS;
    if (!devPtr) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMemset: devPtr is null");
    if (count > maxCount) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMemset: count exceeds maxCount");
    std::memset(devPtr, value, count);
    return ACL_SUCCESS;
}

}  // extern "C"

// aclInit, devices, streams, events, stream capture and memory over the
// simulator. One device (0); streams are tokens and every launch on them is
// synchronous; device memory is simulator GM (ascend_sim::gm_alloc), so kernels
// may touch it. A capture (aclmdlRICaptureBegin) records the async copies and
// the kernel launches queued while it is open instead of running them;
// aclmdlRIExecuteAsync replays them in the order they were queued, which is
// an order their events allow.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

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
// Blocks aclrtFree freed (start -> bytes), kept allocated for a while so that nothing
// else can take their addresses: a workspace pointing there is certainly one written
// after its free (IsFreedDeviceMemory). They are no longer GM; the oldest is released
// once more than kQuarantineBlocks or kQuarantineBytes are held, and a larger block at once.
constexpr size_t kQuarantineBlocks = 64, kQuarantineBytes = size_t(64) << 20;
std::map<const char*, size_t> g_freed;
std::deque<const char*> g_freedOrder;  // oldest first
size_t g_freedBytes = 0;
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

struct EventToken {
    int magic = 0xe7e7;
    bool inCapture = false;  // last recorded on a capturing stream
};

// One recorded task: a copy, or a launch (its body holds ICPU_RUN_KF's arguments by reference).
struct Task {
    bool launch = false;
    void* dst = nullptr;
    const void* src = nullptr;
    size_t bytes = 0;
    std::string name;
    uint32_t blockDim = 0;
    std::function<void()> body;
};
struct ModelRI {
    std::vector<Task> tasks;
};

// The open capture (one at a time) and the streams in it, under g_mutex.
ModelRI* g_capture = nullptr;
aclrtStream g_captureOrigin = nullptr;
std::set<aclrtStream> g_captureStreams;

bool capturing(aclrtStream s) {
    std::lock_guard<std::mutex> lock(g_mutex);
    return g_capture && g_captureStreams.count(s);
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

bool IsFreedDeviceMemory(const void* p) {
    const char* c = static_cast<const char*>(p);
    std::lock_guard<std::mutex> lock(g_mutex);
    auto it = g_freed.upper_bound(c);
    if (it == g_freed.begin()) return false;
    --it;
    return size_t(c - it->first) < it->second;
}
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
// Launches complete before aclnnXxx returns, so there is nothing to wait for;
// a capturing stream has queued work that has not run, which CANN refuses to wait for.
aclError aclrtSynchronizeStream(aclrtStream stream) {
    if (capturing(stream))
        return Fail(ACL_ERROR_API_NOT_SUPPORT, "aclrtSynchronizeStream: the stream is capturing (end the capture first)");
    return ACL_SUCCESS;
}
aclError aclrtSynchronizeDevice(void) { return ACL_SUCCESS; }

aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy) {
    if (!devPtr) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: devPtr is null");
    if (size == 0) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: size must be > 0");
    uint64_t id;
    {
        std::lock_guard<std::mutex> lock(g_mutex);
        id = ++g_lastId;
    }
    void* p = nullptr;
    try {
        // Uninitialised, as on the device (the simulator fills it with 0xFF bytes);
        // named aclrtMalloc#<id> in reports, so that they tell the buffers apart.
        p = ascend_sim::gm_alloc(size, ("aclrtMalloc#" + std::to_string(id)).c_str(), /*zeroed=*/false);
    } catch (const std::exception& e) {
        return Fail(ACL_ERROR_BAD_ALLOC, std::string("aclrtMalloc: ") + e.what());
    }
    if (!p) return Fail(ACL_ERROR_BAD_ALLOC, "aclrtMalloc: out of memory");
    {
        std::lock_guard<std::mutex> lock(g_mutex);
        g_device[static_cast<const char*>(p)] = Allocation{size, id};
    }
    *devPtr = p;
    return ACL_SUCCESS;
}

aclError aclrtFree(void* devPtr) {
    if (!devPtr) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtFree: devPtr is null");
    std::vector<const char*> release;
    {
        std::lock_guard<std::mutex> lock(g_mutex);
        auto it = g_device.find(static_cast<const char*>(devPtr));
        if (it == g_device.end()) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtFree: not an aclrtMalloc pointer");
        try {
            ascend_sim::gm_retire(devPtr);
        } catch (const std::exception& e) {
            return Fail(ACL_ERROR_INVALID_PARAM, std::string("aclrtFree: ") + e.what());
        }
        g_freed[it->first] = it->second.bytes;
        g_freedOrder.push_back(it->first);
        g_freedBytes += it->second.bytes;
        g_device.erase(it);
        while (!g_freedOrder.empty() && (g_freedOrder.size() > kQuarantineBlocks || g_freedBytes > kQuarantineBytes)) {
            const char* old = g_freedOrder.front();
            g_freedOrder.pop_front();
            g_freedBytes -= g_freed[old];
            g_freed.erase(old);
            release.push_back(old);
        }
    }
    for (const char* p : release) std::free(const_cast<char*>(p));  // gm_alloc's memory
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
                          aclrtStream stream) {
    if (!capturing(stream)) return aclrtMemcpy(dst, destMax, src, count, kind);
    if (count == 0) return ACL_SUCCESS;
    if (!dst || !src) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpyAsync: dst or src is null");
    if (count > destMax) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpyAsync: count exceeds destMax");
    std::lock_guard<std::mutex> lock(g_mutex);
    Task t;
    t.dst = dst;
    t.src = src;
    t.bytes = count;
    g_capture->tasks.push_back(std::move(t));
    return ACL_SUCCESS;
}

aclError aclrtCreateEvent(aclrtEvent* event) { return aclrtCreateEventExWithFlag(event, ACL_EVENT_SYNC); }
aclError aclrtCreateEventExWithFlag(aclrtEvent* event, uint32_t) {
    if (!event) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateEventExWithFlag: event is null");
    *event = new EventToken;
    return ACL_SUCCESS;
}
aclError aclrtDestroyEvent(aclrtEvent event) {
    if (!event) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtDestroyEvent: event is null");
    delete static_cast<EventToken*>(event);
    return ACL_SUCCESS;
}
aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
    if (!event) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtRecordEvent: event is null");
    static_cast<EventToken*>(event)->inCapture = capturing(stream);
    return ACL_SUCCESS;
}
// A stream that waits for an event recorded in the capture joins it.
aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
    if (!event) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtStreamWaitEvent: event is null");
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_capture && static_cast<EventToken*>(event)->inCapture) g_captureStreams.insert(stream);
    return ACL_SUCCESS;
}
aclError aclrtSynchronizeEvent(aclrtEvent event) {
    if (!event) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtSynchronizeEvent: event is null");
    if (static_cast<EventToken*>(event)->inCapture)
        return Fail(ACL_ERROR_API_NOT_SUPPORT, "aclrtSynchronizeEvent: the event was recorded in an open capture");
    return ACL_SUCCESS;
}

aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode) {
    if (!stream) return Fail(ACL_ERROR_INVALID_PARAM, "aclmdlRICaptureBegin: stream is null");
    {
        std::lock_guard<std::mutex> lock(g_mutex);
        if (g_capture) return Fail(ACL_ERROR_API_NOT_SUPPORT, "aclmdlRICaptureBegin: a capture is already open");
        g_capture = new ModelRI;
        g_captureOrigin = stream;
        g_captureStreams = {stream};
    }
    // ICPU_RUN_KF names no stream: a launch on this thread while the capture is open belongs to it.
    ascend_sim::set_launch_capture([](const char* name, uint32_t blockDim, const std::function<void()>& body) {
        std::lock_guard<std::mutex> lock(g_mutex);
        if (!g_capture) return false;
        Task t;
        t.launch = true;
        t.name = name ? name : "kernel";
        t.blockDim = blockDim;
        t.body = body;
        g_capture->tasks.push_back(std::move(t));
        return true;
    });
    return ACL_SUCCESS;
}

aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI* modelRI) {
    if (!modelRI) return Fail(ACL_ERROR_INVALID_PARAM, "aclmdlRICaptureEnd: modelRI is null");
    std::lock_guard<std::mutex> lock(g_mutex);
    if (!g_capture) return Fail(ACL_ERROR_API_NOT_SUPPORT, "aclmdlRICaptureEnd: no capture is open");
    if (stream != g_captureOrigin)
        return Fail(ACL_ERROR_INVALID_PARAM, "aclmdlRICaptureEnd: not the stream the capture began on");
    *modelRI = g_capture;
    g_capture = nullptr;
    g_captureOrigin = nullptr;
    g_captureStreams.clear();
    ascend_sim::set_launch_capture(nullptr);
    return ACL_SUCCESS;
}

// The recorded tasks in order; a violation in a replayed launch is printed and thrown, as ICPU_RUN_KF does.
aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream) {
    if (!modelRI) return Fail(ACL_ERROR_INVALID_PARAM, "aclmdlRIExecuteAsync: modelRI is null");
    for (const Task& t : static_cast<ModelRI*>(modelRI)->tasks) {
        if (!t.launch) {
            std::memmove(t.dst, t.src, t.bytes);
            continue;
        }
        try {
            ascend_sim::run_kernel(t.name.c_str(), t.blockDim, t.body);
        } catch (const ascend_sim::SimViolation& e) {
            std::fprintf(stderr, "%s\n", e.what());
            throw;
        }
    }
    return ACL_SUCCESS;
}

aclError aclmdlRIDestroy(aclmdlRI modelRI) {
    if (!modelRI) return Fail(ACL_ERROR_INVALID_PARAM, "aclmdlRIDestroy: modelRI is null");
    delete static_cast<ModelRI*>(modelRI);
    return ACL_SUCCESS;
}

aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char* path, uint32_t) {
    if (!modelRI || !path) return Fail(ACL_ERROR_INVALID_PARAM, "aclmdlRIDebugJsonPrint: modelRI or path is null");
    std::ofstream out(path);
    if (!out) return Fail(ACL_ERROR_INVALID_PARAM, std::string("aclmdlRIDebugJsonPrint: cannot write ") + path);
    out << "{\"tasks\": [";
    const auto& tasks = static_cast<ModelRI*>(modelRI)->tasks;
    for (size_t i = 0; i < tasks.size(); ++i) {
        out << (i ? ", " : "");
        if (tasks[i].launch) out << "{\"type\": \"kernel\", \"name\": \"" << tasks[i].name << "\", \"blockDim\": " << tasks[i].blockDim << "}";
        else out << "{\"type\": \"memcpy\", \"bytes\": " << tasks[i].bytes << "}";
    }
    out << "]}\n";
    return ACL_SUCCESS;
}
aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
    if (count == 0) return ACL_SUCCESS;
    if (!devPtr) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMemset: devPtr is null");
    if (count > maxCount) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMemset: count exceeds maxCount");
    std::memset(devPtr, value, count);
    return ACL_SUCCESS;
}

}  // extern "C"

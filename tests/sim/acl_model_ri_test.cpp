// Stream capture into a model runtime instance (acl_compat: aclmdlRICaptureBegin
// .. aclmdlRIExecuteAsync): the captured copies and launches do not run when
// queued, and each replay runs them in order.
#include <cstdint>
#include <cstring>

#include "acl/acl.h"
#include "sim_test_util.h"
#include "tikicpulib.h"
#include "xtest.h"

using namespace AscendC;

namespace {
constexpr uint32_t kN = 64;

// z = x * 2 + 1 over kN floats, one block.
void twice_plus_one(float* x, float* z) {
    sim_test::Calc c(kN * sizeof(float));
    auto t = c.get<float>();
    DataCopy(t, sim_test::global(x, kN), kN);
    sim_test::sync<HardEvent::MTE2_V>();
    Muls(t, t, 2.0f, kN);
    Adds(t, t, 1.0f, kN);
    sim_test::sync<HardEvent::V_MTE3>();
    DataCopy(sim_test::global(z, kN), t, kN);
}

struct Buffers {
    float *xHost = nullptr, *zHost = nullptr, *xDev = nullptr, *zDev = nullptr;
    Buffers() {
        aclrtMallocHost((void**)&xHost, kN * 4);
        aclrtMallocHost((void**)&zHost, kN * 4);
        aclrtMalloc((void**)&xDev, kN * 4, ACL_MEM_MALLOC_HUGE_FIRST);
        aclrtMalloc((void**)&zDev, kN * 4, ACL_MEM_MALLOC_HUGE_FIRST);
        for (uint32_t i = 0; i < kN; ++i) zHost[i] = -7.0f;
    }
    ~Buffers() {
        aclrtFree(xDev);
        aclrtFree(zDev);
        aclrtFreeHost(xHost);
        aclrtFreeHost(zHost);
    }
};
}  // namespace

XTEST(a_captured_launch_runs_at_each_replay_not_when_queued) {
    Buffers b;
    aclrtStream s = nullptr;
    aclrtCreateStream(&s);
    aclmdlRI model = nullptr;
    XCHECK_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    XCHECK_EQ(aclrtMemcpyAsync(b.xDev, kN * 4, b.xHost, kN * 4, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
    ICPU_RUN_KF(twice_plus_one, 1, b.xDev, b.zDev);
    XCHECK_EQ(aclrtMemcpyAsync(b.zHost, kN * 4, b.zDev, kN * 4, ACL_MEMCPY_DEVICE_TO_HOST, s), ACL_SUCCESS);
    XCHECK(aclrtSynchronizeStream(s) != ACL_SUCCESS);  // work is queued in the open capture
    XCHECK_EQ(aclmdlRICaptureEnd(s, &model), ACL_SUCCESS);
    XCHECK_EQ(b.zHost[0], -7.0f);  // nothing ran yet
    for (float base : {1.0f, 10.0f}) {
        for (uint32_t i = 0; i < kN; ++i) b.xHost[i] = base + float(i);
        XCHECK_EQ(aclmdlRIExecuteAsync(model, s), ACL_SUCCESS);
        XCHECK_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
        for (uint32_t i = 0; i < kN; ++i) XCHECK_EQ(b.zHost[i], (base + float(i)) * 2.0f + 1.0f);
    }
    XCHECK_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
    aclrtDestroyStream(s);
}

XTEST(a_stream_waiting_for_a_captured_event_joins_the_capture) {
    Buffers b;
    aclrtStream main = nullptr, side = nullptr;
    aclrtCreateStream(&main);
    aclrtCreateStream(&side);
    aclrtEvent ready = nullptr;
    aclrtCreateEventExWithFlag(&ready, ACL_EVENT_SYNC);
    aclmdlRI model = nullptr;
    for (uint32_t i = 0; i < kN; ++i) b.xHost[i] = 3.0f;
    aclmdlRICaptureBegin(main, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL);
    aclrtRecordEvent(ready, main);
    aclrtStreamWaitEvent(side, ready);
    aclrtMemcpyAsync(b.xDev, kN * 4, b.xHost, kN * 4, ACL_MEMCPY_HOST_TO_DEVICE, side);  // recorded, not run
    ICPU_RUN_KF(twice_plus_one, 1, b.xDev, b.zDev);
    aclrtMemcpyAsync(b.zHost, kN * 4, b.zDev, kN * 4, ACL_MEMCPY_DEVICE_TO_HOST, main);
    XCHECK(aclmdlRICaptureEnd(side, &model) != ACL_SUCCESS);  // only the origin stream ends it
    XCHECK_EQ(aclmdlRICaptureEnd(main, &model), ACL_SUCCESS);
    XCHECK_EQ(b.zHost[5], -7.0f);
    aclmdlRIExecuteAsync(model, main);
    for (uint32_t i = 0; i < kN; ++i) XCHECK_EQ(b.zHost[i], 7.0f);
    aclmdlRIDestroy(model);
    aclrtDestroyEvent(ready);
    aclrtDestroyStream(main);
    aclrtDestroyStream(side);
}

XTEST(one_capture_at_a_time_and_async_copies_outside_one_run_at_once) {
    Buffers b;
    aclrtStream s = nullptr;
    aclrtCreateStream(&s);
    b.xHost[0] = 42.0f;
    XCHECK_EQ(aclrtMemcpyAsync(b.xDev, kN * 4, b.xHost, kN * 4, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
    XCHECK_EQ(b.xDev[0], 42.0f);
    aclmdlRI model = nullptr;
    XCHECK_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    XCHECK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) != ACL_SUCCESS);
    XCHECK(std::string(aclGetRecentErrMsg()).find("already open") != std::string::npos);
    XCHECK_EQ(aclmdlRICaptureEnd(s, &model), ACL_SUCCESS);
    XCHECK(aclmdlRICaptureEnd(s, &model) != ACL_SUCCESS);
    aclmdlRIDestroy(model);
    aclrtDestroyStream(s);
}

// GM allocations are ALIGN_UP(size, 32) + 32 bytes, as the Runtime API documents
// aclrtMalloc (and the CPU twin's GmAlloc gives the same): a DMA rounded up past a
// ragged tensor end reads or writes that padding legally; bytes beyond it are not GM.
#include <cstdint>
#include <functional>

#include "acl/acl.h"
#include "ascend_sim/sim.h"
#include "sim_test_util.h"
#include "tikicpulib.h"
#include "xtest.h"

using namespace AscendC;

namespace {
constexpr size_t kBytes = 100;  // 25 floats: ALIGN_UP(100, 32) + 32 = 160 B allocated

// One block copies `count` floats GM->UB, then back UB->GM, at x (no SetGlobalBuffer size:
// only the allocation bounds the copies).
void round_trip(float* x, uint32_t count) {
    ascend_sim::run_kernel("pad", 1, [=] {
        sim_test::Calc c(count * sizeof(float));
        auto t = c.get<float>();
        GlobalTensor<float> g;
        g.SetGlobalBuffer(x);
        DataCopy(t, g, count);
        sim_test::sync<HardEvent::MTE2_MTE3>();
        DataCopy(g, t, count);
    });
}

void check_padding(float* x) {
    round_trip(x, 32);  // 128 B: 28 B past the end, inside the padding
    round_trip(x, 40);  // 160 B: the whole allocation
    XCHECK_THROWS_WITH(round_trip(x, 48), "DataCopy (block 0)", "GM->UB read of", "(192 B)",
                       "is not inside one GM allocation");
}
}  // namespace

XTEST(gmalloc_padding_is_gm) {
    auto* x = static_cast<float*>(GmAlloc(kBytes));
    check_padding(x);
    GmFree(x);
}

XTEST(aclrtmalloc_padding_is_gm) {
    void* x = nullptr;
    XCHECK_EQ(aclrtMalloc(&x, kBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    check_padding(static_cast<float*>(x));
    XCHECK_EQ(aclrtFree(x), ACL_SUCCESS);
}

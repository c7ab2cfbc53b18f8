// PopStackBuffer (kernel_pop_stack_buffer.h): the UB the TPipe left free, from the
// end of its buffers to the UB end less the 128 B KfcMsg on 2201, as the
// temporary space of an advanced API called without a sharedTmpBuffer.
#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "xtest.h"

using namespace AscendC;
using ascend_sim::run_kernel;
using sim_test::global;
using sim_test::Gm;

namespace {
constexpr uint32_t kUb = 192 * 1024;  // TOTAL_UB_SIZE on 2201
constexpr uint32_t kKfcMsg = 128;

void one(const std::function<void()>& body) { run_kernel("stack_buffer", 1, body); }
}  // namespace

// The popped tensor starts where the last InitBuffer/InitBufPool ended and holds
// the rest; it is ordinary UB to the checks: written by Duplicate, copied out.
XTEST(pop_takes_the_rest_of_ub) {
    for (int autoSync : {1, 0}) {
        sim_test::AutoSync mode(autoSync);
        Gm<float> z(64, "z");
        one([&] {
            TPipe pipe;
            TBuf<TPosition::VECCALC> a;
            TBufPool<TPosition::VECCALC> pool;
            pipe.InitBuffer(a, 1000);         // 1024 B once rounded
            pipe.InitBufPool(pool, 2048);
            const auto base = reinterpret_cast<uintptr_t>(a.Get<uint8_t>().GetPhyAddr());
            LocalTensor<float> tmp;
            const bool popped = PopStackBuffer<float, TPosition::LCM>(tmp);
            XCHECK(popped);
            XCHECK_EQ(uint64_t(reinterpret_cast<uintptr_t>(tmp.GetPhyAddr()) - base), uint64_t(3072));
            XCHECK_EQ(tmp.GetSize(), (kUb - kKfcMsg - 3072) / uint32_t(sizeof(float)));
            Duplicate(tmp, 2.5f, 64);
            sim_test::sync<HardEvent::V_MTE3>();
            DataCopy(global(z.p, 64), tmp, 64);
        });
        for (int i = 0; i < 64; ++i) XCHECK_EQ(z.p[i], 2.5f);
    }
}

// Its bytes are unwritten until the kernel writes them; it needs a live TPipe.
XTEST(pop_is_checked) {
    Gm<float> z(64, "z");
    XCHECK_THROWS_WITH(one([&] {
                           TPipe pipe;
                           LocalTensor<float> tmp;
                           PopStackBuffer<float, TPosition::VECCALC>(tmp);
                           DataCopy(global(z.p, 64), tmp, 64);
                       }),
                       "DataCopy", "uninitialised read");
    XCHECK_THROWS_WITH(one([] {
                           LocalTensor<float> tmp;
                           PopStackBuffer<float, TPosition::LCM>(tmp);
                       }),
                       "PopStackBuffer (block 0)", "needs the block's live TPipe");
    // InitBuffer may take all of the UB; then nothing is left below the stack end.
    XCHECK_THROWS_WITH(one([] {
                           TPipe pipe;
                           TBuf<TPosition::VECCALC> all;
                           pipe.InitBuffer(all, kUb);
                           LocalTensor<float> tmp;
                           PopStackBuffer<float, TPosition::LCM>(tmp);
                       }),
                       "PopStackBuffer (block 0)", "the TPipe's buffers use 196608 B, none is left below the stack end at 196480 B");
}

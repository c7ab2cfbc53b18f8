// DataCopy from UB to UB (dav_c220 DataCopyUB2UBImpl, issued on PIPE_V): the count
// form and DataCopyParams (blockLen and gaps in 32 B blocks), through the hazard,
// initcheck and size checks.
#include <vector>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "xtest.h"

using namespace AscendC;
using ascend_sim::run_kernel;
using sim_test::global;
using sim_test::Gm;

namespace {
constexpr int32_t kN = 256;  // floats in, 8 per 32 B block

void one(const std::function<void()>& body) { run_kernel("ub_copy", 1, body); }

// x -> VECIN, `copy` VECIN -> VECOUT over a fill of -1, VECOUT -> z.
void through(float* x, float* z, const std::function<void(LocalTensor<float>&, LocalTensor<float>&)>& copy) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> in;
    TQue<TPosition::VECOUT, 1> out;
    pipe.InitBuffer(in, 1, kN * sizeof(float));
    pipe.InitBuffer(out, 1, kN * sizeof(float));
    auto a = in.AllocTensor<float>();
    DataCopy(a, global(x, kN), kN);
    in.EnQue(a);
    a = in.DeQue<float>();
    auto c = out.AllocTensor<float>();
    Duplicate(c, -1.0f, kN);
    PipeBarrier<PIPE_V>();  // both on PIPE_V: the copy overwrites the fill
    copy(c, a);
    out.EnQue(c);
    in.FreeTensor(a);
    c = out.DeQue<float>();
    DataCopy(global(z, kN), c, kN);
    out.FreeTensor(c);
}
}  // namespace

XTEST(count_and_block_forms_copy_between_positions) {
    for (int autoSync : {1, 0}) {
        sim_test::AutoSync mode(autoSync);
        Gm<float> x(kN, "x"), z0(kN, "z0"), z1(kN, "z1");
        for (int32_t i = 0; i < kN; ++i) x.p[i] = float(i) * 0.25f;
        one([&] { through(x.p, z0.p, [](auto& dst, auto& src) { DataCopy(dst, src, kN); }); });
        // 4 blocks of 2 x 32 B, one block skipped on the source side, two on the destination side.
        one([&] {
            through(x.p, z1.p, [](auto& dst, auto& src) { DataCopy(dst, src, DataCopyParams(4, 2, 1, 2)); });
        });
        for (int32_t i = 0; i < kN; ++i) XCHECK_EQ(z0.p[i], x.p[i]);
        std::vector<float> want(kN, -1.0f);
        for (int32_t blk = 0; blk < 4; ++blk)
            for (int32_t e = 0; e < 16; ++e) want[size_t(blk * 32 + e)] = x.p[blk * 24 + e];
        for (int32_t i = 0; i < kN; ++i) XCHECK_EQ(z1.p[i], want[size_t(i)]);
    }
}

// PIPE_V: a copy of what MTE2 just wrote needs the MTE2_V flag.
XTEST(ub_copy_is_a_vector_pipe_instruction) {
    sim_test::AutoSync off(0);
    Gm<float> x(kN, "x");
    XCHECK_THROWS_WITH(one([&] {
                           sim_test::Calc c(2 * kN * sizeof(float));
                           auto t = c.get<float>();
                           DataCopy(t, global(x.p, kN), kN);
                           DataCopy(t[kN], t, kN);
                       }),
                       "RAW on UB", "PIPE_V DataCopy", "written by PIPE_MTE2 DataCopy");
}

// Strided copies touch their blocks, not the hull: two that fill each other's gaps
// need no barrier between them even with auto-sync off; overlapping blocks do.
XTEST(strided_ub_copies_into_each_others_gaps) {
    sim_test::AutoSync off(0);
    one([] {
        sim_test::Calc c(3 * kN * sizeof(float));
        auto t = c.get<float>();
        Duplicate(t, 2.0f, kN);
        PipeBarrier<PIPE_V>();
        DataCopy(t[kN], t, DataCopyParams(4, 1, 0, 1));      // blocks 0, 2, 4, 6 of the destination
        DataCopy(t[kN + 8], t, DataCopyParams(4, 1, 0, 1));  // blocks 1, 3, 5, 7
        sim_test::sync<HardEvent::V_S>();
        for (int32_t i = 0; i < 64; ++i) XCHECK_EQ(t.GetValue(kN + i), 2.0f);
    });
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(3 * kN * sizeof(float));
                           auto t = c.get<float>();
                           Duplicate(t, 2.0f, kN);
                           PipeBarrier<PIPE_V>();
                           DataCopy(t[kN], t, DataCopyParams(4, 1, 0, 1));
                           DataCopy(t[kN + 16], t, DataCopyParams(4, 1, 0, 1));  // blocks 2, 4, 6, 8
                       }),
                       "WAW on UB", "PIPE_V DataCopy");
}

XTEST(ub_copy_is_checked) {
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(2 * kN * sizeof(float));
                           auto t = c.get<float>();
                           DataCopy(t[kN], t, kN);
                       }),
                       "DataCopy", "uninitialised read");
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(2 * kN * sizeof(float));
                           auto t = c.get<float>();
                           DataCopy(t[kN], t, 4);
                       }),
                       "UB->UB byte count 16 is not a multiple of 32");
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(2 * kN * sizeof(float));
                           auto t = c.get<float>();
                           Duplicate(t, 0.0f, 2 * kN);
                           PipeBarrier<PIPE_V>();
                           DataCopy(t[kN], t, DataCopyParams(2, 16, 0, 1));
                       }),
                       "UB destination footprint 1056 B", "exceeds the LocalTensor's 1024 B");
}

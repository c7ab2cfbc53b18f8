// A kernel compiled for one data-type combination of its op as CANN's op compiler
// compiles it: DTYPE_<NAME> and ORIG_DTYPE_<NAME> per parameter, compared in #if lines
// and if constexpr with the DT_* ids (ascend_xent_kernel_dtypes(... X float16 Y int8)
// in CMakeLists.txt), and ops-base's op_kernel/platform_util.h, which ops-nn's kernels
// include. Quantises x to y: y = round(x * 2) as int8.
#include <cstdint>
#include <type_traits>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "op_kernel/platform_util.h"
#include "sim_test_util.h"
#include "xtest.h"

using namespace AscendC;

static_assert(std::is_same_v<DTYPE_X, half> && std::is_same_v<DTYPE_Y, int8_t>, "DTYPE_<NAME>: the C++ types");
#if ORIG_DTYPE_X != DT_FLOAT16 || ORIG_DTYPE_Y != DT_INT8 || ORIG_DTYPE_Y == DT_INT4
#error "ORIG_DTYPE_<NAME> is the parameter's DT_* id"
#endif
static_assert(Ops::Base::GetUbBlockSize() == 32 && Ops::Base::GetVRegSize() == 256, "ops-base's platform constants");

namespace {
constexpr uint32_t kN = 64;

void quantise(GM_ADDR x, GM_ADDR y) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> in, wide, out;
    pipe.InitBuffer(in, kN * sizeof(DTYPE_X));
    pipe.InitBuffer(wide, kN * sizeof(DTYPE_X));
    pipe.InitBuffer(out, kN * sizeof(DTYPE_Y));
    GlobalTensor<DTYPE_X> xGm;
    GlobalTensor<DTYPE_Y> yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ DTYPE_X*>(x), kN);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ DTYPE_Y*>(y), kN);
    LocalTensor<DTYPE_X> a = in.Get<DTYPE_X>(), s = wide.Get<DTYPE_X>();
    LocalTensor<DTYPE_Y> q = out.Get<DTYPE_Y>();
    DataCopy(a, xGm, kN);
    sim_test::sync<HardEvent::MTE2_V>();
    Muls(s, a, DTYPE_X(2.0f), kN);
    PipeBarrier<PIPE_V>();
    if constexpr (ORIG_DTYPE_Y == DT_INT4) {
        static_assert(ORIG_DTYPE_Y != DT_INT4, "not this combination");
    } else {
        Cast(q, s, RoundMode::CAST_RINT, kN);
    }
    sim_test::sync<HardEvent::V_MTE3>();
    DataCopy(yGm, q, kN);
}
}  // namespace

XTEST(kernel_built_for_one_dtype_combination) {
    sim_test::Gm<DTYPE_X> x(kN, "x");
    sim_test::Gm<DTYPE_Y> y(kN, "y");
    for (uint32_t i = 0; i < kN; ++i) x.p[i] = DTYPE_X(float(i) * 0.25f - 8.0f);
    ascend_sim::run_kernel("quantise", 1, [&] {
        quantise(reinterpret_cast<GM_ADDR>(x.p), reinterpret_cast<GM_ADDR>(y.p));
    });
    for (uint32_t i = 0; i < kN; ++i) {
        const float v = (float(i) * 0.25f - 8.0f) * 2.0f;  // exact in half; whole or a half
        const float r = std::nearbyint(v);                 // round half to even, as CAST_RINT
        XCHECK_EQ(int(y.p[i]), int(r));
    }
}

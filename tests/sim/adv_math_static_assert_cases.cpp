// Math, Broadcast and Clamp uses the simulator refuses at compile time, one per
// SIM_CASE_* (tests/sim/CMakeLists.txt matches each compiler message); none
// compiles clean.
#include "kernel_operator.h"

using namespace AscendC;

void adv_math_cases(LocalTensor<float>& f, LocalTensor<half>& h, LocalTensor<int32_t>& i,
                    LocalTensor<uint8_t>& tmp) {
    (void)f, (void)h, (void)i, (void)tmp;
#if defined(SIM_CASE_XOR_FLOAT)
    Xor(f, f, f, tmp, 64u);
#elif defined(SIM_CASE_AXPY_HALF_FLOAT)
    Axpy(h, f, 1.0f, tmp, 64u);
#elif defined(SIM_CASE_EXP_HALF_REUSE)
    Exp<half, 10, true>(h, h, tmp, 64u);
#elif defined(SIM_CASE_CLAMPMIN_INT32)
    ClampMin(i, i, tmp, 0, 64u);
#elif defined(SIM_CASE_LOG_INT32)
    Log(i, i, 64u);
#elif defined(SIM_CASE_ERF_INT32)
    Erf(i, i, tmp, 64u);
#elif defined(SIM_CASE_ACOSH_INT32)
    Acosh(i, i, tmp, 64u);
#elif defined(SIM_CASE_FMOD_INT32)
    Fmod(i, i, i, tmp, 64u);
#elif defined(SIM_CASE_CUMSUM_LAST_AXIS)
    CumSum(f, f, f, tmp, CumSumInfo{16, 8});
#elif defined(SIM_CASE_BROADCAST_DIM3)
    const uint32_t s[3] = {1, 1, 8}, d[3] = {2, 2, 8};
    Broadcast<float, 3, 0>(f, f, d, s, tmp);
#elif defined(SIM_CASE_BROADCAST_B64)
    LocalTensor<int64_t> l = tmp.ReinterpretCast<int64_t>();
    const uint32_t s[2] = {1, 8}, d[2] = {2, 8};
    Broadcast<int64_t, 2, 0>(l, l, d, s, tmp);
#endif
}

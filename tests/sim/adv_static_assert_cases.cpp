// Advanced-API uses the simulator refuses at compile time, one per SIM_CASE_*
// (tests/sim/CMakeLists.txt matches each compiler message); none compiles clean.
#include "kernel_operator.h"

using namespace AscendC;

void adv_cases(LocalTensor<float>& f, LocalTensor<int16_t>& i, LocalTensor<uint8_t>& tmp) {
#if defined(SIM_CASE_SIGMOID_NO_TMP)
    Sigmoid(f, f, 64u);
#elif defined(SIM_CASE_GELU_NO_TMP)
    Gelu(f, f, 64u);
#elif defined(SIM_CASE_SIGMOID_INT16)
    Sigmoid(i, i, tmp, 64u);
#endif
    (void)f, (void)i, (void)tmp;
}

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
#elif defined(SIM_CASE_SOFTMAX_NO_TMP)
    SoftMax<float>(f, f, f, f, SoftMaxTiling{}, SoftMaxShapeInfo{});
#elif defined(SIM_CASE_SOFTMAX_BASICBLOCK)
    SoftMax<float, false, true>(f, f, f, f, tmp, SoftMaxTiling{}, SoftMaxShapeInfo{});
#elif defined(SIM_CASE_SOFTMAX_INT16)
    SoftMax<int16_t>(i, i, i, i, tmp, SoftMaxTiling{}, SoftMaxShapeInfo{});
#elif defined(SIM_CASE_SIMPLESOFTMAX_NZ)
    SimpleSoftMax<float, false, false, true>(f, f, f, f, tmp, SoftMaxTiling{}, SoftMaxShapeInfo{});
#elif defined(SIM_CASE_SUM_NO_TMP)
    Sum(f, f, SumParams{1, 64, 64});
#elif defined(SIM_CASE_SUM_INT16)
    Sum(i, i, tmp, SumParams{1, 64, 64});
#elif defined(SIM_CASE_CEIL_NO_TMP)
    Ceil(f, f, 64u);
#elif defined(SIM_CASE_TRUNC_INT16)
    Trunc(i, i, tmp, 64u);
#elif defined(SIM_CASE_FRAC_NO_TMP)
    Frac(f, f, 64u);
#endif
    (void)f, (void)i, (void)tmp;
}

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
#elif defined(SIM_CASE_ARANGE_UINT8)
    Arange<uint8_t>(tmp, uint8_t(0), uint8_t(1), 64);
#elif defined(SIM_CASE_ASCENDQUANT_NO_TMP)
    AscendQuant<float>(tmp.ReinterpretCast<int8_t>(), f, 1.0f, 0.0f, 64u);
#elif defined(SIM_CASE_ASCENDQUANT_INT16)
    AscendQuant<int16_t>(tmp.ReinterpretCast<int8_t>(), i, tmp, 1.0f, 0.0f, 64u);
#elif defined(SIM_CASE_UNPAD_UINT8)
    UnPadParams params(0, 1);
    UnPadTiling tiling;
    UnPad(tmp, tmp, params, tmp, tiling);
#elif defined(SIM_CASE_DROPOUT_NO_TMP)
    DropOut(f, f, tmp, 0.5f, DropOutShapeInfo{});
#elif defined(SIM_CASE_DROPOUT_INT16)
    DropOut(i, i, tmp, tmp, 0.5f, DropOutShapeInfo{});
#elif defined(SIM_CASE_RMSNORM_NO_TMP)
    RmsNorm(f, f, f, 1e-5f, RmsNormTiling{});
#elif defined(SIM_CASE_RMSNORM_INT16)
    RmsNorm(i, i, i, tmp, int16_t(0), RmsNormTiling{});
#elif defined(SIM_CASE_DEQUANT_NO_TMP)
    AscendDequant(f, f.ReinterpretCast<int32_t>(), f, DequantParams{1, 64, 64});
#elif defined(SIM_CASE_DEQUANT_HALF_FLOAT)
    AscendDequant(f.ReinterpretCast<half>(), f.ReinterpretCast<int32_t>(), f, tmp, DequantParams{1, 64, 64});
#elif defined(SIM_CASE_ASCENDQUANT_CHANNEL_NO_TMP)
    AscendQuant<float>(tmp.ReinterpretCast<int8_t>(), f, f, f);
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
#endif
    (void)f, (void)i, (void)tmp;
}

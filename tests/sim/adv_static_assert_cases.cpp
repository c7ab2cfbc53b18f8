// Advanced-API uses the simulator refuses at compile time, one per SIM_CASE_*
// (tests/sim/CMakeLists.txt matches each compiler message); none compiles clean.
#include "kernel_operator.h"

using namespace AscendC;

void adv_cases(LocalTensor<float>& f, LocalTensor<int16_t>& i, LocalTensor<uint8_t>& tmp) {
#if defined(SIM_CASE_SIGMOID_INT16)
    Sigmoid(i, i, tmp, 64u);
#elif defined(SIM_CASE_ARANGE_UINT8)
    Arange<uint8_t>(tmp, uint8_t(0), uint8_t(1), 64);
#elif defined(SIM_CASE_ASCENDQUANT_INT16)
    AscendQuant<int16_t>(tmp.ReinterpretCast<int8_t>(), i, tmp, 1.0f, 0.0f, 64u);
#elif defined(SIM_CASE_UNPAD_UINT8)
    UnPadParams params(0, 1);
    UnPadTiling tiling;
    UnPad(tmp, tmp, params, tmp, tiling);
#elif defined(SIM_CASE_DROPOUT_INT16)
    DropOut(i, i, tmp, tmp, 0.5f, DropOutShapeInfo{});
#elif defined(SIM_CASE_RMSNORM_INT16)
    RmsNorm(i, i, i, tmp, int16_t(0), RmsNormTiling{});
#elif defined(SIM_CASE_DEQUANT_HALF_FLOAT)
    AscendDequant(f.ReinterpretCast<half>(), f.ReinterpretCast<int32_t>(), f, tmp, DequantParams{1, 64, 64});
#elif defined(SIM_CASE_SOFTMAX_BASICBLOCK_HALF)
    auto h = tmp.ReinterpretCast<half>();
    SoftMax<half, false, true>(h, h, h, h, tmp, SoftMaxTiling{}, SoftMaxShapeInfo{});
#elif defined(SIM_CASE_SIMPLESOFTMAX_BASICBLOCK)
    SimpleSoftMax<float, false, true>(f, f, f, f, tmp, SoftMaxTiling{}, SoftMaxShapeInfo{});
#elif defined(SIM_CASE_SOFTMAXGRADFRONT_BASICBLOCK)
    SoftmaxGradFront<float, true>(f, f, f, tmp, SoftMaxTiling{}, SoftMaxShapeInfo{});
#elif defined(SIM_CASE_SOFTMAXGRAD_INT16)
    SoftmaxGrad<int16_t>(i, i, i, tmp, SoftMaxTiling{}, false, SoftMaxShapeInfo{});
#elif defined(SIM_CASE_REDUCEMAX_R)
    const uint32_t shape[2] = {1, 64};
    ReduceMax<float, Pattern::Reduce::R>(f, f, tmp, shape, true);
#elif defined(SIM_CASE_ADJUSTSOFTMAXRES_NZ)
    AdjustSoftMaxRes<float, float, true>(f, f, 0u, 0.0f, SoftMaxShapeInfo{});
#elif defined(SIM_CASE_SOFTMAX_INT16)
    SoftMax<int16_t>(i, i, i, i, tmp, SoftMaxTiling{}, SoftMaxShapeInfo{});
#elif defined(SIM_CASE_SIMPLESOFTMAX_NZ)
    SimpleSoftMax<float, false, false, true>(f, f, f, f, tmp, SoftMaxTiling{}, SoftMaxShapeInfo{});
#elif defined(SIM_CASE_SUM_INT16)
    Sum(i, i, tmp, SumParams{1, 64, 64});
#elif defined(SIM_CASE_CEIL_NO_TMP)
    Ceil(f, f, 64u);
#elif defined(SIM_CASE_TRUNC_INT16)
    Trunc(i, i, tmp, 64u);
#endif
    (void)f, (void)i, (void)tmp;
}

// GeGLU: dst = src0 * gelu(src1), gelu by the tanh form written as
// x / (1 + exp(COEFF0 x (x^2 + COEFF1))) (asc-devkit include/adv_api/activation/
// geglu.h; impl/adv_api/detail/activation/geglu/geglu_common_impl.h ::
// GeGLUImpl, GeGLUCompute). float: one Counter-mode pass over calCount, no
// tmp; half: chunks widened into two float slices of tmp (8 B an element).
#pragma once
#include <cstdint>
#include <type_traits>

#include "../kernel_sync.h"
#include "../kernel_vec_binary.h"
#include "../kernel_vec_cast.h"
#include "../kernel_vec_mask.h"
#include "../kernel_vec_scalar.h"
#include "../kernel_vec_unary.h"
#include "adv_check.h"

namespace AscendC {
namespace sim_adv {
namespace geglu {
constexpr float kCoeff0 = -0.0713548162726f;
constexpr float kCoeff1 = 2.2363860002236e1f;

// dst = src0 * gelu(x) over the mask's elements, x = src1; `g` holds gelu(x).
template <class T>
void steps(const LocalTensor<T>& g, const LocalTensor<T>& x) {
    const UnaryRepeatParams u;
    const BinaryRepeatParams b;
    Mul<T, false>(g, x, x, MASK_PLACEHOLDER, 1, b);
    PipeBarrier<PIPE_V>();
    Adds<T, false>(g, g, T(kCoeff1), MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Mul<T, false>(g, g, x, MASK_PLACEHOLDER, 1, b);
    PipeBarrier<PIPE_V>();
    Muls<T, false>(g, g, T(kCoeff0), MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Exp<T, false>(g, g, MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Adds<T, false>(g, g, T(1.0f), MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Div<T, false>(g, x, g, MASK_PLACEHOLDER, 1, b);
    PipeBarrier<PIPE_V>();
}

inline void compute(const LocalTensor<float>& dst, const LocalTensor<float>& src0, const LocalTensor<float>& src1,
                    const LocalTensor<float>&, uint32_t) {
    steps(dst, src1);
    Mul<float, false>(dst, src0, dst, MASK_PLACEHOLDER, 1, BinaryRepeatParams{});
    PipeBarrier<PIPE_V>();
}
// half: x and then src0 widened into the first slice, gelu in the second (`slice` floats apart).
inline void compute(const LocalTensor<half>& dst, const LocalTensor<half>& src0, const LocalTensor<half>& src1,
                    const LocalTensor<float>& tmp, uint32_t slice) {
    const LocalTensor<float> x = tmp, g = tmp[slice];
    const UnaryRepeatParams widen(1, 1, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE / 2);
    Cast<float, half, false>(x, src1, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, widen);
    PipeBarrier<PIPE_V>();
    steps(g, x);
    Cast<float, half, false>(x, src0, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, widen);
    PipeBarrier<PIPE_V>();
    Mul<float, false>(g, x, g, MASK_PLACEHOLDER, 1, BinaryRepeatParams{});
    PipeBarrier<PIPE_V>();
    // dav_c220 narrows with CAST_NONE.
    Cast<half, float, false>(dst, g, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1,
                             {1, 1, DEFAULT_REPEAT_STRIDE / 2, DEFAULT_REPEAT_STRIDE});
    PipeBarrier<PIPE_V>();
}
}  // namespace geglu
}  // namespace sim_adv

template <typename T, bool isReuseSource = false>
void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
           const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "GeGLU: A2/A3 support half and float");
    constexpr const char* api = "GeGLU";
    if (srcTensor0.GetSize() != srcTensor1.GetSize())
        sim_adv::d::fail(api, "sizes differ", "srcTensor0 holds %u elements, srcTensor1 %u; they must be equal",
                         srcTensor0.GetSize(), srcTensor1.GetSize());
    sim_adv::check_count(api, calCount, srcTensor0, "srcTensor0");
    sim_adv::check_count(api, calCount, dstTensor, "dstTensor");
    sim_adv::check_disjoint(api, dstTensor, calCount, "dstTensor", srcTensor0, calCount, "srcTensor0");
    sim_adv::check_disjoint(api, dstTensor, calCount, "dstTensor", srcTensor1, calCount, "srcTensor1");
    const LocalTensor<float> tmp = sharedTmpBuffer.ReinterpretCast<float>();
    SetMaskCount();
    if constexpr (sizeof(T) == 2) {
        // GetGeGLUMaxMinTmpSize's minimum: 4 x 256 B (with less than a block's
        // 16 elements dav_c220 would loop forever on chunks of none).
        sim_adv::check_tmp(api, sharedTmpBuffer, 4 * 256, "GetGeGLUMaxMinTmpSize");
        const uint32_t tmpBytes = sharedTmpBuffer.GetSize();
        sim_adv::check_disjoint(api, sharedTmpBuffer, tmpBytes, "sharedTmpBuffer", srcTensor0, calCount, "srcTensor0");
        sim_adv::check_disjoint(api, sharedTmpBuffer, tmpBytes, "sharedTmpBuffer", srcTensor1, calCount, "srcTensor1");
        sim_adv::check_disjoint(api, sharedTmpBuffer, tmpBytes, "sharedTmpBuffer", dstTensor, calCount, "dstTensor");
        const uint32_t chunk = tmpBytes / 8 / 16 * 16;
        for (uint32_t off = 0; off < calCount; off += chunk) {
            const uint32_t n = calCount - off < chunk ? calCount - off : chunk;
            SetVectorMask<T, MaskMode::COUNTER>(0, n);
            sim_adv::geglu::compute(dstTensor[off], srcTensor0[off], srcTensor1[off], tmp, (n + 15) / 16 * 16);
        }
    } else {
        SetVectorMask<T, MaskMode::COUNTER>(0, calCount);
        sim_adv::geglu::compute(dstTensor, srcTensor0, srcTensor1, tmp, calCount);
    }
    SetMaskNorm();
    ResetMask();
}
template <typename T, bool isReuseSource = false>
void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
           uint32_t calCount) {
    GeGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, sim_adv::stack_tmp("GeGLU"), calCount);
}
template <typename T, bool isReuseSource = false>
void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
           const LocalTensor<uint8_t>& sharedTmpBuffer) {
    GeGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, sharedTmpBuffer, srcTensor0.GetSize());
}
template <typename T, bool isReuseSource = false>
void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1) {
    GeGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, srcTensor0.GetSize());
}

}  // namespace AscendC

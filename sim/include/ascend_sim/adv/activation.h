// Sigmoid, Silu, Swish and SwiGLU (asc-devkit include/adv_api/activation/;
// dav_c220: impl/adv_api/detail/activation/sigmoid/sigmoid_impl.h,
// silu/silu_common_impl.h, swish/swish_common_impl.h,
// swiglu/swiglu_common_impl.h): the same Counter-mode sequences of basic ops,
// with the PipeBarrier<PIPE_V>s between them, so every check sees each op.
#pragma once
#include <cstdint>

#include "../kernel_sync.h"
#include "../kernel_vec_cast.h"
#include "../kernel_vec_mask.h"
#include "../kernel_vec_binary.h"
#include "../kernel_vec_scalar.h"
#include "../kernel_vec_unary.h"
#include "adv_check.h"

namespace AscendC {
namespace sim_adv {

// x / (1 + exp(beta' * x)) over the elements the Counter-mode mask holds
// (beta' = -1 for Silu, -beta for Swish); dst may be the Div's dst only.
template <class T>
void swish_steps(const LocalTensor<T>& dst, const LocalTensor<T>& src, T negBeta) {
    const UnaryRepeatParams u;
    const BinaryRepeatParams b;
    Muls<T, false>(dst, src, negBeta, MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Exp<T, false>(dst, dst, MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Adds<T, false>(dst, dst, T(1), MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Div<T, false>(dst, src, dst, MASK_PLACEHOLDER, 1, b);
    PipeBarrier<PIPE_V>();
}

// dav_c220 runs Silu and Swish as one Counter-mode pass over count elements.
template <class T>
void swish_pass(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count, T negBeta) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "Silu/Swish: A2/A3 support half and float");
    check_count(api, count, src, "srcLocal");
    check_count(api, count, dst, "dstLocal");
    check_disjoint(api, src, count, "srcLocal", dst, count, "dstLocal");
    SetMaskCount();
    SetVectorMask<T, MaskMode::COUNTER>(0, count);
    swish_steps(dst, src, negBeta);
    SetMaskNorm();
    ResetMask();
}

// One SwiGLU chunk on float: dst = src0 * swish(src1).
inline void swiglu_chunk(const LocalTensor<float>& dst, const LocalTensor<float>& src0,
                         const LocalTensor<float>& src1, float negBeta, const LocalTensor<float>&, uint32_t) {
    swish_steps(dst, src1, negBeta);
    Mul<float, false>(dst, src0, dst, MASK_PLACEHOLDER, 1, BinaryRepeatParams{});
    PipeBarrier<PIPE_V>();
}

// On half: both inputs widened into three float slices of `slice` elements.
inline void swiglu_chunk(const LocalTensor<half>& dst, const LocalTensor<half>& src0, const LocalTensor<half>& src1,
                         float negBeta, const LocalTensor<float>& tmp, uint32_t slice) {
    const LocalTensor<float> wide1 = tmp, act = tmp[slice], wide0 = tmp[2 * slice];
    const UnaryRepeatParams widen(1, 1, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE / 2);
    Cast<float, half, false>(wide1, src1, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, widen);
    PipeBarrier<PIPE_V>();
    swish_steps(act, wide1, negBeta);
    Cast<float, half, false>(wide0, src0, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, widen);
    PipeBarrier<PIPE_V>();
    Mul<float, false>(act, wide0, act, MASK_PLACEHOLDER, 1, BinaryRepeatParams{});
    PipeBarrier<PIPE_V>();
    Cast<half, float, false>(dst, act, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1,
                             UnaryRepeatParams(1, 1, DEFAULT_REPEAT_STRIDE / 2, DEFAULT_REPEAT_STRIDE));
    PipeBarrier<PIPE_V>();
}

}  // namespace sim_adv

// ---- Sigmoid: 1 / (1 + exp(-x)), the 1s in sharedTmpBuffer ----

template <typename T, bool isReuseSource = false>
void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
             const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "Sigmoid: A2/A3 support half and float");
    constexpr const char* api = "Sigmoid";
    sim_adv::check_count(api, calCount, srcTensor, "srcTensor");
    sim_adv::check_count(api, calCount, dstTensor, "dstTensor");
    const uint32_t tmpBytes = sharedTmpBuffer.GetSize();
    sim_adv::check_disjoint(api, srcTensor, calCount, "srcTensor", dstTensor, calCount, "dstTensor");
    sim_adv::check_disjoint(api, sharedTmpBuffer, tmpBytes, "sharedTmpBuffer", srcTensor, calCount, "srcTensor");
    sim_adv::check_disjoint(api, sharedTmpBuffer, tmpBytes, "sharedTmpBuffer", dstTensor, calCount, "dstTensor");
    sim_adv::check_tmp(api, sharedTmpBuffer, 256, "GetSigmoidMaxMinTmpSize");
    const uint32_t split = sharedTmpBuffer.GetSize() / sizeof(T);
    const LocalTensor<T> ones = sharedTmpBuffer.ReinterpretCast<T>();
    const UnaryRepeatParams u;
    const BinaryRepeatParams b;
    SetMaskCount();
    for (uint32_t off = 0; off < calCount; off += split) {
        const uint32_t n = calCount - off < split ? calCount - off : split;
        SetVectorMask<T, MaskMode::COUNTER>(0, n);
        const LocalTensor<T> dst = dstTensor[off], src = srcTensor[off];
        PipeBarrier<PIPE_V>();
        Muls<T, false>(dst, src, T(-1), MASK_PLACEHOLDER, 1, u);
        PipeBarrier<PIPE_V>();
        Exp<T, false>(dst, dst, MASK_PLACEHOLDER, 1, u);
        PipeBarrier<PIPE_V>();
        Adds<T, false>(dst, dst, T(1), MASK_PLACEHOLDER, 1, u);
        Duplicate<T, false>(ones, T(1), MASK_PLACEHOLDER, 1, DEFAULT_BLK_STRIDE, DEFAULT_REPEAT_STRIDE);
        PipeBarrier<PIPE_V>();
        Div<T, false>(dst, ones, dst, MASK_PLACEHOLDER, 1, b);
        PipeBarrier<PIPE_V>();
    }
    SetMaskNorm();
    ResetMask();
}
template <typename T, bool isReuseSource = false>
void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
             const LocalTensor<uint8_t>& sharedTmpBuffer) {
    Sigmoid<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize());
}
template <typename T, bool isReuseSource = false>
void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount) {
    Sigmoid<T, isReuseSource>(dstTensor, srcTensor, sim_adv::stack_tmp("Sigmoid"), calCount);
}
template <typename T, bool isReuseSource = false>
void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {
    Sigmoid<T, isReuseSource>(dstTensor, srcTensor, sim_adv::stack_tmp("Sigmoid"), srcTensor.GetSize());
}

// ---- Silu: x / (1 + exp(-x)); Swish: x / (1 + exp(-beta x)) ----

template <typename T, bool isReuseSource = false>
void Silu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize) {
    sim_adv::swish_pass("Silu", dstLocal, srcLocal, dataSize, T(-1));
}

template <typename T, bool isReuseSource = false>
void Swish(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize, const T scalarValue) {
    sim_adv::swish_pass("Swish", dstLocal, srcLocal, dataSize, T(-1.0f * float(scalarValue)));
}

// ---- SwiGLU: src0 * src1 / (1 + exp(-beta src1)) ----

template <typename T, bool isReuseSource = false>
void SwiGLU(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
            const float& scalarValue, const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "SwiGLU: A2/A3 support half and float");
    constexpr const char* api = "SwiGLU";
    if (srcTensor0.GetSize() != srcTensor1.GetSize())
        ascend_sim::detail::fail(api, "input sizes differ", "srcTensor0 holds %u elements, srcTensor1 %u; they must be equal",
                                 srcTensor0.GetSize(), srcTensor1.GetSize());
    sim_adv::check_count(api, calCount, srcTensor0, "srcTensor0");
    sim_adv::check_count(api, calCount, dstTensor, "dstTensor");
    sim_adv::check_disjoint(api, srcTensor0, calCount, "srcTensor0", dstTensor, calCount, "dstTensor");
    sim_adv::check_disjoint(api, srcTensor1, calCount, "srcTensor1", dstTensor, calCount, "dstTensor");
    // GetSwiGLUMaxMinTmpSize: 6 x 256 B for half, none for float.
    if constexpr (sizeof(T) == 2) {
        const uint32_t tmpBytes = sharedTmpBuffer.GetSize();
        sim_adv::check_tmp(api, sharedTmpBuffer, 6 * 256, "GetSwiGLUMaxMinTmpSize");
        sim_adv::check_disjoint(api, sharedTmpBuffer, tmpBytes, "sharedTmpBuffer", srcTensor0, calCount, "srcTensor0");
        sim_adv::check_disjoint(api, sharedTmpBuffer, tmpBytes, "sharedTmpBuffer", srcTensor1, calCount, "srcTensor1");
        sim_adv::check_disjoint(api, sharedTmpBuffer, tmpBytes, "sharedTmpBuffer", dstTensor, calCount, "dstTensor");
    }
    constexpr uint32_t perBlock = ONE_BLK_SIZE / sizeof(T);
    uint32_t step = sizeof(T) == 2 ? sharedTmpBuffer.GetSize() / sizeof(float) / 3 : calCount;
    step = step / perBlock * perBlock;
    if (step == 0) step = perBlock;
    const LocalTensor<float> tmp = sharedTmpBuffer.ReinterpretCast<float>();
    const float negBeta = -1.0f * scalarValue;
    SetMaskCount();
    for (uint32_t off = 0; off < calCount; off += step) {
        const uint32_t n = calCount - off < step ? calCount - off : step;
        SetVectorMask<T, MaskMode::COUNTER>(0, n);
        // A tail's slices start at whole 32 B blocks.
        sim_adv::swiglu_chunk(dstTensor[off], srcTensor0[off], srcTensor1[off], negBeta, tmp,
                              (n + perBlock - 1) / perBlock * perBlock);
    }
    SetMaskNorm();
    ResetMask();
}
template <typename T, bool isReuseSource = false>
void SwiGLU(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
            const float& scalarValue, const LocalTensor<uint8_t>& sharedTmpBuffer) {
    SwiGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, scalarValue, sharedTmpBuffer, srcTensor0.GetSize());
}
template <typename T, bool isReuseSource = false>
void SwiGLU(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
            const float& scalarValue, const uint32_t calCount) {
    SwiGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, scalarValue, sim_adv::stack_tmp("SwiGLU"), calCount);
}
template <typename T, bool isReuseSource = false>
void SwiGLU(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
            const float& scalarValue) {
    SwiGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, scalarValue, sim_adv::stack_tmp("SwiGLU"),
                             srcTensor0.GetSize());
}

}  // namespace AscendC

// Gelu, FasterGelu and FasterGeluV2 (asc-devkit include/adv_api/activation/gelu.h;
// dav_c220: impl/adv_api/detail/activation/gelu/gelu_impl.h): sharedTmpBuffer is
// cut into 1-3 slices (one more, for the float copy, when highPrecision widens
// half); each Counter-mode chunk of a slice's size runs the formula's basic ops.
#pragma once
#include <cstdint>

#include "activation.h"

namespace AscendC {
namespace sim_adv {

template <class T>
struct GeluSlices {
    LocalTensor<T> a, b, c;
};

// GeluCalcSimplifiedAvoid: x * exp(min(y, 0)) / (1 + exp(-|y|)), y = 1.5957691 (x + 0.044715 x^3).
template <class T, bool highPerformance>
void gelu_steps(const LocalTensor<T>& dst, const LocalTensor<T>& src, const GeluSlices<T>& t) {
    const UnaryRepeatParams u;
    const BinaryRepeatParams b;
    Mul<T, false>(t.a, src, src, MASK_PLACEHOLDER, 1, b);
    PipeBarrier<PIPE_V>();
    Mul<T, false>(t.b, src, t.a, MASK_PLACEHOLDER, 1, b);
    PipeBarrier<PIPE_V>();
    Muls<T, false>(t.a, t.b, T(0.044715), MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Add<T, false>(t.b, src, t.a, MASK_PLACEHOLDER, 1, b);
    PipeBarrier<PIPE_V>();
    Muls<T, false>(t.a, t.b, T(1.5957691216057308), MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Mins<T, false>(t.b, t.a, T(0), MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Exp<T, false>(t.b, t.b, MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Abs<T, false>(t.a, t.a, MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Muls<T, false>(t.a, t.a, T(-1), MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Exp<T, false>(t.a, t.a, MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Adds<T, false>(t.a, t.a, T(1), MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    if constexpr (highPerformance) {
        Reciprocal<T, false>(t.a, t.a, MASK_PLACEHOLDER, 1, u);
        PipeBarrier<PIPE_V>();
        Mul<T, false>(t.a, src, t.a, MASK_PLACEHOLDER, 1, b);
    } else {
        Div<T, false>(t.a, src, t.a, MASK_PLACEHOLDER, 1, b);
    }
    PipeBarrier<PIPE_V>();
    Mul<T, false>(dst, t.a, t.b, MASK_PLACEHOLDER, 1, b);
    PipeBarrier<PIPE_V>();
}

// x / (1 + exp(-1.702 x)), or x * (1 / (...)) with highPerformance.
template <class T, bool highPerformance>
void x_over_one_plus_exp(const LocalTensor<T>& dst, const LocalTensor<T>& x, const LocalTensor<T>& t) {
    const UnaryRepeatParams u;
    const BinaryRepeatParams b;
    Muls<T, false>(t, x, T(-1.702), MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Exp<T, false>(t, t, MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Adds<T, false>(t, t, T(1), MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    if constexpr (highPerformance) {
        Reciprocal<T, false>(t, t, MASK_PLACEHOLDER, 1, u);
        PipeBarrier<PIPE_V>();
        Mul<T, false>(dst, x, t, MASK_PLACEHOLDER, 1, b);
    } else {
        Div<T, false>(dst, x, t, MASK_PLACEHOLDER, 1, b);
    }
    PipeBarrier<PIPE_V>();
}

template <class T, bool highPerformance>
void faster_gelu_steps(const LocalTensor<T>& dst, const LocalTensor<T>& src, const GeluSlices<T>& t) {
    x_over_one_plus_exp<T, highPerformance>(dst, src, t.a);
}

// FastGeluV2CalcSimplified: x * (sgn(x) * (-0.1444 (min(|0.7071 x|, 1.769) - 1.769)^2 + 0.5) + 0.5),
// sgn(x) = (x + 1e-12) / |x + 1e-12|.
template <class T, bool highPerformance>
void faster_gelu_v2_steps(const LocalTensor<T>& dst, const LocalTensor<T>& src, const GeluSlices<T>& t) {
    const UnaryRepeatParams u;
    const BinaryRepeatParams b;
    Muls<T, false>(t.a, src, T(0.7071), MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Abs<T, false>(t.a, t.a, MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Mins<T, false>(t.a, t.a, T(1.769), MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Adds<T, false>(t.a, t.a, T(-1.769), MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Mul<T, false>(t.a, t.a, t.a, MASK_PLACEHOLDER, 1, b);
    PipeBarrier<PIPE_V>();
    Muls<T, false>(t.a, t.a, T(-0.1444), MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Adds<T, false>(t.a, t.a, T(0.5), MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Adds<T, false>(t.b, src, T(0.000000000001), MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Abs<T, false>(t.c, t.b, MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    if constexpr (highPerformance) {
        Reciprocal<T, false>(t.c, t.c, MASK_PLACEHOLDER, 1, u);
        PipeBarrier<PIPE_V>();
        Mul<T, false>(t.b, t.b, t.c, MASK_PLACEHOLDER, 1, b);
    } else {
        Div<T, false>(t.b, t.b, t.c, MASK_PLACEHOLDER, 1, b);
    }
    PipeBarrier<PIPE_V>();
    Mul<T, false>(t.a, t.a, t.b, MASK_PLACEHOLDER, 1, b);
    PipeBarrier<PIPE_V>();
    Adds<T, false>(t.a, t.a, T(0.5), MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Mul<T, false>(dst, src, t.a, MASK_PLACEHOLDER, 1, b);
    PipeBarrier<PIPE_V>();
}

// Cast over one Counter-mode chunk, the half side's repeats 128 B apart.
inline void widen(const LocalTensor<float>& dst, const LocalTensor<half>& src) {
    Cast<float, half, false>(dst, src, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1,
                             UnaryRepeatParams(1, 1, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE / 2));
    PipeBarrier<PIPE_V>();
}
inline void narrow(const LocalTensor<half>& dst, const LocalTensor<float>& src) {
    Cast<half, float, false>(dst, src, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1,
                             UnaryRepeatParams(1, 1, DEFAULT_REPEAT_STRIDE / 2, DEFAULT_REPEAT_STRIDE));
    PipeBarrier<PIPE_V>();
}

// GeluClass / GeluFormulas(HighPrecision): the slices are the buffer's elements of
// C over (slices + the float copy) rounded down to 32 elements; slice a is the
// whole buffer from its start, as on the NPU.
template <class T, class C, uint32_t slices, class F>
void gelu_run(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src,
              const LocalTensor<uint8_t>& tmpBytes, uint32_t count, F formula) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "Gelu: A2/A3 support half and float");
    check_count(api, count, dst, "dstLocal");
    check_count(api, count, src, "srcLocal");
    check_disjoint(api, tmpBytes, tmpBytes.GetSize(), "sharedTmpBuffer", dst, count, "dstLocal");
    check_disjoint(api, tmpBytes, tmpBytes.GetSize(), "sharedTmpBuffer", src, count, "srcLocal");
    check_tmp(api, tmpBytes, 3 * 256, "GetGeluMaxMinTmpSize");
    constexpr bool widened = !std::is_same_v<T, C>;
    const LocalTensor<C> tmp = tmpBytes.ReinterpretCast<C>();
    const uint32_t slice = tmp.GetSize() / (slices + (widened ? 1 : 0)) / ONE_BLK_SIZE * ONE_BLK_SIZE;
    GeluSlices<C> t{tmp, slices >= 2 ? tmp[slice] : LocalTensor<C>{}, slices >= 3 ? tmp[2 * slice] : LocalTensor<C>{}};
    const LocalTensor<C> conv = tmp[slices * slice];
    SetMaskCount();
    for (uint32_t off = 0; off < count; off += slice) {
        SetVectorMask<uint8_t, MaskMode::COUNTER>(0, count - off < slice ? count - off : slice);
        if constexpr (widened) {
            widen(conv, src[off]);
            formula(conv, conv, t);
            narrow(dst[off], conv);
        } else {
            formula(dst[off], src[off], t);
        }
    }
    SetMaskNorm();
    ResetMask();
}

// highPrecision computes half in float.
template <class T, bool highPrecision>
using gelu_compute_t = std::conditional_t<highPrecision && std::is_same_v<T, half>, float, T>;

}  // namespace sim_adv

template <typename T, bool highPrecision = false, bool highPerformance = false>
void Gelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<uint8_t>& sharedTmpBuffer,
          const uint32_t dataSize) {
    using C = sim_adv::gelu_compute_t<T, highPrecision>;
    sim_adv::gelu_run<T, C, 2>("Gelu", dstLocal, srcLocal, sharedTmpBuffer, dataSize,
                               &sim_adv::gelu_steps<C, highPerformance>);
}
template <typename T, bool highPrecision = false, bool highPerformance = false>
void Gelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dataSize) {
    Gelu<T, highPrecision, highPerformance>(dstLocal, srcLocal, sim_adv::stack_tmp("Gelu"), dataSize);
}

template <typename T, bool highPrecision = false, bool highPerformance = false>
void FasterGelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t dataSize) {
    using C = sim_adv::gelu_compute_t<T, highPrecision>;
    sim_adv::gelu_run<T, C, 1>("FasterGelu", dstLocal, srcLocal, sharedTmpBuffer, dataSize,
                               &sim_adv::faster_gelu_steps<C, highPerformance>);
}
template <typename T, bool highPrecision = false, bool highPerformance = false>
void FasterGelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dataSize) {
    FasterGelu<T, highPrecision, highPerformance>(dstLocal, srcLocal, sim_adv::stack_tmp("FasterGelu"), dataSize);
}

template <typename T, bool highPrecision = false, bool highPerformance = false>
void FasterGeluV2(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                  const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t dataSize) {
    using C = sim_adv::gelu_compute_t<T, highPrecision>;
    sim_adv::gelu_run<T, C, 3>("FasterGeluV2", dstLocal, srcLocal, sharedTmpBuffer, dataSize,
                               &sim_adv::faster_gelu_v2_steps<C, highPerformance>);
}
template <typename T, bool highPrecision = false, bool highPerformance = false>
void FasterGeluV2(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dataSize) {
    FasterGeluV2<T, highPrecision, highPerformance>(dstLocal, srcLocal, sim_adv::stack_tmp("FasterGeluV2"), dataSize);
}

}  // namespace AscendC

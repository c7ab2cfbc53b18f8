// Erf (asc-devkit include/adv_api/math/erf.h; dav_c220: impl/adv_api/detail/
// math/erf/erf_common_impl.h :: ErfImpl, ErfCompute, ErfClip, ErfComputeP,
// ErfComputeQ): x clipped to [-3.92, 3.92], then x * P(x^2) / Q(x^2) with the
// rational coefficients, in Counter-mode chunks of the tmp (float: three float
// slices; half: widened into a fourth and narrowed with CAST_ROUND on 2201).
#pragma once
#include <cstdint>
#include <type_traits>

#include "../kernel_sync.h"
#include "../kernel_vec_binary.h"
#include "../kernel_vec_cast.h"
#include "../kernel_vec_scalar.h"
#include "math_common.h"

namespace AscendC {
namespace sim_adv {

// One Horner step: out = x2 * in, then sum = out + c.
inline void horner_step(const LocalTensor<float>& out, const LocalTensor<float>& x2, const LocalTensor<float>& in,
                        const LocalTensor<float>& sum, float c) {
    Mul<float, false>(out, x2, in, MASK_PLACEHOLDER, 1, BinaryRepeatParams{});
    PipeBarrier<PIPE_V>();
    Adds<float, false>(sum, out, c, MASK_PLACEHOLDER, 1, UnaryRepeatParams{});
    PipeBarrier<PIPE_V>();
}

// dst = erf(x) of a clipped copy in x; s1..s3 the float slices (s1 ends as x^2).
inline void erf_steps(const LocalTensor<float>& dst, const LocalTensor<float>& src, const LocalTensor<float>& x,
                      const LocalTensor<float>& s1, const LocalTensor<float>& s2, const LocalTensor<float>& s3) {
    const UnaryRepeatParams u;
    Mins<float, false>(s1, src, 3.92f, MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Maxs<float, false>(x, s1, -3.92f, MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    // P: s2 = x * (((((p5 x2 + p4) x2 + p3) x2 + p2) x2 + p1) x2 + p0)
    Mul<float, false>(s1, x, x, MASK_PLACEHOLDER, 1, BinaryRepeatParams{});
    PipeBarrier<PIPE_V>();
    Muls<float, false>(s2, s1, 0.053443748819f, MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Adds<float, false>(s3, s2, 0.75517016694e1f, MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    for (float c : {0.10162808918e3f, 0.13938061484e4f, 0.50637915060e4f, 0.29639384698e5f})
        horner_step(s2, s1, s3, s3, c);
    Mul<float, false>(s2, x, s3, MASK_PLACEHOLDER, 1, BinaryRepeatParams{});
    PipeBarrier<PIPE_V>();
    // Q: s3 = (((x2 + q4) x2 + q3) x2 + q2) x2 + q1) x2 + q0, through x
    Adds<float, false>(s3, s1, 0.31212858877e2f, MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    for (float c : {0.39856963806e3f, 0.30231248150e4f, 0.13243365831e5f, 0.26267224157e5f})
        horner_step(x, s1, s3, s3, c);
    Div<float, false>(dst, s2, s3, MASK_PLACEHOLDER, 1, BinaryRepeatParams{});
    PipeBarrier<PIPE_V>();
}

}  // namespace sim_adv

template <typename T, bool isReuseSource = false>
void Erf(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
         const uint32_t calCount) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "Erf: A2/A3 support half and float");
    constexpr const char* api = "Erf";
    sim_adv::math_checks(api, dstTensor, srcTensor, sharedTmpBuffer, calCount);
    // ErfImpl: 3 float slices (float) or 4 (half: 8 half-sized units), 32-element multiples.
    const uint32_t units = sharedTmpBuffer.GetSize() / sizeof(T);
    const uint32_t slice = units / (sizeof(T) == 2 ? 8 : 3) / ONE_BLK_SIZE * ONE_BLK_SIZE;
    if (slice == 0)
        sim_adv::d::fail(api, "sharedTmpBuffer below the minimum",
                         "sharedTmpBuffer holds %u B, too little for %s float slices of 32 elements",
                         sharedTmpBuffer.GetSize(), sizeof(T) == 2 ? "four" : "three");
    const LocalTensor<float> s1 = sharedTmpBuffer.ReinterpretCast<float>(), s2 = s1[slice], s3 = s2[slice];
    sim_adv::counter_chunks<half>(calCount, slice, [&](uint32_t at) {
        if constexpr (sizeof(T) == sizeof(float)) {
            sim_adv::erf_steps(dstTensor[at], srcTensor[at], dstTensor[at], s1, s2, s3);
        } else {
            const LocalTensor<float> x = s3[slice];
            Cast<float, half, false>(x, srcTensor[at], RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1,
                                     {1, 1, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE / 2});
            PipeBarrier<PIPE_V>();
            sim_adv::erf_steps(s1, x, x, s1, s2, s3);
            Cast<half, float, false>(dstTensor[at], s1, RoundMode::CAST_ROUND, MASK_PLACEHOLDER, 1,
                                     {1, 1, DEFAULT_REPEAT_STRIDE / 2, DEFAULT_REPEAT_STRIDE});
            PipeBarrier<PIPE_V>();
        }
    });
}
template <typename T, bool isReuseSource = false>
void Erf(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
         const LocalTensor<uint8_t>& sharedTmpBuffer) {
    Erf<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize());
}
template <typename T, bool isReuseSource = false>
void Erf(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount) {
    Erf<T, isReuseSource>(dstTensor, srcTensor, sim_adv::stack_tmp("Erf"), calCount);
}
template <typename T, bool isReuseSource = false>
void Erf(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {
    Erf<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize());
}

}  // namespace AscendC

// The simulator's Exp (float and half), within 1 ulp of the exact value.
//
//   x = (32k + j) ln2/32 + r,  N = 32k + j = rint(x * 32/ln2),  |r| <= ln2/64
//   exp(x) = 2^k * T_j * e^r,  T_j = 2^(j/32) = hi_j + lo_j (two floats)
//   s = (hi_j * q + lo_j) + hi_j,  q = r + r^2 (1/2 + r/6)   (e^r - 1; truncation < 6e-10)
//   exp(x) = s * 2^k, rounded once.
// r = x - N*C1 is exact (C1 = ln2/32 to 12 bits, see docs/simulator_numerics.md),
// then r -= N*C2 rounds once. Max error 0.55 ulp for normal results; a subnormal
// result rounds twice (s, then s * 2^k) and stays within 1 ulp.
//
// Two paths give bitwise the same results: AVX-512 (vpermi2ps looks the table up,
// vscalefps scales and rounds once) and portable scalar code (an array index; the
// scaling in double, exact, then one rounding to float). The fused multiply-adds
// are explicit in both, so -ffp-contract cannot change a bit. The real unit is not
// correctly rounded either; the tests hold us to <= 2 ulp and to path equality.
#pragma once
#include <cstddef>
#include <cstdint>

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

#include "fp_bits.h"
#include "types.h"

namespace ascend_sim::numerics {

namespace detail {

// 2^(j/32) = kExpHi[j] + kExpLo[j], each the nearest float (from 60-digit decimals).
alignas(64) inline constexpr float kExpHi[32] = {
    0x1p0f,       0x1.059b0ep0f, 0x1.0b5586p0f, 0x1.11301ep0f, 0x1.172b84p0f, 0x1.1d4874p0f, 0x1.2387a6p0f,
    0x1.29e9ep0f, 0x1.306fep0f,  0x1.371a74p0f, 0x1.3dea64p0f, 0x1.44e086p0f, 0x1.4bfdaep0f, 0x1.5342b6p0f,
    0x1.5ab07ep0f, 0x1.6247ecp0f, 0x1.6a09e6p0f, 0x1.71f75ep0f, 0x1.7a1148p0f, 0x1.82589ap0f, 0x1.8ace54p0f,
    0x1.93737cp0f, 0x1.9c4918p0f, 0x1.a5503cp0f, 0x1.ae89fap0f, 0x1.b7f77p0f,  0x1.c199bep0f, 0x1.cb720ep0f,
    0x1.d5818ep0f, 0x1.dfc974p0f, 0x1.ea4afap0f, 0x1.f50766p0f,
};
alignas(64) inline constexpr float kExpLo[32] = {
    0.0f,           -0x1.9d4f52p-25f, 0x1.9f3122p-25f,  -0x1.fdb496p-25f, -0x1.c15742p-27f, -0x1.d2e8cap-25f,
    0x1.ceac48p-25f, -0x1.5c0424p-25f, 0x1.4636e2p-25f, -0x1.18aac6p-25f, 0x1.824684p-25f,  0x1.8624b4p-30f,
    -0x1.593abcp-25f, -0x1.2c561p-25f, -0x1.5bd5ecp-27f, -0x1.f8b55p-25f, 0x1.9fcef4p-26f,  0x1.1d8beep-25f,
    -0x1.829fdp-25f, -0x1.accc7cp-26f, 0x1.15506ep-27f,  -0x1.e64744p-25f, 0x1.51f848p-27f, -0x1.b83b54p-25f,
    -0x1.a94b14p-26f, -0x1.a09438p-25f, -0x1.3d56b2p-27f, -0x1.8837ccp-27f, -0x1.822dbcp-27f, -0x1.908c94p-25f,
    0x1.52486cp-27f, -0x1.246ebp-26f,
};

struct ExpConst {
    // exp(-150) rounds to +0 and exp(100) to +Inf; the clamp keeps N within the shifter's range.
    static constexpr float kLo = -150.0f, kHi = 100.0f;
    static constexpr float kShifter = 0x1.8p23f;  // t = x*32/ln2 + shifter holds N in its low bits
    static constexpr float kInvL = 0x1.715476p5f; // 32/ln2
    static constexpr float kC1 = 0x1.62ep-6f;     // ln2/32 = C1 + C2 (+ 3e-15)
    static constexpr float kC2 = 0x1.0bfbe8p-20f;
    static constexpr float kP3 = 0x1.555556p-3f;  // 1/6
};

// One value, the portable path. The AVX-512 path below mirrors it operation by operation.
inline float exp_one(float xf) {
    using K = ExpConst;
    float x = xf < K::kLo ? K::kLo : xf;  // NaN compares false and passes both
    x = x > K::kHi ? K::kHi : x;
    const float t = __builtin_fmaf(x, K::kInvL, K::kShifter);
    const float n = t - K::kShifter;                  // N, exact
    float r = __builtin_fmaf(-n, K::kC1, x);          // exact
    r = __builtin_fmaf(-n, K::kC2, r);                // rounded once
    const float u = __builtin_fmaf(K::kP3, r, 0.5f);
    const float q = __builtin_fmaf(r * r, u, r);
    const int32_t ni = int32_t(f2u(t) - f2u(K::kShifter));
    const uint32_t j = uint32_t(ni) & 31u;
    const float s = __builtin_fmaf(kExpHi[j], q, kExpLo[j]) + kExpHi[j];
    // s * 2^k, k = floor(N/32) in [-217, 144]: exact in double, then one rounding to float.
    const double scale = u2d(uint64_t(int64_t(ni >> 5) + 1023) << 52);
    return float(double(s) * scale);
}

#if defined(__AVX512F__)
// The all-lanes mask forms of vmaxps/vminps/vscalefps: GCC 12's unmasked
// intrinsics pass _mm512_undefined_ps() and warn -Wmaybe-uninitialized.
constexpr __mmask16 kAll16 = 0xFFFF;

inline __m512 exp16(__m512 x) {
    using K = ExpConst;
    const __m512 shifter = _mm512_set1_ps(K::kShifter);
    x = _mm512_mask_max_ps(x, kAll16, _mm512_set1_ps(K::kLo), x);  // vmaxps returns its second operand for a NaN
    x = _mm512_mask_min_ps(x, kAll16, _mm512_set1_ps(K::kHi), x);
    const __m512 t = _mm512_fmadd_ps(x, _mm512_set1_ps(K::kInvL), shifter);
    const __m512 n = _mm512_sub_ps(t, shifter);
    __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(K::kC1), x);
    r = _mm512_fnmadd_ps(n, _mm512_set1_ps(K::kC2), r);
    const __m512 u = _mm512_fmadd_ps(_mm512_set1_ps(K::kP3), r, _mm512_set1_ps(0.5f));
    const __m512 q = _mm512_fmadd_ps(_mm512_mul_ps(r, r), u, r);
    // vpermi2ps takes j from the low 5 bits of each lane of t (N mod 32).
    const __m512i j = _mm512_castps_si512(t);
    const __m512 hi = _mm512_permutex2var_ps(_mm512_load_ps(kExpHi), j, _mm512_load_ps(kExpHi + 16));
    const __m512 lo = _mm512_permutex2var_ps(_mm512_load_ps(kExpLo), j, _mm512_load_ps(kExpLo + 16));
    const __m512 s = _mm512_add_ps(_mm512_fmadd_ps(hi, q, lo), hi);
    return _mm512_mask_scalef_ps(s, kAll16, s, _mm512_mul_ps(n, _mm512_set1_ps(0x1p-5f)));  // s * 2^floor(N/32)
}
#endif

// d[i] = exp(s[i]); d == s is fine (each vector is read before it is written).
inline void exp_span(float* d, const float* s, size_t n) {
#if defined(__AVX512F__)
    size_t i = 0;
    for (; i + 16 <= n; i += 16) _mm512_storeu_ps(d + i, exp16(_mm512_loadu_ps(s + i)));
    if (i < n) {
        const __mmask16 m = __mmask16((1u << (n - i)) - 1u);
        _mm512_mask_storeu_ps(d + i, m, exp16(_mm512_maskz_loadu_ps(m, s + i)));
    }
#else
    for (size_t i = 0; i < n; ++i) d[i] = exp_one(s[i]);
#endif
}

}  // namespace detail

// Exp over n values. Partial overlap (the hardware forbids it) runs element by element.
inline void exp(float* d, const float* s, size_t n) {
    const auto a = reinterpret_cast<uintptr_t>(d), b = reinterpret_cast<uintptr_t>(s);
    if (a == b || a + n * sizeof(float) <= b || b + n * sizeof(float) <= a) {
        detail::exp_span(d, s, n);
        return;
    }
    for (size_t i = 0; i < n; ++i) d[i] = detail::exp_one(s[i]);
}

// half: widen, exp in float, round (RINT) back, a stack chunk at a time.
inline void exp(half* d, const half* s, size_t n) {
    constexpr size_t kChunk = 256;
    float buf[kChunk];
    const auto a = reinterpret_cast<uintptr_t>(d), b = reinterpret_cast<uintptr_t>(s);
    const bool partial = a != b && a < b + n * sizeof(half) && b < a + n * sizeof(half);
    for (size_t i = 0; i < n; i += kChunk) {
        const size_t m = n - i < kChunk ? n - i : kChunk;
        if (partial) {  // element by element, in order, as the hardware's rule breakers would see it
            for (size_t k = 0; k < m; ++k) d[i + k] = half(detail::exp_one(float(s[i + k])));
            continue;
        }
        for (size_t k = 0; k < m; ++k) buf[k] = float(s[i + k]);
        detail::exp_span(buf, buf, m);
        for (size_t k = 0; k < m; ++k) d[i + k] = half(buf[k]);
    }
}

}  // namespace ascend_sim::numerics

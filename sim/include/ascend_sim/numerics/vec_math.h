// Elementwise vector math: exp, ln and the arithmetic ops of facts §2.10, for
// float, half (computed in float, rounded RINT), int16 and int32.
//
// exp evaluates in float with explicit FMAs, ln in double and rounds once to
// float; both use a polynomial and exponent bit tricks (no libm call, no
// branch) and are within 1 ulp of the exact value everywhere,
// subnormal results included. The real unit is not correctly rounded either;
// tests hold us to <= 2 ulp.
//
// Aliasing: every op accepts d == a source (in place, as kernels often do);
// each aliasing pattern gets its own __restrict loop so it still vectorises.
// Partial overlap (forbidden by the hardware rules) runs element by element.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "fp_bits.h"
#include "types.h"

namespace ascend_sim::numerics {

namespace detail {

// exp in float with FMA (16 lanes per AVX-512 vector; the double version this
// replaced was 3x slower): x = n ln2 + r with n = rint(x / ln2) and
// ln2 = C1 + C2 (C1 has 9 significant bits, so r1 = x - n C1 is exact);
// r = r1 - n C2 is rounded once (|error| <= 2^-26).
// exp(r) = 1 + (r + r^2 q(r)) with q a degree-5 fit of (e^r - 1 - r) / r^2 on
// |r| <= ln2/2 (relative error of the fit with float coefficients ~1e-9): one
// FMA and one add, no compensated sums (they cost ~15% of the throughput for
// ~0.2 ulp). Then 2^n in two exact factors, so subnormal results are rounded
// once from p. Max error 0.99 ulp (measured on every 97th float in
// [-104, 88.7], 4.4e7 values; the tests allow 2).
// The fused multiply-adds are explicit (__builtin_fmaf), so the result is the
// same with and without -ffp-contract and on every x86 build (FMA hardware, or
// the libm fmaf, which is exact by definition).
__attribute__((always_inline)) inline float exp_one(float xf) {
    // Clamp (exp(-150) rounds to +0, exp(100) to +Inf). NaN compares false and passes
    // both; plain arms (no arithmetic) become one vmaxps/vminps each.
    float x = xf < -150.0f ? -150.0f : xf;
    x = x > 100.0f ? 100.0f : x;
    constexpr float kShifter = 0x1.8p23f;        // adding it rounds to an integer held in the low bits
    constexpr float kC1 = 0x1.63p-1f, kC2 = -0x1.bd0106p-13f;  // ln2 = C1 + C2 (+ 1.4e-11)
    const float t = __builtin_fmaf(x, 0x1.715476p0f, kShifter);  // x / ln2 + shifter
    const float n = t - kShifter;                                // exact, |n| <= 217
    const float r1 = __builtin_fmaf(-n, kC1, x);                 // exact
    const float r = __builtin_fmaf(-n, kC2, r1);                 // |r| <= 0.35, rounded once
    float q = 0x1.9f0862p-13f;
    q = __builtin_fmaf(q, r, 0x1.6d8d54p-10f);
    q = __builtin_fmaf(q, r, 0x1.111272p-7f);
    q = __builtin_fmaf(q, r, 0x1.55548ep-5f);
    q = __builtin_fmaf(q, r, 0x1.555554p-3f);
    q = __builtin_fmaf(q, r, 0x1p-1f);
    const float p = 1.0f + __builtin_fmaf(r * r, q, r);
    // 2^n = 2^n1 * 2^n2 with n1, n2 in [-109, 73]: p * 2^n1 is exact, the second product rounds once.
    const int32_t ni = int32_t(f2u(t) - f2u(kShifter));
    const int32_t n1 = ni >> 1, n2 = ni - n1;
    return (p * u2f(uint32_t(n1 + 127) << 23)) * u2f(uint32_t(n2 + 127) << 23);
}

__attribute__((always_inline)) inline float ln_one(float xf) {
    // Subnormal inputs are scaled into the normal range first (exact).
    const uint32_t u0 = f2u(xf);
    const bool sub = u0 < 0x00800000u;
    const uint32_t u = bit_select<uint32_t>(sub, f2u(xf * 0x1p23f), u0);
    // x = 2^k * z with z in [sqrt(1/2), sqrt(2)): the offset puts the split there.
    const uint32_t ix = u - 0x3f3504f3u;
    const int32_t k = int32_t(ix) >> 23;
    const double z = u2f(u - (ix & 0xff800000u));
    const double e = double(k - (sub ? 23 : 0));  // integer select: no float op under it
    // ln z = 2 atanh(s), s = (z-1)/(z+1), |s| <= 0.1716; series to s^17: error < 1e-12 relative.
    const double f = z - 1.0, s = f / (z + 1.0), s2 = s * s;
    double p = 1.0 / 17;
    p = p * s2 + 1.0 / 15;
    p = p * s2 + 1.0 / 13;
    p = p * s2 + 1.0 / 11;
    p = p * s2 + 1.0 / 9;
    p = p * s2 + 1.0 / 7;
    p = p * s2 + 1.0 / 5;
    p = p * s2 + 1.0 / 3;
    p = p * s2 + 1.0;
    float r = float(e * 0x1.62e42fefa39efp-1 + 2.0 * s * p);
    r = fsel(xf == 0.0f, -__builtin_inff(), r);
    r = fsel(xf < 0.0f, __builtin_nanf(""), r);
    r = fsel(u0 == 0x7f800000u, xf, r);  // +Inf
    r = fsel(xf != xf, xf + xf, r);      // NaN in, (quiet) NaN out
    return r;
}

// Widen to the type arithmetic is done in; narrow back (half: RINT, overflow to Inf).
inline float wide(float x) { return x; }
inline float wide(half x) { return float(x); }
inline int32_t wide(int16_t x) { return x; }
inline int32_t wide(int32_t x) { return x; }

template <class T>
inline constexpr bool is_float_like_v = std::is_same_v<T, float> || std::is_same_v<T, half>;

template <class T>
inline T add(T a, T b) {
    if constexpr (std::is_same_v<T, int32_t>) return int32_t(uint32_t(a) + uint32_t(b));  // wraps
    else return T(wide(a) + wide(b));                                                  // int16 wraps on narrowing
}
template <class T>
inline T sub(T a, T b) {
    if constexpr (std::is_same_v<T, int32_t>) return int32_t(uint32_t(a) - uint32_t(b));
    else return T(wide(a) - wide(b));
}
template <class T>
inline T mul(T a, T b) {
    if constexpr (std::is_same_v<T, int32_t>) return int32_t(uint32_t(a) * uint32_t(b));
    else return T(wide(a) * wide(b));
}
template <class T>
inline T div(T a, T b) {
    static_assert(is_float_like_v<T>, "Div supports half and float only");
    return T(wide(a) / wide(b));
}
// max/min: a NaN in either operand gives NaN (UNCONFIRMED on hardware; see docs).
template <class T>
inline T max(T a, T b) {
    const auto x = wide(a), y = wide(b);
    return ((x > y) | (x != x)) ? a : b;
}
template <class T>
inline T min(T a, T b) {
    const auto x = wide(a), y = wide(b);
    return ((x < y) | (x != x)) ? a : b;
}

inline bool disjoint(const void* p, const void* q, size_t bytes) {
    const auto a = reinterpret_cast<uintptr_t>(p), b = reinterpret_cast<uintptr_t>(q);
    return a + bytes <= b || b + bytes <= a;
}

template <class T, class F>
inline void map1_r(T* __restrict d, const T* __restrict a, size_t n, F f) {
    for (size_t i = 0; i < n; ++i) d[i] = f(a[i]);
}
template <class T, class F>
inline void map1_in(T* __restrict d, size_t n, F f) {
    for (size_t i = 0; i < n; ++i) d[i] = f(d[i]);
}
template <class T, class F>
inline void map1(T* d, const T* a, size_t n, F f) {
    if (d == a) map1_in(d, n, f);
    else if (disjoint(d, a, n * sizeof(T))) map1_r(d, a, n, f);
    else
        for (size_t i = 0; i < n; ++i) d[i] = f(a[i]);
}

template <class T, class F>
inline void map2_r(T* __restrict d, const T* __restrict a, const T* __restrict b, size_t n, F f) {
    for (size_t i = 0; i < n; ++i) d[i] = f(a[i], b[i]);
}
template <class T, class F>
inline void map2_da(T* __restrict d, const T* __restrict b, size_t n, F f) {  // d == a
    for (size_t i = 0; i < n; ++i) d[i] = f(d[i], b[i]);
}
template <class T, class F>
inline void map2_db(T* __restrict d, const T* __restrict a, size_t n, F f) {  // d == b
    for (size_t i = 0; i < n; ++i) d[i] = f(a[i], d[i]);
}
template <class T, class F>
inline void map2(T* d, const T* a, const T* b, size_t n, F f) {
    const size_t bytes = n * sizeof(T);
    if (d == a && d == b) map1_in(d, n, [f](T x) { return f(x, x); });
    else if (d == a && disjoint(d, b, bytes)) map2_da(d, b, n, f);
    else if (d == b && disjoint(d, a, bytes)) map2_db(d, a, n, f);
    else if (disjoint(d, a, bytes) && disjoint(d, b, bytes)) map2_r(d, a, b, n, f);
    else
        for (size_t i = 0; i < n; ++i) d[i] = f(a[i], b[i]);
}

}  // namespace detail

// ---- exp / ln ----

// The element functions are forced inline into the loops: left to GCC's
// heuristics, the call sometimes stayed out of line and the loop ran scalar
// (3x slower), depending on what else the translation unit contained.
#define ASCEND_SIM_ELEM __attribute__((always_inline))
inline void exp(float* d, const float* s, size_t n) {
    detail::map1(d, s, n, [](float x) ASCEND_SIM_ELEM { return detail::exp_one(x); });
}
inline void ln(float* d, const float* s, size_t n) {
    detail::map1(d, s, n, [](float x) ASCEND_SIM_ELEM { return detail::ln_one(x); });
}
inline void exp(half* d, const half* s, size_t n) {
    detail::map1(d, s, n, [](half x) ASCEND_SIM_ELEM { return half(detail::exp_one(float(x))); });
}
inline void ln(half* d, const half* s, size_t n) {
    detail::map1(d, s, n, [](half x) ASCEND_SIM_ELEM { return half(detail::ln_one(float(x))); });
}
#undef ASCEND_SIM_ELEM

// ---- binary, tensor-tensor (T: float, half, int16_t, int32_t; div: float, half) ----

template <class T>
void add(T* d, const T* a, const T* b, size_t n) { detail::map2(d, a, b, n, [](T x, T y) { return detail::add<T>(x, y); }); }
template <class T>
void sub(T* d, const T* a, const T* b, size_t n) { detail::map2(d, a, b, n, [](T x, T y) { return detail::sub<T>(x, y); }); }
template <class T>
void mul(T* d, const T* a, const T* b, size_t n) { detail::map2(d, a, b, n, [](T x, T y) { return detail::mul<T>(x, y); }); }
template <class T>
void div(T* d, const T* a, const T* b, size_t n) { detail::map2(d, a, b, n, [](T x, T y) { return detail::div<T>(x, y); }); }
template <class T>
void max(T* d, const T* a, const T* b, size_t n) { detail::map2(d, a, b, n, [](T x, T y) { return detail::max<T>(x, y); }); }
template <class T>
void min(T* d, const T* a, const T* b, size_t n) { detail::map2(d, a, b, n, [](T x, T y) { return detail::min<T>(x, y); }); }

// ---- tensor-scalar ----

template <class T>
void adds(T* d, const T* a, T scalar, size_t n) {
    detail::map1(d, a, n, [scalar](T x) { return detail::add<T>(x, scalar); });
}
template <class T>
void muls(T* d, const T* a, T scalar, size_t n) {
    detail::map1(d, a, n, [scalar](T x) { return detail::mul<T>(x, scalar); });
}
// d[i] = s[i] * scalar + d[i], as a rounded Mul then a rounded Add (not fused;
// UNCONFIRMED on hardware, see docs). d == s is allowed.
template <class T>
void axpy(T* d, const T* s, T scalar, size_t n) {
    detail::map2(d, s, static_cast<const T*>(d), n,
                 [scalar](T x, T acc) { return detail::add<T>(detail::mul<T>(x, scalar), acc); });
}
template <class T>
void duplicate(T* d, T value, size_t n) {
    for (size_t i = 0; i < n; ++i) d[i] = value;
}

}  // namespace ascend_sim::numerics

// Elementwise vector math: ln and the arithmetic ops of facts §2.10, for
// float, half (computed in float, rounded RINT), int16 and int32 (exp: exp.h).
//
// ln evaluates in double and rounds once to float, with a polynomial and
// exponent bit tricks (no libm call, no branch): within 1 ulp of the exact
// value everywhere. The real unit is not correctly rounded either; tests hold
// us to <= 2 ulp.
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

// ---- ln (exp: exp.h) ----

// The element functions are forced inline into the loops: left to GCC's
// heuristics, the call sometimes stayed out of line and the loop ran scalar
// (3x slower), depending on what else the translation unit contained.
#define ASCEND_SIM_ELEM __attribute__((always_inline))
inline void ln(float* d, const float* s, size_t n) {
    detail::map1(d, s, n, [](float x) ASCEND_SIM_ELEM { return detail::ln_one(x); });
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

// The further elementwise ops of the vector unit (Abs, Relu, Sqrt, Rsqrt,
// Reciprocal, LeakyRelu, Maxs/Mins, the bitwise Not/And/Or, the shifts): half is computed
// in float and rounded once (RINT). Sqrt and Reciprocal are correctly rounded;
// Rsqrt is evaluated in double and rounded once. The unit's own precision for
// the three is not documented (UNCONFIRMED, see docs/simulator.md).
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "fp_bits.h"
#include "types.h"
#include "vec_math.h"

namespace ascend_sim::numerics {

namespace detail {
template <class T, class F>
inline T via_float(T x, F f) {
    if constexpr (std::is_same_v<T, half>) return half(f(float(x)));
    else return T(f(x));
}
}  // namespace detail

template <class T>
void abs(T* d, const T* s, size_t n) {  // clears the sign bit (NaN payloads kept)
    if constexpr (std::is_same_v<T, half>)
        detail::map1(d, s, n, [](half x) { return half::from_bits(uint16_t(x.bits() & 0x7fffu)); });
    else
        detail::map1(d, s, n, [](float x) { return detail::u2f(detail::f2u(x) & 0x7fffffffu); });
}
template <class T>
void relu(T* d, const T* s, size_t n) {  // max(x, 0); a NaN gives 0 (UNCONFIRMED)
    detail::map1(d, s, n, [](T x) { return detail::wide(x) > 0 ? x : T(0.0f); });
}
template <class T>
void sqrt(T* d, const T* s, size_t n) {
    detail::map1(d, s, n, [](T x) { return detail::via_float(x, [](float v) { return std::sqrt(v); }); });
}
template <class T>
void rsqrt(T* d, const T* s, size_t n) {
    detail::map1(d, s, n, [](T x) {
        return detail::via_float(x, [](float v) { return float(1.0 / std::sqrt(double(v))); });
    });
}
template <class T>
void reciprocal(T* d, const T* s, size_t n) {
    detail::map1(d, s, n, [](T x) { return detail::via_float(x, [](float v) { return 1.0f / v; }); });
}
// x >= 0 ? x : x * alpha, the product rounded in T.
template <class T>
void leaky_relu(T* d, const T* s, T alpha, size_t n) {
    detail::map1(d, s, n, [alpha](T x) { return detail::wide(x) >= 0 ? x : detail::mul<T>(x, alpha); });
}
template <class T>
void maxs(T* d, const T* s, T scalar, size_t n) {
    detail::map1(d, s, n, [scalar](T x) { return detail::max<T>(x, scalar); });
}
template <class T>
void mins(T* d, const T* s, T scalar, size_t n) {
    detail::map1(d, s, n, [scalar](T x) { return detail::min<T>(x, scalar); });
}
template <class T>
void bit_not(T* d, const T* s, size_t n) {
    detail::map1(d, s, n, [](T x) { return T(~x); });
}
template <class T>
void bit_and(T* d, const T* a, const T* b, size_t n) {
    detail::map2(d, a, b, n, [](T x, T y) { return T(x & y); });
}
template <class T>
void bit_or(T* d, const T* a, const T* b, size_t n) {
    detail::map2(d, a, b, n, [](T x, T y) { return T(x | y); });
}
// ShiftLeft.md / ShiftRight.md, sh in [0, bits of T]: unsigned types shift
// logically; signed ones arithmetically (left: the sign bit stays, the bit
// below it is dropped; right: the sign is copied in). roundEn (signed right
// shifts) adds bit sh-1 of the source.
template <class T>
T shift_left_one(T x, uint32_t sh) {
    using W = std::make_unsigned_t<T>;
    constexpr uint32_t bits = 8 * sizeof(T);
    const W u = W(x), moved = sh >= bits ? W(0) : W(u << sh);
    if constexpr (std::is_unsigned_v<T>) return T(moved);
    else {
        const W sign = W(W(1) << (bits - 1));
        return T(W((u & sign) | (moved & W(~sign))));
    }
}
template <class T>
T shift_right_one(T x, uint32_t sh, bool roundEn) {
    constexpr uint32_t bits = 8 * sizeof(T);
    const int64_t v = int64_t(x);  // sign-extends signed types, zero-extends unsigned ones
    const int64_t r = sh >= bits ? (v < 0 ? -1 : 0) : (v >> sh);
    const int64_t add = std::is_signed_v<T> && roundEn && sh >= 1 && sh <= bits ? (v >> (sh - 1)) & 1 : 0;
    return T(r + add);
}
template <class T>
void shift_left(T* d, const T* s, T sh, size_t n) {
    detail::map1(d, s, n, [sh](T x) { return shift_left_one(x, uint32_t(sh)); });
}
template <class T>
void shift_right(T* d, const T* s, T sh, size_t n, bool roundEn) {
    detail::map1(d, s, n, [sh, roundEn](T x) { return shift_right_one(x, uint32_t(sh), roundEn); });
}

template <class T>
void copy(T* d, const T* s, size_t n) {
    detail::map1(d, s, n, [](T x) { return x; });
}

}  // namespace ascend_sim::numerics

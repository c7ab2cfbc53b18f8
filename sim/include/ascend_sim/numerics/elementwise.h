// The further elementwise ops of the vector unit (Abs, Relu, Sqrt, Rsqrt,
// Reciprocal, LeakyRelu, Maxs/Mins, the bitwise Not/And/Or): half is computed
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
template <class T>
void copy(T* d, const T* s, size_t n) {
    detail::map1(d, s, n, [](T x) { return x; });
}

}  // namespace ascend_sim::numerics

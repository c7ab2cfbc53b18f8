// The scalar 16-bit float types kernels use (global namespace, as in CANN):
// half (IEEE binary16) and bfloat16_t. Storage is the raw uint16_t; the types
// are trivially copyable and 2 bytes. Arithmetic and comparison go through the
// implicit conversion to float (a + b is a float; assigning it back rounds RINT).
// For + - * / of two halves that equals IEEE half arithmetic, since float keeps
// more than 2*11+2 bits. Construction rounds to nearest even and, like a
// compiler conversion, overflows to Inf (the vector Cast saturates instead,
// see convert.h).
#pragma once
#include <cstdint>
#include <type_traits>

#include "enums.h"
#include "fp_bits.h"

namespace ascend_sim::numerics::detail {
// Any arithmetic value -> float rounded to odd, so one more RINT is exact.
template <class T>
inline float to_float_for_narrowing(T x) {
    if constexpr (std::is_same_v<T, float>) {
        return x;
    } else if constexpr (std::is_floating_point_v<T> || sizeof(T) >= 4) {
        return f64_to_f32_odd(static_cast<double>(x));  // int64 beyond 2^53 is far out of range anyway
    } else {
        return static_cast<float>(x);  // small integers are exact
    }
}
}  // namespace ascend_sim::numerics::detail

struct half {
    uint16_t storage;

    half() = default;
    template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
    half(T x)
        : storage(ascend_sim::numerics::detail::f32_to_f16<AscendC::RoundMode::CAST_RINT, false>(
              ascend_sim::numerics::detail::f2u(ascend_sim::numerics::detail::to_float_for_narrowing(x)))) {}

    static constexpr half from_bits(uint16_t b) {
        half h{};
        h.storage = b;
        return h;
    }
    constexpr uint16_t bits() const { return storage; }
    constexpr operator float() const {
        return ascend_sim::numerics::detail::u2f(ascend_sim::numerics::detail::f16_to_f32(storage));
    }

    half& operator+=(float x) { return *this = half(float(*this) + x); }
    half& operator-=(float x) { return *this = half(float(*this) - x); }
    half& operator*=(float x) { return *this = half(float(*this) * x); }
    half& operator/=(float x) { return *this = half(float(*this) / x); }
};

struct bfloat16_t {
    uint16_t storage;

    bfloat16_t() = default;
    template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
    bfloat16_t(T x)
        : storage(ascend_sim::numerics::detail::f32_to_bf16<AscendC::RoundMode::CAST_RINT, false>(
              ascend_sim::numerics::detail::f2u(ascend_sim::numerics::detail::to_float_for_narrowing(x)))) {}

    static constexpr bfloat16_t from_bits(uint16_t b) {
        bfloat16_t h{};
        h.storage = b;
        return h;
    }
    constexpr uint16_t bits() const { return storage; }
    constexpr operator float() const {
        return ascend_sim::numerics::detail::u2f(ascend_sim::numerics::detail::bf16_to_f32(storage));
    }

    bfloat16_t& operator+=(float x) { return *this = bfloat16_t(float(*this) + x); }
    bfloat16_t& operator-=(float x) { return *this = bfloat16_t(float(*this) - x); }
    bfloat16_t& operator*=(float x) { return *this = bfloat16_t(float(*this) * x); }
    bfloat16_t& operator/=(float x) { return *this = bfloat16_t(float(*this) / x); }
};

static_assert(sizeof(half) == 2 && std::is_trivially_copyable_v<half>, "half must be 2 plain bytes");
static_assert(sizeof(bfloat16_t) == 2 && std::is_trivially_copyable_v<bfloat16_t>, "bfloat16_t must be 2 plain bytes");

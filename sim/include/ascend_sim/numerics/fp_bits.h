// Bit-level rounding of float (and integers) into narrower formats, for every
// RoundMode. Written without data-dependent branches (only selects) so that a
// loop over these functions auto-vectorises; the round mode is a template
// argument so it is a constant inside such a loop.
#pragma once
#include <cstdint>

#include "enums.h"

namespace ascend_sim::numerics::detail {

using AscendC::RoundMode;

constexpr uint32_t f2u(float f) { return __builtin_bit_cast(uint32_t, f); }
constexpr float u2f(uint32_t u) { return __builtin_bit_cast(float, u); }
constexpr uint64_t d2u(double d) { return __builtin_bit_cast(uint64_t, d); }
constexpr double u2d(uint64_t u) { return __builtin_bit_cast(double, u); }

// c ? a : b as bit masks. A plain ?: whose arms involve float arithmetic lets
// GCC move that arithmetic under a branch, and then (with the default
// -ftrapping-math) it refuses to if-convert and the loop stays scalar.
template <class U>
constexpr U bit_select(bool c, U a, U b) {
    const U m = U(0) - U(c);
    return (a & m) | (b & ~m);
}
constexpr float fsel(bool c, float a, float b) { return u2f(bit_select<uint32_t>(c, f2u(a), f2u(b))); }
constexpr double dsel(bool c, double a, double b) { return u2d(bit_select<uint64_t>(c, d2u(a), d2u(b))); }

// Rounds a non-negative magnitude: t = the kept (truncated) bits, rem = the
// sh >= 1 dropped bits. neg is 1 for a negative value (only FLOOR and CEIL look
// at it). Pure integer arithmetic, no bool mixing: GCC 12 vectorises it.
// CAST_NONE and CAST_HYBRID round like RINT (NONE = RINT when inexact, per
// the facts; HYBRID is not an A2 float mode, so it gets the default).
template <RoundMode M, class U>
constexpr U round_mag(U t, U rem, U sh, U neg) {
    const U hw = U(1) << (sh - 1);                       // one half ulp
    const U inexact = (rem + ((U(1) << sh) - 1)) >> sh;  // rem != 0
    if constexpr (M == RoundMode::CAST_ROUND) {
        return t + ((rem + hw) >> sh);  // rem >= half
    } else if constexpr (M == RoundMode::CAST_FLOOR) {
        return t + (neg & inexact);
    } else if constexpr (M == RoundMode::CAST_CEIL) {
        return t + ((neg ^ 1) & inexact);
    } else if constexpr (M == RoundMode::CAST_TRUNC) {
        return t;
    } else if constexpr (M == RoundMode::CAST_ODD) {
        return t | inexact;  // von Neumann: truncate, then make the last bit sticky
    } else {
        return t + ((rem + hw - 1 + (t & 1)) >> sh);  // rem > half, or rem == half and t odd
    }
}

// float bits -> half bits. Sat: finite results beyond the largest half
// (65504) become 65504 (vector Cast on A2); otherwise they become Inf (IEEE,
// used by the scalar half type, which only ever rounds with RINT).
// Inf stays Inf; NaN becomes a quiet NaN keeping the sign and top payload bits.
template <RoundMode M, bool Sat>
constexpr uint16_t f32_to_f16(uint32_t x) {
    const uint32_t a = x & 0x7fffffffu, neg = x >> 31;
    const uint32_t fe = a >> 23;
    const bool normal = a >= 0x38800000u;  // |x| >= 2^-14, the smallest normal half
    // Normal: rebias the exponent (127 -> 15) so the top bits are the half bits.
    // Subnormal: the integer significand, shifted so one unit = 2^-24.
    const uint32_t m = normal ? a - 0x38000000u : ((a & 0x7fffffu) | (fe ? 0x800000u : 0u));
    const uint32_t subShift = 126u - fe > 25u ? 25u : 126u - fe;  // >= 25 leaves only sticky bits
    const uint32_t sh = normal ? 13u : subShift;
    const uint32_t t = m >> sh, rem = m & ((1u << sh) - 1u);
    uint32_t r = round_mag<M, uint32_t>(t, rem, sh, neg);
    const uint32_t maxMag = Sat ? 0x7bffu : 0x7c00u;
    r = r > maxMag ? maxMag : r;
    r = a == 0x7f800000u ? 0x7c00u : r;
    r = a > 0x7f800000u ? (0x7e00u | ((a >> 13) & 0x3ffu)) : r;
    return static_cast<uint16_t>(r | (neg << 15));
}

// float bits -> bfloat16 bits. bf16 has float's exponent range, so float
// subnormals round onto bf16 subnormals with the same 16-bit shift (kept,
// IEEE-like: no flush to zero). Saturation and NaN as for half.
template <RoundMode M, bool Sat>
constexpr uint16_t f32_to_bf16(uint32_t x) {
    if constexpr (Sat && (M == RoundMode::CAST_RINT || M == RoundMode::CAST_NONE || M == RoundMode::CAST_HYBRID)) {
        // The same result as the general path below (checked over all 2^32 inputs),
        // in fewer vector instructions: the hot output cast of fp16/bf16 kernels.
        const uint32_t a = x & 0x7fffffffu;
        uint32_t r = (a + 0x7fffu + ((a >> 16) & 1u)) >> 16;  // RINT of the magnitude
        r = r < 0x7f7fu ? r : 0x7f7fu;                         // finite overflow saturates
        const uint32_t special = a > 0x7f800000u ? (0x7fc0u | (a >> 16)) : 0x7f80u;  // quiet NaN / Inf
        r = a >= 0x7f800000u ? special : r;
        return static_cast<uint16_t>(r | ((x >> 16) & 0x8000u));
    }
    const uint32_t a = x & 0x7fffffffu, neg = x >> 31;
    uint32_t r = round_mag<M, uint32_t>(a >> 16, a & 0xffffu, 16u, neg);
    const uint32_t maxMag = Sat ? 0x7f7fu : 0x7f80u;
    r = r > maxMag ? maxMag : r;
    r = a == 0x7f800000u ? 0x7f80u : r;
    r = a > 0x7f800000u ? (0x7fc0u | (a >> 16)) : r;
    return static_cast<uint16_t>(r | (neg << 15));
}

// half bits -> float bits, exact. Subnormals go through an exact float
// multiply; a signalling NaN is quieted.
constexpr uint32_t f16_to_f32(uint16_t h) {
    const uint32_t s = uint32_t(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    const uint32_t normal = ((e + 112u) << 23) | (m << 13);
    const uint32_t special = 0x7f800000u | (m << 13) | (m ? 0x400000u : 0u);
    const uint32_t sub = f2u(float(m) * 0x1p-24f);
    return s | bit_select<uint32_t>(e == 0, sub, e == 31 ? special : normal);
}

// bfloat16 bits -> float bits, exact (a signalling NaN is quieted).
constexpr uint32_t bf16_to_f32(uint16_t b) {
    const uint32_t r = uint32_t(b) << 16;
    return (b & 0x7fffu) > 0x7f80u ? (r | 0x400000u) : r;
}

// A non-negative integer magnitude u with sign neg -> float bits, rounded by M.
template <RoundMode M>
constexpr uint32_t int_mag_to_f32(uint64_t u, uint32_t neg) {
    if (u == 0) return 0u;  // integer zero is +0
    const int p = 63 - __builtin_clzll(u);  // position of the leading one
    if (p <= 23) return (neg << 31) | f2u(float(u));  // exact
    const uint32_t sh = uint32_t(p - 23);
    const uint64_t t = u >> sh, rem = u & ((uint64_t(1) << sh) - 1);
    const uint64_t r = round_mag<M, uint64_t>(t, rem, sh, neg);  // in [2^23, 2^24]
    // (p + 126) << 23 plus the significand with its leading one: a carry to
    // 2^24 moves into the exponent by itself.
    return (neg << 31) | uint32_t((uint64_t(p + 126) << 23) + r);
}

// Round-to-odd double -> float: a later RINT to half or bf16 then rounds
// exactly once (float keeps >= 2 more bits than either), so half(double) is
// correctly rounded.
inline float f64_to_f32_odd(double d) {
    float f = float(d);
    if (double(f) == d || d != d) return f;
    if (__builtin_fabs(double(f)) > __builtin_fabs(d)) f = u2f(f2u(f) - 1u);  // toward zero
    return u2f(f2u(f) | 1u);
}

}  // namespace ascend_sim::numerics::detail

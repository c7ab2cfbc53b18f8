// Bit-exact scalar conversions for every RoundMode, the vector cast loops for
// the dtype pairs A2/A3 support (facts §2.11), and traits the API layer uses
// to reject unsupported pairs (compile time) and modes (run time).
//
// Semantics (see docs/simulator_numerics.md): finite results that overflow the
// destination saturate to its largest finite value; Inf stays Inf; NaN stays
// a quiet NaN (to an integer: 0). Subnormals are exact in both directions.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

#include "enums.h"
#include "fp_bits.h"
#include "int4.h"
#include "types.h"

namespace ascend_sim::numerics {

using AscendC::RoundMode;

template <RoundMode M>
using mode_c = std::integral_constant<RoundMode, M>;

// Calls f(mode_c<M>{}) with the run-time mode turned into a compile-time one,
// so a loop inside f sees a constant mode and vectorises.
template <class F>
decltype(auto) with_mode(RoundMode m, F&& f) {
    switch (m) {
        case RoundMode::CAST_NONE: return f(mode_c<RoundMode::CAST_NONE>{});
        case RoundMode::CAST_FLOOR: return f(mode_c<RoundMode::CAST_FLOOR>{});
        case RoundMode::CAST_CEIL: return f(mode_c<RoundMode::CAST_CEIL>{});
        case RoundMode::CAST_ROUND: return f(mode_c<RoundMode::CAST_ROUND>{});
        case RoundMode::CAST_TRUNC: return f(mode_c<RoundMode::CAST_TRUNC>{});
        case RoundMode::CAST_ODD: return f(mode_c<RoundMode::CAST_ODD>{});
        case RoundMode::CAST_HYBRID: return f(mode_c<RoundMode::CAST_HYBRID>{});
        case RoundMode::CAST_RINT:
        default: return f(mode_c<RoundMode::CAST_RINT>{});
    }
}

// ---- scalar conversions, compile-time mode (the vector loops use these) ----

template <RoundMode M>
inline half round_to_half(float x) {
    return half::from_bits(detail::f32_to_f16<M, true>(detail::f2u(x)));
}
template <RoundMode M>
inline bfloat16_t round_to_bf16(float x) {
    return bfloat16_t::from_bits(detail::f32_to_bf16<M, true>(detail::f2u(x)));
}

// x rounded to an integral value by M (in double: exact for every float).
// ODD (not an A2 mode for these pairs) truncates and makes the result odd.
template <RoundMode M>
inline double round_integral(double d) {
    if constexpr (M == RoundMode::CAST_FLOOR) return std::floor(d);
    else if constexpr (M == RoundMode::CAST_CEIL) return std::ceil(d);
    else if constexpr (M == RoundMode::CAST_TRUNC) return std::trunc(d);
    else if constexpr (M == RoundMode::CAST_ROUND) return std::round(d);
    else if constexpr (M == RoundMode::CAST_ODD) {
        double r = std::trunc(d);
        if (r != d && std::fmod(r, 2.0) == 0.0) r += d > 0 ? 1.0 : -1.0;
        return r;
    } else return std::nearbyint(d);  // RINT, NONE, HYBRID: half to even (default FP environment)
}

// A floating value -> integer type I: round by M, then saturate; NaN -> 0.
template <class I, RoundMode M>
inline I float_to_int(double x) {
    const double r = round_integral<M>(x);
    if (!(r == r)) return 0;
    if (r >= double(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
    if (r <= double(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
    return static_cast<I>(r);
}

template <RoundMode M>
inline int32_t f32_to_i32(float x) {
    return float_to_int<int32_t, M>(x);
}

// float -> float rounded to an integral value (Inf and NaN unchanged).
template <RoundMode M>
inline float f32_round(float x) {
    return std::isfinite(x) ? float(round_integral<M>(x)) : x;
}

template <RoundMode M>
inline float i64_to_f32(int64_t v) {
    const uint32_t neg = v < 0;
    const uint64_t mag = neg ? uint64_t(0) - uint64_t(v) : uint64_t(v);
    return detail::u2f(detail::int_mag_to_f32<M>(mag, neg));
}
template <RoundMode M>
inline float i32_to_f32(int32_t v) {
    return i64_to_f32<M>(v);
}

// ---- scalar conversions, run-time mode ----

inline half float_to_half(float x, RoundMode m) {
    return with_mode(m, [&](auto mc) { return round_to_half<decltype(mc)::value>(x); });
}
inline bfloat16_t float_to_bf16(float x, RoundMode m) {
    return with_mode(m, [&](auto mc) { return round_to_bf16<decltype(mc)::value>(x); });
}
inline float to_float(half h) { return float(h); }
inline float to_float(bfloat16_t b) { return float(b); }
inline int32_t float_to_int32(float x, RoundMode m) {
    return with_mode(m, [&](auto mc) { return f32_to_i32<decltype(mc)::value>(x); });
}
inline float int32_to_float(int32_t v, RoundMode m) {
    return with_mode(m, [&](auto mc) { return i32_to_f32<decltype(mc)::value>(v); });
}
inline float int64_to_float(int64_t v, RoundMode m) {
    return with_mode(m, [&](auto mc) { return i64_to_f32<decltype(mc)::value>(v); });
}
// Integer narrowing saturates, like every Cast overflow.
// Signed integers of at most 64 bits (the A2 integer pairs): compared as int64_t.
template <class I, class W>
inline I saturate_int(W v) {
    const int64_t x = int64_t(v), hi = int64_t(std::numeric_limits<I>::max()), lo = int64_t(std::numeric_limits<I>::min());
    return I(x > hi ? hi : (x < lo ? lo : x));
}
inline int32_t int64_to_int32(int64_t v) { return saturate_int<int32_t>(v); }
inline int64_t int32_to_int64(int32_t v) { return v; }
// The scalar ToBfloat16 of 8.x on 2201 keeps the top 16 bits (facts §2.11).
inline bfloat16_t bf16_truncate(float x) { return bfloat16_t::from_bits(uint16_t(detail::f2u(x) >> 16)); }

// ---- which (dst, src) pairs Cast supports on A2/A3, and with which modes ----
// The Atlas A2 table of Cast.md, as dav_c220 CheckCastDatatype / CastIntrinsicsImpl
// implement it. int32_t -> half (vconv_deq, scaled by SetDeqScale) and the int4b_t
// pairs are computed by the API layer (kernel_vec_ops.h, kernel_vec_cast_int4.h),
// not by cast() below.

template <class D, class S, class D2, class S2>
inline constexpr bool pair_v = std::is_same_v<D, D2> && std::is_same_v<S, S2>;

template <class D, class S>
inline constexpr bool cast_supported_v =
    pair_v<D, S, half, float> || pair_v<D, S, float, half> || pair_v<D, S, bfloat16_t, float> ||
    pair_v<D, S, float, bfloat16_t> || pair_v<D, S, float, int32_t> || pair_v<D, S, int32_t, float> ||
    pair_v<D, S, float, int64_t> || pair_v<D, S, int64_t, float> || pair_v<D, S, int32_t, bfloat16_t> ||
    pair_v<D, S, int32_t, int64_t> || pair_v<D, S, int64_t, int32_t> || pair_v<D, S, int32_t, half> ||
    pair_v<D, S, int16_t, half> || pair_v<D, S, int8_t, half> || pair_v<D, S, uint8_t, half> ||
    pair_v<D, S, float, float> || pair_v<D, S, int16_t, float> || pair_v<D, S, half, int16_t> ||
    pair_v<D, S, float, int16_t> || pair_v<D, S, half, int8_t> || pair_v<D, S, half, uint8_t> ||
    pair_v<D, S, int16_t, int32_t> || pair_v<D, S, AscendC::int4b_t, half> || pair_v<D, S, half, AscendC::int4b_t> ||
    pair_v<D, S, half, int32_t>;

template <class D, class S>
constexpr bool cast_supported() { return cast_supported_v<D, S>; }

// Whether Cast<D,S> accepts mode m on A2/A3 (the API layer throws otherwise).
template <class D, class S>
constexpr bool cast_mode_allowed(RoundMode m) {
    const bool five = m == RoundMode::CAST_RINT || m == RoundMode::CAST_FLOOR || m == RoundMode::CAST_CEIL ||
                      m == RoundMode::CAST_ROUND || m == RoundMode::CAST_TRUNC;
    const bool none = m == RoundMode::CAST_NONE;
    if constexpr (!cast_supported_v<D, S>) return false;
    else if constexpr (pair_v<D, S, half, int32_t>) return true;  // vconv_deq ignores the mode (Cast.md)
    else if constexpr (pair_v<D, S, half, float>) return five || none || m == RoundMode::CAST_ODD;
    else if constexpr (pair_v<D, S, float, int32_t> || pair_v<D, S, int8_t, half> || pair_v<D, S, uint8_t, half> ||
                       pair_v<D, S, half, int16_t> || pair_v<D, S, AscendC::int4b_t, half>)
        return five || none;
    else if constexpr (pair_v<D, S, half, AscendC::int4b_t>) return none;
    else if constexpr (pair_v<D, S, float, half> || pair_v<D, S, float, bfloat16_t> || pair_v<D, S, int32_t, int64_t> ||
                       pair_v<D, S, int64_t, int32_t> || pair_v<D, S, float, int16_t> || pair_v<D, S, half, int8_t> ||
                       pair_v<D, S, half, uint8_t> || pair_v<D, S, int16_t, int32_t>)
        return none;  // exact widenings and the saturating integer narrowings
    else return five;  // NONE and ODD assert (bf16 from float, float/half/bf16 to integers, float rounding)
}

// ---- vector casts ----

namespace detail {
template <class D, class S, RoundMode M>
inline D convert_one(S x) {
    if constexpr (std::is_same_v<D, half>) return round_to_half<M>(float(x));  // from float, int16, int8, uint8
    else if constexpr (std::is_same_v<D, bfloat16_t>) return round_to_bf16<M>(x);
    else if constexpr (std::is_same_v<D, float> && std::is_same_v<S, float>) return f32_round<M>(x);
    else if constexpr (std::is_same_v<D, float> && (std::is_same_v<S, half> || std::is_same_v<S, bfloat16_t>))
        return float(x);
    else if constexpr (std::is_same_v<D, float>) return i64_to_f32<M>(int64_t(x));  // int16, int32, int64
    else if constexpr (std::is_integral_v<S>) return saturate_int<D>(x);               // int narrowing / widening
    else return float_to_int<D, M>(float(x));                                          // float, half, bf16 -> int
}

template <class D, class S, RoundMode M>
inline void cast_loop(D* __restrict dst, const S* __restrict src, size_t n) {
    for (size_t i = 0; i < n; ++i) dst[i] = convert_one<D, S, M>(src[i]);
}

#if defined(__AVX512F__)
// The skeleton of the SIMD casts below: fast(i) converts the W values at i and
// returns true, or returns false (writing nothing) when one of them needs the
// exact integer path (cast_loop), which then converts the block; the tail under
// W values goes to cast_loop as well.
template <class D, class S, RoundMode M, size_t W, class Fast>
inline void cast_blocks(D* __restrict dst, const S* __restrict src, size_t n, Fast fast) {
    size_t i = 0;
    for (; i + W <= n; i += W)
        if (!fast(i)) cast_loop<D, S, M>(dst + i, src + i, W);
    cast_loop<D, S, M>(dst + i, src + i, n - i);
}

// All-lanes mask: GCC 12's unmasked forms of several intrinsics used here pass an
// undefined vector and warn -Wmaybe-uninitialized, so the masked forms are used.
constexpr __mmask16 kAllLanes = 0xFFFF;
#endif

#if defined(__AVX512BF16__) && defined(__AVX512DQ__)
// float -> bf16, RINT with saturation, the hot output cast of bf16 kernels.
// vcvtne2ps2bf16 rounds to nearest even and quiets a NaN exactly as
// f32_to_bf16 does, but flushes subnormal inputs to zero and rounds a finite
// overflow to Inf: 32 values holding such a lane (rare) take the integer path.
// Bitwise equal to cast_loop for every float (tested exhaustively).
inline void cast_f32_to_bf16_rint(bfloat16_t* __restrict dst, const float* __restrict src, size_t n) {
    constexpr int kDenormal = 0x20;  // vfpclassps category
    const __m512 past = _mm512_castsi512_ps(_mm512_set1_epi32(0x7f7f8000));  // rounds past the largest bf16
    auto slow = [&](__m512 x) {
        return __mmask16(_mm512_fpclass_ps_mask(x, kDenormal) |
                         _mm512_cmp_ps_mask(_mm512_abs_ps(x), past, _CMP_GE_OQ));  // also Inf; NaN compares false
    };
    cast_blocks<bfloat16_t, float, RoundMode::CAST_RINT, 32>(dst, src, n, [&](size_t i) {
        const __m512 lo = _mm512_loadu_ps(src + i), hi = _mm512_loadu_ps(src + i + 16);
        if (slow(lo) | slow(hi)) return false;
        _mm512_storeu_si512(dst + i, __m512i(_mm512_cvtne2ps_pbh(hi, lo)));
        return true;
    });
}
#endif

#if defined(__AVX512F__) && defined(__AVX512BW__)
// float -> half RINT with saturation, the output cast of fp16 kernels: vcvtps2ph
// (round to nearest even, subnormal results exact) except where it differs from
// the scalar rounding: a magnitude that rounds past 65504 (saturates here, Inf
// there), Inf and NaN (payload); a vector holding such a lane takes the integer
// path. Bitwise equal to cast_loop for every float (tested exhaustively).
inline void cast_f32_to_f16_rint(half* __restrict dst, const float* __restrict src, size_t n) {
    cast_blocks<half, float, RoundMode::CAST_RINT, 16>(dst, src, n, [&](size_t i) {
        const __m512 x = _mm512_loadu_ps(src + i);
        const __m512i a = _mm512_and_si512(_mm512_castps_si512(x), _mm512_set1_epi32(0x7fffffff));
        if (_mm512_cmpge_epu32_mask(a, _mm512_set1_epi32(0x477ff000))) return false;  // |x| >= 65520, Inf, NaN
        const __m256i h = _mm512_mask_cvtps_ph(_mm256_setzero_si256(), kAllLanes, x,
                                               _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + i), h);
        return true;
    });
}

// bf16 -> float, exact: the bits moved up 16, except that a NaN is quieted; 32
// values without a NaN (nearly always) skip that select.
inline void cast_bf16_to_f32(float* __restrict dst, const bfloat16_t* __restrict src, size_t n) {
    auto widen = [](__m256i h) {
        return _mm512_maskz_slli_epi32(kAllLanes, _mm512_maskz_cvtepu16_epi32(kAllLanes, h), 16);
    };
    cast_blocks<float, bfloat16_t, RoundMode::CAST_NONE, 32>(dst, src, n, [&](size_t i) {
        const __m512i b = _mm512_loadu_si512(src + i);
        const __m512i mag = _mm512_and_si512(b, _mm512_set1_epi16(0x7fff));
        if (_mm512_cmpgt_epu16_mask(mag, _mm512_set1_epi16(0x7f80))) return false;  // a NaN
        _mm512_storeu_si512(dst + i, widen(_mm512_maskz_extracti64x4_epi64(0xF, b, 0)));
        _mm512_storeu_si512(dst + i + 16, widen(_mm512_maskz_extracti64x4_epi64(0xF, b, 1)));
        return true;
    });
}

// half -> float, exact: vcvtph2ps, except NaN lanes (payload) by the integer path.
inline void cast_f16_to_f32(float* __restrict dst, const half* __restrict src, size_t n) {
    cast_blocks<float, half, RoundMode::CAST_NONE, 16>(dst, src, n, [&](size_t i) {
        const __m256i h = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i));
        const __m256i mag = _mm256_and_si256(h, _mm256_set1_epi16(0x7fff));
        if (_mm256_movemask_epi8(_mm256_cmpgt_epi16(mag, _mm256_set1_epi16(0x7c00)))) return false;  // a NaN
        _mm512_storeu_ps(dst + i, _mm512_mask_cvtph_ps(_mm512_setzero_ps(), kAllLanes, h));
        return true;
    });
}
#endif
}  // namespace detail

// dst[i] = Cast(src[i]) for i < n. The mode is not validated here (the API
// layer checks cast_mode_allowed). If dst and src overlap, src is read as a
// whole first (the hardware may corrupt a widening in-place cast; whether to
// report that is the API layer's call).
template <class D, class S>
void cast(D* dst, const S* src, size_t n, RoundMode m) {
    static_assert(cast_supported_v<D, S>, "Cast: this dtype pair is not supported on A2/A3");
    if (n == 0) return;
    const auto d0 = reinterpret_cast<uintptr_t>(dst), s0 = reinterpret_cast<uintptr_t>(src);
    if (d0 < s0 + n * sizeof(S) && s0 < d0 + n * sizeof(D)) {
        std::vector<S> copy(src, src + n);
        cast(dst, copy.data(), n, m);
        return;
    }
#if defined(__AVX512BF16__) && defined(__AVX512DQ__)
    if constexpr (std::is_same_v<D, bfloat16_t> && std::is_same_v<S, float>) {
        if (m == RoundMode::CAST_RINT) {
            detail::cast_f32_to_bf16_rint(dst, src, n);
            return;
        }
    }
#endif
#if defined(__AVX512F__) && defined(__AVX512BW__)
    if constexpr (std::is_same_v<D, half> && std::is_same_v<S, float>) {
        if (m == RoundMode::CAST_RINT) {
            detail::cast_f32_to_f16_rint(dst, src, n);
            return;
        }
    }
    if constexpr (std::is_same_v<D, float> && std::is_same_v<S, half>) {
        detail::cast_f16_to_f32(dst, src, n);  // exact: every mode gives the same
        return;
    }
    if constexpr (std::is_same_v<D, float> && std::is_same_v<S, bfloat16_t>) {
        detail::cast_bf16_to_f32(dst, src, n);
        return;
    }
#endif
    with_mode(m, [&](auto mc) { detail::cast_loop<D, S, decltype(mc)::value>(dst, src, n); });
}

}  // namespace ascend_sim::numerics

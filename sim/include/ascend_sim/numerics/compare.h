// Compare / Compares into a little-endian bitmask, Select by such a mask, and
// Gather by byte offsets (facts §2.13, §2.14). The 256-byte count rule of
// Compare is the API layer's to check; these compute exactly n elements.
#pragma once
#include <cstddef>
#include <cstdint>

#include "enums.h"
#include "types.h"

namespace ascend_sim::numerics {

namespace detail {

template <AscendC::CMPMODE M, class W>
inline bool cmp(W a, W b) {  // IEEE: any NaN compares false except for NE
    if constexpr (M == AscendC::CMPMODE::LT) return a < b;
    else if constexpr (M == AscendC::CMPMODE::GT) return a > b;
    else if constexpr (M == AscendC::CMPMODE::GE) return a >= b;
    else if constexpr (M == AscendC::CMPMODE::EQ) return a == b;
    else if constexpr (M == AscendC::CMPMODE::NE) return a != b;
    else return a <= b;
}

template <class T>
inline auto cmp_value(T x) {
    if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>) return float(x);
    else return x;
}

// Bit i of byte i/8 = element i; bits past n in the last byte are cleared.
template <AscendC::CMPMODE M, class T, class GetB>
inline void compare_loop(uint8_t* __restrict bits, const T* __restrict a, GetB getB, size_t n) {
    const size_t whole = n / 8;
    for (size_t j = 0; j < whole; ++j) {
        unsigned byte = 0;
        for (unsigned k = 0; k < 8; ++k)
            byte |= unsigned(cmp<M>(cmp_value(a[8 * j + k]), cmp_value(getB(8 * j + k)))) << k;
        bits[j] = uint8_t(byte);
    }
    if (n % 8) {
        unsigned byte = 0;
        for (size_t i = whole * 8; i < n; ++i) byte |= unsigned(cmp<M>(cmp_value(a[i]), cmp_value(getB(i)))) << (i % 8);
        bits[whole] = uint8_t(byte);
    }
}

template <class F>
inline void with_cmp(AscendC::CMPMODE m, F&& f) {
    using C = AscendC::CMPMODE;
    switch (m) {
        case C::LT: f(std::integral_constant<C, C::LT>{}); break;
        case C::GT: f(std::integral_constant<C, C::GT>{}); break;
        case C::GE: f(std::integral_constant<C, C::GE>{}); break;
        case C::EQ: f(std::integral_constant<C, C::EQ>{}); break;
        case C::NE: f(std::integral_constant<C, C::NE>{}); break;
        case C::LE: f(std::integral_constant<C, C::LE>{}); break;
    }
}

}  // namespace detail

// maskBits[i/8] bit i%8 = (a[i] <mode> b[i]). Writes ceil(n/8) bytes.
template <class T>
void compare(uint8_t* maskBits, const T* a, const T* b, AscendC::CMPMODE mode, size_t n) {
    detail::with_cmp(mode, [&](auto mc) {
        detail::compare_loop<decltype(mc)::value>(maskBits, a, [b](size_t i) { return b[i]; }, n);
    });
}

// maskBits bit i = (a[i] <mode> scalar).
template <class T>
void compare_scalar(uint8_t* maskBits, const T* a, T scalar, AscendC::CMPMODE mode, size_t n) {
    detail::with_cmp(mode, [&](auto mc) {
        detail::compare_loop<decltype(mc)::value>(maskBits, a, [scalar](size_t) { return scalar; }, n);
    });
}

inline bool mask_bit(const uint8_t* maskBits, size_t i) { return (maskBits[i / 8] >> (i % 8)) & 1u; }

// d[i] = bit i ? a[i] : b[i]   (SELMODE::VSEL_TENSOR_TENSOR_MODE). d may equal a or b.
template <class T>
void select(T* d, const uint8_t* maskBits, const T* a, const T* b, size_t n) {
    for (size_t i = 0; i < n; ++i) d[i] = mask_bit(maskBits, i) ? a[i] : b[i];
}

// d[i] = bit (i % period) ? a[i] : b[i]   (SELMODE::VSEL_CMPMASK_SPR: one repeat's
// bits, reused by every repeat). d may equal a or b.
template <class T>
void select_repeating(T* d, const uint8_t* maskBits, size_t period, const T* a, const T* b, size_t n) {
    for (size_t i = 0; i < n; ++i) d[i] = mask_bit(maskBits, i % period) ? a[i] : b[i];
}

// d[i] = bit i ? a[i] : b   (SELMODE::VSEL_TENSOR_SCALAR_MODE). d may equal a.
template <class T>
void select_scalar(T* d, const uint8_t* maskBits, const T* a, T b, size_t n) {
    for (size_t i = 0; i < n; ++i) d[i] = mask_bit(maskBits, i) ? a[i] : b;
}

// d[i] = src[(srcBaseAddr + byteOffsets[i]) / sizeof(T)], where src holds srcElems
// elements. Returns the index of the first offset whose byte address is not
// sizeof(T)-aligned or falls outside src, having written nothing at all; else -1.
template <class T>
int64_t gather(T* d, const T* src, const uint32_t* byteOffsets, uint32_t srcBaseAddr, size_t n, size_t srcElems) {
    for (size_t i = 0; i < n; ++i) {
        const uint64_t byte = uint64_t(srcBaseAddr) + byteOffsets[i];
        if (byte % sizeof(T) != 0 || byte / sizeof(T) >= srcElems) return int64_t(i);
    }
    for (size_t i = 0; i < n; ++i) d[i] = src[(uint64_t(srcBaseAddr) + byteOffsets[i]) / sizeof(T)];
    return -1;
}

}  // namespace ascend_sim::numerics

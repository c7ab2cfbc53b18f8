// ReduceSum and ReduceMax (count form) in the hardware's order (facts §2.12).
//
// reduce_sum: the input is cut into 256-byte repeats (64 floats or 128 halves).
// Inside a repeat an adjacent-pair binary tree: (d0+d1), (d2+d3), ... then
// pairs of those, down to one value; lanes past n in the last, partial repeat
// are +0. The repeat sums are then accumulated strictly in order:
// acc = r0; acc = acc + r1; ... half rounds to half after every single add
// (as the half vector unit does); nothing is accumulated in float.
//
// reduce_max: the largest value and the smallest index holding it. If any
// element is NaN, the first NaN and its index are returned (UNCONFIRMED on
// hardware). +0 and -0 compare equal, so the first of them wins.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "fp_bits.h"
#include "types.h"

namespace ascend_sim::numerics {

namespace detail {

inline float tree_add(float a, float b) { return a + b; }
inline half tree_add(half a, half b) { return half(float(a) + float(b)); }

// One tree level over a whole block: out[k] = in[2k] + in[2k+1]. As the repeat
// length is a power of two, pairs never straddle repeats, so log2(lanes) levels
// over a block of whole repeats give every repeat's tree sum at once.
template <class T>
inline void pair_level(T* __restrict out, const T* __restrict in, size_t m) {
    for (size_t k = 0; k < m; ++k) out[k] = tree_add(in[2 * k], in[2 * k + 1]);
}

template <class T>
inline void repeat_sums(T* __restrict sums, const T* __restrict s, size_t repeats, T* bufA, T* bufB) {
    constexpr size_t kLanes = 256 / sizeof(T);
    size_t m = repeats * kLanes / 2;
    pair_level(bufA, s, m);
    T* in = bufA;
    T* out = bufB;
    while (m > repeats) {
        pair_level(out, in, m / 2);
        m /= 2;
        std::swap(in, out);
    }
    std::memcpy(sums, in, repeats * sizeof(T));
}

}  // namespace detail

template <class T>
T reduce_sum(const T* s, size_t n) {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, half>, "ReduceSum supports half and float");
    constexpr size_t kLanes = 256 / sizeof(T);
    constexpr size_t kBlock = 64;  // repeats handled per pass (16 KiB of input)
    alignas(64) T bufA[kBlock * kLanes / 2], bufB[kBlock * kLanes / 4], sums[kBlock];
    const size_t full = n / kLanes, tail = n % kLanes;
    T acc = T(0.0f);
    bool first = true;
    for (size_t r0 = 0; r0 < full; r0 += kBlock) {
        const size_t cnt = std::min(kBlock, full - r0);
        detail::repeat_sums(sums, s + r0 * kLanes, cnt, bufA, bufB);
        for (size_t k = 0; k < cnt; ++k) {
            acc = first ? sums[k] : detail::tree_add(acc, sums[k]);
            first = false;
        }
    }
    if (tail) {
        alignas(64) T last[kLanes];
        for (size_t i = 0; i < kLanes; ++i) last[i] = i < tail ? s[full * kLanes + i] : T(0.0f);
        detail::repeat_sums(sums, last, 1, bufA, bufB);
        acc = first ? sums[0] : detail::tree_add(acc, sums[0]);
    }
    return acc;  // n == 0 gives +0
}

template <class T>
void reduce_max(const T* s, size_t n, T& maxv, uint32_t& idx) {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, half>, "ReduceMax supports half and float");
    maxv = T(-__builtin_inff());
    idx = 0;
    if (n == 0) return;
    // One vectorisable pass over blocks: each block's max and NaN flag. Only a
    // block that strictly beats the earlier ones is remembered (ties keep the
    // earlier block), and only that block is scanned again for the index.
    constexpr size_t kBlock = 2048;
    float best = -__builtin_inff();
    size_t bestBlock = 0;
    for (size_t b0 = 0; b0 < n; b0 += kBlock) {
        const size_t b1 = std::min(n, b0 + kBlock);
        // Integer keys ordered like the floats (negatives have their magnitude
        // bits flipped): integer max and OR reductions vectorise, float ?: ones don't.
        int32_t km = INT32_MIN;
        uint32_t anyNan = 0;
        for (size_t i = b0; i < b1; ++i) {
            const uint32_t u = detail::f2u(float(s[i]));
            const int32_t k = int32_t(u) ^ ((int32_t(u) >> 31) & 0x7fffffff);
            km = k > km ? k : km;
            anyNan |= ((u & 0x7fffffffu) + 0x7fffffu) >> 31;  // |x| bits > Inf bits
        }
        const float m = detail::u2f(uint32_t(km >= 0 ? km : km ^ 0x7fffffff));
        if (anyNan) {  // the first NaN wins (no earlier block has one)
            for (size_t i = b0; i < b1; ++i)
                if (float(s[i]) != float(s[i])) {
                    maxv = s[i];
                    idx = uint32_t(i);
                    return;
                }
        }
        if (m > best || b0 == 0) {
            best = m;
            bestBlock = b0;
        }
    }
    for (size_t i = bestBlock;; ++i)
        if (float(s[i]) == best) {
            maxv = s[i];
            idx = uint32_t(i);
            return;
        }
}

// The smallest value and the smallest index holding it; the first NaN wins as in reduce_max.
template <class T>
void reduce_min(const T* s, size_t n, T& minv, uint32_t& idx) {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, half>, "ReduceMin supports half and float");
    minv = T(__builtin_inff());
    idx = 0;
    for (size_t i = 0; i < n; ++i) {
        const float x = float(s[i]);
        if (x != x) {
            minv = s[i];
            idx = uint32_t(i);
            return;
        }
        if (x < float(minv) || i == 0) {
            minv = s[i];
            idx = uint32_t(i);
        }
    }
}

}  // namespace ascend_sim::numerics

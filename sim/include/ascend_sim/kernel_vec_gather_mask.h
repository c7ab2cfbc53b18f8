// GatherMask (CANN: kernel_operator_vec_gather_mask_intf.h; dav_c220
// kernel_operator_vec_gather_mask_impl.h, vreducev2): the src0 elements whose
// pattern bit is 1, packed into dst across all repeats; rsvdCnt gets their
// number. The pattern is built in (src1Pattern 1..7: even, odd, or one of each
// four elements, or all) or a tensor (repeat r's bits at src1 + r x
// src1RepeatStride x 32 B). reduceMode false: each repeat covers 256 B of src0;
// true (Counter mode): `mask` elements a repeat, repeatTimes holding (A2, GatherMask.md).
// The NPU code leaves Normal mode with the register at (0, mask).
#pragma once
#include <cstdint>

#include "kernel_vec_ops.h"
#include "kernel_vec_repeat.h"

namespace AscendC {

enum class GatherMaskMode : uint8_t { VERSION_V1 = 0, VERSION_V2 = 1 };
constexpr GatherMaskMode defaultGatherMaskMode = GatherMaskMode::VERSION_V2;

struct GatherMaskParams {
    GatherMaskParams() {}
    GatherMaskParams(uint8_t src0BlockStrideIn, uint16_t repeatTimesIn, uint16_t src0RepeatStrideIn,
                     uint8_t src1RepeatStrideIn)
        : src0BlockStride(src0BlockStrideIn), repeatTimes(repeatTimesIn), src0RepeatStride(src0RepeatStrideIn),
          src1RepeatStride(src1RepeatStrideIn) {}
    uint8_t src0BlockStride = DEFAULT_BLK_STRIDE;
    uint16_t repeatTimes = 0;
    uint16_t src0RepeatStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src1RepeatStride = DEFAULT_REPEAT_STRIDE;
};

namespace sim_vec {

template <class T>
inline constexpr bool gather_mask_v = one_of_v<T, half, bfloat16_t, uint16_t, int16_t, float, uint32_t, int32_t>;

// bit(repeat, j) gives the pattern; src1 (nullptr for a built-in pattern) is checked as a read of each repeat's bits.
template <class T, class U, class Bit>
void gather_mask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<U>* src1, bool reduceMode,
                 uint32_t mask, const GatherMaskParams& p, uint64_t& rsvdCnt, Bit bit) {
    // Normal mode: the pattern alone selects (the CPU twin sets a full mask there).
    d::vec_set_mask_mode("GatherMask", reduceMode);
    reduceMode ? d::vec_set_mask("GatherMask", 0, mask) : d::vec_set_mask("GatherMask", ~0ull, ~0ull);
    constexpr uint32_t perRepeat = 256 / sizeof(T);
    const uint32_t perRepeatElems = reduceMode ? mask : perRepeat;
    d::RepArg a[2] = {rep_arg(src0, p.src0BlockStride, p.src0RepeatStride, "src0", false), {}};
    int n = 1;
    if (src1) {
        a[1] = rep_arg(*src1, 0, p.src1RepeatStride, "src1Pattern", false);
        a[1].repBytes = uint32_t((uint64_t(perRepeatElems) + 8 * sizeof(U) - 1) / (8 * sizeof(U)) * sizeof(U));
        a[1].repUnit = 32;
        n = 2;
    }
    size_t count = 0;
    const d::RepRun* runs = d::vec_repeat("GatherMask", d::VecOp::GatherMask, a, n,
                                          {perRepeat, p.repeatTimes, d::CountMode::Repeat}, &count);
    d::vec_set_mask_mode("GatherMask", false);
    d::vec_set_mask("GatherMask", 0, mask);
    uint64_t picked = 0;
    for (size_t i = 0; i < count; ++i)
        for (uint32_t k = 0; k < runs[i].len; ++k) picked += bit(runs[i].repeat, runs[i].first + k);
    // In place (GatherMask.md's own example: dst is src0) the packed result never
    // passes the element being read while src0 is read front to back without overlap.
    const bool compacts = p.src0BlockStride == 1 &&
                          uint64_t(p.src0RepeatStride) * 32 >= uint64_t(perRepeatElems) * sizeof(T);
    d::vec_repeat_packed_write("GatherMask", dst.ub_ref(), "dst", picked * sizeof(T), compacts ? 0 : -1);
    T* out = dst.GetPhyAddr();
    for (size_t i = 0; i < count; ++i) {
        const T* in = at(src0, a[0], runs[i]);
        for (uint32_t k = 0; k < runs[i].len; ++k)
            if (bit(runs[i].repeat, runs[i].first + k)) *out++ = in[k];
    }
    rsvdCnt = picked;
}

}  // namespace sim_vec

template <class T, class U, GatherMaskMode mode = defaultGatherMaskMode>
void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<U>& src1Pattern,
                const bool reduceMode, const uint32_t mask, const GatherMaskParams& gatherMaskParams,
                uint64_t& rsvdCnt) {
    static_assert(sim_vec::one_of_v<U, uint16_t, uint32_t>, "GatherMask: src1Pattern is uint16_t or uint32_t");
    static_assert(sizeof(U) == sizeof(T) && sim_vec::gather_mask_v<T>,
                  "GatherMask: A2/A3 take a uint16_t pattern for half, bfloat16_t, uint16_t, int16_t and a uint32_t "
                  "pattern for float, uint32_t, int32_t");
    const auto* bits = reinterpret_cast<const uint8_t*>(src1Pattern.GetPhyAddr());
    const uint32_t stride = uint32_t(gatherMaskParams.src1RepeatStride) * 32;
    sim_vec::gather_mask(dst, src0, &src1Pattern, reduceMode, mask, gatherMaskParams, rsvdCnt,
                         [&](uint32_t r, uint32_t j) { return (bits[r * stride + j / 8] >> (j % 8)) & 1u; });
}

template <class T, GatherMaskMode mode = defaultGatherMaskMode>
void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t src1Pattern,
                const bool reduceMode, const uint32_t mask, const GatherMaskParams& gatherMaskParams,
                uint64_t& rsvdCnt) {
    static_assert(sim_vec::gather_mask_v<T>,
                  "GatherMask: A2/A3 support half, bfloat16_t, uint16_t, int16_t, float, uint32_t and int32_t");
    if (src1Pattern < 1 || src1Pattern > 7)
        sim_vec::d::fail("GatherMask", "src1Pattern out of range", "src1Pattern %u is outside [1, 7]",
                         unsigned(src1Pattern));
    const uint32_t m = src1Pattern;
    sim_vec::gather_mask<T, uint16_t>(dst, src0, nullptr, reduceMode, mask, gatherMaskParams, rsvdCnt,
                                      [m](uint32_t, uint32_t j) {
                                          return m == 7 || (m <= 2 ? j % 2 == m - 1 : j % 4 == m - 3);
                                      });
}

}  // namespace AscendC

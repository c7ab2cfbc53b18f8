// Cast between half and int4b_t (dav_c220 kernel_operator_vec_vconv_impl.h ::
// CastIntrinsicsImpl(int4b_t*, half*) = vconv_f162s4{r,f,c,a,z,}, (half*, int4b_t*)
// = vconv_s42f16; CastImpl Level 2 and Level 0). A repeat is 128 half lanes and
// 64 bytes of int4b_t (lane 2i in the low nibble of byte i, 2i + 1 in the high
// one); each side's strides count its own 32 B blocks. The mask is set for a
// 1-byte type, as CANN's SetMask<int4b_t> does. The simulator runs the
// instruction over lane pairs (4 B of half, one int4b_t byte), so a mask or a
// Counter-mode count that splits a pair is refused. To int4b_t saturates to
// [-8, 7] after the round mode (not CAST_ODD); from int4b_t is exact (CAST_NONE only).
#pragma once
#include <cstdint>
#include <type_traits>

#include "kernel_vec_ops.h"
#include "kernel_vec_repeat.h"

namespace AscendC {
namespace sim_vec {

// The mask register over lane pairs; the caller restores `lanes` afterwards.
inline void int4_pair_mask(const d::VecMaskReg& lanes) {
    if (lanes.counter) {
        if (lanes.lo % 2 != 0)
            d::fail("Cast", "count splits an int4b_t byte",
                    "the Counter-mode count %llu is odd: the last int4b_t would share its byte with an element the "
                    "instruction does not write",
                    (unsigned long long)lanes.lo);
        d::vec_set_mask("Cast", 0, lanes.lo / 2);
        return;
    }
    uint64_t pairs = 0;
    for (uint32_t p = 0; p < 64; ++p) {
        const uint32_t l = 2 * p;
        const uint64_t word = l < 64 ? lanes.lo : lanes.hi;
        const uint64_t two = (word >> (l % 64)) & 3u;
        if (two == 1 || two == 2)
            d::fail("Cast", "mask splits an int4b_t byte",
                    "mask bits %u and %u differ: lanes 2i and 2i + 1 share an int4b_t byte and must be both on or "
                    "both off",
                    l, l + 1);
        if (two) pairs |= uint64_t(1) << p;
    }
    d::vec_set_mask("Cast", 0, pairs);
}

template <class T, class U, bool isSetMask, class M>
void cast_int4_highdim(const LocalTensor<T>& dst, const LocalTensor<U>& src, RoundMode mode, const M& mask,
                       uint8_t repeatTime, const UnaryRepeatParams& p) {
    check_cast<T, U>(mode);
    apply_mask<uint8_t, isSetMask>("Cast", mask);
    const d::VecMaskReg lanes = d::vec_mask("Cast");
    int4_pair_mask(lanes);
    constexpr bool toInt4 = ascend_sim::is_nibble_v<T>;
    // half pairs as 4 B elements, int4b_t bytes as 1 B ones
    const LocalTensor<uint32_t> halves = toInt4 ? src.template ReinterpretCast<uint32_t>()
                                                : dst.template ReinterpretCast<uint32_t>();
    const LocalTensor<uint8_t> bytes = toInt4 ? dst.template ReinterpretCast<uint8_t>()
                                              : src.template ReinterpretCast<uint8_t>();
    const d::RepArg a[2] = {
        toInt4 ? rep_arg(halves, p.srcBlkStride, p.srcRepStride, "src", false)
               : rep_arg(bytes, p.srcBlkStride, p.srcRepStride, "src", false),
        toInt4 ? rep_arg(bytes, p.dstBlkStride, p.dstRepStride, "dst", true)
               : rep_arg(halves, p.dstBlkStride, p.dstRepStride, "dst", true)};
    const d::RepArg& ha = toInt4 ? a[0] : a[1];
    const d::RepArg& ba = toInt4 ? a[1] : a[0];
    repeat("Cast", d::VecOp::Cast, a, 2, {64, repeatTime}, [&](const d::RepRun& u) {
        auto* h = reinterpret_cast<half*>(at(halves, ha, u));
        uint8_t* b = at(bytes, ba, u);
        int8_t wide[2 * 32];  // a run lies in one 32 B block of the half side: at most 8 pairs
        if constexpr (toInt4) {
            num::cast(wide, h, size_t(2 * u.len), mode);
            for (uint32_t k = 0; k < u.len; ++k) {
                const int lo = wide[2 * k] < -8 ? -8 : wide[2 * k] > 7 ? 7 : wide[2 * k];
                const int hi = wide[2 * k + 1] < -8 ? -8 : wide[2 * k + 1] > 7 ? 7 : wide[2 * k + 1];
                b[k] = uint8_t((lo & 0xF) | ((hi & 0xF) << 4));
            }
        } else {
            for (uint32_t k = 0; k < u.len; ++k) {
                wide[2 * k] = int8_t(int(int4b_t(b[k] & 0xF)));
                wide[2 * k + 1] = int8_t(int(int4b_t(b[k] >> 4)));
            }
            num::cast(h, wide, size_t(2 * u.len), RoundMode::CAST_NONE);
        }
    });
    d::vec_set_mask("Cast", lanes.hi, lanes.lo);
}

// CastImpl Level 2: Counter mode over count lanes, then Normal mode and a full mask.
template <class T, class U>
void cast_int4_count(const LocalTensor<T>& dst, const LocalTensor<U>& src, RoundMode mode, uint32_t count) {
    constexpr bool toInt4 = ascend_sim::is_nibble_v<T>;
    d::vec_set_mask_mode("Cast", true);
    d::vec_set_mask("Cast", 0, count);
    const UnaryRepeatParams p(1, 1, toInt4 ? DEFAULT_REPEAT_STRIDE / 4 : DEFAULT_REPEAT_STRIDE,
                              toInt4 ? DEFAULT_REPEAT_STRIDE : DEFAULT_REPEAT_STRIDE / 4);
    cast_int4_highdim<T, U, false>(dst, src, mode, uint64_t(0), 1, p);
    d::vec_set_mask_mode("Cast", false);
    d::vec_set_mask("Cast", ~uint64_t(0), ~uint64_t(0));
}

}  // namespace sim_vec
}  // namespace AscendC

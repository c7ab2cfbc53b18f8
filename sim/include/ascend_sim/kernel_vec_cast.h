// The high-dimension Cast (CANN: kernel_operator_vec_vconv_intf.h; dav_c220
// kernel_operator_vec_vconv_impl.h). Cast.md: a repeat holds 256 B of the wider
// type (64 elements for half -> int32), the mask selects among those, and each
// side's strides count its own 32 B blocks (the count form: kernel_vec_ops.h).
#pragma once
#include <cstdint>
#include <type_traits>

#include "kernel_vec_cast_int4.h"
#include "kernel_vec_ops.h"
#include "kernel_vec_repeat.h"

namespace AscendC {

namespace sim_vec {
template <class T, class U, bool isSetMask, class M>
void cast_highdim(const LocalTensor<T>& dst, const LocalTensor<U>& src, RoundMode mode, const M& mask,
                  uint8_t repeatTime, const UnaryRepeatParams& p) {
    if constexpr (ascend_sim::is_nibble_v<T> || ascend_sim::is_nibble_v<U>) {
        cast_int4_highdim<T, U, isSetMask>(dst, src, mode, mask, repeatTime, p);
    } else {
        check_cast<T, U>(mode);
        using Wide = std::conditional_t<(sizeof(T) >= sizeof(U)), T, U>;
        apply_mask<Wide, isSetMask>("Cast", mask);
        const d::RepArg a[2] = {rep_arg(src, p.srcBlkStride, p.srcRepStride, "src", false),
                                rep_arg(dst, p.dstBlkStride, p.dstRepStride, "dst", true)};
        repeat("Cast", d::VecOp::Cast, a, 2, {256 / uint32_t(sizeof(Wide)), repeatTime},
               [&](const d::RepRun& u) {
                   if constexpr (is_deq_cast_v<T, U>) cast_deq(at(dst, a[1], u), at(src, a[0], u), size_t(u.len));
                   else num::cast(at(dst, a[1], u), at(src, a[0], u), size_t(u.len), mode);
               });
    }
}
}  // namespace sim_vec

template <class T, class U, bool isSetMask = true>
void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode, const uint64_t mask[],
          const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {
    sim_vec::cast_highdim<T, U, isSetMask>(dst, src, roundMode, mask, repeatTime, repeatParams);
}
template <class T, class U, bool isSetMask = true>
void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode, const uint64_t mask,
          const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {
    sim_vec::cast_highdim<T, U, isSetMask>(dst, src, roundMode, mask, repeatTime, repeatParams);
}

}  // namespace AscendC

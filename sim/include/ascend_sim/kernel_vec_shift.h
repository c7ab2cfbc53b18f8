// ShiftLeft / ShiftRight (CANN: kernel_operator_vec_binary_scalar_intf.h; dav_c220
// kernel_operator_vec_binary_scalar_impl.h :: ShiftLeftImpl, ShiftRightImpl):
// int16/uint16/int32/uint32, the shift a scalar of T in [0, bits of T] (ShiftLeft.md,
// ShiftRight.md), count and high-dimension forms; ShiftRight's roundEn only for
// signed types (dav_c220 static_asserts it off for unsigned ones).
#pragma once
#include <cstdint>

#include "kernel_vec_ops.h"
#include "kernel_vec_repeat.h"

namespace AscendC {

namespace sim_vec {
template <class T>
inline constexpr bool shift_v = one_of_v<T, int16_t, uint16_t, int32_t, uint32_t>;

template <class T>
void check_shift(const char* api, T sh, bool roundEn) {
    if (int64_t(sh) < 0 || int64_t(sh) > int64_t(8 * sizeof(T)))
        d::fail(api, "shift out of range", "shift %lld is outside [0, %u] for a %u-bit type", (long long)sh,
                unsigned(8 * sizeof(T)), unsigned(8 * sizeof(T)));
    if (roundEn && std::is_unsigned_v<T>)
        d::fail(api, "roundEn on an unsigned type", "roundEn applies to int16_t and int32_t only");
}

template <class T, bool isSetMask, class M>
void shift_highdim(const char* api, d::VecOp op, const LocalTensor<T>& dst, const LocalTensor<T>& src, T sh,
                   const M& mask, uint8_t repeatTime, const UnaryRepeatParams& p, bool left, bool roundEn) {
    check_shift(api, sh, roundEn);
    rep_unary<T, isSetMask>(api, op, dst, src, mask, repeatTime, p, [&](T* o, const T* i, size_t n) {
        left ? num::shift_left(o, i, sh, n) : num::shift_right(o, i, sh, n, roundEn);
    });
}
}  // namespace sim_vec

#define ASCEND_SIM_SHIFT_MSG(NAME) NAME ": A2/A3 support int16_t, uint16_t, int32_t and uint32_t"
template <class T, bool isSetMask = true>
void ShiftLeft(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, const int32_t& count) {
    static_assert(sim_vec::shift_v<T>, ASCEND_SIM_SHIFT_MSG("ShiftLeft"));
    sim_vec::check_shift("ShiftLeft", scalarValue, false);
    if constexpr (isSetMask)
        sim_vec::scalar_op<T>("ShiftLeft", sim_vec::d::VecOp::ShiftLeft, dst, src, scalarValue, count,
                              &sim_vec::num::shift_left<T>);
    else
        sim_vec::shift_highdim<T, false>("ShiftLeft", sim_vec::d::VecOp::ShiftLeft, dst, src, scalarValue,
                                         MASK_PLACEHOLDER, 1, UnaryRepeatParams{}, true, false);
}
template <class T, bool isSetMask = true>
void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, const int32_t& count) {
    static_assert(sim_vec::shift_v<T>, ASCEND_SIM_SHIFT_MSG("ShiftRight"));
    sim_vec::check_shift("ShiftRight", scalarValue, false);
    if constexpr (isSetMask)
        sim_vec::scalar_op<T>("ShiftRight", sim_vec::d::VecOp::ShiftRight, dst, src, scalarValue, count,
                              [](T* o, const T* i, T sh, size_t n) { sim_vec::num::shift_right(o, i, sh, n, false); });
    else
        sim_vec::shift_highdim<T, false>("ShiftRight", sim_vec::d::VecOp::ShiftRight, dst, src, scalarValue,
                                         MASK_PLACEHOLDER, 1, UnaryRepeatParams{}, false, false);
}

#define ASCEND_SIM_SHIFT_HIGHDIM(NAME, MASKT, LEFT, ROUND_PARAM, ROUND)                                        \
    template <class T, bool isSetMask = true>                                                                  \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, MASKT mask,          \
              const uint8_t repeatTime, const UnaryRepeatParams& repeatParams ROUND_PARAM) {                   \
        static_assert(sim_vec::shift_v<T>, ASCEND_SIM_SHIFT_MSG(#NAME));                                       \
        sim_vec::shift_highdim<T, isSetMask>(#NAME, sim_vec::d::VecOp::NAME, dst, src, scalarValue, mask,      \
                                             repeatTime, repeatParams, LEFT, ROUND);                           \
    }
#define ASCEND_SIM_ROUND , bool roundEn = false
ASCEND_SIM_SHIFT_HIGHDIM(ShiftLeft, uint64_t, true, , false)
ASCEND_SIM_SHIFT_HIGHDIM(ShiftLeft, const uint64_t*, true, , false)
ASCEND_SIM_SHIFT_HIGHDIM(ShiftRight, uint64_t, false, ASCEND_SIM_ROUND, roundEn)
ASCEND_SIM_SHIFT_HIGHDIM(ShiftRight, const uint64_t*, false, ASCEND_SIM_ROUND, roundEn)
#undef ASCEND_SIM_ROUND
#undef ASCEND_SIM_SHIFT_HIGHDIM
#undef ASCEND_SIM_SHIFT_MSG

}  // namespace AscendC

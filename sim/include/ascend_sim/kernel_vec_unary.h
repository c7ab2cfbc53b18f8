// Unary vector APIs (CANN: kernel_operator_vec_unary_intf.h; dav_c220
// kernel_operator_vec_unary_impl.h): the count forms the cross-entropy kernel
// does not use, and the high-dimension forms of all of them (Exp and Ln's
// count forms: kernel_vec_ops.h).
#pragma once
#include <cstdint>

#include "kernel_vec_ops.h"
#include "kernel_vec_repeat.h"

namespace AscendC {

// NAME(dst, src, mask | mask[2], repeatTime, UnaryRepeatParams).
#define ASCEND_SIM_UNARY_HIGHDIM(NAME, OK, MSG, FN)                                                            \
    template <class T, bool isSetMask = true>                                                                  \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],                     \
              const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {                               \
        static_assert(OK, #NAME ": " MSG);                                                                     \
        sim_vec::rep_unary<T, isSetMask>(#NAME, sim_vec::d::VecOp::NAME, dst, src, mask, repeatTime,           \
                                         repeatParams, [](T* o, const T* i, size_t n) { sim_vec::num::FN(o, i, n); }); \
    }                                                                                                          \
    template <class T, bool isSetMask = true>                                                                  \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask, const uint8_t repeatTime,   \
              const UnaryRepeatParams& repeatParams) {                                                         \
        static_assert(OK, #NAME ": " MSG);                                                                     \
        sim_vec::rep_unary<T, isSetMask>(#NAME, sim_vec::d::VecOp::NAME, dst, src, mask, repeatTime,           \
                                         repeatParams, [](T* o, const T* i, size_t n) { sim_vec::num::FN(o, i, n); }); \
    }

// NAME(dst, src, count) and the high-dimension forms.
#define ASCEND_SIM_UNARY(NAME, OK, MSG, FN)                                                                    \
    template <class T>                                                                                         \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {                    \
        static_assert(OK, #NAME ": " MSG);                                                                     \
        sim_vec::unary<T>(#NAME, sim_vec::d::VecOp::NAME, dst, src, count,                                     \
                          [](T* o, const T* i, size_t n) { sim_vec::num::FN(o, i, n); });                      \
    }                                                                                                          \
    ASCEND_SIM_UNARY_HIGHDIM(NAME, OK, MSG, FN)

#define ASCEND_SIM_HF "A2/A3 support half and float only"
ASCEND_SIM_UNARY_HIGHDIM(Exp, sim_vec::f16f32_v<T>, ASCEND_SIM_HF, exp)
ASCEND_SIM_UNARY_HIGHDIM(Ln, sim_vec::f16f32_v<T>, ASCEND_SIM_HF, ln)
ASCEND_SIM_UNARY(Abs, sim_vec::f16f32_v<T>, ASCEND_SIM_HF, abs)
ASCEND_SIM_UNARY(Sqrt, sim_vec::f16f32_v<T>, ASCEND_SIM_HF, sqrt)
ASCEND_SIM_UNARY(Rsqrt, sim_vec::f16f32_v<T>, ASCEND_SIM_HF, rsqrt)
ASCEND_SIM_UNARY(Reciprocal, sim_vec::f16f32_v<T>, ASCEND_SIM_HF, reciprocal)
ASCEND_SIM_UNARY(Relu, (sim_vec::one_of_v<T, half, float, int32_t>), "A2/A3 support half, float and int32_t", relu)
ASCEND_SIM_UNARY(Not, (sim_vec::one_of_v<T, int16_t, uint16_t>), "A2/A3 support int16_t and uint16_t", bit_not)
#undef ASCEND_SIM_HF
#undef ASCEND_SIM_UNARY
#undef ASCEND_SIM_UNARY_HIGHDIM

}  // namespace AscendC

// Binary vector APIs (CANN: kernel_operator_vec_binary_intf.h; dav_c220
// kernel_operator_vec_binary_impl.h): the count forms of And/Or and the
// high-dimension forms of all of them (the other count forms: kernel_vec_ops.h).
#pragma once
#include <cstdint>

#include "kernel_vec_ops.h"
#include "kernel_vec_repeat.h"

namespace AscendC {

namespace sim_vec {
// 通用地址重叠约束: Add/Sub/Mul on half, int32 and float may read as src1 what
// an earlier repeat wrote to dst, if dstRepStride or src1RepStride is 0.
template <class T>
constexpr bool src1_may_trail_dst(d::VecOp op) {
    return one_of_v<T, half, int32_t, float> && (op == d::VecOp::Add || op == d::VecOp::Sub || op == d::VecOp::Mul);
}
}  // namespace sim_vec

// NAME(dst, src0, src1, mask | mask[2], repeatTime, BinaryRepeatParams).
#define ASCEND_SIM_BINARY_HIGHDIM(NAME, OK, MSG, FN)                                                           \
    template <class T, bool isSetMask = true>                                                                  \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,               \
              const uint64_t mask[], const uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {       \
        static_assert(OK, #NAME ": " MSG);                                                                     \
        sim_vec::rep_binary<T, isSetMask>(#NAME, sim_vec::d::VecOp::NAME, dst, src0, src1, mask, repeatTime,   \
                                          repeatParams, sim_vec::src1_may_trail_dst<T>(sim_vec::d::VecOp::NAME), \
                                          &sim_vec::num::FN<T>);                                               \
    }                                                                                                          \
    template <class T, bool isSetMask = true>                                                                  \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,               \
              uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {               \
        static_assert(OK, #NAME ": " MSG);                                                                     \
        sim_vec::rep_binary<T, isSetMask>(#NAME, sim_vec::d::VecOp::NAME, dst, src0, src1, mask, repeatTime,   \
                                          repeatParams, sim_vec::src1_may_trail_dst<T>(sim_vec::d::VecOp::NAME), \
                                          &sim_vec::num::FN<T>);                                               \
    }

#define ASCEND_SIM_ARITH "A2/A3 support int16_t, half, int32_t and float (not bfloat16_t)"
ASCEND_SIM_BINARY_HIGHDIM(Add, sim_vec::arith_v<T>, ASCEND_SIM_ARITH, add)
ASCEND_SIM_BINARY_HIGHDIM(Sub, sim_vec::arith_v<T>, ASCEND_SIM_ARITH, sub)
ASCEND_SIM_BINARY_HIGHDIM(Mul, sim_vec::arith_v<T>, ASCEND_SIM_ARITH, mul)
ASCEND_SIM_BINARY_HIGHDIM(Max, sim_vec::arith_v<T>, ASCEND_SIM_ARITH, max)
ASCEND_SIM_BINARY_HIGHDIM(Min, sim_vec::arith_v<T>, ASCEND_SIM_ARITH, min)
ASCEND_SIM_BINARY_HIGHDIM(Div, sim_vec::f16f32_v<T>, "A2/A3 support half and float only", div)
ASCEND_SIM_BINARY_HIGHDIM(And, (sim_vec::one_of_v<T, int16_t, uint16_t>), "A2/A3 support int16_t and uint16_t", bit_and)
ASCEND_SIM_BINARY_HIGHDIM(Or, (sim_vec::one_of_v<T, int16_t, uint16_t>), "A2/A3 support int16_t and uint16_t", bit_or)
#undef ASCEND_SIM_ARITH
#undef ASCEND_SIM_BINARY_HIGHDIM

// The count forms of And/Or also take 32-bit types, but dav_c220 runs them as
// int16_t over `count` elements: a 32-bit tensor gets only its first count x 2 bytes.
#define ASCEND_SIM_BITWISE_COUNT(NAME, FN)                                                                     \
    template <class T>                                                                                         \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,               \
              const int32_t& count) {                                                                          \
        static_assert(sim_vec::one_of_v<T, int16_t, uint16_t, int32_t, uint32_t>,                              \
                      #NAME ": A2/A3 support int16_t, uint16_t, int32_t and uint32_t");                        \
        sim_vec::binary<int16_t>(#NAME, sim_vec::d::VecOp::NAME, dst.template ReinterpretCast<int16_t>(),      \
                                 src0.template ReinterpretCast<int16_t>(), src1.template ReinterpretCast<int16_t>(), \
                                 count, &sim_vec::num::FN<int16_t>);                                           \
    }
ASCEND_SIM_BITWISE_COUNT(And, bit_and)
ASCEND_SIM_BITWISE_COUNT(Or, bit_or)
#undef ASCEND_SIM_BITWISE_COUNT

}  // namespace AscendC

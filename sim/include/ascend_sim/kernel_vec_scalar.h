// Tensor-scalar vector APIs, Duplicate, Brcb and the UB->UB Copy (CANN:
// kernel_operator_vec_binary_scalar_intf.h, kernel_operator_vec_duplicate_intf.h,
// kernel_operator_vec_brcb_intf.h, kernel_operator_data_copy_intf.h; dav_c220
// *_binary_scalar_impl.h, *_duplicate_impl.h, BrcbImpl, CopyImpl): the count
// and high-dimension forms.
#pragma once
#include <cstdint>

#include "kernel_vec_ops.h"
#include "kernel_vec_repeat.h"

namespace AscendC {

// NAME(dst, src, scalar, mask | mask[2], repeatTime, UnaryRepeatParams).
#define ASCEND_SIM_SCALAR_HIGHDIM(NAME, OK, MSG, FN)                                                           \
    template <class T, bool isSetMask = true>                                                                  \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, const uint64_t mask[], \
              const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {                               \
        static_assert(OK, #NAME ": " MSG);                                                                     \
        sim_vec::rep_scalar<T, isSetMask>(#NAME, sim_vec::d::VecOp::NAME, dst, src, scalarValue, mask, repeatTime, \
                                          repeatParams, &sim_vec::num::FN<T>);                                 \
    }                                                                                                          \
    template <class T, bool isSetMask = true>                                                                  \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, uint64_t mask,       \
              const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {                               \
        static_assert(OK, #NAME ": " MSG);                                                                     \
        sim_vec::rep_scalar<T, isSetMask>(#NAME, sim_vec::d::VecOp::NAME, dst, src, scalarValue, mask, repeatTime, \
                                          repeatParams, &sim_vec::num::FN<T>);                                 \
    }

// NAME(dst, src, scalar, count); the scalar is `const T&`, so Muls(f32, f32,
// 2.0, n) does not compile (pass 2.0f). With isSetMask = false, one repeat of default
// strides under the kernel's mask register (dav_c220 Level 2).
#define ASCEND_SIM_SCALAR(NAME, OK, MSG, FN)                                                                   \
    template <class T, bool isSetMask = true>                                                                  \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, const int32_t& count) { \
        static_assert(OK, #NAME ": " MSG);                                                                     \
        if constexpr (isSetMask)                                                                               \
            sim_vec::scalar_op<T>(#NAME, sim_vec::d::VecOp::NAME, dst, src, scalarValue, count, &sim_vec::num::FN<T>); \
        else                                                                                                   \
            sim_vec::rep_scalar<T, false>(#NAME, sim_vec::d::VecOp::NAME, dst, src, scalarValue, MASK_PLACEHOLDER, 1, \
                                          UnaryRepeatParams{}, &sim_vec::num::FN<T>);                          \
    }                                                                                                          \
    ASCEND_SIM_SCALAR_HIGHDIM(NAME, OK, MSG, FN)

#define ASCEND_SIM_ARITH "A2/A3 support int16_t, half, int32_t and float (not bfloat16_t)"
ASCEND_SIM_SCALAR(Adds, sim_vec::arith_v<T>, ASCEND_SIM_ARITH, adds)
ASCEND_SIM_SCALAR(Muls, sim_vec::arith_v<T>, ASCEND_SIM_ARITH, muls)
ASCEND_SIM_SCALAR(Maxs, sim_vec::arith_v<T>, ASCEND_SIM_ARITH, maxs)
ASCEND_SIM_SCALAR(Mins, sim_vec::arith_v<T>, ASCEND_SIM_ARITH, mins)
ASCEND_SIM_SCALAR(LeakyRelu, sim_vec::f16f32_v<T>, "A2/A3 support half and float only", leaky_relu)
#undef ASCEND_SIM_ARITH
#undef ASCEND_SIM_SCALAR
#undef ASCEND_SIM_SCALAR_HIGHDIM

namespace sim_vec {
template <class T>
inline constexpr bool dup_v = one_of_v<T, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float>;

template <class T, bool isSetMask, class M>
void duplicate_highdim(const LocalTensor<T>& dst, T value, const M& mask, uint8_t repeatTime, uint16_t blkStride,
                       uint8_t repStride) {
    apply_mask<T, isSetMask>("Duplicate", mask);
    const d::RepArg a[1] = {rep_arg(dst, blkStride, repStride, "dst", true)};
    repeat("Duplicate", d::VecOp::Duplicate, a, 1, {256 / uint32_t(sizeof(T)), repeatTime},
           [&](const d::RepRun& u) { num::duplicate(at(dst, a[0], u), value, size_t(u.len)); });
}

template <class T, bool isSetMask, class M>
void copy_highdim(const LocalTensor<T>& dst, const LocalTensor<T>& src, const M& mask, uint8_t repeatTime,
                  const CopyRepeatParams& p) {
    apply_mask<T, isSetMask>("Copy", mask);
    const d::RepArg a[2] = {rep_arg(src, p.srcStride, p.srcRepeatSize, "src", false),
                            rep_arg(dst, p.dstStride, p.dstRepeatSize, "dst", true)};
    repeat("Copy", d::VecOp::Copy, a, 2, {256 / uint32_t(sizeof(T)), repeatTime, d::CountMode::RepeatBlocks},
           [&](const d::RepRun& u) { num::copy(at(dst, a[1], u), at(src, a[0], u), size_t(u.len)); });
}

// Axpy reads dst as well as writing it (dav_c220 AxpyIntrinsicsImpl: one vaxpy with
// the four strides of UnaryRepeatParams).
template <class T, class U, bool isSetMask, class M>
void axpy_highdim(const LocalTensor<T>& dst, const LocalTensor<U>& src, U scalar, const M& mask, uint8_t repeatTime,
                  const UnaryRepeatParams& p) {
    static_assert(f16f32_v<U>, "Axpy: A2/A3 support half and float (not bfloat16_t)");
    static_assert(std::is_same_v<T, U>,
                  "Axpy: the mixed float-dst/half-src form is not modelled by the simulator (numerics lacks it)");
    apply_mask<T, isSetMask>("Axpy", mask);
    const d::RepArg a[3] = {rep_arg(src, p.srcBlkStride, p.srcRepStride, "src", false),
                            rep_arg(dst, p.dstBlkStride, p.dstRepStride, "dst", true),
                            rep_arg(dst, p.dstBlkStride, p.dstRepStride, "dst", false)};
    repeat("Axpy", d::VecOp::Axpy, a, 3, {256 / uint32_t(sizeof(T)), repeatTime},
           [&](const d::RepRun& u) { num::axpy(at(dst, a[1], u), at(src, a[0], u), scalar, size_t(u.len)); });
}

// Brcb.md: repeat r fills dst block b (of 8) with src[8r + b]. dav_c220 BrcbImpl
// resets the mask register first; repeatTime alone drives it, in Counter mode
// too (the A2 Broadcast runs it there).
template <class T>
void brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint8_t repeatTime, uint16_t blkStride,
          uint16_t repStride) {
    d::vec_set_mask("Brcb", ~0ull, ~0ull);
    d::RepArg a[2] = {rep_arg(src, 0, 1, "src", false), rep_arg(dst, blkStride, repStride, "dst", true)};
    a[0].repBytes = a[0].repUnit = 8 * sizeof(T);
    constexpr uint32_t perBlock = 32 / sizeof(T);
    repeat("Brcb", d::VecOp::Brcb, a, 2, {256 / uint32_t(sizeof(T)), repeatTime, d::CountMode::Whole, true},
           [&](const d::RepRun& u) {
        num::duplicate(at(dst, a[1], u), src.GetPhyAddr()[8 * u.repeat + u.first / perBlock], size_t(u.len));
    });
}
}  // namespace sim_vec

struct BrcbRepeatParams {
    BrcbRepeatParams() {}
    BrcbRepeatParams(uint16_t dstBlkStrideIn, uint16_t dstRepStrideIn)
        : dstRepStride(dstRepStrideIn), dstBlkStride(dstBlkStrideIn) {}
    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint16_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src1BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0RepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src1RepStride = DEFAULT_REPEAT_STRIDE;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
};

template <class T>
void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint8_t repeatTime,
          const BrcbRepeatParams& repeatParams) {
    static_assert(sim_vec::dup_v<T>, "Brcb: A2/A3 support int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t and float");
    sim_vec::brcb(dst, src, repeatTime, repeatParams.dstBlkStride, repeatParams.dstRepStride);
}

#define ASCEND_SIM_DUP_MSG "Duplicate: A2/A3 support int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t and float"
template <class T, bool isSetMask = true>
void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, uint64_t mask, const uint8_t repeatTime,
               const uint16_t dstBlockStride, const uint8_t dstRepeatStride) {
    static_assert(sim_vec::dup_v<T>, ASCEND_SIM_DUP_MSG);
    sim_vec::duplicate_highdim<T, isSetMask>(dst, scalarValue, mask, repeatTime, dstBlockStride, dstRepeatStride);
}
template <class T, bool isSetMask = true>
void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, const uint64_t mask[], const uint8_t repeatTime,
               const uint16_t dstBlockStride, const uint8_t dstRepeatStride) {
    static_assert(sim_vec::dup_v<T>, ASCEND_SIM_DUP_MSG);
    sim_vec::duplicate_highdim<T, isSetMask>(dst, scalarValue, mask, repeatTime, dstBlockStride, dstRepeatStride);
}
#undef ASCEND_SIM_DUP_MSG

// In Counter mode Copy's count is per repeat and repeatTime holds (Copy.md).
#define ASCEND_SIM_COPY_MSG "Copy: A2/A3 support int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t and float"
template <class T, bool isSetMask = true>
void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask, const uint8_t repeatTime,
          const CopyRepeatParams& repeatParams) {
    static_assert(sim_vec::dup_v<T>, ASCEND_SIM_COPY_MSG);
    sim_vec::copy_highdim<T, isSetMask>(dst, src, mask, repeatTime, repeatParams);
}
template <class T, bool isSetMask = true>
void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[], const uint8_t repeatTime,
          const CopyRepeatParams& repeatParams) {
    static_assert(sim_vec::dup_v<T>, ASCEND_SIM_COPY_MSG);
    sim_vec::copy_highdim<T, isSetMask>(dst, src, mask, repeatTime, repeatParams);
}
#undef ASCEND_SIM_COPY_MSG

// Axpy(dst, src, scalar, mask | mask[2], repeatTime, UnaryRepeatParams): the
// same-type forms, as the count form (kernel_vec_ops.h).
template <class T, class U, bool isSetMask = true>
void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U& scalarValue, uint64_t mask,
          const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {
    sim_vec::axpy_highdim<T, U, isSetMask>(dst, src, scalarValue, mask, repeatTime, repeatParams);
}
template <class T, class U, bool isSetMask = true>
void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U& scalarValue, const uint64_t mask[],
          const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {
    sim_vec::axpy_highdim<T, U, isSetMask>(dst, src, scalarValue, mask, repeatTime, repeatParams);
}

}  // namespace AscendC

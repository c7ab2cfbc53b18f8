// The fused binary vector APIs (CANN: kernel_operator_vec_binary_intf.h;
// dav_c220 kernel_operator_vec_binary_impl.h vaddrelu, vsubrelu, vmadd,
// vmaddrelu, vmla): AddRelu, SubRelu, FusedMulAdd, FusedMulAddRelu (9.x:
// MulAddRelu) and MulAddDst, count and high-dimension forms. FusedMulAdd, FusedMulAddRelu and
// MulAddDst read dst as a source. Each step is rounded in the type it is
// computed in (the unit's fusing of the multiply and the add is undocumented).
#pragma once
#include <cstdint>
#include <type_traits>

#include "kernel_vec_ops.h"
#include "kernel_vec_repeat.h"

namespace AscendC {

namespace sim_vec {

template <class T>
inline T relu_of(T x) {
    return num::detail::wide(x) > 0 ? x : T(0.0f);
}

// The count form: one Counter-mode instruction over `count` elements of every operand.
template <class D, class S, class F>
void fused_count(const char* api, d::VecOp op, const LocalTensor<D>& dst, const LocalTensor<S>& src0,
                 const LocalTensor<S>& src1, int32_t count, bool readsDst, F f) {
    const uint64_t c = uint64_t(int64_t(count));
    const d::VecArg a[4] = {arg(src0, c, "src0", false), arg(src1, c, "src1", false), arg(dst, c, "dst", true),
                            arg(dst, c, "dst", false)};
    constexpr uint32_t widest = sizeof(D) > sizeof(S) ? sizeof(D) : sizeof(S);
    if (!d::vec_instr(api, op, count, widest, a, readsDst ? 4 : 3, true)) return;
    f(dst.GetPhyAddr(), src0.GetPhyAddr(), src1.GetPhyAddr(), size_t(count));
}

// Elementwise kernels: (dst, src0, src1, n).
struct AddReluFn {
    template <class T>
    void operator()(T* o, const T* a, const T* b, size_t n) const {
        for (size_t i = 0; i < n; ++i) o[i] = relu_of(num::detail::add<T>(a[i], b[i]));
    }
};
struct SubReluFn {
    template <class T>
    void operator()(T* o, const T* a, const T* b, size_t n) const {
        for (size_t i = 0; i < n; ++i) o[i] = relu_of(num::detail::sub<T>(a[i], b[i]));
    }
};
// FusedMulAdd.md: dst = src0 * dst + src1.
template <bool withRelu>
struct FusedMulAddFn {
    template <class T>
    void operator()(T* o, const T* a, const T* b, size_t n) const {
        for (size_t i = 0; i < n; ++i) {
            const T r = num::detail::add<T>(num::detail::mul<T>(a[i], o[i]), b[i]);
            o[i] = withRelu ? relu_of(r) : r;
        }
    }
};
// MulAddDst.md: dst = src0 * src1 + dst; half sources into a float dst multiply in float.
struct MulAddDstFn {
    template <class D, class S>
    void operator()(D* o, const S* a, const S* b, size_t n) const {
        for (size_t i = 0; i < n; ++i) {
            const D p = num::detail::mul<D>(D(a[i]), D(b[i]));
            o[i] = num::detail::add<D>(p, o[i]);
        }
    }
};

template <class D, class S>
inline constexpr bool mul_add_dst_pair_v =
    (std::is_same_v<D, S> && f16f32_v<D>) || (std::is_same_v<D, float> && std::is_same_v<S, half>);

}  // namespace sim_vec

// NAME(dst, src0, src1, count) and NAME(dst, src0, src1, mask | mask[2], repeatTime, BinaryRepeatParams).
#define ASCEND_SIM_FUSED(NAME, OK, MSG, FN, READS_DST)                                                         \
    template <class T>                                                                                         \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,               \
              const int32_t& count) {                                                                          \
        static_assert(OK, #NAME ": " MSG);                                                                     \
        sim_vec::fused_count<T, T>(#NAME, sim_vec::d::VecOp::NAME, dst, src0, src1, count, READS_DST, FN{});   \
    }                                                                                                          \
    template <class T, bool isSetMask = true>                                                                  \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,               \
              const uint64_t mask[], const uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {       \
        static_assert(OK, #NAME ": " MSG);                                                                     \
        sim_vec::rep_binary_into<T, T, isSetMask>(#NAME, sim_vec::d::VecOp::NAME, dst, src0, src1, mask,       \
                                                  repeatTime, repeatParams, false, READS_DST, FN{});           \
    }                                                                                                          \
    template <class T, bool isSetMask = true>                                                                  \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,               \
              uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {               \
        static_assert(OK, #NAME ": " MSG);                                                                     \
        sim_vec::rep_binary_into<T, T, isSetMask>(#NAME, sim_vec::d::VecOp::NAME, dst, src0, src1, mask,       \
                                                  repeatTime, repeatParams, false, READS_DST, FN{});           \
    }

#define ASCEND_SIM_RELU_TYPES "A2/A3 support int16_t, half and float"
#define ASCEND_SIM_FMA_TYPES "A2/A3 support half and float"
ASCEND_SIM_FUSED(AddRelu, (sim_vec::one_of_v<T, int16_t, half, float>), ASCEND_SIM_RELU_TYPES, sim_vec::AddReluFn,
                 false)
ASCEND_SIM_FUSED(SubRelu, (sim_vec::one_of_v<T, int16_t, half, float>), ASCEND_SIM_RELU_TYPES, sim_vec::SubReluFn,
                 false)
ASCEND_SIM_FUSED(FusedMulAdd, sim_vec::f16f32_v<T>, ASCEND_SIM_FMA_TYPES, sim_vec::FusedMulAddFn<false>, true)
ASCEND_SIM_FUSED(FusedMulAddRelu, sim_vec::f16f32_v<T>, ASCEND_SIM_FMA_TYPES, sim_vec::FusedMulAddFn<true>, true)
// The 9.x name of FusedMulAddRelu (the same FusedMulAddReluImpl).
ASCEND_SIM_FUSED(MulAddRelu, sim_vec::f16f32_v<T>, ASCEND_SIM_FMA_TYPES, sim_vec::FusedMulAddFn<true>, true)
#undef ASCEND_SIM_FMA_TYPES
#undef ASCEND_SIM_RELU_TYPES
#undef ASCEND_SIM_FUSED

// MulAddDst<T = dst, U = src>: (half, half), (float, float), (float, half).
#define ASCEND_SIM_MULADDDST_MSG "MulAddDst: A2/A3 support (dst, src) = (half, half), (float, float) and (float, half)"
template <class T, class U>
void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,
               const int32_t& count) {
    static_assert(sim_vec::mul_add_dst_pair_v<T, U>, ASCEND_SIM_MULADDDST_MSG);
    sim_vec::fused_count<T, U>("MulAddDst", sim_vec::d::VecOp::MulAddDst, dst, src0, src1, count, true,
                               sim_vec::MulAddDstFn{});
}
template <class T, class U, bool isSetMask = true>
void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,
               const uint64_t mask[], const uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {
    static_assert(sim_vec::mul_add_dst_pair_v<T, U>, ASCEND_SIM_MULADDDST_MSG);
    sim_vec::rep_binary_into<T, U, isSetMask>("MulAddDst", sim_vec::d::VecOp::MulAddDst, dst, src0, src1, mask,
                                              repeatTime, repeatParams, false, true, sim_vec::MulAddDstFn{});
}
template <class T, class U, bool isSetMask = true>
void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1, uint64_t mask,
               const uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {
    static_assert(sim_vec::mul_add_dst_pair_v<T, U>, ASCEND_SIM_MULADDDST_MSG);
    sim_vec::rep_binary_into<T, U, isSetMask>("MulAddDst", sim_vec::d::VecOp::MulAddDst, dst, src0, src1, mask,
                                              repeatTime, repeatParams, false, true, sim_vec::MulAddDstFn{});
}
#undef ASCEND_SIM_MULADDDST_MSG

}  // namespace AscendC

// The high-dimension Compare and CompareScalar, the Compare into CMPMASK and
// GetCmpMask/SetCmpMask (CANN: kernel_operator_vec_cmpsel_intf.h;
// dav_c220 kernel_operator_vec_cmp_impl.h :: VcmpvImpl, VcmpvsImpl). On A2/A3 the
// mask argument is reserved (Compare.md; the code drops it): every element of
// each repeat is compared, the sources follow their strides, and repeat r's
// 256 / sizeof(T) result bits land at dst + r x 256 / sizeof(T) / 8 bytes, packed
// as the count form lays them out. Other dst strides over several repeats are
// refused: their bit layout is not documented. The Compare into the register
// (Compare（结果存入寄存器）.md, dav_c220 VcmpImpl: SetMask, then one repeat of
// vcmp) honours the mask; its masked-off bits are 0 (UNCONFIRMED). The count
// forms: kernel_vec_ops.h.
#pragma once
#include <cstdint>
#include <type_traits>

#include "kernel_vec_ops.h"
#include "kernel_vec_repeat.h"

namespace AscendC {

namespace sim_vec {
// f(bits of the run's first element, run): the comparison of one run (a whole number of bytes of dst).
template <class T, class U, class F>
void compare_highdim(const char* api, d::VecOp op, const LocalTensor<U>& dst, d::RepArg* a, int nSrc,
                     CMPMODE cmpMode, uint8_t repeatTime, uint32_t dstBlkStride, uint32_t dstRepStride, F f) {
    static_assert(one_of_v<T, half, float, int32_t>, "Compare: A2/A3 support half and float (int32_t for EQ only), "
                                                     "not bfloat16_t");
    check_cmp_mode<T>(api, cmpMode);
    constexpr uint32_t perRepeat = 256 / sizeof(T);
    if (repeatTime > 1 && (dstBlkStride != 1 || dstRepStride != DEFAULT_REPEAT_STRIDE))
        d::fail(api, "dst strides not modelled",
                "dstBlkStride %u / dstRepStride %u over %u repeats: the bit layout of other dst strides than 1 / 8 "
                "is not documented for A2/A3",
                dstBlkStride, dstRepStride, unsigned(repeatTime));
    a[nSrc] = rep_arg(dst, 0, 1, "dst", true);
    a[nSrc].repBytes = a[nSrc].repUnit = perRepeat / 8;
    d::RepShape shape{perRepeat, repeatTime};
    shape.ignoreMask = true;
    auto* bits = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
    repeat(api, op, a, nSrc + 1, shape,
           [&](const d::RepRun& u) { f(bits + (u.repeat * perRepeat + u.first) / 8, u); });
}

template <class T, class U>
void compare_tensor(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE mode,
                    uint8_t repeatTime, const BinaryRepeatParams& p) {
    static_assert(one_of_v<U, uint8_t, int8_t>, "Compare: dst must be a uint8_t (or int8_t) bitmask");
    d::RepArg a[3] = {rep_arg(src0, p.src0BlkStride, p.src0RepStride, "src0", false),
                      rep_arg(src1, p.src1BlkStride, p.src1RepStride, "src1", false), {}};
    compare_highdim<T>("Compare", d::VecOp::Compare, dst, a, 2, mode, repeatTime, p.dstBlkStride, p.dstRepStride,
                       [&](uint8_t* bits, const d::RepRun& u) {
                           num::compare(bits, at(src0, a[0], u), at(src1, a[1], u), mode, u.len);
                       });
}

template <class T, class U>
void compare_scalar_highdim(const LocalTensor<U>& dst, const LocalTensor<T>& src0, T scalar, CMPMODE mode,
                            uint8_t repeatTime, const UnaryRepeatParams& p) {
    static_assert(std::is_same_v<U, uint8_t>, "CompareScalar: dst must be a uint8_t bitmask (dav_c220 CheckVcmpvsDtype)");
    d::RepArg a[2] = {rep_arg(src0, p.srcBlkStride, p.srcRepStride, "src0", false), {}};
    compare_highdim<T>("CompareScalar", d::VecOp::CompareScalar, dst, a, 1, mode, repeatTime, p.dstBlkStride,
                       p.dstRepStride, [&](uint8_t* bits, const d::RepRun& u) {
                           num::compare_scalar(bits, at(src0, a[0], u), scalar, mode, u.len);
                       });
}

template <class T, bool isSetMask, class M>
void compare_to_cmpmask(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE mode, const M& mask,
                        const BinaryRepeatParams& p) {
    static_assert(f16f32_v<T>, "Compare: A2/A3 compare into CMPMASK half and float only");
    apply_mask<T, isSetMask>("Compare", mask);
    const d::RepArg a[2] = {rep_arg(src0, p.src0BlkStride, p.src0RepStride, "src0", false),
                            rep_arg(src1, p.src1BlkStride, p.src1RepStride, "src1", false)};
    uint64_t bits[2] = {0, 0};
    repeat("Compare", d::VecOp::Compare, a, 2, {256 / uint32_t(sizeof(T)), 1}, [&](const d::RepRun& u) {
        uint8_t run[16];  // a run lies in one 32 B block: at most 16 elements, 2 bytes of bits
        num::compare(run, at(src0, a[0], u), at(src1, a[1], u), mode, u.len);
        for (uint32_t k = 0; k < u.len; ++k) {
            const uint32_t j = u.first + k;
            bits[j / 64] |= uint64_t((run[k / 8] >> (k % 8)) & 1u) << (j % 64);
        }
    });
    d::vec_set_cmpmask("Compare", bits, true);
}
}  // namespace sim_vec

template <class T, bool isSetMask = true>
void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode, const uint64_t mask[],
             const BinaryRepeatParams& repeatParams) {
    sim_vec::compare_to_cmpmask<T, isSetMask>(src0, src1, cmpMode, mask, repeatParams);
}
template <class T, bool isSetMask = true>
void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode, const uint64_t mask,
             const BinaryRepeatParams& repeatParams) {
    sim_vec::compare_to_cmpmask<T, isSetMask>(src0, src1, cmpMode, mask, repeatParams);
}

template <class T>
void GetCmpMask(const LocalTensor<T>& dst) {
    static_assert(sizeof(T) <= 4, "GetCmpMask: b8, b16 and b32 tensors");
    sim_vec::d::vec_cmpmask_io("GetCmpMask", dst.ub_ref(), true);
}
template <class T>
void SetCmpMask(const LocalTensor<T>& src) {
    static_assert(sizeof(T) <= 8, "SetCmpMask: b8, b16, b32 and b64 tensors");
    sim_vec::d::vec_cmpmask_io("SetCmpMask", src.ub_ref(), false);
}

template <class T, class U, bool isSetMask = true>
void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
             const uint64_t mask[], uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {
    (void)mask;
    sim_vec::compare_tensor(dst, src0, src1, cmpMode, repeatTime, repeatParams);
}
template <class T, class U, bool isSetMask = true>
void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
             const uint64_t mask, uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {
    (void)mask;
    sim_vec::compare_tensor(dst, src0, src1, cmpMode, repeatTime, repeatParams);
}

template <class T, class U, bool isSetMask = true>
void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode,
                   const uint64_t mask[], uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {
    (void)mask;
    sim_vec::compare_scalar_highdim(dst, src0, src1Scalar, cmpMode, repeatTime, repeatParams);
}
template <class T, class U, bool isSetMask = true>
void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode,
                   const uint64_t mask, uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {
    (void)mask;
    sim_vec::compare_scalar_highdim(dst, src0, src1Scalar, cmpMode, repeatTime, repeatParams);
}

}  // namespace AscendC

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
// The high-dimension Select (Select.md; dav_c220 kernel_operator_vec_cmpsel_impl.h
// :: VselImpl, SelectCal): one vsel over the repeats under the mask register.
// Mode 0 takes element j of every repeat from CMPMASK bit j; modes 1 and 2 use
// selMask's bits r x 256 / sizeof(T) + j (each repeat consumes the next
// 256 / sizeof(T) bits; the simulator reads that repeat's whole chunk of them).
// The forms with selMask load CMPMASK first (mode 0: from selMask; mode 1: the
// scalar, duplicated in the reserve UB; mode 2: selMask's address), so afterwards
// it holds nothing the kernel set. The forms without selMask read what the kernel
// put there: mode 0 the bits, mode 1 the scalar (its first element), mode 2 the
// address of selMask (as ASCENDC_CPU_DEBUG stores it: the host pointer).
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernel_vec_ops.h"
#include "kernel_vec_repeat.h"

namespace AscendC {

namespace sim_vec {
// f(bits of the run's first element, run): the comparison of one run (a whole number of bytes of dst).
template <class T, class U, class F>
void compare_highdim(const char* api, d::VecOp op, const LocalTensor<U>& dst, d::RepArg* a, int nSrc,
                     CMPMODE cmpMode, uint8_t repeatTime, uint32_t dstBlkStride, uint32_t dstRepStride, F f,
                     uint32_t significant = 0) {
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
    shape.significant = significant;
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

// The CompareScalar an advanced API runs over whole repeats whose bits past
// `significant` elements it never uses (Power's masks): those elements unmodelled.
template <class T>
void compare_scalar_within(const LocalTensor<uint8_t>& dst, const LocalTensor<T>& src0, T scalar, CMPMODE mode,
                           uint32_t significant) {
    const uint8_t repeats = uint8_t((uint64_t(significant) * sizeof(T) + 255) / 256);
    d::RepArg a[2] = {rep_arg(src0, 1, DEFAULT_REPEAT_STRIDE, "src0", false), {}};
    compare_highdim<T>(
        "CompareScalar", d::VecOp::CompareScalar, dst, a, 1, mode, repeats, 1, DEFAULT_REPEAT_STRIDE,
        [&](uint8_t* bits, const d::RepRun& u) { num::compare_scalar(bits, at(src0, a[0], u), scalar, mode, u.len); },
        significant);
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
        if (u.len > 16) __builtin_unreachable();  // (which GCC cannot see: -Wstringop-overflow)
        num::compare(run, at(src0, a[0], u), at(src1, a[1], u), mode, u.len);
        for (uint32_t k = 0; k < u.len; ++k) {
            const uint32_t j = u.first + k;
            bits[j / 64] |= uint64_t((run[k / 8] >> (k % 8)) & 1u) << (j % 64);
        }
    });
    d::vec_set_cmpmask("Compare", bits, true);
}
// vsel over the repeats. sel: selMask (modes 1, 2; unused for 0); cmp: CMPMASK (mode 0's bits).
template <class T>
void vsel(SELMODE mode, const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>* src1,
          T scalar, const d::UbRef& sel, const uint64_t cmp[2], uint8_t repeatTime, const BinaryRepeatParams& p) {
    static_assert(f16f32_v<T>, "Select: A2/A3 support half and float only (not bfloat16_t)");
    constexpr uint32_t perRepeat = 256 / sizeof(T);
    d::RepArg a[4];
    int n = 0;
    a[n++] = rep_arg(src0, p.src0BlkStride, p.src0RepStride, "src0", false);
    const int i1 = src1 ? n++ : -1;
    if (src1) a[i1] = rep_arg(*src1, p.src1BlkStride, p.src1RepStride, "src1", false);
    const int is = mode != SELMODE::VSEL_CMPMASK_SPR ? n++ : -1;
    if (is >= 0) {
        a[is] = {sel, 1, 0, 1, "selMask", false};
        a[is].repBytes = a[is].repUnit = perRepeat / 8;
    }
    const int id = n++;
    a[id] = rep_arg(dst, p.dstBlkStride, p.dstRepStride, "dst", true);
    const auto* selBits = static_cast<const uint8_t*>(sel.p);
    repeat("Select", d::VecOp::Select, a, n, {perRepeat, repeatTime}, [&](const d::RepRun& u) {
        T* o = at(dst, a[id], u);
        const T* x = at(src0, a[0], u);
        const T* y = src1 ? at(*src1, a[i1], u) : nullptr;
        for (uint32_t k = 0; k < u.len; ++k) {
            const uint32_t j = u.first + k;
            bool bit;
            if (is < 0) {
                bit = (cmp[j / 64] >> (j % 64)) & 1u;
            } else {
                const uint32_t b = u.repeat * perRepeat + j;
                bit = (selBits[b / 8] >> (b % 8)) & 1u;
            }
            o[k] = bit ? x[k] : (y ? y[k] : scalar);
        }
    });
}

template <class T, class U, bool isSetMask, class M>
void select_tensors(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                    const LocalTensor<T>& src1, SELMODE selMode, const M& mask, uint8_t repeatTime,
                    const BinaryRepeatParams& p) {
    static_assert(one_of_v<U, uint8_t, uint16_t, uint32_t, uint64_t>, "Select: selMask must be uint8..uint64");
    if (selMode != SELMODE::VSEL_CMPMASK_SPR && selMode != SELMODE::VSEL_TENSOR_TENSOR_MODE)
        d::fail("Select", "SELMODE does not match the overload",
                "the tensor-tensor Select takes SELMODE::VSEL_CMPMASK_SPR or VSEL_TENSOR_TENSOR_MODE (got %d)",
                int(selMode));
    uint64_t cmp[2] = {0, 0};
    if (selMode == SELMODE::VSEL_CMPMASK_SPR) {  // set_cmpmask(selMask): the bits of one repeat
        constexpr uint32_t bits = 256 / sizeof(T);
        const d::VecArg m[1] = {sel_mask_arg<T>(selMask, bits)};
        if (!d::vec_instr("Select", d::VecOp::Select, bits, 1, m, 1, true)) return;
        std::memcpy(cmp, selMask.GetPhyAddr(), bits / 8);
        select_barrier();
    } else {
        select_stage_address(selMask);
    }
    apply_mask<T, isSetMask>("Select", mask);
    vsel<T>(selMode, dst, src0, &src1, T{}, selMask.ub_ref(), cmp, repeatTime, p);
    select_clobbers_cmpmask();
}

template <class T, class U, bool isSetMask, class M>
void select_scalar(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, T src1,
                   SELMODE selMode, const M& mask, uint8_t repeatTime, const BinaryRepeatParams& p) {
    static_assert(one_of_v<U, uint8_t, uint16_t, uint32_t, uint64_t>, "Select: selMask must be uint8..uint64");
    if (selMode != SELMODE::VSEL_TENSOR_SCALAR_MODE)
        d::fail("Select", "SELMODE does not match the overload",
                "the tensor-scalar Select needs SELMODE::VSEL_TENSOR_SCALAR_MODE (got %d)", int(selMode));
    select_stage_cmpmask(src1);
    apply_mask<T, isSetMask>("Select", mask);
    const uint64_t none[2] = {0, 0};
    vsel<T>(selMode, dst, src0, nullptr, src1, selMask.ub_ref(), none, repeatTime, p);
    select_clobbers_cmpmask();
}
}  // namespace sim_vec

// The high-dimension Select with selMask (modes 0 and 2; mode 1 below).
template <class T, class U, bool isSetMask = true>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            const LocalTensor<T>& src1, SELMODE selMode, uint64_t mask[], uint8_t repeatTime,
            const BinaryRepeatParams& repeatParams) {
    sim_vec::select_tensors<T, U, isSetMask>(dst, selMask, src0, src1, selMode, mask, repeatTime, repeatParams);
}
template <class T, class U, bool isSetMask = true>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            const LocalTensor<T>& src1, SELMODE selMode, uint64_t mask, uint8_t repeatTime,
            const BinaryRepeatParams& repeatParams) {
    sim_vec::select_tensors<T, U, isSetMask>(dst, selMask, src0, src1, selMode, mask, repeatTime, repeatParams);
}
template <class T, class U, bool isSetMask = true>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, T src1,
            SELMODE selMode, uint64_t mask[], uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {
    sim_vec::select_scalar<T, U, isSetMask>(dst, selMask, src0, src1, selMode, mask, repeatTime, repeatParams);
}
template <class T, class U, bool isSetMask = true>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, T src1,
            SELMODE selMode, uint64_t mask, uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {
    sim_vec::select_scalar<T, U, isSetMask>(dst, selMask, src0, src1, selMode, mask, repeatTime, repeatParams);
}

// Without selMask or mask: the mask register as set, CMPMASK as the kernel set it
// (mode 0: the bits; mode 2: selMask's address).
template <class T, SELMODE selMode>
void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint8_t repeatTime,
            const BinaryRepeatParams& repeatParams) {
    static_assert(selMode == SELMODE::VSEL_CMPMASK_SPR || selMode == SELMODE::VSEL_TENSOR_TENSOR_MODE,
                  "Select without selMask: SELMODE::VSEL_CMPMASK_SPR or VSEL_TENSOR_TENSOR_MODE (dav_c220 SelectCal)");
    uint64_t cmp[2];
    sim_vec::d::vec_cmpmask("Select", cmp);
    sim_vec::d::UbRef sel{nullptr, 0, uint8_t(TPosition::VECCALC)};
    if constexpr (selMode == SELMODE::VSEL_TENSOR_TENSOR_MODE) {
        sel.p = reinterpret_cast<const void*>(uintptr_t(cmp[0]));
        const uint64_t off = sim_vec::d::ub_offset("Select", sel.p), ub = sim_vec::d::ub_total_bytes();
        if (off >= ub)
            sim_vec::d::fail("Select", "CMPMASK holds no UB address",
                             "VSEL_TENSOR_TENSOR_MODE reads selMask's address from CMPMASK; it holds 0x%llx, not an "
                             "address in this block's UB",
                             (unsigned long long)cmp[0]);
        sel.dataLen = uint32_t(ub - off);  // the tensor is unknown: bounded by the UB's end
    }
    sim_vec::vsel<T>(selMode, dst, src0, &src1, T{}, sel, cmp, repeatTime, repeatParams);
}
// Mode 1 without mask: the scalar is CMPMASK's first element.
template <class T, class U>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, uint8_t repeatTime,
            const BinaryRepeatParams& repeatParams) {
    static_assert(sim_vec::one_of_v<U, uint8_t, uint16_t, uint32_t, uint64_t>, "Select: selMask must be uint8..uint64");
    uint64_t cmp[2];
    sim_vec::d::vec_cmpmask("Select", cmp);
    T scalar;
    std::memcpy(&scalar, cmp, sizeof(T));
    sim_vec::vsel<T>(SELMODE::VSEL_TENSOR_SCALAR_MODE, dst, src0, nullptr, scalar, selMask.ub_ref(), cmp, repeatTime,
                     repeatParams);
}

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

// Power, src0 ^ src1 (asc-devkit include/adv_api/math/power.h; dav_c220:
// impl/adv_api/detail/math/power/power_common_impl.h :: PowerImpl,
// power_float_impl.h :: CommonPowerF, power_int_impl.h :: CommonPowerI,
// power_common_utils.h :: VselPowerTensorScalar / VselPowerTensorTensor). In
// Counter mode, chunks of `split` elements, each basic op one masked repeat:
//   float: exp(y ln|x|), times -1 where x < 0 and y an odd integer, 1 where
//     y == 0, or x == 1, or x == -1 with |y| infinite, NaN where x < 0 (and not
//     -inf) with y neither integer nor infinite. half runs it on float copies.
//   int32: |y| by repeated squaring then single steps (ReduceSum of the
//     remaining exponents decides the loop ends), 1 / x truncated for y < 0.
// The selects are the mask-less Select forms reading CMPMASK (SetCmpMask of
// the 1.0 / NaN block, or of the selMask's address). The tmp: a 256 B scalar
// block (float, half) then the chunk's slices; split = (bytes - 256) / 4 /
// {TT float 4, TS float 5, half 7}, int32 bytes / 4 / {TT 6, TS 7}, rounded down
// to 32. power_check_common.h: half, float or int32; calCount within the
// tensors; dst not reusing a source; the PowerConfig form is 3510-only.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "../kernel_sync.h"
#include "../kernel_vec_binary.h"
#include "../kernel_vec_cast.h"
#include "../kernel_vec_compare.h"
#include "../kernel_vec_scalar.h"
#include "../kernel_vec_shift.h"
#include "../kernel_vec_unary.h"
#include "adv_check.h"

namespace AscendC {
namespace sim_adv {

struct PowerFTmp {
    LocalTensor<float> t1, t2, t3;
    LocalTensor<uint8_t> m1, m2, m3, finite;  // finite: y a (finite) integer
};
struct PowerITmp {
    LocalTensor<int32_t> expLeft, absExp, done, t1, t2;
    LocalTensor<uint8_t> neg, mask, scalar;
};

inline PowerFTmp power_f_tmp(const LocalTensor<uint8_t>& at, uint32_t split) {
    PowerFTmp p;
    const LocalTensor<float> f = at.ReinterpretCast<float>();
    p.t1 = f;
    p.t2 = f[split];
    p.t3 = f[2 * split];
    const LocalTensor<uint8_t> m = at[3 * split * sizeof(float)];
    p.m1 = m;
    p.m2 = m[split];
    p.m3 = m[2 * split];
    p.finite = m[3 * split];
    for (auto* t : {&p.t1, &p.t2, &p.t3}) t->SetSize(split);
    for (auto* t : {&p.m1, &p.m2, &p.m3, &p.finite}) t->SetSize(split);
    return p;
}

inline PowerITmp power_i_tmp(const LocalTensor<uint8_t>& at, uint32_t split) {
    PowerITmp p;
    const LocalTensor<int32_t> i = at.ReinterpretCast<int32_t>();
    p.expLeft = i;
    p.absExp = i[split];
    p.done = i[2 * split];
    p.t1 = i[3 * split];
    p.t2 = i[4 * split];
    const LocalTensor<uint8_t> m = at[5 * split * sizeof(int32_t)];
    p.neg = m;
    p.mask = m[split];
    p.scalar = m[2 * split];
    for (auto* t : {&p.expLeft, &p.absExp, &p.done, &p.t1, &p.t2}) t->SetSize(split);
    p.neg.SetSize(split);
    p.mask.SetSize(split);
    p.scalar.SetSize(ONE_BLK_SIZE);
    return p;
}

inline void vbar() { PipeBarrier<PIPE_V>(); }

// dst = sel ? src0 : the scalar at CMPMASK (loaded from `scalar`).
inline void power_sel_scalar(const LocalTensor<float>& dst, const LocalTensor<uint8_t>& sel,
                             const LocalTensor<float>& src0, const LocalTensor<float>& scalar) {
    SetCmpMask<float>(scalar);
    vbar();
    Select<float, uint8_t>(dst, sel, src0, 1, BinaryRepeatParams{});
}
// dst = sel ? src0 : src1, sel's address through CMPMASK. The NPU path writes the
// address with a vector Duplicate between barriers; here the CPU-debug value (the
// host pointer, 16 B with the unused half 0) is stored as ordered as that.
template <class T>
void power_sel(const LocalTensor<T>& dst, const LocalTensor<uint8_t>& sel, const LocalTensor<T>& src0,
               const LocalTensor<T>& src1, const LocalTensor<uint8_t>& scalar, uint32_t n) {
    const LocalTensor<int64_t> addr = scalar.ReinterpretCast<int64_t>();
    const int64_t v[2] = {int64_t(reinterpret_cast<uintptr_t>(sel.GetPhyAddr())), 0};
    d::reduce_scalar_store("Power", addr.GetPhyAddr(), sizeof v);
    std::memcpy(addr.GetPhyAddr(), v, sizeof v);
    SetVectorMask<float>(0, n);
    SetCmpMask<int64_t>(addr);
    vbar();
    Select<float, SELMODE::VSEL_TENSOR_TENSOR_MODE>(dst.template ReinterpretCast<float>(),
                                                    src0.template ReinterpretCast<float>(),
                                                    src1.template ReinterpretCast<float>(), 1, BinaryRepeatParams{});
}

// The mask bytes of n elements as uint16 words, for And/Or.
inline void mask_words(uint32_t n) { SetVectorMask<float>(0, (n + 15) / 16); }
inline void mask_op(bool isAnd, const LocalTensor<uint8_t>& d, const LocalTensor<uint8_t>& a,
                    const LocalTensor<uint8_t>& b) {
    const LocalTensor<uint16_t> dw = d.ReinterpretCast<uint16_t>(), aw = a.ReinterpretCast<uint16_t>(),
                                bw = b.ReinterpretCast<uint16_t>();
    if (isAnd) And<uint16_t, false>(dw, aw, bw, MASK_PLACEHOLDER, 1, BinaryRepeatParams{});
    else Or<uint16_t, false>(dw, aw, bw, MASK_PLACEHOLDER, 1, BinaryRepeatParams{});
}
// CompareScalar over ceil(n / 64) whole repeats; only the first n bits are used.
inline void cmps(const LocalTensor<uint8_t>& m, const LocalTensor<float>& x, float v, CMPMODE mode, uint32_t n) {
    sim_vec::compare_scalar_within(m, x, v, mode, n);
}
inline void cmps(const LocalTensor<uint8_t>& m, const LocalTensor<int32_t>& x, int32_t v, uint32_t n) {
    sim_vec::compare_scalar_within(m, x, v, CMPMODE::EQ, n);
}
inline float f32_bits(uint32_t u) {
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}

// scalars: 8 x 1.0f then 8 x NaN, under a count of 8.
inline void power_scalars(const LocalTensor<float>& s) {
    SetVectorMask<float>(0, ONE_BLK_SIZE / sizeof(float));
    Duplicate<float, false>(s, 1.0f, MASK_PLACEHOLDER, 1, 1, DEFAULT_REPEAT_STRIDE);
    Duplicate<float, false>(s[ONE_BLK_SIZE / sizeof(float)], f32_bits(0x7fc00000u), MASK_PLACEHOLDER, 1, 1,
                            DEFAULT_REPEAT_STRIDE);
}

inline void power_f(const LocalTensor<float>& dst, const LocalTensor<float>& x, const LocalTensor<float>& y,
                    const LocalTensor<float>& scalars, const PowerFTmp& p, uint32_t n) {
    const UnaryRepeatParams u;
    const BinaryRepeatParams b;
    const float inf = f32_bits(0x7f800000u), negInf = f32_bits(0xff800000u);
    vbar();
    // exp(y ln|x|)
    Abs<float, false>(dst, x, MASK_PLACEHOLDER, 1, u);
    vbar();
    Ln<float, false>(dst, dst, MASK_PLACEHOLDER, 1, u);
    vbar();
    Mul<float, false>(dst, y, dst, MASK_PLACEHOLDER, 1, b);
    vbar();
    Exp<float, false>(dst, dst, MASK_PLACEHOLDER, 1, u);
    vbar();
    // t1 = 1 - 2 (rint|y| mod 2): -1 for an odd y
    Abs<float, false>(p.t1, y, MASK_PLACEHOLDER, 1, u);
    vbar();
    Cast<float, float, false>(p.t1, p.t1, RoundMode::CAST_RINT, MASK_PLACEHOLDER, 1, u);
    vbar();
    Muls<float, false>(p.t2, p.t1, 0.5f, MASK_PLACEHOLDER, 1, u);
    vbar();
    Cast<float, float, false>(p.t2, p.t2, RoundMode::CAST_FLOOR, MASK_PLACEHOLDER, 1, u);
    vbar();
    Muls<float, false>(p.t2, p.t2, 2.0f, MASK_PLACEHOLDER, 1, u);
    vbar();
    Sub<float, false>(p.t1, p.t1, p.t2, MASK_PLACEHOLDER, 1, b);
    vbar();
    Muls<float, false>(p.t1, p.t1, -2.0f, MASK_PLACEHOLDER, 1, u);
    vbar();
    Adds<float, false>(p.t1, p.t1, 1.0f, MASK_PLACEHOLDER, 1, u);
    vbar();
    Cast<float, float, false>(p.t1, p.t1, RoundMode::CAST_RINT, MASK_PLACEHOLDER, 1, u);
    vbar();
    // m1 = x's sign bit and y integer (finite = |y - rint y| < 1e-8)
    ShiftRight<uint32_t, false>(p.t2.ReinterpretCast<uint32_t>(), x.ReinterpretCast<uint32_t>(), 31u, MASK_PLACEHOLDER,
                                1, u, false);
    vbar();
    cmps(p.m1, p.t2.ReinterpretCast<int32_t>(), 1, n);
    vbar();
    Abs<float, false>(p.t2, y, MASK_PLACEHOLDER, 1, u);
    vbar();
    Cast<float, float, false>(p.t3, p.t2, RoundMode::CAST_RINT, MASK_PLACEHOLDER, 1, u);
    vbar();
    Sub<float, false>(p.t3, p.t2, p.t3, MASK_PLACEHOLDER, 1, b);
    vbar();
    Abs<float, false>(p.t3, p.t3, MASK_PLACEHOLDER, 1, u);
    vbar();
    cmps(p.finite, p.t3, 0.00000001f, CMPMODE::LT, n);
    vbar();
    mask_words(n);
    mask_op(true, p.m1, p.finite, p.m1);
    SetVectorMask<float>(0, n);
    vbar();
    power_sel_scalar(p.t2, p.m1, p.t1, scalars);
    vbar();
    Mul<float, false>(dst, p.t2, dst, MASK_PLACEHOLDER, 1, b);
    vbar();
    // keep dst where y != 0 and x != 1 and (x != -1 or |y| != inf); else 1
    Abs<float, false>(p.t1, y, MASK_PLACEHOLDER, 1, u);
    vbar();
    cmps(p.m1, p.t1, 0.0f, CMPMODE::NE, n);
    vbar();
    cmps(p.m2, x, 1.0f, CMPMODE::NE, n);
    vbar();
    mask_words(n);
    mask_op(true, p.m1, p.m2, p.m1);
    SetVectorMask<float>(0, n);
    vbar();
    cmps(p.m2, x, -1.0f, CMPMODE::NE, n);
    vbar();
    cmps(p.m3, p.t1, inf, CMPMODE::NE, n);
    vbar();
    mask_words(n);
    mask_op(false, p.m2, p.m3, p.m2);
    vbar();
    mask_op(true, p.m1, p.m2, p.m1);
    SetVectorMask<float>(0, n);
    vbar();
    power_sel_scalar(dst, p.m1, dst, scalars);
    vbar();
    // keep dst where |y| == inf, or y integer, or x >= 0, or x == -inf; else NaN
    Abs<float, false>(p.t1, y, MASK_PLACEHOLDER, 1, u);
    vbar();
    cmps(p.m1, p.t1, inf, CMPMODE::EQ, n);
    vbar();
    mask_words(n);
    mask_op(false, p.m1, p.finite, p.m1);
    SetVectorMask<float>(0, n);
    cmps(p.m2, x, 0.0f, CMPMODE::GE, n);
    cmps(p.m3, x, negInf, CMPMODE::EQ, n);
    vbar();
    mask_words(n);
    mask_op(false, p.m2, p.m3, p.m2);
    vbar();
    mask_op(false, p.m1, p.m2, p.m1);
    SetVectorMask<float>(0, n);
    vbar();
    power_sel_scalar(dst, p.m1, dst, scalars[ONE_BLK_SIZE / sizeof(float)]);
    vbar();
}

// The sum of the first n elements of t as float (the loop condition), left in scalar.
inline float power_i_sum(const LocalTensor<int32_t>& t, PowerITmp& p, uint32_t n) {
    const UnaryRepeatParams u;
    Cast<float, int32_t, false>(p.t1.ReinterpretCast<float>(), t, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, u);
    vbar();
    const LocalTensor<float> s = p.scalar.ReinterpretCast<float>();
    ReduceSum<float, false>(s, p.t1.ReinterpretCast<float>(), p.t1.ReinterpretCast<float>(), int32_t(n));
    const float sum = s.GetValue(0);
    vbar();
    return sum;
}

inline void power_i(const LocalTensor<int32_t>& dst, const LocalTensor<int32_t>& x, const LocalTensor<int32_t>& y,
                    PowerITmp& p, uint32_t n) {
    const UnaryRepeatParams u;
    const BinaryRepeatParams b;
    vbar();
    // expLeft = |y|, neg = y < 0; done = (y != 0), dst = y == 0 ? 1 : x
    Cast<float, int32_t, false>(p.t1.ReinterpretCast<float>(), y, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, u);
    vbar();
    cmps(p.neg, p.t1.ReinterpretCast<float>(), 0.0f, CMPMODE::LT, n);
    vbar();
    Muls<int32_t, false>(p.t1, y, -1, MASK_PLACEHOLDER, 1, u);
    vbar();
    power_sel(p.expLeft, p.neg, p.t1, y, p.scalar, n);
    vbar();
    Muls<int32_t, false>(p.absExp, p.expLeft, 1, MASK_PLACEHOLDER, 1, u);
    vbar();
    cmps(p.mask, p.absExp, 0, n);
    Duplicate<int32_t, false>(p.done, 0, MASK_PLACEHOLDER, 1, DEFAULT_BLK_STRIDE, DEFAULT_REPEAT_STRIDE);
    vbar();
    Duplicate<int32_t, false>(p.t2, 1, MASK_PLACEHOLDER, 1, DEFAULT_BLK_STRIDE, DEFAULT_REPEAT_STRIDE);
    vbar();
    power_sel(p.done, p.mask, p.done, p.t2, p.scalar, n);
    power_sel(dst, p.mask, p.t2, x, p.scalar, n);
    ShiftRight<int32_t, false>(p.expLeft, p.expLeft, 1, MASK_PLACEHOLDER, 1, u, false);
    vbar();
    cmps(p.mask, p.expLeft, 0, n);
    vbar();
    // squaring while expLeft >> k is nonzero: dst = x^(2^k), done = 2^k
    while (power_i_sum(p.expLeft, p, n) != 0) {
        Mul<int32_t, false>(p.t1, dst, dst, MASK_PLACEHOLDER, 1, b);
        Muls<int32_t, false>(p.t2, p.done, 2, MASK_PLACEHOLDER, 1, u);
        vbar();
        power_sel(dst, p.mask, dst, p.t1, p.scalar, n);
        power_sel(p.done, p.mask, p.done, p.t2, p.scalar, n);
        ShiftRight<int32_t, false>(p.expLeft, p.expLeft, 1, MASK_PLACEHOLDER, 1, u, false);
        vbar();
        cmps(p.mask, p.expLeft, 0, n);
        vbar();
    }
    // then one factor x per remaining unit of |y| - 2^k
    Sub<int32_t, false>(p.done, p.absExp, p.done, MASK_PLACEHOLDER, 1, b);
    vbar();
    cmps(p.mask, p.done, 0, n);
    vbar();
    while (power_i_sum(p.done, p, n) != 0) {
        Mul<int32_t, false>(p.t1, dst, x, MASK_PLACEHOLDER, 1, b);
        Adds<int32_t, false>(p.t2, p.done, -1, MASK_PLACEHOLDER, 1, u);
        vbar();
        power_sel(dst, p.mask, dst, p.t1, p.scalar, n);
        power_sel(p.done, p.mask, p.done, p.t2, p.scalar, n);
        vbar();
        cmps(p.mask, p.done, 0, n);
        vbar();
    }
    // y < 0: trunc(1 / dst), 0 where dst is 0
    cmps(p.mask, dst, 0, n);
    const LocalTensor<float> res = p.absExp.ReinterpretCast<float>(), one = p.expLeft.ReinterpretCast<float>();
    Cast<float, int32_t, false>(res, dst, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, u);
    Duplicate<float, false>(one, 1.0f, MASK_PLACEHOLDER, 1, DEFAULT_BLK_STRIDE, DEFAULT_REPEAT_STRIDE);
    vbar();
    Div<float, false>(res, one, res, MASK_PLACEHOLDER, 1, b);
    vbar();
    Cast<int32_t, float, false>(p.t1, res, RoundMode::CAST_TRUNC, MASK_PLACEHOLDER, 1, u);
    vbar();
    power_sel(dst, p.neg, p.t1, dst, p.scalar, n);
    Duplicate<int32_t, false>(p.t2, 0, MASK_PLACEHOLDER, 1, DEFAULT_BLK_STRIDE, DEFAULT_REPEAT_STRIDE);
    vbar();
    power_sel(dst, p.mask, p.t2, dst, p.scalar, n);
    vbar();
}

// An operand of Power: a tensor, or a scalar PowerImpl duplicates into a tmp slice.
template <class T>
struct PowerArg {
    const LocalTensor<T>* t;
    T s;
};

// Counter mode: prologue(), then chunk(offset, n) per chunk under a count of n.
template <class P, class C>
void power_chunks(uint32_t count, uint32_t split, P&& prologue, C&& chunk) {
    SetMaskCount();
    SetVectorMask<float>(0, split);
    prologue();
    for (uint32_t at = 0; at < count; at += split) {
        const uint32_t n = count - at < split ? count - at : split;
        if (n != split) SetVectorMask<float>(0, n);
        chunk(at, n);
    }
    SetMaskNorm();
    ResetMask();
}

inline uint32_t power_split(const char* api, uint32_t bytes, uint32_t reserve, uint32_t factor) {
    const uint32_t split = bytes < reserve ? 0 : (bytes - reserve) / 4 / factor / ONE_BLK_SIZE * ONE_BLK_SIZE;
    if (split == 0)
        d::fail(api, "sharedTmpBuffer below the minimum",
                "sharedTmpBuffer holds %u B: less than one 32-element chunk (%u B) for this form", bytes,
                reserve + 4 * factor * ONE_BLK_SIZE);
    return split;
}

template <class T>
void power_checks(const char* api, const LocalTensor<T>& dst, const PowerArg<T>& a, const PowerArg<T>& b,
                  const LocalTensor<uint8_t>& tmp, uint32_t count) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float> || std::is_same_v<T, int32_t>,
                  "Power: A2/A3 support half, float and int32_t");
    check_count(api, count, dst, "dstTensor");
    const PowerArg<T>* ops[2] = {&a, &b};
    const char* roles[2] = {"src0Tensor", "src1Tensor"};
    for (int i = 0; i < 2; ++i) {
        if (!ops[i]->t) continue;
        check_count(api, count, *ops[i]->t, roles[i]);
        check_disjoint(api, dst, count, "dstTensor", *ops[i]->t, count, roles[i]);
        check_disjoint(api, tmp, tmp.GetSize(), "sharedTmpBuffer", *ops[i]->t, count, roles[i]);
    }
    check_disjoint(api, tmp, tmp.GetSize(), "sharedTmpBuffer", dst, count, "dstTensor");
}

template <class T>
void power_run(const LocalTensor<T>& dst, const PowerArg<T>& a, const PowerArg<T>& b,
               const LocalTensor<uint8_t>& tmp, uint32_t count) {
    constexpr const char* api = "Power";
    power_checks(api, dst, a, b, tmp, count);
    const bool tt = a.t && b.t;
    const uint32_t bytes = tmp.GetSize();
    if constexpr (std::is_same_v<T, int32_t>) {
        const uint32_t split = power_split(api, bytes, 0, tt ? 6 : 7);
        const LocalTensor<int32_t> dup = tmp.ReinterpretCast<int32_t>();
        PowerITmp p = power_i_tmp(tt ? tmp : tmp[split * sizeof(int32_t)], split);
        power_chunks(
            count, split,
            [&] {
                if (tt) return;
                vbar();
                Duplicate<int32_t, false>(dup, a.t ? b.s : a.s, MASK_PLACEHOLDER, 1, DEFAULT_BLK_STRIDE,
                                          DEFAULT_REPEAT_STRIDE);
                vbar();
            },
            [&](uint32_t at, uint32_t n) {
                power_i(dst[at], a.t ? (*a.t)[at] : dup, b.t ? (*b.t)[at] : dup, p, n);
                vbar();
            });
    } else {
        constexpr bool isHalf = std::is_same_v<T, half>;
        const uint32_t split = power_split(api, bytes, 256, isHalf ? 7 : (tt ? 4 : 5));
        const LocalTensor<float> scalars = tmp.ReinterpretCast<float>();
        const LocalTensor<float> slices = tmp[256].ReinterpretCast<float>();
        // float: the duplicated scalar's slice (TS, ST); half: x, y and the float result
        const uint32_t nSlices = isHalf ? 3 : (tt ? 0 : 1);
        const PowerFTmp p = power_f_tmp(tmp[256 + nSlices * split * sizeof(float)], split);
        const LocalTensor<float> s0 = slices, s1 = isHalf ? slices[split] : slices, sd = slices[2 * split];
        const auto prologue = [&] {
            power_scalars(scalars);
            SetVectorMask<float>(0, split);
            if (tt) return;
            vbar();  // the scalar operand, once, under the count of split
            Duplicate<float, false>(a.t ? s1 : s0, float(a.t ? b.s : a.s), MASK_PLACEHOLDER, 1, 1,
                                    DEFAULT_REPEAT_STRIDE);
            vbar();
        };
        power_chunks(count, split, prologue, [&](uint32_t at, uint32_t n) {
            if constexpr (isHalf) {
                const UnaryRepeatParams widen(1, 1, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE / 2);
                const UnaryRepeatParams narrow(1, 1, DEFAULT_REPEAT_STRIDE / 2, DEFAULT_REPEAT_STRIDE);
                if (a.t) Cast<float, half, false>(s0, (*a.t)[at], RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, widen);
                if (b.t) Cast<float, half, false>(s1, (*b.t)[at], RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, widen);
                vbar();
                power_f(sd, s0, s1, scalars, p, n);
                Cast<half, float, false>(dst[at], sd, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, narrow);
                vbar();
            } else {
                power_f(dst[at], a.t ? (*a.t)[at] : s0, b.t ? (*b.t)[at] : s1, scalars, p, n);
            }
        });
    }
}

}  // namespace sim_adv

// tensor ^ tensor
template <typename T, bool isReuseSource = false>
void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
           const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount) {
    sim_adv::power_run<T>(dstTensor, {&src0Tensor, T{}}, {&src1Tensor, T{}}, sharedTmpBuffer, calCount);
}
template <typename T, bool isReuseSource = false>
void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
           uint32_t calCount) {
    Power<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, sim_adv::stack_tmp("Power"), calCount);
}
template <typename T, bool isReuseSource = false>
void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
           const LocalTensor<uint8_t>& sharedTmpBuffer) {
    Power<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer, src0Tensor.GetSize());
}
template <typename T, bool isReuseSource = false>
void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor) {
    Power<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, src0Tensor.GetSize());
}
// tensor ^ scalar
template <typename T, bool isReuseSource = false>
void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar,
           const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount) {
    sim_adv::power_run<T>(dstTensor, {&src0Tensor, T{}}, {nullptr, src1Scalar}, sharedTmpBuffer, calCount);
}
template <typename T, bool isReuseSource = false>
void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar,
           uint32_t calCount) {
    Power<T, isReuseSource>(dstTensor, src0Tensor, src1Scalar, sim_adv::stack_tmp("Power"), calCount);
}
template <typename T, bool isReuseSource = false>
void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar,
           const LocalTensor<uint8_t>& sharedTmpBuffer) {
    Power<T, isReuseSource>(dstTensor, src0Tensor, src1Scalar, sharedTmpBuffer, src0Tensor.GetSize());
}
template <typename T, bool isReuseSource = false>
void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar) {
    Power<T, isReuseSource>(dstTensor, src0Tensor, src1Scalar, src0Tensor.GetSize());
}
// scalar ^ tensor
template <typename T, bool isReuseSource = false>
void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor,
           const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount) {
    sim_adv::power_run<T>(dstTensor, {nullptr, src0Scalar}, {&src1Tensor, T{}}, sharedTmpBuffer, calCount);
}
template <typename T, bool isReuseSource = false>
void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor,
           uint32_t calCount) {
    Power<T, isReuseSource>(dstTensor, src0Scalar, src1Tensor, sim_adv::stack_tmp("Power"), calCount);
}
template <typename T, bool isReuseSource = false>
void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor,
           const LocalTensor<uint8_t>& sharedTmpBuffer) {
    Power<T, isReuseSource>(dstTensor, src0Scalar, src1Tensor, sharedTmpBuffer, src1Tensor.GetSize());
}
template <typename T, bool isReuseSource = false>
void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor) {
    Power<T, isReuseSource>(dstTensor, src0Scalar, src1Tensor, src1Tensor.GetSize());
}

}  // namespace AscendC

// The count-form vector APIs a cross-entropy kernel needs (CANN:
// kernel_operator_vec_*_intf.h) and the helpers the other families share
// (the high-dimension forms and further count forms: kernel_vec_unary.h,
// _binary.h, _scalar.h, _cast.h, _reduce_repeat.h, ...). Each call: one O(1)
// runtime call (operands in UB, 32 B aligned, count vs sizes, overlap, pipe
// hazards, counters), then the numerics loop. Dtypes the A2/A3 vector unit
// lacks are compile errors, as in CANN's dav_c220 headers; the scalar of
// Adds/Muls/Duplicate/Axpy must be exactly the element type (no float/double mixing).
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "device_runtime.h"
#include "kernel_defs.h"
#include "kernel_tensor.h"
#include "kernel_vec_mask.h"
#include "numerics/numerics.h"

namespace AscendC {

namespace sim_vec {

namespace d = ascend_sim::detail;
namespace num = ascend_sim::numerics;

template <class T, class... Ts>
inline constexpr bool one_of_v = (std::is_same_v<T, Ts> || ...);
template <class T>
inline constexpr bool f16f32_v = one_of_v<T, half, float>;
template <class T>
inline constexpr bool arith_v = one_of_v<T, int16_t, half, int32_t, float>;

template <class T>
inline d::VecArg arg(const LocalTensor<T>& t, uint64_t count, const char* role, bool write) {
    return {t.ub_ref(), uint32_t(sizeof(T)), count * sizeof(T), role, write};
}

template <class T>
inline size_t n_of(int64_t count) {
    return size_t(count);
}

template <class T>
void unary(const char* api, d::VecOp op, const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t count,
           void (*f)(T*, const T*, size_t)) {
    const uint64_t c = uint64_t(int64_t(count));
    const d::VecArg a[2] = {arg(src, c, "src", false), arg(dst, c, "dst", true)};
    if (!d::vec_instr(api, op, count, sizeof(T), a, 2, true)) return;
    f(dst.GetPhyAddr(), src.GetPhyAddr(), size_t(count));
}

template <class T>
void binary(const char* api, d::VecOp op, const LocalTensor<T>& dst, const LocalTensor<T>& src0,
            const LocalTensor<T>& src1, int32_t count, void (*f)(T*, const T*, const T*, size_t)) {
    const uint64_t c = uint64_t(int64_t(count));
    const d::VecArg a[3] = {arg(src0, c, "src0", false), arg(src1, c, "src1", false), arg(dst, c, "dst", true)};
    if (!d::vec_instr(api, op, count, sizeof(T), a, 3, true)) return;
    f(dst.GetPhyAddr(), src0.GetPhyAddr(), src1.GetPhyAddr(), size_t(count));
}

template <class T>
void scalar_op(const char* api, d::VecOp op, const LocalTensor<T>& dst, const LocalTensor<T>& src, T s,
               int32_t count, void (*f)(T*, const T*, T, size_t)) {
    const uint64_t c = uint64_t(int64_t(count));
    const d::VecArg a[2] = {arg(src, c, "src", false), arg(dst, c, "dst", true)};
    if (!d::vec_instr(api, op, count, sizeof(T), a, 2, true)) return;
    f(dst.GetPhyAddr(), src.GetPhyAddr(), s, size_t(count));
}

// A SetFlag/WaitFlag pair an API issues itself, its id from GetTPipePtr()->FetchEventID (dav_c220).
inline void api_flag(const char* api, HardEvent e) {
    if (!d::live_tpipe())
        d::fail(api, "no live TPipe",
                "dav_c220 takes its %s event id from GetTPipePtr()->FetchEventID; there is no live TPipe",
                e == HardEvent::S_V ? "S_V" : e == HardEvent::V_S ? "V_S" : "S_MTE3");
    const int8_t id = d::fetch_event_id(uint8_t(e));
    d::set_flag(api, uint8_t(e), id);
    d::wait_flag(api, uint8_t(e), id);
}

}  // namespace sim_vec

// ---- scalar conversions (8.x names; 9.x renames them to scalar Cast) ----

inline float ToFloat(const bfloat16_t& bVal) { return ascend_sim::numerics::to_float(bVal); }
// On 2201 the scalar conversion keeps the top 16 bits (truncates), unlike the
// vector Cast with CAST_RINT.
inline bfloat16_t ToBfloat16(const float& fVal) { return ascend_sim::numerics::bf16_truncate(fVal); }

// ---- unary ----

template <class T>
void Exp(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {
    static_assert(sim_vec::f16f32_v<T>, "Exp: A2/A3 support half and float only (bfloat16_t: Cast to float first)");
    sim_vec::unary<T>("Exp", sim_vec::d::VecOp::Exp, dst, src, count,
                      [](T* o, const T* i, size_t n) { sim_vec::num::exp(o, i, n); });
}

template <class T>
void Ln(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {
    static_assert(sim_vec::f16f32_v<T>, "Ln: A2/A3 support half and float only (bfloat16_t: Cast to float first)");
    sim_vec::unary<T>("Ln", sim_vec::d::VecOp::Ln, dst, src, count,
                      [](T* o, const T* i, size_t n) { sim_vec::num::ln(o, i, n); });
}

// ---- binary ----

template <class T>
void Add(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const int32_t& count) {
    static_assert(sim_vec::arith_v<T>, "Add: A2/A3 support int16_t, half, int32_t and float (not bfloat16_t)");
    sim_vec::binary<T>("Add", sim_vec::d::VecOp::Add, dst, src0, src1, count, &sim_vec::num::add<T>);
}
template <class T>
void Sub(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const int32_t& count) {
    static_assert(sim_vec::arith_v<T>, "Sub: A2/A3 support int16_t, half, int32_t and float (not bfloat16_t)");
    sim_vec::binary<T>("Sub", sim_vec::d::VecOp::Sub, dst, src0, src1, count, &sim_vec::num::sub<T>);
}
template <class T>
void Mul(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const int32_t& count) {
    static_assert(sim_vec::arith_v<T>, "Mul: A2/A3 support int16_t, half, int32_t and float (not bfloat16_t)");
    sim_vec::binary<T>("Mul", sim_vec::d::VecOp::Mul, dst, src0, src1, count, &sim_vec::num::mul<T>);
}
template <class T>
void Div(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const int32_t& count) {
    static_assert(sim_vec::f16f32_v<T>, "Div: A2/A3 support half and float only");
    sim_vec::binary<T>("Div", sim_vec::d::VecOp::Div, dst, src0, src1, count, &sim_vec::num::div<T>);
}
template <class T>
void Max(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const int32_t& count) {
    static_assert(sim_vec::arith_v<T>, "Max: A2/A3 support int16_t, half, int32_t and float (not bfloat16_t)");
    sim_vec::binary<T>("Max", sim_vec::d::VecOp::Max, dst, src0, src1, count, &sim_vec::num::max<T>);
}
template <class T>
void Min(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const int32_t& count) {
    static_assert(sim_vec::arith_v<T>, "Min: A2/A3 support int16_t, half, int32_t and float (not bfloat16_t)");
    sim_vec::binary<T>("Min", sim_vec::d::VecOp::Min, dst, src0, src1, count, &sim_vec::num::min<T>);
}

// dst[i] = src[i] * scalar + dst[i]
template <class T, class U>
void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U scalarValue, const int32_t& count) {
    static_assert(sim_vec::f16f32_v<U>, "Axpy: A2/A3 support half and float (not bfloat16_t)");
    static_assert(std::is_same_v<T, U>,
                  "Axpy: the mixed float-dst/half-src form is not modelled by the simulator (numerics lacks it)");
    const uint64_t c = uint64_t(int64_t(count));
    const sim_vec::d::VecArg a[3] = {sim_vec::arg(src, c, "src", false), sim_vec::arg(dst, c, "dst", false),
                                     sim_vec::arg(dst, c, "dst", true)};
    if (!sim_vec::d::vec_instr("Axpy", sim_vec::d::VecOp::Axpy, count, sizeof(T), a, 3, true)) return;
    sim_vec::num::axpy(dst.GetPhyAddr(), src.GetPhyAddr(), scalarValue, size_t(count));
}

template <class T>
void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, const int32_t& count) {
    static_assert(sim_vec::one_of_v<T, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float>,
                  "Duplicate: A2/A3 support int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t and float");
    const sim_vec::d::VecArg a[1] = {sim_vec::arg(dst, uint64_t(int64_t(count)), "dst", true)};
    if (!sim_vec::d::vec_instr("Duplicate", sim_vec::d::VecOp::Duplicate, count, sizeof(T), a, 1, true)) return;
    sim_vec::num::duplicate(dst.GetPhyAddr(), scalarValue, size_t(count));
}

// ---- Cast: T = destination, U = source ----

namespace sim_vec {
template <class T>
constexpr const char* dtype_name() {
    if constexpr (std::is_same_v<T, half>) return "half";
    else if constexpr (std::is_same_v<T, bfloat16_t>) return "bfloat16_t";
    else if constexpr (std::is_same_v<T, float>) return "float";
    else if constexpr (std::is_same_v<T, int8_t>) return "int8_t";
    else if constexpr (std::is_same_v<T, uint8_t>) return "uint8_t";
    else if constexpr (std::is_same_v<T, int16_t>) return "int16_t";
    else if constexpr (std::is_same_v<T, int32_t>) return "int32_t";
    else if constexpr (std::is_same_v<T, int64_t>) return "int64_t";
    else if constexpr (ascend_sim::is_nibble_v<T>) return "int4b_t";
    else return "?";
}
}  // namespace sim_vec

// The A2 table of Cast.md (dav_c220 CastIntrinsicsImpl): pairs as compile errors,
// round modes at run time (an ASCENDC_DEBUG_ASSERT in CANN's CPU twin).
namespace sim_vec {
template <class T, class U>
void check_cast(RoundMode round_mode) {
    static_assert(num::cast_supported_v<T, U>,
                  "Cast: this (dst, src) dtype pair is not supported on A2/A3 (see docs/simulator.md)");
    if (!num::cast_mode_allowed<T, U>(round_mode))
        d::fail("Cast", "round mode not allowed for the dtype pair",
                "RoundMode %d is not allowed for Cast from %s to %s on A2/A3 (Cast.md, Atlas A2 table)",
                int(round_mode), dtype_name<U>(), dtype_name<T>());
}
}  // namespace sim_vec

namespace sim_vec {
template <class T, class U>
void cast_int4_count(const LocalTensor<T>& dst, const LocalTensor<U>& src, RoundMode mode, uint32_t count);

// int32_t -> half (dav_c220 CastIntrinsicsImpl: vconv_deq): each value times the half
// scale in DEQSCALE's low 16 bits (SetDeqScale.md), rounded to the nearest half; the
// round mode is ignored. The product is formed in float (the NPU's internal
// precision is not documented).
inline void cast_deq(half* dst, const int32_t* src, size_t n) {
    const float scale = float(half::from_bits(uint16_t(d::vec_deqscale("Cast"))));
    for (size_t i = 0; i < n; ++i) dst[i] = num::round_to_half<RoundMode::CAST_RINT>(float(src[i]) * scale);
}
template <class T, class U>
inline constexpr bool is_deq_cast_v = std::is_same_v<T, half> && std::is_same_v<U, int32_t>;
}  // namespace sim_vec

// SetDeqScale(half) (kernel_operator_vec_vconv_intf_impl.h; dav_c220 SetDeqScaleImpl):
// DEQSCALE := the scale's bits, for Cast int32_t -> half.
inline void SetDeqScale(half scale) { ascend_sim::detail::vec_set_deqscale("SetDeqScale", scale.bits()); }

template <class T, class U>
void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& round_mode, const uint32_t count) {
    if constexpr (ascend_sim::is_nibble_v<T> || ascend_sim::is_nibble_v<U>) {
        sim_vec::cast_int4_count(dst, src, round_mode, count);
    } else {
        sim_vec::check_cast<T, U>(round_mode);
        const sim_vec::d::VecArg a[2] = {sim_vec::arg(src, count, "src", false),
                                         sim_vec::arg(dst, count, "dst", true)};
        if (!sim_vec::d::vec_instr("Cast", sim_vec::d::VecOp::Cast, count,
                                   sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U), a, 2, true))
            return;
        if constexpr (sim_vec::is_deq_cast_v<T, U>)
            sim_vec::cast_deq(dst.GetPhyAddr(), src.GetPhyAddr(), size_t(count));
        else
            sim_vec::num::cast(dst.GetPhyAddr(), src.GetPhyAddr(), size_t(count), round_mode);
    }
}

// ---- reductions (count form; dst[0] gets the result, stored by the scalar unit) ----

// isSetMask = false (dav_c220 ReduceSumImpl): the vcadd runs under the Counter-mode
// count the kernel set (count unused) and leaves the mask register as it was.
template <class T, bool isSetMask = true>
void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
               int32_t count) {
    static_assert(sim_vec::f16f32_v<T>, "ReduceSum: A2/A3 support half and float only (not bfloat16_t)");
    const sim_vec::d::VecMaskReg kept = sim_vec::d::vec_mask("ReduceSum");
    if constexpr (!isSetMask) {
        if (!kept.counter)
            sim_vec::d::fail("ReduceSum", "mask not in Counter mode",
                             "ReduceSum<T, false> takes its count from the mask register; Normal mode is not modelled "
                             "for the count form");
        count = int32_t(kept.lo);
    }
    const uint64_t maxCount = ascend_sim::detail::ub_total_bytes() / sizeof(T);
    if (count < 1 || uint64_t(count) > maxCount)
        sim_vec::d::fail("ReduceSum", "count out of range", "count %d is outside [1, %llu] (UB / sizeof(T))", count,
                         (unsigned long long)maxCount);
    // dst: one element, aligned as ReduceSum.md sends to ReduceRepeat.md 表3 (sizeof(T))
    sim_vec::d::VecArg out = sim_vec::arg(dst, 1, "dst", true);
    out.align = sizeof(T);
    sim_vec::d::vec_check_operand("ReduceSum", out);
    // The A2/A3 count form ignores sharedTmpBuffer (it accumulates in a register).
    (void)sharedTmpBuffer;
    const sim_vec::d::VecArg a[1] = {sim_vec::arg(src, uint64_t(count), "src", false)};
    sim_vec::d::vec_instr("ReduceSum", sim_vec::d::VecOp::ReduceSum, count, sizeof(T), a, 1, true);
    const T r = sim_vec::num::reduce_sum(src.GetPhyAddr(), size_t(count));
    // dav_c220 ReduceSumImpl: one vcadd, then dst[0] is stored from ACC_VAL.
    uint64_t acc = 0;
    std::memcpy(&acc, &r, sizeof(T));
    sim_vec::d::vec_set_acc("ReduceSum", acc, sizeof(T));
    sim_vec::d::reduce_scalar_store("ReduceSum", dst.GetPhyAddr(), sizeof(T));
    dst.GetPhyAddr()[0] = r;
    if constexpr (!isSetMask) {
        sim_vec::d::vec_set_mask_mode("ReduceSum", true);
        sim_vec::d::vec_set_mask("ReduceSum", kept.hi, kept.lo);
    }
}

namespace sim_vec {
// sharedTmpBuffer elements the A2 ReduceMax needs (ReduceMax.md, "sharedTmpBuffer
// 所需空间设置"): without the index, the first pass's (value, index) pairs rounded
// up to a 32 B block; with it, each pass's output kept, in 32 B blocks.
template <class T>
uint32_t reduce_max_tmp_elems(uint32_t count, bool calIndex) {
    constexpr uint32_t perRepeat = 256 / sizeof(T), perBlock = 32 / sizeof(T);
    auto up = [](uint32_t x, uint32_t n) { return (x + n - 1) / n * n; };
    const uint32_t firstMaxRepeat = count / perRepeat > 0 ? count / perRepeat : 1;
    const uint32_t iter1 = firstMaxRepeat * 2;
    if (!calIndex) return up(iter1, perBlock);
    const uint32_t iter2Start = up(iter1, perBlock);
    const uint32_t iter2 = (iter1 + perRepeat - 1) / perRepeat * 2;
    const uint32_t iter2End = up(iter2, perBlock);
    if (iter2 <= 2) return iter2Start + iter2End;
    const uint32_t iter3 = (iter2 + perRepeat - 1) / perRepeat * 2;
    return iter2Start + iter2End + up(iter3, perBlock);
}
}  // namespace sim_vec

namespace sim_vec {
// ReduceMax / ReduceMin, count form: dst[0] = the extreme; with calIndex, dst[1]
// holds the index's bits (uint16 for half, uint32 for float).
template <class T, bool isMax>
void reduce_extreme(const char* api, d::VecOp op, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                    const LocalTensor<T>& sharedTmpBuffer, const int32_t count, bool calIndex) {
    const uint64_t maxCount = d::ub_total_bytes() / sizeof(T);
    if (count < 1 || uint64_t(count) > maxCount)
        d::fail(api, "count out of range", "count %d is outside [1, %llu] (UB / sizeof(T))", count,
                (unsigned long long)maxCount);
    const uint32_t outElems = calIndex ? 2 : 1;
    // dst aligned as ReduceMax.md / ReduceMin.md send to ReduceRepeat.md 表3: the value
    // (ORDER_ONLY_VALUE), or the value and its index (ORDER_VALUE_INDEX)
    d::VecArg out = arg(dst, outElems, "dst", true);
    out.align = outElems * sizeof(T);
    d::vec_check_operand(api, out);
    const uint32_t tmpElems = reduce_max_tmp_elems<T>(uint32_t(count), calIndex);
    d::vec_check_operand(api, arg(sharedTmpBuffer, tmpElems, "sharedTmpBuffer", true));
    // dav_c220 ReduceImplWithIndex: with the index and a single repeat the vector
    // unit writes dst itself (no internal V_S); every other path ends in a scalar
    // store of dst after V_S, then S_V and S_MTE3.
    const bool vectorDst = calIndex && uint32_t(count) <= 256 / sizeof(T);
    const d::VecArg a[2] = {arg(src, uint64_t(count), "src", false), out};
    d::vec_instr(api, op, count, sizeof(T), a, vectorDst ? 2 : 1, true);
    // The tmp buffer holds the first-pass results: written (then read) by the instruction itself.
    if (!vectorDst) d::ub_written(api, sharedTmpBuffer.GetPhyAddr(), uint64_t(tmpElems) * sizeof(T));
    T m;
    uint32_t idx;
    if constexpr (isMax) num::reduce_max(src.GetPhyAddr(), size_t(count), m, idx);
    else num::reduce_min(src.GetPhyAddr(), size_t(count), m, idx);
    if (!vectorDst) d::reduce_scalar_store(api, dst.GetPhyAddr(), outElems * sizeof(T));
    dst.GetPhyAddr()[0] = m;
    if (calIndex) {
        if constexpr (sizeof(T) == 2) {
            const uint16_t i16 = uint16_t(idx);
            std::memcpy(dst.GetPhyAddr() + 1, &i16, 2);
        } else {
            std::memcpy(dst.GetPhyAddr() + 1, &idx, 4);
        }
    }
}
}  // namespace sim_vec

template <class T>
void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
               const int32_t count, bool calIndex = 0) {
    static_assert(sim_vec::f16f32_v<T>, "ReduceMax: A2/A3 support half and float only (not bfloat16_t)");
    sim_vec::reduce_extreme<T, true>("ReduceMax", sim_vec::d::VecOp::ReduceMax, dst, src, sharedTmpBuffer, count,
                                     calIndex);
}
// ReduceMin.md: the same tmp buffer sizes and passes as ReduceMax.
template <class T>
void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
               const int32_t count, bool calIndex = 0) {
    static_assert(sim_vec::f16f32_v<T>, "ReduceMin: A2/A3 support half and float only (not bfloat16_t)");
    sim_vec::reduce_extreme<T, false>("ReduceMin", sim_vec::d::VecOp::ReduceMin, dst, src, sharedTmpBuffer, count,
                                      calIndex);
}

// ---- compare / select ----

namespace sim_vec {
template <class T>
void check_cmp_bytes(const char* api, uint32_t count) {
    if ((uint64_t(count) * sizeof(T)) % 256 != 0)
        d::fail(api, "byte count not a multiple of 256",
                "count %u x %u B = %llu B is not a multiple of 256 B; the NPU computes whole 256 B repeats only "
                "and would silently skip the last %llu B",
                count, unsigned(sizeof(T)), (unsigned long long)(uint64_t(count) * sizeof(T)),
                (unsigned long long)((uint64_t(count) * sizeof(T)) % 256));
}
template <class T>
void check_cmp_mode(const char* api, CMPMODE mode) {
    if constexpr (std::is_same_v<T, int32_t>) {
        if (mode != CMPMODE::EQ)
            d::fail(api, "int32_t compares EQ only", "CMPMODE %d on int32_t: A2/A3 support only CMPMODE::EQ",
                    int(mode));
    }
}
}  // namespace sim_vec

// dst: one bit per element, little-endian (bit i of byte i/8).
template <class T, class U>
void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
             uint32_t count) {
    static_assert(sim_vec::one_of_v<T, half, float, int32_t>,
                  "Compare: A2/A3 support half and float (int32_t for EQ only), not bfloat16_t");
    static_assert(sim_vec::one_of_v<U, uint8_t, int8_t>, "Compare: dst must be a uint8_t (or int8_t) bitmask");
    sim_vec::check_cmp_bytes<T>("Compare", count);
    sim_vec::check_cmp_mode<T>("Compare", cmpMode);
    const sim_vec::d::VecArg a[3] = {sim_vec::arg(src0, count, "src0", false), sim_vec::arg(src1, count, "src1", false),
                                     {dst.ub_ref(), uint32_t(sizeof(U)), (uint64_t(count) + 7) / 8, "dst", true}};
    if (!sim_vec::d::vec_instr("Compare", sim_vec::d::VecOp::Compare, count, sizeof(T), a, 3, false)) return;
    sim_vec::num::compare(reinterpret_cast<uint8_t*>(dst.GetPhyAddr()), src0.GetPhyAddr(), src1.GetPhyAddr(), cmpMode,
                          size_t(count));
}

template <class T, class U>
void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode,
                   uint32_t count) {
    static_assert(sim_vec::one_of_v<T, half, float, int32_t>,
                  "CompareScalar: A2/A3 support half and float (int32_t for EQ only), not bfloat16_t");
    static_assert(std::is_same_v<U, uint8_t>, "CompareScalar: dst must be a uint8_t bitmask (dav_c220 CheckVcmpvsDtype)");
    sim_vec::check_cmp_bytes<T>("CompareScalar", count);
    sim_vec::check_cmp_mode<T>("CompareScalar", cmpMode);
    const sim_vec::d::VecArg a[2] = {sim_vec::arg(src0, count, "src0", false),
                                     {dst.ub_ref(), uint32_t(sizeof(U)), (uint64_t(count) + 7) / 8, "dst", true}};
    if (!sim_vec::d::vec_instr("CompareScalar", sim_vec::d::VecOp::CompareScalar, count, sizeof(T), a, 2, false))
        return;
    sim_vec::num::compare_scalar(reinterpret_cast<uint8_t*>(dst.GetPhyAddr()), src0.GetPhyAddr(), src1Scalar, cmpMode,
                                 size_t(count));
}
// The 9.x name.
template <class T, class U>
void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode,
              uint32_t count) {
    CompareScalar(dst, src0, src1Scalar, cmpMode, count);
}

// Select (Select.md; dav_c220 VselImpl, count form). A mask bit of 1 takes src0.
//   VSEL_CMPMASK_SPR (0): set_cmpmask loads the first 256/sizeof(T) bits of selMask,
//     every repeat reuses them: dst[i] uses bit i % (256/sizeof(T)).
//   VSEL_TENSOR_SCALAR_MODE (1), VSEL_TENSOR_TENSOR_MODE (2): bit i for element i.
// CANN brackets the vsel with PipeBarrier<PIPE_V>: mode 0 after set_cmpmask and
// after vsel; mode 1 before vsel; mode 2 before and after vsel.
namespace sim_vec {
template <class T, class U>
d::VecArg sel_mask_arg(const LocalTensor<U>& selMask, uint64_t bits) {
    return {selMask.ub_ref(), uint32_t(sizeof(U)), (bits + 7) / 8, "selMask", false};
}
inline void select_barrier() { d::pipe_barrier("Select", PIPE_V); }
// Select loads CMPMASK (mode 0 from selMask, modes 1 and 2 from a value it
// builds in the reserve UB): afterwards the register holds nothing the kernel set.
inline void select_clobbers_cmpmask() {
    const uint64_t none[2] = {0, 0};
    d::vec_set_cmpmask("Select", none, false);
}
// Modes 1 and 2 on the device (dav_c220 VselImpl, VselIntrinsicsImplPre): a
// Duplicate of the scalar (mode 1) or of selMask's UB address (mode 2, uint32_t)
// over 32 elements at TMP_UB_OFFSET, a barrier, set_cmpmask from there, a barrier.
// InitBuffer may hand that UB out: a buffer there takes these bytes, as on the NPU.
template <class E>
void select_stage_cmpmask(E value) {
    const d::UbRef s = d::ub_device_scratch("Select", 32 * sizeof(E));
    const d::VecArg w[1] = {{s, uint32_t(sizeof(E)), 32 * sizeof(E), "dst (TMP_UB_OFFSET)", true}};
    d::vec_instr("Select", d::VecOp::Duplicate, 32, sizeof(E), w, 1, false);
    E* p = static_cast<E*>(const_cast<void*>(s.p));
    for (int i = 0; i < 32; ++i) p[i] = value;
    select_barrier();
    d::vec_cmpmask_io("Select", s, false);
    select_barrier();
}
template <class U>
void select_stage_address(const LocalTensor<U>& selMask) {
    select_stage_cmpmask(uint32_t(d::ub_offset("Select", selMask.GetPhyAddr())));
}
}  // namespace sim_vec

template <class T, class U>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            const LocalTensor<T>& src1, SELMODE selMode, uint32_t count) {
    static_assert(sim_vec::f16f32_v<T>, "Select: A2/A3 support half and float only (not bfloat16_t)");
    static_assert(sim_vec::one_of_v<U, uint8_t, uint16_t, uint32_t, uint64_t>, "Select: selMask must be uint8..uint64");
    const bool spr = selMode == SELMODE::VSEL_CMPMASK_SPR;
    if (!spr && selMode != SELMODE::VSEL_TENSOR_TENSOR_MODE)
        sim_vec::d::fail("Select", "SELMODE does not match the overload",
                         "the tensor-tensor Select takes SELMODE::VSEL_CMPMASK_SPR or VSEL_TENSOR_TENSOR_MODE (got %d)",
                         int(selMode));
    constexpr uint32_t perRepeat = 256 / sizeof(T);
    if (spr) {  // set_cmpmask: a vector instruction reading the mask register's bits
        const uint64_t bits = count < perRepeat ? count : perRepeat;
        const sim_vec::d::VecArg m[1] = {sim_vec::sel_mask_arg<T>(selMask, bits)};
        if (!sim_vec::d::vec_instr("Select", sim_vec::d::VecOp::Select, int64_t(bits), 1, m, 1, true)) return;
        sim_vec::select_barrier();
    } else {
        sim_vec::select_stage_address(selMask);
    }
    const sim_vec::d::VecArg a[4] = {sim_vec::sel_mask_arg<T>(selMask, count), sim_vec::arg(src0, count, "src0", false),
                                     sim_vec::arg(src1, count, "src1", false), sim_vec::arg(dst, count, "dst", true)};
    if (!sim_vec::d::vec_instr("Select", sim_vec::d::VecOp::Select, count, sizeof(T), spr ? a + 1 : a, spr ? 3 : 4,
                               true))
        return;
    const auto* bits = reinterpret_cast<const uint8_t*>(selMask.GetPhyAddr());
    if (spr) sim_vec::num::select_repeating(dst.GetPhyAddr(), bits, perRepeat, src0.GetPhyAddr(), src1.GetPhyAddr(),
                                            size_t(count));
    else sim_vec::num::select(dst.GetPhyAddr(), bits, src0.GetPhyAddr(), src1.GetPhyAddr(), size_t(count));
    sim_vec::select_clobbers_cmpmask();
    sim_vec::select_barrier();
}

// dst[i] = mask bit i ? src0[i] : src1Scalar   (VSEL_TENSOR_SCALAR_MODE)
template <class T, class U>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, T src1,
            SELMODE selMode, uint32_t count) {
    static_assert(sim_vec::f16f32_v<T>, "Select: A2/A3 support half and float only (not bfloat16_t)");
    static_assert(sim_vec::one_of_v<U, uint8_t, uint16_t, uint32_t, uint64_t>, "Select: selMask must be uint8..uint64");
    if (selMode != SELMODE::VSEL_TENSOR_SCALAR_MODE)
        sim_vec::d::fail("Select", "SELMODE does not match the overload",
                         "the tensor-scalar Select needs SELMODE::VSEL_TENSOR_SCALAR_MODE (got %d)", int(selMode));
    sim_vec::select_stage_cmpmask(src1);
    const sim_vec::d::VecArg a[3] = {sim_vec::sel_mask_arg<T>(selMask, count), sim_vec::arg(src0, count, "src0", false),
                                     sim_vec::arg(dst, count, "dst", true)};
    if (!sim_vec::d::vec_instr("Select", sim_vec::d::VecOp::Select, count, sizeof(T), a, 3, true)) return;
    sim_vec::num::select_scalar(dst.GetPhyAddr(), reinterpret_cast<const uint8_t*>(selMask.GetPhyAddr()),
                                src0.GetPhyAddr(), src1, size_t(count));
    sim_vec::select_clobbers_cmpmask();
}

// ---- Gather: dst[i] = src[(srcBaseAddr + srcOffset[i]) / sizeof(T)], offsets in BYTES ----

template <class T>
void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
            const uint32_t srcBaseAddr, const uint32_t count) {
    static_assert(sim_vec::one_of_v<T, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float>,
                  "Gather: A2/A3 support int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t and float");
    // kernel_operator_vec_gather_intf_impl.h runs the high-dimension form: the full
    // repeats (their number kept in a uint8_t), then the tail; the mask register
    // keeps the last call's continuous mask.
    constexpr uint32_t perRepeat = 256 / sizeof(T);
    if (count / perRepeat > 255)
        sim_vec::d::fail("Gather", "count needs more than 255 repeats",
                         "count %u needs %u full repeats of %u elements; the count form keeps their number in a "
                         "uint8_t and the NPU would compute only %u of them",
                         count, count / perRepeat, perRepeat, (count / perRepeat) % 256);
    if (count) {
        uint64_t hi, lo;
        sim_vec::mask_bits<T>(int32_t(count % perRepeat ? count % perRepeat : perRepeat), hi, lo);
        sim_vec::d::vec_set_mask("Gather", hi, lo);
    }
    const sim_vec::d::VecArg a[3] = {sim_vec::arg(srcOffset, count, "srcOffset", false),
                                     {src.ub_ref(), uint32_t(sizeof(T)), src.ub_ref().dataLen, "src", false, false},
                                     sim_vec::arg(dst, count, "dst", true)};
    if (!sim_vec::d::vec_instr("Gather", sim_vec::d::VecOp::Gather, count, sizeof(T), a, 3, false)) return;
    const int64_t bad = sim_vec::num::gather(dst.GetPhyAddr(), src.GetPhyAddr(), srcOffset.GetPhyAddr(), srcBaseAddr,
                                             size_t(count), size_t(src.GetSize()));
    if (bad >= 0)
        sim_vec::d::fail("Gather", "offset out of range or misaligned",
                         "srcOffset[%lld] = %u B (+ srcBaseAddr %u B) is not a %u-byte aligned offset inside src's "
                         "%u B",
                         (long long)bad, srcOffset.GetPhyAddr()[bad], srcBaseAddr, unsigned(sizeof(T)),
                         src.ub_ref().dataLen);
    // initcheck: exactly the gathered elements (the hazard model records all of src).
    sim_vec::d::gather_read("Gather", src.ub_ref(), srcOffset.GetPhyAddr(), srcBaseAddr, count, uint32_t(sizeof(T)));
}

}  // namespace AscendC

// The engine of the high-dimension (mask, repeatTime, strides) forms: the
// runtime checks the call and returns the runs of active elements; each run
// lies inside one 32 B block of every operand (or spans a repeat's consecutive
// blocks), so the numerics loop runs on contiguous elements.
#pragma once
#include <cstdint>

#include "device_runtime.h"
#include "kernel_tensor.h"
#include "kernel_vec_mask.h"

namespace AscendC {
namespace sim_vec {

namespace d = ascend_sim::detail;

template <class T>
inline d::RepArg rep_arg(const LocalTensor<T>& t, uint32_t blkStride, uint32_t repStride, const char* role,
                         bool write, bool trailsDst = false) {
    return {t.ub_ref(), uint32_t(sizeof(T)), blkStride, repStride, role, write, trailsDst};
}

template <class T>
inline T* at(const LocalTensor<T>& t, const d::RepArg& a, const d::RepRun& u) {
    return reinterpret_cast<T*>(reinterpret_cast<uint8_t*>(t.GetPhyAddr()) + d::rep_offset(a, u.repeat, u.first));
}

// f(run) for each active run of the instruction (none for a NOP).
template <class F>
inline void repeat(const char* api, d::VecOp op, const d::RepArg* a, int n, const d::RepShape& shape, F f) {
    size_t count = 0;
    const d::RepRun* runs = d::vec_repeat(api, op, a, n, shape, &count);
    for (size_t i = 0; i < count; ++i) f(runs[i]);
}

template <class T, bool isSetMask, class M, class F>
void rep_unary(const char* api, d::VecOp op, const LocalTensor<T>& dst, const LocalTensor<T>& src, const M& mask,
               uint8_t repeatTime, const UnaryRepeatParams& p, F f) {
    apply_mask<T, isSetMask>(api, mask);
    const d::RepArg a[2] = {rep_arg(src, p.srcBlkStride, p.srcRepStride, "src", false),
                            rep_arg(dst, p.dstBlkStride, p.dstRepStride, "dst", true)};
    d::RepShape shape{256 / uint32_t(sizeof(T)), repeatTime};
    shape.elementwise = true;
    repeat(api, op, a, 2, shape, [&](const d::RepRun& u) { f(at(dst, a[1], u), at(src, a[0], u), size_t(u.len)); });
}

// dst (type D) from src0 and src1 (type S); `readsDst`: dst is also a source
// (FusedMulAdd, MulAddDst). A repeat holds 256 B of the wider type; each
// operand's strides count its own 32 B blocks.
template <class D, class S, bool isSetMask, class M, class F>
void rep_binary_into(const char* api, d::VecOp op, const LocalTensor<D>& dst, const LocalTensor<S>& src0,
                     const LocalTensor<S>& src1, const M& mask, uint8_t repeatTime, const BinaryRepeatParams& p,
                     bool src1TrailsDst, bool readsDst, F f) {
    apply_mask<D, isSetMask>(api, mask);
    const d::RepArg a[4] = {rep_arg(src0, p.src0BlkStride, p.src0RepStride, "src0", false),
                            rep_arg(src1, p.src1BlkStride, p.src1RepStride, "src1", false, src1TrailsDst),
                            rep_arg(dst, p.dstBlkStride, p.dstRepStride, "dst", true),
                            rep_arg(dst, p.dstBlkStride, p.dstRepStride, "dst", false)};
    constexpr uint32_t widest = sizeof(D) > sizeof(S) ? sizeof(D) : sizeof(S);
    d::RepShape shape{256 / widest, repeatTime};
    shape.elementwise = true;
    repeat(api, op, a, readsDst ? 4 : 3, shape, [&](const d::RepRun& u) {
        f(at(dst, a[2], u), at(src0, a[0], u), at(src1, a[1], u), size_t(u.len));
    });
}

template <class T, bool isSetMask, class M, class F>
void rep_binary(const char* api, d::VecOp op, const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                const LocalTensor<T>& src1, const M& mask, uint8_t repeatTime, const BinaryRepeatParams& p,
                bool src1TrailsDst, F f) {
    rep_binary_into<T, T, isSetMask>(api, op, dst, src0, src1, mask, repeatTime, p, src1TrailsDst, false, f);
}

template <class T, bool isSetMask, class M, class F>
void rep_scalar(const char* api, d::VecOp op, const LocalTensor<T>& dst, const LocalTensor<T>& src, T scalar,
                const M& mask, uint8_t repeatTime, const UnaryRepeatParams& p, F f) {
    rep_unary<T, isSetMask>(api, op, dst, src, mask, repeatTime, p,
                            [&](T* o, const T* i, size_t n) { f(o, i, scalar, n); });
}

}  // namespace sim_vec
}  // namespace AscendC

// The high-dimension Gather (CANN: kernel_operator_vec_gather_intf.h; dav_c220
// kernel_operator_vec_gather_impl.h :: GatherImpl, vgather; Gather.md): element
// j of repeat r is src[(srcBaseAddr + srcOffset[r x perRepeat + j]) / sizeof(T)]
// (offsets in bytes, one uint32 per element, consecutive across repeats), stored
// at dst + r x dstRepStride x 32 B + j x sizeof(T). The mask is always set (no
// isSetMask). The count form: kernel_vec_ops.h.
#pragma once
#include <cstdint>

#include "kernel_vec_ops.h"
#include "kernel_vec_repeat.h"

namespace AscendC {

namespace sim_vec {
template <class T, class M>
void gather_highdim(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
                    uint32_t srcBaseAddr, const M& mask, uint8_t repeatTime, uint16_t dstRepStride) {
    static_assert(one_of_v<T, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float>,
                  "Gather: A2/A3 support int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t and float");
    apply_mask<T, true>("Gather", mask);
    constexpr uint32_t perRepeat = 256 / sizeof(T);
    // src as a whole for the hazards (the gathered elements are initchecked below)
    d::RepArg a[3] = {rep_arg(srcOffset, 1, perRepeat * 4 / 32, "srcOffset", false),
                      rep_arg(src, 0, 0, "src", false), rep_arg(dst, 1, dstRepStride, "dst", true)};
    a[1].repBytes = a[1].repUnit = src.ub_ref().dataLen;
    a[1].initcheck = false;
    const size_t srcElems = src.GetSize();
    repeat("Gather", d::VecOp::Gather, a, 3, {perRepeat, repeatTime}, [&](const d::RepRun& u) {
        const uint32_t* off = at(srcOffset, a[0], u);
        const int64_t bad = num::gather(at(dst, a[2], u), src.GetPhyAddr(), off, srcBaseAddr, u.len, srcElems);
        if (bad >= 0)
            d::fail("Gather", "offset out of range or misaligned",
                    "repeat %u: srcOffset[%u] = %u B (+ srcBaseAddr %u B) is not a %u-byte aligned offset inside "
                    "src's %u B",
                    u.repeat, u.repeat * perRepeat + u.first + uint32_t(bad), off[bad], srcBaseAddr,
                    unsigned(sizeof(T)), src.ub_ref().dataLen);
        d::gather_read("Gather", src.ub_ref(), off, srcBaseAddr, u.len, uint32_t(sizeof(T)));
    });
}
}  // namespace sim_vec

template <class T>
void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
            const uint32_t srcBaseAddr, const uint64_t mask, const uint8_t repeatTime, const uint16_t dstRepStride) {
    sim_vec::gather_highdim(dst, src, srcOffset, srcBaseAddr, mask, repeatTime, dstRepStride);
}
template <class T>
void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
            const uint32_t srcBaseAddr, const uint64_t mask[], const uint8_t repeatTime,
            const uint16_t dstRepStride) {
    sim_vec::gather_highdim(dst, src, srcOffset, srcBaseAddr, mask, repeatTime, dstRepStride);
}

}  // namespace AscendC

// The high-dimension Gather (CANN: kernel_operator_vec_gather_intf.h; dav_c220
// kernel_operator_vec_gather_impl.h :: GatherImpl, vgather; Gather.md): element
// j of repeat r is src[(srcBaseAddr + srcOffset[r x perRepeat + j]) / sizeof(T)]
// (offsets in bytes, one uint32 per element, consecutive across repeats), stored
// at dst + r x dstRepStride x 32 B + j x sizeof(T). The mask is always set (no
// isSetMask). The count form: kernel_vec_ops.h.
// Gatherb (dav_c220 GatherbImpl: ResetMask, then vgatherb; Gatherb(ISASI).md):
// block j of repeat r is the 32 B of src at byte offset[8r + j], stored at
// dst + (r x dstRepStride + j x dstBlkStride) x 32 B (dstBlkStride 0 counts as 1).
#pragma once
#include <cstdint>
#include <cstring>

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

struct GatherRepeatParams {
    GatherRepeatParams() {}
    GatherRepeatParams(const uint8_t dstBlkStrideIn, const uint8_t dstRepStrideIn)
        : dstRepStride(dstRepStrideIn), dstBlkStride(dstBlkStrideIn) {}
    uint32_t blockNumber = DEFAULT_BLK_NUM;  // the rest are reserved (Gatherb(ISASI).md)
    uint16_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src1BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0RepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src1RepStride = DEFAULT_REPEAT_STRIDE;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
};

template <class T>
void Gatherb(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& offset,
             const uint8_t repeatTime, const GatherRepeatParams& repeatParams) {
    static_assert(sim_vec::one_of_v<T, uint16_t, uint32_t>, "Gatherb: A2/A3 support uint16_t and uint32_t");
    namespace d = sim_vec::d;
    d::vec_set_mask("Gatherb", ~0ull, ~0ull);  // ResetMask
    const auto* sp = static_cast<const uint8_t*>(src.ub_ref().p);
    const auto* dp = static_cast<const uint8_t*>(dst.ub_ref().p);
    if (sp < dp + dst.ub_ref().dataLen && dp < sp + src.ub_ref().dataLen)
        d::fail("Gatherb", "dst overlaps src", "dst and src overlap (Gatherb(ISASI).md: not the same memory)");
    // One element a 32 B block: offsets 8 a repeat, dst blocks at their strides, src whole for the hazards.
    d::RepArg a[3] = {sim_vec::rep_arg(offset, 1, 1, "offset", false), sim_vec::rep_arg(src, 0, 0, "src", false),
                      {dst.ub_ref(), 32, repeatParams.dstBlkStride ? repeatParams.dstBlkStride : 1u,
                       repeatParams.dstRepStride, "dst", true}};
    a[1].repBytes = a[1].repUnit = src.ub_ref().dataLen;
    a[1].initcheck = false;
    d::RepShape shape{8, repeatTime};
    shape.ignoreMask = true;
    sim_vec::repeat("Gatherb", d::VecOp::Gatherb, a, 3, shape, [&](const d::RepRun& u) {
        const uint32_t* off = sim_vec::at(offset, a[0], u);
        for (uint32_t k = 0; k < u.len; ++k) {
            if (off[k] % 32 || uint64_t(off[k]) + 32 > src.ub_ref().dataLen)
                d::fail("Gatherb", "offset out of range or misaligned",
                        "repeat %u: offset[%u] = %u B is not a 32-byte aligned block inside src's %u B", u.repeat,
                        u.repeat * 8 + u.first + k, off[k], src.ub_ref().dataLen);
            std::memcpy(reinterpret_cast<uint8_t*>(dst.GetPhyAddr()) + d::rep_offset(a[2], u.repeat, u.first + k),
                        sp + off[k], 32);
        }
        d::gather_read("Gatherb", src.ub_ref(), off, 0, u.len, 32);
    });
}

}  // namespace AscendC

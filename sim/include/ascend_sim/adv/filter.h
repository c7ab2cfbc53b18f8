// DropOut with a byte mask (asc-devkit include/adv_api/filter/dropout.h;
// dav_c220: impl/adv_api/detail/filter/dropout/dropout_impl.h DropOutImpl,
// DropOutOpt; dropout_c220_impl.h DropOutByteMode(info); dropout_membase_impl.h
// DropOutByteMode, DropOutByteModeCalc, DropOutByteModeSetTmpBuffer): the mask
// bytes widened to T, multiplied into src, scaled by 1 / keepProb, in Counter-mode
// chunks of the sharedTmpBuffer. A mask row longer than the src row is first
// packed in place by GatherMask. The bit-mask modes (dropout_membase_impl.h
// DropOutBitMode, DropOutBitModeInit; dropout_c220_impl.h DropOutBitMode(info)):
// CMPMASK loaded with 0 from the tmp (unless isInitBitMode: the kernel's value),
// the mask rows packed by GatherMask when they carry padding (mode 4), then one
// Counter-mode mask-less Select of mode 1 (a 0 bit takes CMPMASK's scalar) and the
// 1 / keepProb Muls. The tmp's 256 B are zeroed with a Duplicate where CANN
// multiplies them by 0 (that would read bytes the kernel need not have written).
#pragma once
#include <cstdint>
#include <type_traits>

#include "../kernel_sync.h"
#include "../kernel_vec_binary.h"
#include "../kernel_vec_cast.h"
#include "../kernel_vec_compare.h"
#include "../kernel_vec_gather_mask.h"
#include "../kernel_vec_mask.h"
#include "../kernel_vec_scalar.h"
#include "adv_check.h"

namespace AscendC {

// kernel_utils_struct_norm_sort.h: rows, the src row and the mask row (bytes).
struct DropOutShapeInfo {
    uint32_t firstAxis = 0;
    uint32_t srcLastAxis = 0;
    uint32_t maskLastAxis = 0;
};
constexpr uint32_t DROPOUT_MODE_BYTE_MISALIGN = 1;
constexpr uint32_t DROPOUT_MODE_BYTE_ALIGN = 2;
constexpr uint32_t DROPOUT_MODE_BIT_ALIGN = 3;
constexpr uint32_t DROPOUT_MODE_BIT_MISALIGN = 4;

namespace sim_adv {

// One chunk: dst = T(mask) * src * divValue (half: mask -> half; float: mask -> half -> float).
template <class T>
void dropout_chunk(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& mask,
                   const LocalTensor<half>& wide16, const LocalTensor<float>& wide32, T divValue) {
    UnaryRepeatParams fromBytes;
    fromBytes.srcRepStride = DEFAULT_REPEAT_STRIDE / sizeof(half);
    Cast<half, uint8_t, false>(wide16, mask, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, fromBytes);
    PipeBarrier<PIPE_V>();
    LocalTensor<T> factor;
    if constexpr (std::is_same_v<T, float>) {
        Cast<float, half, false>(wide32, wide16, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, fromBytes);
        PipeBarrier<PIPE_V>();
        factor = wide32;
    } else {
        factor = wide16;
    }
    Mul<T, false>(dst, factor, src, MASK_PLACEHOLDER, 1, BinaryRepeatParams{});
    PipeBarrier<PIPE_V>();
    Muls<T, false>(dst, dst, divValue, MASK_PLACEHOLDER, 1, UnaryRepeatParams{});
    PipeBarrier<PIPE_V>();
}

// The byte mode over count elements: half takes the whole tmp as one half
// slice, float a half and a float slice of tmp / 6 elements (32-element runs).
template <class T>
void dropout_bytes(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& mask,
                   const LocalTensor<uint8_t>& tmp, T divValue, uint32_t count) {
    const uint32_t slice = std::is_same_v<T, half> ? tmp.GetSize() / sizeof(half) / ONE_BLK_SIZE * ONE_BLK_SIZE
                                                   : tmp.GetSize() / 6 / ONE_BLK_SIZE * ONE_BLK_SIZE;
    const LocalTensor<half> wide16 = tmp.ReinterpretCast<half>();
    const LocalTensor<float> wide32 = tmp[slice * sizeof(half)].ReinterpretCast<float>();
    SetMaskCount();
    SetVectorMask<uint8_t, MaskMode::COUNTER>(0, slice);
    uint32_t off = 0;
    for (uint32_t i = 0; i < count / slice; ++i, off += slice)
        dropout_chunk(dst[off], src[off], mask[off], wide16, wide32, divValue);
    if (count % slice != 0) {
        SetVectorMask<uint8_t, MaskMode::COUNTER>(0, count % slice);
        dropout_chunk(dst[off], src[off], mask[off], wide16, wide32, divValue);
    }
    SetMaskNorm();
    ResetMask();
}

// CMPMASK := 0 through the tmp's first 256 B (isInitBitMode: the kernel has set it).
template <bool isInitBitMode>
void dropout_bits_init(const LocalTensor<uint8_t>& tmp) {
    if constexpr (!isInitBitMode) {
        ResetMask();
        const LocalTensor<int16_t> zeros = tmp.ReinterpretCast<int16_t>();
        Duplicate<int16_t, false>(zeros, int16_t(0), MASK_PLACEHOLDER, 1, 1, DEFAULT_REPEAT_STRIDE);
        PipeBarrier<PIPE_V>();
        SetCmpMask<int16_t>(zeros);
        PipeBarrier<PIPE_V>();
    }
}

template <class T, bool isInitBitMode>
void dropout_bits(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& mask,
                  const LocalTensor<uint8_t>& tmp, T divValue, uint32_t count) {
    dropout_bits_init<isInitBitMode>(tmp);
    SetMaskCount();
    SetVectorMask<uint8_t, MaskMode::COUNTER>(0, count);
    Select<T, uint8_t>(dst, mask, src, 1, BinaryRepeatParams{});
    PipeBarrier<PIPE_V>();
    Muls<T, false>(dst, dst, divValue, MASK_PLACEHOLDER, 1, UnaryRepeatParams{});
    PipeBarrier<PIPE_V>();
    SetMaskNorm();
    ResetMask();
}

// The rows of maskLocal (maskLastAxis bytes apart) packed to their first `bytes`, in place.
inline void dropout_pack_rows(const LocalTensor<uint8_t>& mask, const DropOutShapeInfo& info, uint32_t bytes) {
    GatherMaskParams p;
    p.repeatTimes = uint16_t(info.firstAxis);
    p.src0RepeatStride = uint16_t(info.maskLastAxis / ONE_BLK_SIZE);
    const LocalTensor<uint16_t> pairs = mask.ReinterpretCast<uint16_t>();
    uint64_t kept = 0;
    GatherMask<uint16_t>(pairs, pairs, 7, true, bytes / sizeof(uint16_t), p, kept);
    PipeBarrier<PIPE_V>();
}

}  // namespace sim_adv

template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<uint8_t>& maskLocal,
             const LocalTensor<uint8_t>& sharedTmpBuffer, const float keepProb, const DropOutShapeInfo& info) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "DropOut: A2/A3 support half and float");
    static_assert(dropOutMode <= DROPOUT_MODE_BIT_MISALIGN, "DropOut: dropOutMode is 0, 1, 2, 3 or 4");
    constexpr const char* api = "DropOut";
    namespace d = ascend_sim::detail;
    // CheckDropOutParamsClass.
    if (!(keepProb > 0 && keepProb < 1)) d::fail(api, "keepProb outside (0, 1)", "keepProb %f is not in (0, 1)", keepProb);
    if (info.firstAxis == 0 || info.srcLastAxis == 0 || info.maskLastAxis == 0)
        d::fail(api, "empty axis", "info.firstAxis %u, srcLastAxis %u and maskLastAxis %u must all be above 0",
                info.firstAxis, info.srcLastAxis, info.maskLastAxis);
    if ((dropOutMode == DROPOUT_MODE_BYTE_MISALIGN || dropOutMode == DROPOUT_MODE_BIT_MISALIGN) &&
        info.maskLastAxis % 2 != 0)
        d::fail(api, "odd maskLastAxis", "info.maskLastAxis %u must be even in dropOutMode %u", info.maskLastAxis,
                dropOutMode);
    // DropOutImpl's choice when dropOutMode is 0.
    uint32_t mode = dropOutMode;
    if (mode == 0)
        mode = info.srcLastAxis < info.maskLastAxis    ? DROPOUT_MODE_BYTE_MISALIGN
               : info.srcLastAxis == info.maskLastAxis ? DROPOUT_MODE_BYTE_ALIGN
               : info.srcLastAxis == info.maskLastAxis * 8 ? DROPOUT_MODE_BIT_ALIGN
                                                           : DROPOUT_MODE_BIT_MISALIGN;
    const uint32_t count = info.firstAxis * info.srcLastAxis;
    sim_adv::check_count(api, count, srcLocal, "srcLocal");
    sim_adv::check_count(api, count, dstLocal, "dstLocal");
    sim_adv::check_tmp(api, sharedTmpBuffer, 2 * 256, "GetDropOutMaxMinTmpSize");
    const uint32_t tmpBytes = sharedTmpBuffer.GetSize();
    sim_adv::check_disjoint(api, sharedTmpBuffer, tmpBytes, "sharedTmpBuffer", srcLocal, count, "srcLocal");
    sim_adv::check_disjoint(api, sharedTmpBuffer, tmpBytes, "sharedTmpBuffer", dstLocal, count, "dstLocal");
    sim_adv::check_disjoint(api, sharedTmpBuffer, tmpBytes, "sharedTmpBuffer", maskLocal,
                            info.firstAxis * info.maskLastAxis, "maskLocal");
    const T divValue = T(1.0f / keepProb);
    if (mode >= DROPOUT_MODE_BIT_ALIGN) {
        if (mode == DROPOUT_MODE_BIT_MISALIGN) {
            // the init before the packing, the packed select without it (DropOutBitMode(info))
            sim_adv::dropout_bits_init<isInitBitMode>(sharedTmpBuffer);
            sim_adv::dropout_pack_rows(maskLocal, info, info.srcLastAxis / 8);
            sim_adv::dropout_bits<T, true>(dstLocal, srcLocal, maskLocal, sharedTmpBuffer, divValue, count);
        } else {
            sim_adv::dropout_bits<T, isInitBitMode>(dstLocal, srcLocal, maskLocal, sharedTmpBuffer, divValue, count);
        }
        return;
    }
    if (mode == DROPOUT_MODE_BYTE_MISALIGN) sim_adv::dropout_pack_rows(maskLocal, info, info.srcLastAxis);
    sim_adv::dropout_bytes(dstLocal, srcLocal, maskLocal, sharedTmpBuffer, divValue, count);
}
template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<uint8_t>& maskLocal,
             const float keepProb, const DropOutShapeInfo& info) {
    DropOut<T, isInitBitMode, dropOutMode>(dstLocal, srcLocal, maskLocal, sim_adv::stack_tmp("DropOut"), keepProb,
                                           info);
}

}  // namespace AscendC

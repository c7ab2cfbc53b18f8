// The advanced Select with a byte mask (asc-devkit include/adv_api/select/selectwithbytesmask.h;
// dav_c220: impl/adv_api/detail/select/selectwithbytesmask/selectwithbytesmask_impl.h
// SelectWithBytesMaskImpl, selectwithbytesmask_v220_impl.h SelectWithBytesMaskProcess,
// selectwithbytesmask_common_impl.h InitScalarSelectMask, CastMaskToHalfImpl,
// SelectWithBytesMaskPerAxisImpl, RemoveRedundantMask, SelectWithBytesMaskLoopImpl;
// checks: api_check/.../selectwithbytesmaskcheck_common.h). The scalar goes to
// CMPMASK through the tmp; mask rows longer than the source rows are packed by
// GatherMask (in place when isReuseMask, else into the tmp's head); then, per
// pass of the tmp, the mask is widened to half, compared with 0 into bits over
// the widened copy and a Counter-mode mode-1 Select takes the tensor where the
// mask is 0 (the scalar where it is not; the reverse form swaps the two).
#pragma once
#include <cstdint>
#include <type_traits>

#include "../kernel_sync.h"
#include "../kernel_vec_cast.h"
#include "../kernel_vec_compare.h"
#include "../kernel_vec_gather_mask.h"
#include "../kernel_vec_mask.h"
#include "../kernel_vec_scalar.h"
#include "adv_check.h"

namespace AscendC {

// kernel_utils_struct_norm_sort.h: rows, the source row and the mask row (elements).
struct SelectWithBytesMaskShapeInfo {
    uint32_t firstAxis = 0;
    uint32_t srcLastAxis = 0;
    uint32_t maskLastAxis = 0;
};

namespace sim_adv {

// The mask of one pass widened to half: 4 B masks read as float (CAST_ODD keeps
// any nonzero bit pattern nonzero), 2 B as int16_t, 1 B as uint8_t.
template <class U>
void select_mask_to_half(const LocalTensor<half>& wide, const LocalTensor<U>& mask) {
    if constexpr (sizeof(U) == 4) {
        Cast<half, float, false>(wide, mask.template ReinterpretCast<float>(), RoundMode::CAST_ODD, MASK_PLACEHOLDER,
                                 1, {1, 1, DEFAULT_REPEAT_STRIDE / 2, DEFAULT_REPEAT_STRIDE});
    } else if constexpr (sizeof(U) == 2) {
        Cast<half, int16_t, false>(wide, mask.template ReinterpretCast<int16_t>(), RoundMode::CAST_NONE,
                                   MASK_PLACEHOLDER, 1, {1, 1, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE});
    } else {
        Cast<half, uint8_t, false>(wide, mask.template ReinterpretCast<uint8_t>(), RoundMode::CAST_NONE,
                                   MASK_PLACEHOLDER, 1, {1, 1, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE / 2});
    }
}

// One pass of len elements; CMPMASK holds the scalar.
template <class T, class U, bool reverse>
void select_bytes_pass(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<U>& mask,
                       const LocalTensor<uint8_t>& tmp, uint32_t len) {
    const LocalTensor<half> wide = tmp.ReinterpretCast<half>();
    SetVectorMask<half, MaskMode::COUNTER>(0, len);
    select_mask_to_half<U>(wide, mask);
    PipeBarrier<PIPE_V>();
    // Whole repeats are compared; the bits past len are never selected on, so
    // the widened elements past len are not read as values.
    sim_vec::compare_scalar_within(tmp, wide, half(0), reverse ? CMPMODE::NE : CMPMODE::EQ, len);
    PipeBarrier<PIPE_V>();
    Select<T, uint8_t>(dst, tmp, src, 1, BinaryRepeatParams{});
}

// RemoveRedundantMask: the first srcLastAxis elements of each mask row, packed.
template <class U>
void select_pack_mask(const LocalTensor<U>& packed, const LocalTensor<U>& mask,
                      const SelectWithBytesMaskShapeInfo& info) {
    const GatherMaskParams p(DEFAULT_BLK_STRIDE, uint16_t(info.firstAxis),
                             uint16_t(info.maskLastAxis * sizeof(U) / ONE_BLK_SIZE), 0);
    uint64_t kept = 0;
    GatherMask<uint16_t>(packed.template ReinterpretCast<uint16_t>(), mask.template ReinterpretCast<uint16_t>(), 7,
                         true, info.srcLastAxis * sizeof(U) / sizeof(uint16_t), p, kept);
    SetMaskCount();
}

// SelectWithBytesMaskImpl: src is the tensor operand, scalar the other.
template <class T, class U, bool isReuseMask, bool reverse>
void select_bytes_mask(const LocalTensor<T>& dst, const LocalTensor<T>& src, T scalar, const LocalTensor<U>& mask,
                       const LocalTensor<uint8_t>& tmp, const SelectWithBytesMaskShapeInfo& info) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "Select (byte mask): T must be half or float");
    static_assert(std::is_same_v<U, bool> || std::is_same_v<U, uint8_t> || std::is_same_v<U, int8_t> ||
                      std::is_same_v<U, uint16_t> || std::is_same_v<U, int16_t> || std::is_same_v<U, uint32_t> ||
                      std::is_same_v<U, int32_t>,
                  "Select (byte mask): U must be bool, uint8_t, int8_t, uint16_t, int16_t, uint32_t or int32_t");
    constexpr const char* api = "Select";
    // CheckSelectWithBytesMaskParamsClass.
    if (src.GetSize() != info.firstAxis * info.srcLastAxis)
        d::fail(api, "source size", "info.firstAxis * info.srcLastAxis is %u; it must equal the source tensor's size %u",
                info.firstAxis * info.srcLastAxis, src.GetSize());
    if (mask.GetSize() != info.firstAxis * info.maskLastAxis)
        d::fail(api, "mask size", "info.firstAxis * info.maskLastAxis is %u; it must equal mask's size %u",
                info.firstAxis * info.maskLastAxis, mask.GetSize());
    if (info.maskLastAxis < info.srcLastAxis)
        d::fail(api, "mask row shorter", "info.maskLastAxis %u must be at least info.srcLastAxis %u", info.maskLastAxis,
                info.srcLastAxis);
    if (info.maskLastAxis * sizeof(U) % ONE_BLK_SIZE != 0)
        d::fail(api, "mask row unaligned", "info.maskLastAxis %u x %u B must be 32 B aligned", info.maskLastAxis,
                unsigned(sizeof(U)));
    if (info.maskLastAxis % 16 != 0)
        d::fail(api, "mask row not 16n", "info.maskLastAxis %u must be a multiple of 16", info.maskLastAxis);
    if (info.srcLastAxis * sizeof(T) % ONE_BLK_SIZE != 0)
        d::fail(api, "source row unaligned", "info.srcLastAxis %u x %u B must be 32 B aligned", info.srcLastAxis,
                unsigned(sizeof(T)));
    check_count(api, src.GetSize(), dst, "dst");
    constexpr uint32_t minBytes = 1024, reserved = 256, maxPass = 255 * 256 / sizeof(half);
    check_tmp(api, tmp, minBytes, "GetSelectMaxMinTmpSize");
    const uint32_t n = src.GetSize();
    uint32_t bytes = tmp.GetSize(), offset = 0;
    LocalTensor<U> packed = mask;
    if (!isReuseMask && info.srcLastAxis != info.maskLastAxis) {
        const uint32_t maskBytes = (n * uint32_t(sizeof(U)) + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE;
        if (bytes < minBytes + maskBytes)
            d::fail(api, "sharedTmpBuffer below the minimum",
                    "sharedTmpBuffer holds %u B; with mask rows longer than the source rows and isReuseMask false it "
                    "needs %u B (1024 B and the packed mask)",
                    bytes, minBytes + maskBytes);
        packed = tmp.ReinterpretCast<U>();
        packed.SetSize(maskBytes / sizeof(U));
        bytes -= maskBytes;
        offset = maskBytes;
    }
    check_disjoint(api, tmp, tmp.GetSize(), "sharedTmpBuffer", src, n, "src");
    check_disjoint(api, tmp, tmp.GetSize(), "sharedTmpBuffer", dst, n, "dst");
    check_disjoint(api, tmp, tmp.GetSize(), "sharedTmpBuffer", mask, mask.GetSize(), "mask");
    uint32_t pass = (bytes - reserved) / sizeof(half) / ONE_BLK_SIZE * ONE_BLK_SIZE;
    if (pass > maxPass) pass = maxPass;

    PipeBarrier<PIPE_V>();
    SetMaskCount();
    // InitScalarSelectMask.
    const LocalTensor<T> scalarRow = tmp.ReinterpretCast<T>();
    SetVectorMask<half, MaskMode::COUNTER>(0, 256 / sizeof(T));
    Duplicate<T, false>(scalarRow, scalar, MASK_PLACEHOLDER, 1, 1, DEFAULT_REPEAT_STRIDE);
    PipeBarrier<PIPE_V>();
    SetCmpMask(scalarRow);
    PipeBarrier<PIPE_V>();

    if (info.srcLastAxis != info.maskLastAxis) {
        select_pack_mask<U>(packed, mask, info);
        PipeBarrier<PIPE_V>();
    }
    const LocalTensor<uint8_t> work = tmp[offset];
    for (uint32_t off = 0; off < n; off += pass) {
        const uint32_t len = off + pass > n ? n - off : pass;
        select_bytes_pass<T, U, reverse>(dst[off], src[off], packed[off], work, len);
        PipeBarrier<PIPE_V>();
    }
    SetMaskNorm();
    ResetMask();
}

}  // namespace sim_adv

// mask 0: src0's element; otherwise src1.
template <typename T, typename U, bool isReuseMask = true>
void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, T src1, const LocalTensor<U>& mask,
            const LocalTensor<uint8_t>& sharedTmpBuffer, const SelectWithBytesMaskShapeInfo& info) {
    sim_adv::select_bytes_mask<T, U, isReuseMask, false>(dst, src0, src1, mask, sharedTmpBuffer, info);
}
// mask 0: src0; otherwise src1's element.
template <typename T, typename U, bool isReuseMask = true>
void Select(const LocalTensor<T>& dst, T src0, const LocalTensor<T>& src1, const LocalTensor<U>& mask,
            const LocalTensor<uint8_t>& sharedTmpBuffer, const SelectWithBytesMaskShapeInfo& info) {
    sim_adv::select_bytes_mask<T, U, isReuseMask, true>(dst, src1, src0, mask, sharedTmpBuffer, info);
}

}  // namespace AscendC

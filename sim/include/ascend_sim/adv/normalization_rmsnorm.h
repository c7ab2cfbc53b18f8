// RmsNorm (asc-devkit include/adv_api/normalization/rmsnorm.h; dav_c220:
// impl/adv_api/detail/normalization/rmsnorm/rmsnorm_common_impl.h RmsNormImpl,
// RmsNormCompute and its helpers; rmsnorm_v220_impl.h RmsNormBasicBlockBrc):
// per tiling chunk of rows, in float: x², the row sums, times 1 / H, plus
// epsilon, exp(-0.5 ln(.)), x times that (per row), times gamma; half is
// widened first and narrowed last. The same Counter/Normal-mode basic ops and
// barriers, so every check sees each step.
#pragma once
#include <cstdint>
#include <type_traits>

#include "../kernel_sync.h"
#include "../kernel_tpipe.h"
#include "../kernel_vec_binary.h"
#include "../kernel_vec_cast.h"
#include "../kernel_vec_mask.h"
#include "../kernel_vec_reduce_repeat.h"
#include "../kernel_vec_scalar.h"
#include "../kernel_vec_unary.h"
#include "adv_check.h"
#include "normalization_tiling_data.h"

namespace AscendC {
namespace sim_adv {
namespace rms {

constexpr uint32_t blockH = 64, blockBs = 8, floatsPerBlock = 8;

// RepeatReduceSum<float, false> is the same vcadd on dav_c220 as WholeReduceSum
// with the mask left as set (its dstBlkStride is not passed on).
inline void repeat_reduce_sum(const LocalTensor<float>& dst, const LocalTensor<float>& src, int32_t srcRepStride) {
    WholeReduceSum<float, false>(dst, src, MASK_PLACEHOLDER, 1, DEFAULT_BLK_STRIDE, DEFAULT_BLK_STRIDE, srcRepStride);
}

// Row sums of bs rows of h (the first originalH of each): each row folded by
// 64-element partial sums in place until one remains, written to dst[i].
inline void reduce_generic(const LocalTensor<float>& dst, const LocalTensor<float>& src, uint32_t bs, uint32_t h,
                           uint32_t originalH) {
    for (uint32_t i = 0; i < bs; ++i) {
        const LocalTensor<float> row = src[i * h];
        LocalTensor<float> out = row;
        for (uint32_t n = originalH; n > 1; n = (n + 63) / 64) {
            if (n <= 64) out = dst[i];
            SetVectorMask<float>(0, n);
            repeat_reduce_sum(out, row, DEFAULT_REPEAT_STRIDE);
            PipeBarrier<PIPE_V>();
        }
    }
}

// Basic block: the row's 64-column blocks added into the first, then one sum a row.
inline void reduce_basic(const LocalTensor<float>& dst, const LocalTensor<float>& src, uint32_t bs, uint32_t h) {
    SetVectorMask<float>(0, bs * blockH);
    const uint8_t rep = uint8_t(h / floatsPerBlock);
    const BinaryRepeatParams b(1, 1, 1, rep, rep, rep);
    for (uint32_t i = 1; i < h / blockH; ++i) {
        Add<float, false>(src, src, src[i * blockH], MASK_PLACEHOLDER, 1, b);
        PipeBarrier<PIPE_V>();
    }
    repeat_reduce_sum(dst, src, rep);
    PipeBarrier<PIPE_V>();
}

// dst row i = src0 row i * src1[i], the factor read by the scalar unit.
inline void row_scale_generic(const LocalTensor<float>& dst, const LocalTensor<float>& src0,
                              const LocalTensor<float>& src1, uint32_t bsh, uint32_t bs, uint32_t h) {
    SetVectorMask<float>(0, h);
    const TEventID e = GetTPipePtr()->FetchEventID(HardEvent::V_S);
    SetFlag<HardEvent::V_S>(e);
    WaitFlag<HardEvent::V_S>(e);
    for (uint32_t i = 0; i < bs; ++i)
        Muls<float, false>(dst[i * h], src0[i * h], src1.GetValue(i), MASK_PLACEHOLDER, 1, UnaryRepeatParams{});
    PipeBarrier<PIPE_V>();
    SetVectorMask<float>(0, bsh);
}

// Basic block: Brcb spreads each row's factor over a block, Adds 0 copies that
// block across the row, then one Mul.
inline void row_scale_basic(const LocalTensor<float>& dst, const LocalTensor<float>& src0,
                            const LocalTensor<float>& src1, uint32_t bsh, uint32_t bs, uint32_t h) {
    if (!(bs > blockBs && bs > h / blockH)) return row_scale_generic(dst, src0, src1, bsh, bs, h);
    const uint16_t blk = uint16_t(h / floatsPerBlock);
    SetMaskNorm();
    ResetMask();
    Brcb(dst, src1, uint8_t(bs / blockBs), BrcbRepeatParams(blk, uint16_t(blk * blockBs)));
    PipeBarrier<PIPE_V>();
    SetMaskCount();
    SetVectorMask<float>(0, bs * blockH);
    for (uint32_t i = 0; i < h / blockH; ++i)
        Adds<float, false>(dst[i * blockH], dst, 0.0f, MASK_PLACEHOLDER, 1, UnaryRepeatParams(1, 0, blk, blk));
    PipeBarrier<PIPE_V>();
    SetVectorMask<float>(0, bsh);
    Mul<float, false>(dst, dst, src0, MASK_PLACEHOLDER, 1, BinaryRepeatParams{});
    PipeBarrier<PIPE_V>();
}

// dst row i = src0 row i * gamma (h elements), by rows or by 64-column strips.
inline void gamma_mul_impl(const LocalTensor<float>& dst, const LocalTensor<float>& src0,
                           const LocalTensor<float>& gamma, uint32_t bs, uint32_t h) {
    const uint32_t strips = h / blockH;
    if (strips >= bs) {
        SetVectorMask<float>(0, h);
        for (uint32_t i = 0; i < bs; ++i)
            Mul<float, false>(dst[i * h], src0[i * h], gamma, MASK_PLACEHOLDER, 1, BinaryRepeatParams{});
        return;
    }
    SetVectorMask<float>(0, bs * blockH);
    const uint8_t rep = uint8_t(h / floatsPerBlock);
    const BinaryRepeatParams b(1, 1, 1, rep, rep, 0);
    for (uint32_t i = 0; i < strips; ++i)
        Mul<float, false>(dst[i * blockH], src0[i * blockH], gamma[i * blockH], MASK_PLACEHOLDER, 1, b);
    if (h % blockH != 0) {
        const uint32_t off = strips * blockH;
        SetMaskNorm();
        SetVectorMask<float>(0, (1ull << (h - off)) - 1);
        Mul<float, false>(dst[off], src0[off], gamma[off], MASK_PLACEHOLDER, uint8_t(bs), b);
        SetMaskCount();
    }
}

template <bool isBasicBlock>
void gamma_mul(const LocalTensor<float>& dst, const LocalTensor<float>& src0, const LocalTensor<float>& gamma,
               uint32_t bs, uint32_t h) {
    if (isBasicBlock || h > blockH) {
        gamma_mul_impl(dst, src0, gamma, bs, h);
    } else if (h == blockH) {
        BinaryRepeatParams b;
        b.src1RepStride = 0;
        SetVectorMask<float>(0, bs * h);
        Mul<float, false>(dst, src0, gamma, MASK_PLACEHOLDER, 1, b);
    } else {
        SetMaskNorm();
        SetVectorMask<float>(0, (1ull << h) - 1);
        const uint8_t rep = uint8_t(h / floatsPerBlock);
        Mul<float, false>(dst, src0, gamma, MASK_PLACEHOLDER, uint8_t(bs), BinaryRepeatParams(1, 1, 1, rep, rep, 0));
        SetMaskCount();
    }
    PipeBarrier<PIPE_V>();
}

struct Bufs {
    LocalTensor<float> reduced, tmp, wide;
};

template <class T, bool isBasicBlock>
void compute(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& gamma, T epsilon,
             const RmsNormTiling& tiling, Bufs& b, uint32_t bs, uint32_t bsh) {
    UnaryRepeatParams u;
    SetVectorMask<T>(0, bsh);
    if constexpr (std::is_same_v<T, half>) {
        u.srcRepStride = DEFAULT_REPEAT_STRIDE / 2;
        Cast<float, half, false>(b.wide, src, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, u);
        PipeBarrier<PIPE_V>();
        u.srcRepStride = DEFAULT_REPEAT_STRIDE;
    } else {
        b.wide = src;
    }
    Mul<float, false>(b.tmp, b.wide, b.wide, MASK_PLACEHOLDER, 1, BinaryRepeatParams{});
    PipeBarrier<PIPE_V>();
    if constexpr (isBasicBlock) reduce_basic(b.reduced, b.tmp, bs, tiling.hLength);
    else reduce_generic(b.reduced, b.tmp, bs, tiling.hLength, tiling.originalHLength);
    SetVectorMask<T>(0, bs);
    Muls<float, false>(b.reduced, b.reduced, tiling.reciprocalOfHLength, MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Adds<float, false>(b.reduced, b.reduced, float(epsilon), MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    // 1 / sqrt(.) as exp(-0.5 ln(.)), the precise form dav_c220 uses.
    Ln<float, false>(b.reduced, b.reduced, MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Muls<float, false>(b.reduced, b.reduced, -0.5f, MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Exp<float, false>(b.reduced, b.reduced, MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    if constexpr (isBasicBlock) row_scale_basic(b.tmp, b.wide, b.reduced, bsh, bs, tiling.hLength);
    else row_scale_generic(b.tmp, b.wide, b.reduced, bsh, bs, tiling.hLength);
    PipeBarrier<PIPE_V>();
    if constexpr (std::is_same_v<T, half>) {
        u.srcRepStride = DEFAULT_REPEAT_STRIDE / 2;
        SetVectorMask<T>(0, tiling.hLength);
        Cast<float, half, false>(b.wide, gamma, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, u);
        PipeBarrier<PIPE_V>();
        gamma_mul<isBasicBlock>(b.tmp, b.tmp, b.wide, bs, tiling.hLength);
        u.srcRepStride = DEFAULT_REPEAT_STRIDE;
        u.dstRepStride = DEFAULT_REPEAT_STRIDE / 2;
        SetVectorMask<T>(0, bsh);
        Cast<half, float, false>(dst, b.tmp, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, u);
    } else {
        gamma_mul<isBasicBlock>(dst, b.tmp, gamma, bs, tiling.hLength);
    }
    PipeBarrier<PIPE_V>();
}

}  // namespace rms
}  // namespace sim_adv

template <typename T, bool isBasicBlock = false>
void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<T>& gammaLocal,
             const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon, const RmsNormTiling& tiling) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "RmsNorm: A2/A3 support half and float");
    constexpr const char* api = "RmsNorm";
    const uint32_t total = tiling.bLength * tiling.sLength * tiling.hLength;
    sim_adv::check_count(api, total, srcLocal, "srcLocal");
    sim_adv::check_count(api, total, dstLocal, "dstLocal");
    sim_adv::check_count(api, tiling.hLength, gammaLocal, "gammaLocal");
    // The slices GetRmsNormTilingInfo laid out for its stackBufferByteSize.
    const uint32_t need =
        (tiling.mainBsLengthAlign + tiling.mainBshLength * (sizeof(T) == 2 ? 2 : 1)) * uint32_t(sizeof(float));
    if (sharedTmpBuffer.GetSize() < need)
        ascend_sim::detail::fail(api, "sharedTmpBuffer below the tiling's",
                                 "sharedTmpBuffer holds %u B, less than the %u B the tiling's slices take "
                                 "(GetRmsNormTilingInfo's stackBufferByteSize)",
                                 sharedTmpBuffer.GetSize(), need);
    const uint32_t tmpBytes = sharedTmpBuffer.GetSize();
    sim_adv::check_disjoint(api, sharedTmpBuffer, tmpBytes, "sharedTmpBuffer", srcLocal, total, "srcLocal");
    sim_adv::check_disjoint(api, sharedTmpBuffer, tmpBytes, "sharedTmpBuffer", dstLocal, total, "dstLocal");
    const LocalTensor<float> tmp = sharedTmpBuffer.ReinterpretCast<float>();
    sim_adv::rms::Bufs b{tmp, tmp[tiling.mainBsLengthAlign], {}};
    if constexpr (sizeof(T) == 2) b.wide = tmp[tiling.mainBshLength + tiling.mainBsLengthAlign];
    SetMaskCount();
    for (uint32_t i = 0; i < tiling.loopRound; ++i) {
        const uint32_t off = i * tiling.mainBshLength;
        sim_adv::rms::compute<T, isBasicBlock>(dstLocal[off], srcLocal[off], gammaLocal, epsilon, tiling, b,
                                               tiling.mainBsLength, tiling.mainBshLength);
    }
    if (tiling.tailBsLength != 0)
        sim_adv::rms::compute<T, isBasicBlock>(dstLocal[tiling.inputTailPos], srcLocal[tiling.inputTailPos],
                                               gammaLocal, epsilon, tiling, b, tiling.tailBsLength,
                                               tiling.tailBshLength);
    SetMaskNorm();
    ResetMask();
}
template <typename T, bool isBasicBlock = false>
void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<T>& gammaLocal,
             const T epsilon, const RmsNormTiling& tiling) {
    RmsNorm<T, isBasicBlock>(dstLocal, srcLocal, gammaLocal, sim_adv::stack_tmp("RmsNorm"), epsilon, tiling);
}

}  // namespace AscendC

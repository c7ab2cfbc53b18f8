// AscendDequant (asc-devkit include/adv_api/quantization/ascend_dequant.h;
// dav_c220: impl/adv_api/detail/quantization/dequant/ascend_dequant_common_impl.h
// AscendDequantImpl, AscendDequantScalarImpl, AscendDequantTmpCalc,
// UpdateDequantParams, CalculateByInner, CastDeqscale, CastSrc, DequantMul,
// CastDst): int32_t rows of n (the first calCount of each scaled) widened to
// float in chunks of whole rows that fit the sharedTmpBuffer beside the float
// scales, multiplied by the scales, narrowed to dstT into rows padded to 32 B.
#pragma once
#include <cstdint>
#include <type_traits>

#include "../kernel_sync.h"
#include "../kernel_vec_binary.h"
#include "../kernel_vec_cast.h"
#include "../kernel_vec_gather_mask.h"
#include "../kernel_vec_mask.h"
#include "../kernel_vec_scalar.h"
#include "adv_check.h"

namespace AscendC {

// ascend_dequant_utils.h: m rows of n (a multiple of 8), calCount of each scaled.
struct DequantParams {
    uint32_t m;
    uint32_t n;
    uint32_t calCount;
};
// kernel_utils_mode.h: with one row, whether it may be split into rows of calCount.
enum class DeQuantMode : uint8_t { DEQUANT_WITH_SINGLE_ROW = 0, DEQUANT_WITH_MULTI_ROW };

namespace sim_adv {
namespace dq {

constexpr uint32_t floatsPerBlock = 8, floatsPerRepeat = 64;

// IsTemplateValid for A2/A3: the (dstT, scaleT) pairs of a scale tensor or scalar.
template <class D, class S, bool isTensor>
constexpr bool pair_ok() {
    constexpr bool common = (std::is_same_v<S, float> || std::is_same_v<S, bfloat16_t>) &&
                            (std::is_same_v<D, float> || std::is_same_v<D, bfloat16_t>);
    return common || (isTensor && std::is_same_v<S, uint64_t> && std::is_same_v<D, half>);
}

struct Tmp {
    LocalTensor<float> scale, src;
    uint32_t size = 0;  // floats of src a chunk holds: whole rows
};

// AscendDequantTmpCalc: the block-aligned float scales, then whole rows of src.
inline Tmp split_tmp(const char* api, const LocalTensor<uint8_t>& tmpBuf, const DequantParams& p, uint32_t scaleCount) {
    const LocalTensor<float> stack = tmpBuf.ReinterpretCast<float>();
    const uint32_t scaleFloats = (scaleCount + floatsPerBlock - 1) / floatsPerBlock * floatsPerBlock;
    uint32_t rows = stack.GetSize() > scaleFloats ? (stack.GetSize() - scaleFloats) / p.n * p.n : 0;
    if (rows == 0)
        ascend_sim::detail::fail(api, "sharedTmpBuffer below one row",
                                 "sharedTmpBuffer holds %u B, too little for the %u float scales and one row of %u",
                                 tmpBuf.GetSize(), scaleFloats, p.n);
    if (rows > p.m * p.n) rows = p.m * p.n;
    return {stack, stack[scaleFloats], rows};
}

// CastDeqscale: the scales as float into tmp (uint64_t: the low words, by GatherMask).
template <class S>
void scales_to_float(const LocalTensor<S>& scale, const LocalTensor<float>& dst, uint32_t n) {
    UnaryRepeatParams u;
    u.srcRepStride = std::is_same_v<S, float> ? DEFAULT_REPEAT_STRIDE : DEFAULT_REPEAT_STRIDE / 2;
    if constexpr (std::is_same_v<S, float>) {
        SetVectorMask<float, MaskMode::COUNTER>(0, n);
        Adds<float, false>(dst, scale, 0.0f, MASK_PLACEHOLDER, 1, u);
        PipeBarrier<PIPE_V>();
    } else if constexpr (std::is_same_v<S, uint64_t>) {
        GatherMaskParams g;
        g.repeatTimes = 1;
        uint64_t kept = 0;
        constexpr uint8_t evenElements = 1;
        GatherMask<float>(dst, scale.template ReinterpretCast<float>(), evenElements, true, n * 2, g, kept);
        PipeBarrier<PIPE_V>();
        SetMaskCount();
    } else {
        SetVectorMask<float, MaskMode::COUNTER>(0, n);
        Cast<float, S, false>(dst, scale, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, u);
        PipeBarrier<PIPE_V>();
    }
}

inline void src_to_float(const LocalTensor<int32_t>& src, const LocalTensor<float>& dst, uint32_t n) {
    SetVectorMask<float, MaskMode::COUNTER>(0, n);
    Cast<float, int32_t, false>(dst, src, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, UnaryRepeatParams{});
    PipeBarrier<PIPE_V>();
}

// DequantMul: k rows times the scales, by 64-column strips (a Normal-mode
// tail strip), or row by row when a row is longer than 255 blocks.
inline void scale_rows(const LocalTensor<float>& x, const LocalTensor<float>& scale, const DequantParams& p,
                       uint32_t k) {
    if (k == 0) return;
    if (p.n > 255 * floatsPerBlock) {
        SetVectorMask<float, MaskMode::COUNTER>(0, p.calCount);
        for (uint32_t i = 0; i < k; ++i)
            Mul<float, false>(x[i * p.n], x[i * p.n], scale, MASK_PLACEHOLDER, 1, BinaryRepeatParams{});
        PipeBarrier<PIPE_V>();
        return;
    }
    const uint8_t rep = uint8_t(p.n / floatsPerBlock);
    const BinaryRepeatParams b(1, 1, 1, rep, rep, 0);
    const uint32_t strips = p.calCount / floatsPerRepeat, tail = p.calCount % floatsPerRepeat;
    SetVectorMask<float, MaskMode::COUNTER>(0, floatsPerRepeat * k);
    for (uint32_t i = 0; i < strips; ++i)
        Mul<float, false>(x[i * floatsPerRepeat], x[i * floatsPerRepeat], scale[i * floatsPerRepeat],
                          MASK_PLACEHOLDER, 1, b);
    PipeBarrier<PIPE_V>();
    if (tail == 0) return;
    SetMaskNorm();
    SetVectorMask<float, MaskMode::NORMAL>(0, (uint64_t(1) << tail) - 1);
    const uint32_t base = strips * floatsPerRepeat;
    for (uint32_t done = 0; done < k; done += 255) {
        const uint32_t reps = k - done < 255 ? k - done : 255;
        Mul<float, false>(x[base + done * p.n], x[base + done * p.n], scale[base], MASK_PLACEHOLDER, uint8_t(reps),
                          b);
        PipeBarrier<PIPE_V>();
    }
}

// CastDst: float rows of srcInner into dstT rows of dstInner (bfloat16_t rounds RINT).
template <class D>
void rows_to_dst(const LocalTensor<D>& dst, const LocalTensor<float>& x, uint32_t srcInner, uint32_t dstInner,
                 uint32_t n) {
    UnaryRepeatParams u;
    if constexpr (std::is_same_v<D, float>) {
        SetVectorMask<float, MaskMode::COUNTER>(0, n);
        Adds<float, false>(dst, x, 0.0f, MASK_PLACEHOLDER, 1, u);
        PipeBarrier<PIPE_V>();
        return;
    } else {
        u.dstRepStride = DEFAULT_REPEAT_STRIDE / 2;
        constexpr RoundMode mode = std::is_same_v<D, bfloat16_t> ? RoundMode::CAST_RINT : RoundMode::CAST_NONE;
        if (srcInner == dstInner) {
            SetVectorMask<float, MaskMode::COUNTER>(0, n);
            Cast<D, float, false>(dst, x, mode, MASK_PLACEHOLDER, 1, u);
            PipeBarrier<PIPE_V>();
            return;
        }
        SetVectorMask<float, MaskMode::COUNTER>(0, srcInner);
        for (uint32_t i = 0; i < n / srcInner; ++i)
            Cast<D, float, false>(dst[i * dstInner], x[i * srcInner], mode, MASK_PLACEHOLDER, 1, u);
        PipeBarrier<PIPE_V>();
        if (n % srcInner != 0) {
            SetVectorMask<float, MaskMode::COUNTER>(0, n % srcInner);
            Cast<D, float, false>(dst[n / srcInner * dstInner], x[n / srcInner * srcInner], mode, MASK_PLACEHOLDER,
                                  1, u);
            PipeBarrier<PIPE_V>();
        }
    }
}

// CalculateByInner over count src elements; a partial last row (only when
// count came from the call) is scaled over its own length.
template <class D, class S, bool wholeRows>
void by_rows(const LocalTensor<D>& dst, const LocalTensor<int32_t>& src, const LocalTensor<S>& scale,
             const DequantParams& p, const Tmp& t, uint32_t count) {
    constexpr uint32_t perBlock = ONE_BLK_SIZE / sizeof(D);
    const uint32_t dstInner = (p.n + perBlock - 1) / perBlock * perBlock;
    scales_to_float(scale, t.scale, p.calCount);
    const uint32_t dstStep = p.n == dstInner ? t.size : t.size / p.n * dstInner;
    for (uint32_t i = 0; i < count / t.size; ++i) {
        SetMaskCount();
        src_to_float(src[i * t.size], t.src, t.size);
        scale_rows(t.src, t.scale, p, t.size / p.n);
        SetMaskCount();
        rows_to_dst(dst[i * dstStep], t.src, p.n, dstInner, t.size);
    }
    const uint32_t tail = count % t.size;
    if (tail == 0) return;
    src_to_float(src[count - tail], t.src, tail);
    scale_rows(t.src, t.scale, p, tail / p.n);
    if constexpr (!wholeRows) {
        if (tail % p.n != 0) {
            SetMaskCount();
            SetVectorMask<float, MaskMode::COUNTER>(0, tail % p.n);
            const uint32_t at = tail - tail % p.n;
            Mul<float, false>(t.src[at], t.src[at], t.scale, MASK_PLACEHOLDER, 1, BinaryRepeatParams{});
            PipeBarrier<PIPE_V>();
        }
    }
    SetMaskCount();
    rows_to_dst(dst[p.n == dstInner ? count - tail : (count - tail) / p.n * dstInner], t.src, p.n, dstInner, tail);
}

// The dequant_check_common.h checks of DequantParams.
template <class D>
void check_params(const char* api, const LocalTensor<D>& dst, const LocalTensor<int32_t>& src, const DequantParams& p,
                  uint32_t scaleSize) {
    namespace d = ascend_sim::detail;
    if (p.n % floatsPerBlock != 0) d::fail(api, "n not a multiple of 8", "params.n %u must be divisible by 8", p.n);
    if (uint64_t(p.m) * p.n > src.GetSize())
        d::fail(api, "m x n beyond srcTensor", "params.m %u x params.n %u is larger than srcTensor's %u elements",
                p.m, p.n, src.GetSize());
    if (p.calCount == 0 || p.calCount > p.n)
        d::fail(api, "calCount out of range", "params.calCount %u is not in (0, params.n %u]", p.calCount, p.n);
    constexpr uint32_t perBlock = ONE_BLK_SIZE / sizeof(D);
    const uint64_t need = uint64_t(p.m) * ((p.n + perBlock - 1) / perBlock * perBlock);
    if (need > dst.GetSize())
        d::fail(api, "dstTensor too small", "dstTensor holds %u elements, fewer than the %llu of m padded rows",
                dst.GetSize(), (unsigned long long)need);
    if (p.calCount > scaleSize)
        d::fail(api, "calCount beyond deqScale", "params.calCount %u is larger than deqScale's %u elements",
                p.calCount, scaleSize);
}

// UpdateDequantParams: one row whose calCount divides it splits into rows of calCount.
template <class D, DeQuantMode mode>
void split_single_row(DequantParams& p) {
    constexpr uint32_t perBlock = ONE_BLK_SIZE / sizeof(D);
    if (mode == DeQuantMode::DEQUANT_WITH_SINGLE_ROW && p.m == 1 && p.calCount % perBlock == 0 &&
        p.n % p.calCount == 0) {
        p.m = p.n / p.calCount;
        p.n = p.calCount;
    }
}

template <class D, class S, bool wholeRows, DeQuantMode mode>
void tensor_form(const LocalTensor<D>& dst, const LocalTensor<int32_t>& src, const LocalTensor<S>& scale,
                 const LocalTensor<uint8_t>& tmp, DequantParams p, uint32_t count) {
    static_assert(pair_ok<D, S, true>(),
                  "AscendDequant: A2/A3 take (dstT, scaleT) = (half, uint64_t), (float, float), (float, bfloat16_t), "
                  "(bfloat16_t, bfloat16_t) or (bfloat16_t, float) with a scale tensor");
    constexpr const char* api = "AscendDequant";
    check_params(api, dst, src, p, scale.GetSize());
    split_single_row<D, mode>(p);
    const Tmp t = split_tmp(api, tmp, p, p.calCount);
    constexpr uint32_t perBlock = ONE_BLK_SIZE / sizeof(D);
    check_disjoint(api, tmp, tmp.GetSize(), "sharedTmpBuffer", src, count, "srcTensor");
    check_disjoint(api, tmp, tmp.GetSize(), "sharedTmpBuffer", dst, p.m * ((p.n + perBlock - 1) / perBlock * perBlock),
                   "dstTensor");
    SetMaskCount();
    by_rows<D, S, wholeRows>(dst, src, scale, p, t, count);
    SetMaskNorm();
    ResetMask();
}

// The forms without DequantParams: rows of deqScale's size.
template <class S>
DequantParams rows_of_scale(const LocalTensor<int32_t>& src, const LocalTensor<S>& scale, uint32_t count) {
    constexpr const char* api = "AscendDequant";
    namespace d = ascend_sim::detail;
    if (count == 0 || count > src.GetSize())
        d::fail(api, "calCount out of range", "calCount %u is not in (0, srcTensor's size %u]", count, src.GetSize());
    if (scale.GetSize() == 0 || src.GetSize() % scale.GetSize() != 0)
        d::fail(api, "src not whole rows of deqScale",
                "srcTensor's size %u is not a multiple of deqScale's size %u", src.GetSize(), scale.GetSize());
    if (std::is_same_v<S, uint64_t> && scale.GetSize() % 8 != 0)
        d::fail(api, "uint64_t deqScale not a multiple of 8",
                "a uint64_t deqScale's size %u must be a multiple of 8", scale.GetSize());
    return {src.GetSize() / scale.GetSize(), scale.GetSize(), scale.GetSize()};
}

}  // namespace dq
}  // namespace sim_adv

template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                   const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                   DequantParams params) {
    sim_adv::dq::tensor_form<dstT, scaleT, true, mode>(dstTensor, srcTensor, deqScale, sharedTmpBuffer, params,
                                                       params.m * params.n);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                   const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                   const uint32_t calCount) {
    const DequantParams p = sim_adv::dq::rows_of_scale(srcTensor, deqScale, calCount);
    sim_adv::dq::tensor_form<dstT, scaleT, false, mode>(dstTensor, srcTensor, deqScale, sharedTmpBuffer, p, calCount);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                   const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer) {
    AscendDequant<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, sharedTmpBuffer, srcTensor.GetSize());
}

// A scalar scale: Duplicate into tmp, then the tensor path on whole rows.
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor, const scaleT deqScale,
                   const LocalTensor<uint8_t>& sharedTmpBuffer, DequantParams params) {
    static_assert(sim_adv::dq::pair_ok<dstT, scaleT, false>(),
                  "AscendDequant: A2/A3 take (dstT, scaleT) = (float, float), (float, bfloat16_t), "
                  "(bfloat16_t, bfloat16_t) or (bfloat16_t, float) with a scalar scale");
    constexpr const char* api = "AscendDequant";
    sim_adv::dq::check_params(api, dstTensor, srcTensor, params, params.calCount);
    sim_adv::dq::split_single_row<dstT, mode>(params);
    const uint32_t count = params.m * params.n;
    SetMaskCount();
    const sim_adv::dq::Tmp t = sim_adv::dq::split_tmp(api, sharedTmpBuffer, params, params.calCount);
    sim_adv::check_disjoint(api, sharedTmpBuffer, sharedTmpBuffer.GetSize(), "sharedTmpBuffer", srcTensor, count,
                            "srcTensor");
    Duplicate<float>(t.scale, float(deqScale), int32_t(params.calCount));
    PipeBarrier<PIPE_V>();
    SetMaskCount();
    sim_adv::dq::by_rows<dstT, float, true>(dstTensor, srcTensor, t.scale, params, t, count);
    SetMaskNorm();
    ResetMask();
}

// The forms without sharedTmpBuffer.
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                   const LocalTensor<scaleT>& deqScale, DequantParams params) {
    AscendDequant<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, sim_adv::stack_tmp("AscendDequant"), params);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor, const scaleT deqScale,
                   DequantParams params) {
    AscendDequant<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, sim_adv::stack_tmp("AscendDequant"), params);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                   const LocalTensor<scaleT>& deqScale, const uint32_t calCount) {
    AscendDequant<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, sim_adv::stack_tmp("AscendDequant"),
                                      calCount);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                   const LocalTensor<scaleT>& deqScale) {
    AscendDequant<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, sim_adv::stack_tmp("AscendDequant"));
}

}  // namespace AscendC

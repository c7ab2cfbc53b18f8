// AscendQuant with a scale tensor (per channel) and a scalar or tensor offset
// (asc-devkit include/adv_api/quantization/ascend_quant.h; dav_c220:
// impl/adv_api/detail/quantization/quant/ascend_quant_pre_impl.h AscendQuantCalc,
// AscendQuantImplStatic, AscendQuantPerChannelImpl,
// AscendQuantPerChannelIntrinsicsImpl; ascend_quant_common_impl.h
// IsQuantParamValid; IsQuantConfigValid): each group of scaleCount elements
// goes in tmp-sized Counter-mode chunks through [Cast to half,] Mul by the
// scales, Add(s) the offset, Cast to int8_t. float scales and offsets are
// first narrowed to half in place, in their own tensors, as dav_c220 does.
#pragma once
#include <cstdint>
#include <type_traits>

#include "quant.h"

namespace AscendC {
namespace sim_adv {
namespace qc {

inline void add_offset(const LocalTensor<half>& x, half offset) {
    Adds<half, false>(x, x, offset, MASK_PLACEHOLDER, 1, UnaryRepeatParams{});
}
inline void add_offset(const LocalTensor<half>& x, const LocalTensor<half>& offset) {
    Add<half, false>(x, x, offset, MASK_PLACEHOLDER, 1, BinaryRepeatParams{});
}
inline half offset_at(half offset, uint32_t) { return offset; }
inline LocalTensor<half> offset_at(const LocalTensor<half>& offset, uint32_t i) { return offset[i]; }

template <class T, class Off>
void chunk(const LocalTensor<int8_t>& dst, const LocalTensor<T>& src, const LocalTensor<half>& stack,
           const LocalTensor<half>& scale, const Off& offset) {
    Mul<half, false>(stack, quant_input(src, stack), scale, MASK_PLACEHOLDER, 1, BinaryRepeatParams{});
    PipeBarrier<PIPE_V>();
    add_offset(stack, offset);
    PipeBarrier<PIPE_V>();
    quant_output(dst, stack);
}

// AscendQuantPerChannelImpl: one group in chunks of tmp (or config.workLocalSize) halves.
template <class T, const AscendQuantConfig& config, class Off>
void group(const LocalTensor<int8_t>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp,
           const LocalTensor<half>& scale, const Off& offset, uint32_t count) {
    constexpr bool fixed = config.workLocalSize != 0 && config.scaleCount != 0;
    const uint32_t split = (fixed ? config.workLocalSize : tmp.GetSize()) / sizeof(half) / ONE_BLK_SIZE * ONE_BLK_SIZE;
    const uint32_t n = fixed ? config.scaleCount : count;
    const LocalTensor<half> stack = tmp.ReinterpretCast<half>();
    SetVectorMask<T, MaskMode::COUNTER>(0, split);
    for (uint32_t i = 0; i < n / split; ++i)
        chunk(dst[i * split], src[i * split], stack, scale[i * split], offset_at(offset, i * split));
    if (n % split > 0) {
        const uint32_t at = n / split * split;
        SetVectorMask<T, MaskMode::COUNTER>(0, n % split);
        chunk(dst[at], src[at], stack, scale[at], offset_at(offset, at));
    }
}

// IsQuantParamValid and IsQuantConfigValid.
template <class T, const AscendQuantConfig& config>
void check(const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp, const LocalTensor<T>& scale,
           const LocalTensor<T>* offset, uint32_t scaleCount, uint32_t offsetCount, uint32_t calCount) {
    constexpr const char* api = "AscendQuant";
    namespace d = ascend_sim::detail;
    check_count(api, calCount, src, "srcTensor");
    check_count(api, scaleCount, scale, "scaleTensor");
    if (offset) check_count(api, offsetCount, *offset, "offsetTensor");
    if (scaleCount == 0 || (offset && scaleCount != offsetCount))
        d::fail(api, "scaleCount zero or unlike offsetCount", "scaleCount %u must be above 0%s (offsetCount %u)",
                scaleCount, offset ? " and equal offsetCount" : "", offsetCount);
    if (calCount == 0 || calCount % scaleCount != 0)
        d::fail(api, "calCount not whole groups", "calCount %u must be a non-zero multiple of scaleCount %u",
                calCount, scaleCount);
    if (config.calcCount > src.GetSize() || config.scaleCount > scale.GetSize() ||
        (offset && config.offsetCount > offset->GetSize()) || config.workLocalSize > tmp.GetSize())
        d::fail(api, "config beyond the tensors",
                "config {calcCount %u, offsetCount %u, scaleCount %u, workLocalSize %u} exceeds the tensors' sizes",
                config.calcCount, config.offsetCount, config.scaleCount, config.workLocalSize);
    if ((config.scaleCount != 0 && config.calcCount % config.scaleCount != 0) || config.scaleCount % 32 != 0 ||
        (offset && config.scaleCount != config.offsetCount))
        d::fail(api, "config counts inconsistent",
                "config.calcCount %u must be a multiple of config.scaleCount %u, itself a multiple of 32%s",
                config.calcCount, config.scaleCount, offset ? " and equal to config.offsetCount" : "");
    check_tmp(api, tmp, 2 * 256, "GetAscendQuantMaxMinTmpSize");
}

// The narrowed float scales (and offsets) in place; after the scales alone a
// barrier, after the pair none, as on dav_c220.
template <class T>
LocalTensor<half> narrow_in_place(const LocalTensor<T>& t) {
    UnaryRepeatParams narrow;
    narrow.dstRepStride = DEFAULT_REPEAT_STRIDE / 2;
    const LocalTensor<half> h = t.template ReinterpretCast<half>();
    Cast<half, float, false>(h, t, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, narrow);
    return h;
}

template <class T, const AscendQuantConfig& config, class OffT>
void calc(const LocalTensor<int8_t>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp,
          const LocalTensor<T>& scale, const OffT& offset, uint32_t scaleCount, uint32_t calCount) {
    constexpr bool offsetTensor = !std::is_same_v<OffT, T>;
    constexpr bool fixed = config.scaleCount != 0 && config.calcCount != 0;
    const uint32_t sc = fixed ? config.scaleCount : scaleCount;
    const uint32_t groups = fixed ? config.calcCount / config.scaleCount : calCount / scaleCount;
    SetMaskCount();
    LocalTensor<half> scaleH;
    if constexpr (std::is_same_v<T, float>) {
        SetVectorMask<half, MaskMode::COUNTER>(0, sc);
        scaleH = narrow_in_place(scale);
        if constexpr (!offsetTensor) PipeBarrier<PIPE_V>();
    } else {
        scaleH = scale;
    }
    auto offsetH = [&] {
        if constexpr (!offsetTensor) return half(offset);
        else if constexpr (std::is_same_v<T, float>) return narrow_in_place(offset);
        else return LocalTensor<half>(offset);
    }();
    for (uint32_t i = 0; i < groups; ++i)
        group<T, config>(dst[i * sc], src[i * sc], tmp, scaleH, offsetH, sc);
    SetMaskNorm();
    ResetMask();
}

template <class T>
void check_dtype() {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "AscendQuant: A2/A3 support half and float");
}

}  // namespace qc
}  // namespace sim_adv

template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor, const T offset,
                 const uint32_t scaleCount, const uint32_t calCount) {
    sim_adv::qc::check_dtype<T>();
    sim_adv::qc::check<T, config>(srcTensor, sharedTmpBuffer, scaleTensor, nullptr, scaleCount, 0, calCount);
    sim_adv::qc::calc<T, config>(dstTensor, srcTensor, sharedTmpBuffer, scaleTensor, offset, scaleCount, calCount);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor, const T offset) {
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, sharedTmpBuffer, scaleTensor, offset,
                                          scaleTensor.GetSize(), srcTensor.GetSize());
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                 const LocalTensor<T>& offsetTensor, const uint32_t scaleCount, const uint32_t offsetCount,
                 const uint32_t calCount) {
    sim_adv::qc::check_dtype<T>();
    sim_adv::qc::check<T, config>(srcTensor, sharedTmpBuffer, scaleTensor, &offsetTensor, scaleCount, offsetCount,
                                  calCount);
    sim_adv::qc::calc<T, config>(dstTensor, srcTensor, sharedTmpBuffer, scaleTensor, offsetTensor, scaleCount,
                                 calCount);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                 const LocalTensor<T>& offsetTensor) {
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, sharedTmpBuffer, scaleTensor, offsetTensor,
                                          scaleTensor.GetSize(), offsetTensor.GetSize(), srcTensor.GetSize());
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<T>& scaleTensor, const T offset, const uint32_t scaleCount,
                 const uint32_t calCount) {
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, sim_adv::stack_tmp("AscendQuant"), scaleTensor,
                                          offset, scaleCount, calCount);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<T>& scaleTensor, const T offset) {
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, sim_adv::stack_tmp("AscendQuant"), scaleTensor,
                                          offset);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor, const uint32_t scaleCount,
                 const uint32_t offsetCount, const uint32_t calCount) {
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, sim_adv::stack_tmp("AscendQuant"), scaleTensor,
                                          offsetTensor, scaleCount, offsetCount, calCount);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor) {
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, sim_adv::stack_tmp("AscendQuant"), scaleTensor,
                                          offsetTensor);
}

}  // namespace AscendC

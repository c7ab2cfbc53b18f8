// AscendQuant with a scalar scale and offset (asc-devkit include/adv_api/
// quantization/ascend_quant.h; dav_c220: impl/adv_api/detail/quantization/quant/
// ascend_quant_v220_impl.h AscendQuantImpl -> ascend_quant_pre_impl.h
// AscendQuantCalc, AscendQuantIntrinsicsImpl): in Counter mode, chunks of the
// sharedTmpBuffer's size (in halves, whole 32-element runs) go through
// [Cast to half,] Muls, Adds, Cast to int8_t, with a barrier after each step.
#pragma once
#include <cstdint>
#include <type_traits>

#include "../kernel_sync.h"
#include "../kernel_vec_cast.h"
#include "../kernel_vec_mask.h"
#include "../kernel_vec_scalar.h"
#include "adv_check.h"

namespace AscendC {

// ascend_quant_utils.h: a compile-time count, scale/offset counts and scratch
// size; all 0 means the call's own arguments decide.
struct AscendQuantConfig {
    constexpr AscendQuantConfig(const uint32_t calcCount, const uint32_t offsetCount, const uint32_t scaleCount,
                                const uint32_t workLocalSize)
        : calcCount(calcCount), offsetCount(offsetCount), scaleCount(scaleCount), workLocalSize(workLocalSize) {}
    uint32_t calcCount = 0;
    uint32_t offsetCount = 0;
    uint32_t scaleCount = 0;
    uint32_t workLocalSize = 0;
};
constexpr AscendQuantConfig ASCEND_QUANT_DEFAULT_CFG = {0, 0, 0, 0};

namespace sim_adv {

// A chunk's input as half: float is cast into the stack first.
template <class T>
LocalTensor<half> quant_input(const LocalTensor<T>& src, const LocalTensor<half>& stack) {
    if constexpr (std::is_same_v<T, float>) {
        UnaryRepeatParams narrow;
        narrow.dstRepStride = DEFAULT_REPEAT_STRIDE / 2;
        Cast<half, float, false>(stack, src, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, narrow);
        PipeBarrier<PIPE_V>();
        return stack;
    } else {
        return src;
    }
}

// The scaled and offset half chunk to int8_t (CAST_NONE).
inline void quant_output(const LocalTensor<int8_t>& dst, const LocalTensor<half>& stack) {
    UnaryRepeatParams narrow;
    narrow.dstRepStride = DEFAULT_REPEAT_STRIDE / 2;
    Cast<int8_t, half, false>(dst, stack, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, narrow);
    PipeBarrier<PIPE_V>();
}

// One chunk: x * scale + offset in half, then to int8_t.
template <class T>
void quant_chunk(const LocalTensor<int8_t>& dst, const LocalTensor<T>& src, const LocalTensor<half>& stack,
                 half scale, half offset) {
    const UnaryRepeatParams u;
    Muls<half, false>(stack, quant_input(src, stack), scale, MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Adds<half, false>(stack, stack, offset, MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    quant_output(dst, stack);
}

}  // namespace sim_adv

template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale, const float offset,
                 const uint32_t calCount) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "AscendQuant: A2/A3 support half and float");
    constexpr const char* api = "AscendQuant";
    namespace d = ascend_sim::detail;
    sim_adv::check_count(api, calCount, srcTensor, "srcTensor");
    if (config.calcCount > srcTensor.GetSize())
        d::fail(api, "config.calcCount beyond tensor", "config.calcCount %u is larger than srcTensor's size %u",
                config.calcCount, srcTensor.GetSize());
    if (config.workLocalSize > sharedTmpBuffer.GetSize())
        d::fail(api, "config.workLocalSize beyond sharedTmpBuffer",
                "config.workLocalSize %u is larger than sharedTmpBuffer's size %u", config.workLocalSize,
                sharedTmpBuffer.GetSize());
    // A config with both set fixes the count and the chunk at compile time.
    constexpr bool fixed = config.workLocalSize != 0 && config.calcCount != 0;
    const uint32_t count = fixed ? config.calcCount : calCount;
    sim_adv::check_count(api, count, dstTensor, "dstTensor");
    const uint32_t tmpBytes = sharedTmpBuffer.GetSize();
    sim_adv::check_tmp(api, sharedTmpBuffer, 2 * 256, "GetAscendQuantMaxMinTmpSize");
    sim_adv::check_disjoint(api, sharedTmpBuffer, tmpBytes, "sharedTmpBuffer", srcTensor, count, "srcTensor");
    sim_adv::check_disjoint(api, sharedTmpBuffer, tmpBytes, "sharedTmpBuffer", dstTensor, count, "dstTensor");
    const uint32_t split = (fixed ? config.workLocalSize : tmpBytes) / sizeof(half) / ONE_BLK_SIZE * ONE_BLK_SIZE;
    const LocalTensor<half> stack = sharedTmpBuffer.ReinterpretCast<half>();
    SetMaskCount();
    SetVectorMask<T, MaskMode::COUNTER>(0, split);
    for (uint32_t i = 0; i < count / split; ++i)
        sim_adv::quant_chunk(dstTensor[i * split], srcTensor[i * split], stack, half(scale), half(offset));
    if (count % split > 0) {
        SetVectorMask<T, MaskMode::COUNTER>(0, count % split);
        const uint32_t off = count / split * split;
        sim_adv::quant_chunk(dstTensor[off], srcTensor[off], stack, half(scale), half(offset));
    }
    SetMaskNorm();
    ResetMask();
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale, const float offset) {
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, sharedTmpBuffer, scale, offset, srcTensor.GetSize());
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor, const float scale,
                 const float offset, const uint32_t calCount) {
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, sim_adv::stack_tmp("AscendQuant"), scale, offset,
                                          calCount);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor, const float scale,
                 const float offset) {
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, sim_adv::stack_tmp("AscendQuant"), scale, offset,
                                          srcTensor.GetSize());
}

}  // namespace AscendC

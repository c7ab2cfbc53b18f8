// Tanh (asc-devkit include/adv_api/math/tanh.h; dav_c220: impl/adv_api/detail/
// math/tanh/tanh_common_impl.h :: TanhImpl, TanhFormulasTmpCalc, TanhCompute,
// TanhFormulaImpl): x clipped to [-8.8, 8.8], then (e^2x - 1) / (e^2x + 1), in
// Counter-mode chunks of the tmp's floats rounded down to 32 (half: two float
// slices, the widened source and the clip, so half the floats a chunk).
#pragma once
#include <cstdint>
#include <type_traits>

#include "../kernel_sync.h"
#include "../kernel_vec_binary.h"
#include "../kernel_vec_cast.h"
#include "../kernel_vec_scalar.h"
#include "../kernel_vec_unary.h"
#include "math_common.h"

namespace AscendC {
namespace sim_adv {

// TanhFormulaImpl: dst = tanh(src) over the chunk, clip in tmp.
inline void tanh_formula(const LocalTensor<float>& dst, const LocalTensor<float>& src, const LocalTensor<float>& clip) {
    const UnaryRepeatParams u;
    const BinaryRepeatParams b;
    Mins<float, false>(clip, src, 8.8f, MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Maxs<float, false>(clip, clip, -8.8f, MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Muls<float, false>(clip, clip, 2.0f, MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Exp<float, false>(clip, clip, MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Adds<float, false>(dst, clip, -1.0f, MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Adds<float, false>(clip, clip, 1.0f, MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Div<float, false>(dst, dst, clip, MASK_PLACEHOLDER, 1, b);
    PipeBarrier<PIPE_V>();
}

inline void tanh_chunk(const LocalTensor<float>& dst, const LocalTensor<float>& src, const LocalTensor<float>& tmp,
                       uint32_t) {
    tanh_formula(dst, src, tmp);
}
inline void tanh_chunk(const LocalTensor<half>& dst, const LocalTensor<half>& src, const LocalTensor<float>& tmp,
                       uint32_t split) {
    const LocalTensor<float> conv = tmp, clip = tmp[split];
    Cast<float, half, false>(conv, src, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1,
                             {1, 1, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE / 2});
    PipeBarrier<PIPE_V>();
    tanh_formula(conv, conv, clip);
    Cast<half, float, false>(dst, conv, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1,
                             {1, 1, DEFAULT_REPEAT_STRIDE / 2, DEFAULT_REPEAT_STRIDE});
    PipeBarrier<PIPE_V>();
}

}  // namespace sim_adv

// TanhCompute has a float and a half body only: other types do not compile there either.
template <typename T, bool isReuseSource = false>
void Tanh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "Tanh: A2/A3 support half and float");
    constexpr const char* api = "Tanh";
    sim_adv::math_checks(api, dstTensor, srcTensor, sharedTmpBuffer, calCount);
    const uint32_t split = sharedTmpBuffer.GetSize() / sizeof(float) / (sizeof(T) == 2 ? 2 : 1) / ONE_BLK_SIZE *
                           ONE_BLK_SIZE;
    if (split == 0)  // CheckTmpBufferSize(stackSize, 0, ...)
        sim_adv::d::fail(api, "sharedTmpBuffer below the minimum",
                         "sharedTmpBuffer holds %u B, too little for %s of 32 floats", sharedTmpBuffer.GetSize(),
                         sizeof(T) == 2 ? "two slices" : "a slice");
    const LocalTensor<float> tmp = sharedTmpBuffer.ReinterpretCast<float>();
    sim_adv::counter_chunks<T>(calCount, split,
                               [&](uint32_t at) { sim_adv::tanh_chunk(dstTensor[at], srcTensor[at], tmp, split); });
}
template <typename T, bool isReuseSource = false>
void Tanh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer) {
    Tanh<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize());
}
template <typename T, bool isReuseSource = false>
void Tanh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount) {
    Tanh<T, isReuseSource>(dstTensor, srcTensor, sim_adv::stack_tmp("Tanh"), calCount);
}
template <typename T, bool isReuseSource = false>
void Tanh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {
    Tanh<T, isReuseSource>(dstTensor, srcTensor, sim_adv::stack_tmp("Tanh"), srcTensor.GetSize());
}

}  // namespace AscendC

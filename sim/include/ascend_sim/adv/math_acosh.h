// Acosh (asc-devkit include/adv_api/math/acosh.h; dav_c220: impl/adv_api/
// detail/math/acosh/acosh_common_impl.h :: AcoshImpl, AcoshCompute):
// ln(x + sqrt(x^2 - 1)) in Counter-mode chunks of the tmp's floats (half: two
// float slices, widened and narrowed), rounded down to 32; the tail's slice
// offset rounded up to 32. The float path divides t by itself and multiplies
// back before the Ln, as dav_c220 does (a NaN where t is 0 or infinite).
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

inline void acosh_chunk(const LocalTensor<float>& dst, const LocalTensor<float>& src, const LocalTensor<float>& tmp,
                        uint32_t) {
    const UnaryRepeatParams u;
    const BinaryRepeatParams b;
    Mul<float, false>(tmp, src, src, MASK_PLACEHOLDER, 1, b);
    PipeBarrier<PIPE_V>();
    Adds<float, false>(tmp, tmp, -1.0f, MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Sqrt<float, false>(tmp, tmp, MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Add<float, false>(tmp, src, tmp, MASK_PLACEHOLDER, 1, b);
    PipeBarrier<PIPE_V>();
    Div<float, false>(dst, tmp, tmp, MASK_PLACEHOLDER, 1, b);
    PipeBarrier<PIPE_V>();
    Mul<float, false>(tmp, tmp, dst, MASK_PLACEHOLDER, 1, b);
    PipeBarrier<PIPE_V>();
    Ln<float, false>(dst, tmp, MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
}
inline void acosh_chunk(const LocalTensor<half>& dst, const LocalTensor<half>& src, const LocalTensor<float>& tmp,
                        uint32_t slice) {
    const UnaryRepeatParams u;
    const BinaryRepeatParams b;
    const LocalTensor<float> x = tmp, t = tmp[slice];
    Cast<float, half, false>(x, src, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1,
                             {1, 1, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE / 2});
    PipeBarrier<PIPE_V>();
    Mul<float, false>(t, x, x, MASK_PLACEHOLDER, 1, b);
    PipeBarrier<PIPE_V>();
    Adds<float, false>(t, t, -1.0f, MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Sqrt<float, false>(t, t, MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Add<float, false>(t, t, x, MASK_PLACEHOLDER, 1, b);
    PipeBarrier<PIPE_V>();
    Div<float, false>(x, t, t, MASK_PLACEHOLDER, 1, b);
    PipeBarrier<PIPE_V>();
    Mul<float, false>(t, t, x, MASK_PLACEHOLDER, 1, b);
    PipeBarrier<PIPE_V>();
    Ln<float, false>(t, t, MASK_PLACEHOLDER, 1, u);
    PipeBarrier<PIPE_V>();
    Cast<half, float, false>(dst, t, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1,
                             {1, 1, DEFAULT_REPEAT_STRIDE / 2, DEFAULT_REPEAT_STRIDE});
    PipeBarrier<PIPE_V>();
}

}  // namespace sim_adv

template <typename T, bool isReuseSource = false>
void Acosh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
           const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "Acosh: A2/A3 support half and float");
    constexpr const char* api = "Acosh";
    sim_adv::math_checks(api, dstTensor, srcTensor, sharedTmpBuffer, calCount);
    const uint32_t split = sharedTmpBuffer.GetSize() / sizeof(float) / (sizeof(T) == 2 ? 2 : 1) / ONE_BLK_SIZE *
                           ONE_BLK_SIZE;
    if (split == 0)
        sim_adv::d::fail(api, "sharedTmpBuffer below the minimum",
                         "sharedTmpBuffer holds %u B, too little for %s of 32 floats", sharedTmpBuffer.GetSize(),
                         sizeof(T) == 2 ? "two slices" : "a slice");
    const LocalTensor<float> tmp = sharedTmpBuffer.ReinterpretCast<float>();
    sim_adv::counter_chunks<T>(calCount, split, [&](uint32_t at) {
        const uint32_t left = calCount - at;
        const uint32_t slice = left >= split ? split : (left + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE;
        sim_adv::acosh_chunk(dstTensor[at], srcTensor[at], tmp, slice);
    });
}
template <typename T, bool isReuseSource = false>
void Acosh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
           const LocalTensor<uint8_t>& sharedTmpBuffer) {
    Acosh<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize());
}
template <typename T, bool isReuseSource = false>
void Acosh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount) {
    Acosh<T, isReuseSource>(dstTensor, srcTensor, sim_adv::stack_tmp("Acosh"), calCount);
}
template <typename T, bool isReuseSource = false>
void Acosh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {
    Acosh<T, isReuseSource>(dstTensor, srcTensor, sim_adv::stack_tmp("Acosh"), srcTensor.GetSize());
}

}  // namespace AscendC

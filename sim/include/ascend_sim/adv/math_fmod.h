// Fmod, src0 - trunc(src0 / src1) * src1 (asc-devkit include/adv_api/math/fmod.h;
// dav_c220: impl/adv_api/detail/math/fmod/fmod_common_impl.h :: FmodImpl,
// FmodCompute): count-form Div, an in-place Trunc through the tmp, Mul and
// Sub; float in one pass over calCount, half in chunks of the tmp's halves / 8
// (rounded down to 32, at most src0's size) widened into three float slices
// with the Trunc's tmp after them. fmod_check_common.h: half or float, src0 and
// src1 the same size. The FmodConfig form is 3510-only.
#pragma once
#include <cstdint>
#include <type_traits>

#include "../kernel_sync.h"
#include "../kernel_vec_binary.h"
#include "../kernel_vec_cast.h"
#include "math_common.h"
#include "math_round.h"

namespace AscendC {
namespace sim_adv {

inline void fmod_steps(const LocalTensor<float>& dst, const LocalTensor<float>& src0,
                       const LocalTensor<float>& src1, const LocalTensor<uint8_t>& tmp, uint32_t count) {
    PipeBarrier<PIPE_V>();
    Div(dst, src0, src1, int32_t(count));
    PipeBarrier<PIPE_V>();
    Trunc(dst, dst, tmp, count);
    PipeBarrier<PIPE_V>();
    Mul(dst, dst, src1, int32_t(count));
    PipeBarrier<PIPE_V>();
    Sub(dst, src0, dst, int32_t(count));
    PipeBarrier<PIPE_V>();
}

}  // namespace sim_adv

template <typename T, bool isReuseSource = false>
void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "Fmod: A2/A3 support half and float");
    constexpr const char* api = "Fmod";
    if (src0Tensor.GetSize() != src1Tensor.GetSize())
        sim_adv::d::fail(api, "source sizes differ", "src0Tensor holds %u elements, src1Tensor %u: they must be equal",
                         src0Tensor.GetSize(), src1Tensor.GetSize());
    sim_adv::math_checks(api, dstTensor, src0Tensor, sharedTmpBuffer, calCount);
    sim_adv::check_count(api, calCount, src1Tensor, "src1Tensor");
    const uint32_t tmpBytes = sharedTmpBuffer.GetSize();
    sim_adv::check_disjoint(api, sharedTmpBuffer, tmpBytes, "sharedTmpBuffer", src1Tensor, calCount, "src1Tensor");
    if constexpr (sizeof(T) == sizeof(float)) {
        sim_adv::fmod_steps(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer, calCount);
    } else {
        uint32_t split = tmpBytes / sizeof(T) / 8 / ONE_BLK_SIZE * ONE_BLK_SIZE;
        if (split == 0)
            sim_adv::d::fail(api, "sharedTmpBuffer below the minimum",
                             "sharedTmpBuffer holds %u B, less than the 512 B of a 32-element chunk", tmpBytes);
        split = split > src0Tensor.GetSize() ? src0Tensor.GetSize() : split;
        const LocalTensor<float> wide = sharedTmpBuffer.ReinterpretCast<float>();
        const LocalTensor<float> res = wide, x = wide[split], y = wide[2 * split];
        const LocalTensor<uint8_t> truncTmp = sharedTmpBuffer[3 * split * sizeof(float)];
        for (uint32_t at = 0; at < calCount; at += split) {
            const uint32_t n = calCount - at < split ? calCount - at : split;
            PipeBarrier<PIPE_V>();
            Cast<float, half>(x, src0Tensor[at], RoundMode::CAST_NONE, n);
            Cast<float, half>(y, src1Tensor[at], RoundMode::CAST_NONE, n);
            PipeBarrier<PIPE_V>();
            sim_adv::fmod_steps(res, x, y, truncTmp, n);
            Cast<half, float>(dstTensor[at], res, RoundMode::CAST_NONE, n);
            PipeBarrier<PIPE_V>();
        }
    }
}
template <typename T, bool isReuseSource = false>
void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer) {
    Fmod<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer, src0Tensor.GetSize());
}
template <typename T, bool isReuseSource = false>
void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
          const uint32_t calCount) {
    Fmod<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, sim_adv::stack_tmp("Fmod"), calCount);
}
template <typename T, bool isReuseSource = false>
void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor) {
    Fmod<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, sim_adv::stack_tmp("Fmod"), src0Tensor.GetSize());
}

}  // namespace AscendC

// The advanced Exp, a Taylor expansion around floor(x) (asc-devkit
// include/adv_api/math/exp.h; dav_c220: impl/adv_api/detail/math/exp/
// exp_common_impl.h :: ExpImpl, UpdateExpParams, GetExpInputInTmp,
// GetExpFloorInput, ExpHighPrecisionExec, GetExpCastedResult):
// exp(x) = exp(floor x) * sum_{i <= level} r^i / i! with r = x - floor x, in
// Counter-mode chunks of the tmp split into float slices (half: 4; float: 3,
// 2 with isReuseSource, the sum kept in dst). Level 0 is the basic Exp.
// exp_check_common.h: half or float (isReuseSource only for float), calCount
// within dst and src, dst, src and the tmp pairwise disjoint.
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

template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
void Exp(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<uint8_t>& sharedTmpBuffer,
         const uint32_t calCount) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "Exp: A2/A3 support half and float");
    static_assert(!(isReuseSource && std::is_same_v<T, half>), "Exp: isReuseSource is for float only");
    constexpr const char* api = "Exp";
    sim_adv::math_checks(api, dstLocal, srcLocal, sharedTmpBuffer, calCount);
    if constexpr (taylorExpandLevel == 0) {
        Exp<T>(dstLocal, srcLocal, int32_t(calCount));
        return;
    }
    constexpr bool isFloat = std::is_same_v<T, float>;
    constexpr uint32_t slices = isFloat ? (isReuseSource ? 2 : 3) : 4, align = ONE_BLK_SIZE / sizeof(T);
    const LocalTensor<float> stack = sharedTmpBuffer.ReinterpretCast<float>();
    const uint32_t slice = stack.GetSize() / slices / align * align;
    if (slice == 0)
        sim_adv::d::fail(api, "sharedTmpBuffer below the minimum",
                         "sharedTmpBuffer holds %u B, too little for %u float slices of %u elements",
                         sharedTmpBuffer.GetSize(), slices, align);
    // UpdateExpParams / GetExpTensorInfo: r (floorX), r^i (floorXPow), the sum (res), exp(floor x) (intPart).
    const uint32_t powAt = isFloat && isReuseSource ? 0 : slice, resAt = powAt + slice;
    const LocalTensor<float> r = isFloat && isReuseSource ? srcLocal.template ReinterpretCast<float>() : stack;
    const LocalTensor<float> pow = stack[powAt], intPart = stack[isFloat ? resAt : resAt + slice];
    const UnaryRepeatParams u;
    const BinaryRepeatParams b;
    SetMaskCount();
    for (uint32_t at = 0; at < calCount; at += slice) {
        const uint32_t n = calCount - at < slice ? calCount - at : slice;
        SetVectorMask<float, MaskMode::COUNTER>(0, n);
        if constexpr (isFloat)
            Adds<float, false>(r, srcLocal[at], 0.0f, MASK_PLACEHOLDER, 1, u);
        else
            Cast<float, half, false>(r, srcLocal[at], RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1,
                                     {1, 1, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE / 2});
        PipeBarrier<PIPE_V>();
        Cast<float, float, false>(intPart, r, RoundMode::CAST_FLOOR, MASK_PLACEHOLDER, 1, u);
        PipeBarrier<PIPE_V>();
        Sub<float, false>(r, r, intPart, MASK_PLACEHOLDER, 1, b);
        PipeBarrier<PIPE_V>();
        Exp<float, false>(intPart, intPart, MASK_PLACEHOLDER, 1, u);
        PipeBarrier<PIPE_V>();
        // float sums into dst itself, half into the third slice
        LocalTensor<float> res;
        if constexpr (isFloat) res = dstLocal[at];
        else res = stack[resAt];
        Adds<float, false>(pow, r, 0.0f, MASK_PLACEHOLDER, 1, u);
        PipeBarrier<PIPE_V>();
        Adds<float, false>(res, r, 0.0f, MASK_PLACEHOLDER, 1, u);
        PipeBarrier<PIPE_V>();
        Adds<float, false>(res, res, 1.0f, MASK_PLACEHOLDER, 1, u);
        PipeBarrier<PIPE_V>();
        for (int32_t i = 2; i < int32_t(taylorExpandLevel) + 1; ++i) {
            Mul<float, false>(pow, r, pow, MASK_PLACEHOLDER, 1, b);
            PipeBarrier<PIPE_V>();
            Muls<float, false>(pow, pow, 1.0f / float(i), MASK_PLACEHOLDER, 1, u);
            PipeBarrier<PIPE_V>();
            Add<float, false>(res, res, pow, MASK_PLACEHOLDER, 1, b);
            PipeBarrier<PIPE_V>();
        }
        Mul<float, false>(res, res, intPart, MASK_PLACEHOLDER, 1, b);
        PipeBarrier<PIPE_V>();
        if constexpr (!isFloat) {
            Cast<half, float, false>(dstLocal[at], res, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1,
                                     {1, 1, DEFAULT_REPEAT_STRIDE / 2, DEFAULT_REPEAT_STRIDE});
            PipeBarrier<PIPE_V>();
        }
    }
    SetMaskNorm();
    ResetMask();
}
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
void Exp(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t calCount) {
    Exp<T, taylorExpandLevel, isReuseSource>(dstLocal, srcLocal, sim_adv::stack_tmp("Exp"), calCount);
}

}  // namespace AscendC

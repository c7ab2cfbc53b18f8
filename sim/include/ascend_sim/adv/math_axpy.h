// The advanced Axpy, dst += src * scalar (asc-devkit include/adv_api/math/axpy.h;
// dav_c220: impl/adv_api/detail/math/axpy/axpy_common_impl.h :: AxpyImpl,
// AxpySub, AxpyIntrinsicsImpl, axpyTmpCalc): float sources the basic count-form
// Axpy; half sources through float in Counter-mode chunks of the tmp's floats
// rounded down to 32 (half dst: two slices, dst widened too and narrowed back;
// float dst: one slice added into dst). axpy_check_common.h: (T, U) is
// (float, half), (half, half) or (float, float); calCount within dst and src;
// dst, src and the tmp pairwise disjoint.
#pragma once
#include <cstdint>
#include <type_traits>

#include "../kernel_sync.h"
#include "../kernel_vec_binary.h"
#include "../kernel_vec_cast.h"
#include "../kernel_vec_ops.h"
#include "../kernel_vec_scalar.h"
#include "math_common.h"

namespace AscendC {

template <typename T, typename U, bool isReuseSource = false>
void Axpy(const LocalTensor<T>& dstTensor, const LocalTensor<U>& srcTensor, const U scalarValue,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
    static_assert((std::is_same_v<T, float> && std::is_same_v<U, half>) ||
                      (std::is_same_v<T, half> && std::is_same_v<U, half>) ||
                      (std::is_same_v<T, float> && std::is_same_v<U, float>),
                  "Axpy: A2/A3 take (T, U) = (float, half), (half, half) or (float, float)");
    constexpr const char* api = "Axpy";
    const uint32_t tmpBytes = sharedTmpBuffer.GetSize();
    sim_adv::check_count(api, calCount, srcTensor, "srcTensor");
    sim_adv::check_count(api, calCount, dstTensor, "dstTensor");
    sim_adv::check_disjoint(api, srcTensor, calCount, "srcTensor", dstTensor, calCount, "dstTensor");
    sim_adv::check_disjoint(api, sharedTmpBuffer, tmpBytes, "sharedTmpBuffer", srcTensor, calCount, "srcTensor");
    sim_adv::check_disjoint(api, sharedTmpBuffer, tmpBytes, "sharedTmpBuffer", dstTensor, calCount, "dstTensor");
    if constexpr (std::is_same_v<U, float>) {
        Axpy<T, U>(dstTensor, srcTensor, scalarValue, int32_t(calCount));
    } else {
        const LocalTensor<float> tmp = sharedTmpBuffer.ReinterpretCast<float>();
        const uint32_t split = tmp.GetSize() / (sizeof(T) == 2 ? 2 : 1) / ONE_BLK_SIZE * ONE_BLK_SIZE;
        if (split == 0)
            sim_adv::d::fail(api, "sharedTmpBuffer below the minimum",
                             "sharedTmpBuffer holds %u B, too little for %s of 32 floats", tmpBytes,
                             sizeof(T) == 2 ? "two slices" : "a slice");
        const UnaryRepeatParams u;
        const BinaryRepeatParams b;
        const UnaryRepeatParams widen(1, 1, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE / 2);
        sim_adv::counter_chunks<T>(calCount, split, [&](uint32_t at) {
            Cast<float, half, false>(tmp, srcTensor[at], RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, widen);
            PipeBarrier<PIPE_V>();
            if constexpr (std::is_same_v<T, half>) {
                const LocalTensor<float> acc = tmp[split];
                Cast<float, half, false>(acc, dstTensor[at], RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, widen);
                PipeBarrier<PIPE_V>();
                Muls<float, false>(tmp, tmp, float(scalarValue), MASK_PLACEHOLDER, 1, u);
                PipeBarrier<PIPE_V>();
                Add<float, false>(acc, tmp, acc, MASK_PLACEHOLDER, 1, b);
                PipeBarrier<PIPE_V>();
                Cast<half, float, false>(dstTensor[at], acc, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1,
                                         {1, 1, DEFAULT_REPEAT_STRIDE / 2, DEFAULT_REPEAT_STRIDE});
            } else {
                Muls<float, false>(tmp, tmp, float(scalarValue), MASK_PLACEHOLDER, 1, u);
                PipeBarrier<PIPE_V>();
                Add<float, false>(dstTensor[at], tmp, dstTensor[at], MASK_PLACEHOLDER, 1, b);
            }
            PipeBarrier<PIPE_V>();
        });
    }
}

}  // namespace AscendC

// Log, Log2 and Log10 (asc-devkit include/adv_api/math/log.h; dav_c220:
// impl/adv_api/detail/math/log/log_common_impl.h :: LogImpl, Log2Impl,
// Log2Compute, Log10Impl): one Counter-mode Ln over calCount (Log10 then a
// Muls by 1/ln 10; Log2 on float a Muls by 1/ln 2); Log2 on half in chunks of
// the tmp's floats (rounded down to 32): widen, Ln, Muls, narrow.
// log_check_common.h: half or float, calCount within dst and src, dst and
// src disjoint.
#pragma once
#include <cstdint>
#include <type_traits>

#include "../kernel_sync.h"
#include "../kernel_vec_cast.h"
#include "../kernel_vec_scalar.h"
#include "../kernel_vec_unary.h"
#include "math_common.h"

namespace AscendC {
namespace sim_adv {

template <class T>
void log_checks(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "Log/Log2/Log10: A2/A3 support half and float");
    check_count(api, count, src, "srcTensor");
    check_count(api, count, dst, "dstTensor");
    check_disjoint(api, src, count, "srcTensor", dst, count, "dstTensor");
}

// Ln over the count, then dst *= scale unless scale is 1 (Log).
template <class T>
void ln_scaled(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count, T scale, bool scaled) {
    const UnaryRepeatParams u;
    SetMaskCount();
    SetVectorMask<T, MaskMode::COUNTER>(0, count);
    Ln<T, false>(dst, src, MASK_PLACEHOLDER, 1, u);
    if (scaled) {
        PipeBarrier<PIPE_V>();
        Muls<T, false>(dst, dst, scale, MASK_PLACEHOLDER, 1, u);
    }
    SetMaskNorm();
    ResetMask();
}

constexpr float kLn2Reciprocal = 1.4426950408889634f;
constexpr float kLn10Reciprocal = 0.43429448190325176f;

}  // namespace sim_adv

template <typename T, bool isReuseSource = false>
void Log(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, uint32_t calCount) {
    sim_adv::log_checks("Log", dstTensor, srcTensor, calCount);
    sim_adv::ln_scaled(dstTensor, srcTensor, calCount, T(1), false);
}
template <typename T, bool isReuseSource = false>
void Log(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {
    Log<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize());
}

template <typename T, bool isReuseSource = false>
void Log10(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, uint32_t calCount) {
    sim_adv::log_checks("Log10", dstTensor, srcTensor, calCount);
    sim_adv::ln_scaled(dstTensor, srcTensor, calCount, T(sim_adv::kLn10Reciprocal), true);
}
template <typename T, bool isReuseSource = false>
void Log10(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {
    Log10<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize());
}

template <typename T, bool isReuseSource = false>
void Log2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount) {
    constexpr const char* api = "Log2";
    sim_adv::log_checks(api, dstTensor, srcTensor, calCount);
    if constexpr (sizeof(T) == sizeof(float)) {
        sim_adv::ln_scaled(dstTensor, srcTensor, calCount, sim_adv::kLn2Reciprocal, true);
    } else {
        const uint32_t tmpBytes = sharedTmpBuffer.GetSize();
        sim_adv::check_disjoint(api, sharedTmpBuffer, tmpBytes, "sharedTmpBuffer", srcTensor, calCount, "srcTensor");
        sim_adv::check_disjoint(api, sharedTmpBuffer, tmpBytes, "sharedTmpBuffer", dstTensor, calCount, "dstTensor");
        const uint32_t split = tmpBytes / sizeof(float) / ONE_BLK_SIZE * ONE_BLK_SIZE;
        if (split == 0)
            sim_adv::d::fail(api, "sharedTmpBuffer below the minimum",
                             "sharedTmpBuffer holds %u B, less than the 128 B of 32 floats the chunks need", tmpBytes);
        const LocalTensor<float> wide = sharedTmpBuffer.ReinterpretCast<float>();
        const UnaryRepeatParams u;
        sim_adv::counter_chunks<T>(calCount, split, [&](uint32_t at) {
            Cast<float, T, false>(wide, srcTensor[at], RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1,
                                  {1, 1, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE / 2});
            PipeBarrier<PIPE_V>();
            Ln<float, false>(wide, wide, MASK_PLACEHOLDER, 1, u);
            PipeBarrier<PIPE_V>();
            Muls<float, false>(wide, wide, sim_adv::kLn2Reciprocal, MASK_PLACEHOLDER, 1, u);
            PipeBarrier<PIPE_V>();
            Cast<T, float, false>(dstTensor[at], wide, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1,
                                  {1, 1, DEFAULT_REPEAT_STRIDE / 2, DEFAULT_REPEAT_STRIDE});
            PipeBarrier<PIPE_V>();
        });
    }
}
template <typename T, bool isReuseSource = false>
void Log2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer) {
    Log2<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize());
}
// log.h: only half takes the stack buffer.
template <typename T, bool isReuseSource = false>
void Log2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, uint32_t calCount) {
    Log2<T, isReuseSource>(dstTensor, srcTensor, sizeof(T) == 2 ? sim_adv::stack_tmp("Log2") : LocalTensor<uint8_t>{},
                           calCount);
}
template <typename T, bool isReuseSource = false>
void Log2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {
    Log2<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize());
}

}  // namespace AscendC

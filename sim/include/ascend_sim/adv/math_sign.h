// Sign (asc-devkit include/adv_api/math/sign.h; dav_c220: impl/adv_api/detail/
// math/sign/sign_common_impl.h :: SignCompute, SignComputeImpl): -1, 0 or 1 (0 for
// +-0 and NaN), in Counter-mode chunks of split = tmp bytes / sizeof(T) / 3 rounded
// down to 32. A chunk: dst = 0; the LT and GT bits of src against it (whole repeats)
// into two 32 B-aligned bit areas of the tmp; t3 = 1 into CMPMASK, t4 = LT ? dst : 1;
// t3 = -1 into CMPMASK, dst = GT ? dst : -1; dst = t4 + dst.
#pragma once
#include <cstdint>
#include <type_traits>

#include "../kernel_sync.h"
#include "../kernel_vec_binary.h"
#include "../kernel_vec_compare.h"
#include "../kernel_vec_scalar.h"
#include "adv_internal.h"
#include "math_common.h"

namespace AscendC {
namespace sim_adv {

template <class T>
void sign_chunk(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& lt,
                const LocalTensor<uint8_t>& gt, const LocalTensor<T>& t3, const LocalTensor<T>& t4,
                uint32_t repeatTimes) {
    const BinaryRepeatParams b;
    Duplicate<T, false>(dst, T(0), MASK_PLACEHOLDER, 1, 1, 8);
    PipeBarrier<PIPE_V>();
    Compare<T, uint8_t, false>(lt, src, dst, CMPMODE::LT, MASK_PLACEHOLDER, uint8_t(repeatTimes), b);
    Compare<T, uint8_t, false>(gt, src, dst, CMPMODE::GT, MASK_PLACEHOLDER, uint8_t(repeatTimes), b);
    Duplicate<T, false>(t3, T(1), MASK_PLACEHOLDER, 1, 1, 8);
    PipeBarrier<PIPE_V>();
    SetCmpMask<T>(t3);
    Select<T, uint8_t>(t4, lt, dst, 1, b);
    PipeBarrier<PIPE_V>();
    Duplicate<T, false>(t3, T(-1), MASK_PLACEHOLDER, 1, 1, 8);
    PipeBarrier<PIPE_V>();
    SetCmpMask<T>(t3);
    Select<T, uint8_t>(dst, gt, dst, 1, b);
    PipeBarrier<PIPE_V>();
    Add<T, false>(dst, t4, dst, MASK_PLACEHOLDER, 1, b);
    PipeBarrier<PIPE_V>();
}

}  // namespace sim_adv

// Any T compiles, as in asc-devkit; the CPU-debug check (math_common_check.h ::
// CommonCheck, DataTypeVerifyingParameters<T, half, float>) refuses the others at run
// time (Sign.md: A2/A3 support half and float).
template <typename T, bool isReuseSource = false>
void Sign(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
    constexpr const char* api = "Sign";
    if constexpr (!std::is_same_v<T, half> && !std::is_same_v<T, float>) {
        sim_adv::d::fail(api, "type not supported", "template parameter (T) is not half or float (%u-byte T)",
                         unsigned(sizeof(T)));
    } else {
        sim_adv::math_checks(api, dstTensor, srcTensor, sharedTmpBuffer, calCount);
        const uint32_t split = sharedTmpBuffer.GetSize() / sizeof(T) / 3 / ONE_BLK_SIZE * ONE_BLK_SIZE;
        if (split == 0)  // CheckTmpBufferSize(splitCount, 0, ...)
            sim_adv::d::fail(api, "sharedTmpBuffer below the minimum",
                             "sharedTmpBuffer holds %u B, too little for 3 x 32 elements", sharedTmpBuffer.GetSize());
        const uint32_t bitBytes = (split / 8 + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE;
        const LocalTensor<T> stack = sharedTmpBuffer[bitBytes * 2].template ReinterpretCast<T>();
        // The caller's part: src written over calCount. The chunks' Compares read whole
        // 256 B repeats of src and of the zeroed dst, SetCmpMask 16 B of a tmp of fewer
        // elements: the implementation's reads, not the kernel's.
        sim_adv::check_read(api, srcTensor, calCount, "srcTensor");
        const sim_adv::Internal internal(api);
        sim_adv::counter_chunks<T>(calCount, split, [&](uint32_t at) {
            const uint32_t n = calCount - at < split ? calCount - at : split;
            sim_adv::sign_chunk(dstTensor[at], srcTensor[at], sharedTmpBuffer, sharedTmpBuffer[bitBytes], stack,
                                stack[split], (n * uint32_t(sizeof(T)) + 255) / 256);
        });
    }
}
template <typename T, bool isReuseSource = false>
void Sign(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer) {
    Sign<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize());
}
template <typename T, bool isReuseSource = false>
void Sign(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount) {
    Sign<T, isReuseSource>(dstTensor, srcTensor, sim_adv::stack_tmp("Sign"), calCount);
}
template <typename T, bool isReuseSource = false>
void Sign(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {
    Sign<T, isReuseSource>(dstTensor, srcTensor, sim_adv::stack_tmp("Sign"), srcTensor.GetSize());
}

}  // namespace AscendC

// ClampMax and ClampMin (asc-devkit include/adv_api/math/clamp.h; dav_c220:
// impl/adv_api/detail/math/clamp/clamp_common_impl.h :: ClampCompute): after
// the math common checks, one count-form Mins (ClampMax) or Maxs (ClampMin);
// the sharedTmpBuffer is checked but not used. Clamp(dst, src, min, max, count)
// is 3510-only.
#pragma once
#include <cstdint>
#include <type_traits>

#include "../kernel_vec_scalar.h"
#include "math_common.h"

namespace AscendC {

template <typename T, bool isReuseSource = false>
void ClampMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
              const LocalTensor<uint8_t>& sharedTmpBuffer, const T scalar, const uint32_t calCount) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "ClampMax: A2/A3 support half and float");
    sim_adv::math_checks("ClampMax", dstTensor, srcTensor, sharedTmpBuffer, calCount);
    Mins(dstTensor, srcTensor, scalar, calCount);
}
template <typename T, bool isReuseSource = false>
void ClampMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const T scalar,
              const uint32_t calCount) {
    ClampMax<T, isReuseSource>(dstTensor, srcTensor, sim_adv::stack_tmp("ClampMax"), scalar, calCount);
}

template <typename T, bool isReuseSource = false>
void ClampMin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
              const LocalTensor<uint8_t>& sharedTmpBuffer, const T scalar, const uint32_t calCount) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "ClampMin: A2/A3 support half and float");
    sim_adv::math_checks("ClampMin", dstTensor, srcTensor, sharedTmpBuffer, calCount);
    Maxs(dstTensor, srcTensor, scalar, calCount);
}
template <typename T, bool isReuseSource = false>
void ClampMin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const T scalar,
              const uint32_t calCount) {
    ClampMin<T, isReuseSource>(dstTensor, srcTensor, sim_adv::stack_tmp("ClampMin"), scalar, calCount);
}

}  // namespace AscendC

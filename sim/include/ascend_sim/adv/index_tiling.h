// The host tmp-size helpers of Arange (asc-devkit include/adv_api/index/
// arithprogression_tiling.h; impl/adv_api/tiling/index/arithprogression_tiling_impl.cpp):
// Arange needs no scratch.
#pragma once
#include <cstdint>

namespace AscendC {
inline void GetArangeMaxMinTmpSize(uint32_t& maxValue, uint32_t& minValue) { maxValue = minValue = 0; }
inline void GetArithProgressionMaxMinTmpSize(uint32_t& maxValue, uint32_t& minValue) {
    GetArangeMaxMinTmpSize(maxValue, minValue);
}
}  // namespace AscendC

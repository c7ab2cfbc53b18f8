// The host tmp size of Sum (asc-devkit include/adv_api/reduce/sum_tiling.h;
// impl/adv_api/tiling/reduce/sum_tiling.cpp :: GetSumMaxMinTmpSize): one
// partial sum per 256 B repeat of a row, rounded up to whole 32 B blocks.
#pragma once
#include <cstdint>
#include <string>

#include "../sim.h"

namespace AscendC {
inline void GetSumMaxMinTmpSize(const uint32_t n, const uint32_t typeSize, const bool isReuseSource,
                                uint32_t& maxSize, uint32_t& minSize) {
    (void)isReuseSource;
    if (n == 0 || typeSize == 0 || typeSize > 32)
        throw ascend_sim::SimViolation("GetSumMaxMinTmpSize", -1, "bad argument",
                                       "[ascend_sim] GetSumMaxMinTmpSize: n " + std::to_string(n) + " and typeSize " +
                                           std::to_string(typeSize) + " must be positive, typeSize at most 32");
    const uint32_t perBlock = 32 / typeSize, perRepeat = 256 / typeSize;
    const uint32_t repeats = (n + perRepeat - 1) / perRepeat;
    maxSize = minSize = (repeats + perBlock - 1) / perBlock * perBlock * typeSize;
}
}  // namespace AscendC

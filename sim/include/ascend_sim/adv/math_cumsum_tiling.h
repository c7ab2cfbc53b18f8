// The host tmp sizes of CumSum (asc-devkit include/adv_api/math/cumsum_tiling.h;
// impl/adv_api/tiling/math/cumsum_tiling_impl.cpp :: GetCumSumMaxMinTmpSize):
// 2-D shapes with 32 B rows; first axis: src as float for half, none for
// float; last axis: two transposes of 16-row blocks (all rows for the
// maximum), plus for half a widened 16-row block.
#pragma once
#include <cstdint>
#include <string>

#include "../sim.h"
#include "tensor_shape.h"

namespace AscendC {
inline void GetCumSumMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isLastAxis,
                                   const bool, uint32_t& maxValue, uint32_t& minValue) {
    constexpr const char* api = "GetCumSumMaxMinTmpSize";
    auto refuse = [&](const char* rule, const std::string& what) {
        throw ascend_sim::SimViolation(api, -1, rule, std::string("[ascend_sim] ") + api + ": " + what);
    };
    if (srcShape.GetDimNum() != 2) refuse("srcShape not 2-D", "srcShape must have 2 dims");
    if (typeSize != 2 && typeSize != 4) refuse("typeSize not supported", "typeSize must be 2 (half) or 4 (float)");
    const uint32_t rows = uint32_t(srcShape.GetDim(0)), inner = uint32_t(srcShape.GetDim(1));
    if (inner == 0 || inner * typeSize % 32 != 0) refuse("row not 32 B aligned", "srcShape[1] must be 32 B aligned");
    if (!isLastAxis) {
        maxValue = minValue = typeSize == 2 ? rows * inner * uint32_t(sizeof(float)) : 0;
        return;
    }
    constexpr uint32_t block = 16;
    const uint32_t alignRows = (rows + block - 1) / block * block;
    const uint32_t castMin = typeSize == 2 ? inner * block * 2 : 0, castMax = typeSize == 2 ? inner * alignRows * 2 : 0;
    minValue = castMin + block * inner * typeSize * 2;
    maxValue = castMax + alignRows * inner * typeSize * 2;
}
}  // namespace AscendC

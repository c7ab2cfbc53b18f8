// The host tmp-size helpers of AscendQuant and AscendDequant (asc-devkit
// include/adv_api/quantization/ascend_quant_tiling.h, ascend_dequant_tiling.h;
// impl/adv_api/tiling/quantization/ascend_quant_tiling_impl.cpp
// GetAscendQuantMaxMinTmpSize, GetAscendQuantTmpBufferFactorSize;
// ascend_dequant_tiling_impl.cpp GetAscendDequantMaxMinTmpSize,
// GetAscendDequantTmpBufferFactorSize). AscendQuant: a half per input element,
// at least two 256 B repeats, rounded up to 32 B. AscendDequant: a repeat of
// slack, the float scales (n + 8) and one row (min) or all rows (max) in float.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>

#include "../sim.h"
#include "activation_tiling.h"
#include "tensor_shape.h"

namespace AscendC {

inline void GetAscendQuantMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                        uint32_t& minValue) {
    constexpr const char* api = "GetAscendQuantMaxMinTmpSize";
    sim_adv::check_host_args(api, srcShape, typeSize);
    const uint32_t n = uint32_t(srcShape.GetShapeSize());
    if (n * typeSize % 32 != 0)
        throw ascend_sim::SimViolation(api, -1, "input not 32 B aligned",
                                       std::string("[ascend_sim] ") + api + ": srcShape's " + std::to_string(n) +
                                           " elements of " + std::to_string(typeSize) + " B are not 32 B aligned");
    minValue = 2 * 256;
    maxValue = (std::max(n * 2, minValue) + 31) / 32 * 32;
}
inline void GetAscendQuantTmpBufferFactorSize(uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    extraBuf = 0;
    maxLiveNodeCount = 2;
}

namespace sim_adv {
// [m, n] or [n] of int32_t; m and n out.
inline void dequant_dims(const TensorShape& srcShape, uint32_t typeSize, uint32_t& m, uint32_t& n) {
    constexpr const char* api = "GetAscendDequantMaxMinTmpSize";
    auto bad = [&](const char* rule, const std::string& why) {
        throw ascend_sim::SimViolation(api, -1, rule, std::string("[ascend_sim] ") + api + ": " + why);
    };
    if (srcShape.GetShapeSize() <= 0) bad("empty shape", "srcShape holds no elements");
    if (srcShape.GetDimNum() > 2) bad("srcShape not 1-D or 2-D", "srcShape must have 1 or 2 dims");
    if (typeSize != 4) bad("typeSize not 4", "typeSize " + std::to_string(typeSize) + " is not 4 (int32_t)");
    m = srcShape.GetDimNum() == 2 ? uint32_t(srcShape.GetDim(0)) : 1;
    n = uint32_t(srcShape.GetDim(srcShape.GetDimNum() - 1));
}
}  // namespace sim_adv

inline void GetAscendDequantMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                          uint32_t& minValue) {
    uint32_t m, n;
    sim_adv::dequant_dims(srcShape, typeSize, m, n);
    const uint32_t slackAndScales = 64 + n + 8;
    maxValue = (slackAndScales + m * n) * 4;
    minValue = (slackAndScales + n) * 4;
}
inline void GetAscendDequantTmpBufferFactorSize(const TensorShape& srcShape, uint32_t& maxLiveNodeCount,
                                                uint32_t& extraBuf) {
    extraBuf = 8 + 64;
    if (srcShape.GetDimNum() == 2) {
        extraBuf += uint32_t(srcShape.GetDim(1));
        maxLiveNodeCount = 1;
    } else if (srcShape.GetDimNum() == 1) {
        maxLiveNodeCount = 2;
    } else {
        extraBuf = maxLiveNodeCount = 0;
    }
}

}  // namespace AscendC

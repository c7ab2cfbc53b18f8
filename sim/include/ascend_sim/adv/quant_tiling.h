// The host tmp-size helpers of AscendQuant (asc-devkit include/adv_api/
// quantization/ascend_quant_tiling.h; impl/adv_api/tiling/quantization/
// ascend_quant_tiling_impl.cpp GetAscendQuantMaxMinTmpSize,
// GetAscendQuantTmpBufferFactorSize): a half per input element, at least two
// 256 B repeats, rounded up to 32 B.
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

}  // namespace AscendC

// The host tmp-size helpers of DropOut (asc-devkit include/adv_api/filter/
// dropout_tiling.h; impl/adv_api/tiling/filter/dropout_tiling_impl.cpp
// GetDropOutMinTmpSize, GetDropOutMaxTmpSize, GetDropOutMaxMinTmpSize): at
// least two 256 B repeats, at most two floats per element.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>

#include "../sim.h"
#include "activation_tiling.h"
#include "tensor_shape.h"

namespace AscendC {
namespace sim_adv {
inline void check_dropout_host(const char* api, const TensorShape& srcShape, uint32_t typeSize) {
    check_type_size(api, typeSize);
    if (srcShape.GetDimNum() == 0)
        throw ascend_sim::SimViolation(api, -1, "srcShape without dims",
                                       std::string("[ascend_sim] ") + api + ": srcShape has no dims");
}
}  // namespace sim_adv

inline uint32_t GetDropOutMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool) {
    sim_adv::check_dropout_host("GetDropOutMinTmpSize", srcShape, typeSize);
    return 2 * 256;
}
inline uint32_t GetDropOutMaxTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource) {
    const uint32_t minValue = GetDropOutMinTmpSize(srcShape, typeSize, isReuseSource);
    return std::max(minValue, 2 * uint32_t(srcShape.GetShapeSize()) * uint32_t(sizeof(float)));
}
inline void GetDropOutMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                    uint32_t& maxValue, uint32_t& minValue) {
    maxValue = GetDropOutMaxTmpSize(srcShape, typeSize, isReuseSource);
    minValue = GetDropOutMinTmpSize(srcShape, typeSize, isReuseSource);
}

}  // namespace AscendC

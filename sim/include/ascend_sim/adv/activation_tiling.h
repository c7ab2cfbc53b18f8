// The host-side tmp-size helpers of the activation APIs the simulator models
// (asc-devkit include/adv_api/activation/*_tiling.h; impl/adv_api/tiling/
// activation/sigmoid_tiling_impl.cpp, gelu_tiling_impl.cpp, swiglu_tiling.cpp,
// silu_tiling.cpp, swish_tiling.cpp): the sizes in bytes those files compute.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>

#include "../sim.h"
#include "tensor_shape.h"

namespace AscendC {
namespace sim_adv {
// TypeSizeVerifyingParameters: half or float.
inline void check_type_size(const char* api, uint32_t typeSize) {
    if (typeSize != 2 && typeSize != 4)
        throw ascend_sim::SimViolation(api, -1, "typeSize not supported",
                                       std::string("[ascend_sim] ") + api + ": typeSize " + std::to_string(typeSize) +
                                           " is neither 2 (half) nor 4 (float)");
}
// SrcShapeSizeVerifyingParameters (or an ASCENDC_HOST_ASSERT of it): a non-empty shape.
inline void check_host_shape(const char* api, const TensorShape& shape) {
    if (shape.GetShapeSize() <= 0)
        throw ascend_sim::SimViolation(api, -1, "empty shape",
                                       std::string("[ascend_sim] ") + api + ": srcShape holds no elements");
}
inline void check_host_args(const char* api, const TensorShape& shape, uint32_t typeSize) {
    check_type_size(api, typeSize);
    check_host_shape(api, shape);
}
}  // namespace sim_adv

inline void GetSigmoidMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, bool isReuseSource,
                                    uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    sim_adv::check_host_args("GetSigmoidMaxMinTmpSize", srcShape, typeSize);
    minValue = 256;
    maxValue = std::max(uint32_t(srcShape.GetShapeSize()) * typeSize, minValue);
}

inline uint32_t GetGeluMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize) {
    sim_adv::check_host_args("GetGeluMinTmpSize", srcShape, typeSize);
    return 3 * 256;
}
// Three float slices of the whole input, whatever typeSize.
inline uint32_t GetGeluMaxTmpSize(const TensorShape& srcShape, const uint32_t typeSize) {
    sim_adv::check_host_args("GetGeluMaxTmpSize", srcShape, typeSize);
    return std::max(3 * uint32_t(srcShape.GetShapeSize()) * uint32_t(sizeof(float)), 3u * 256);
}
inline void GetGeluMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                 uint32_t& minValue) {
    maxValue = GetGeluMaxTmpSize(srcShape, typeSize);
    minValue = GetGeluMinTmpSize(srcShape, typeSize);
}

// half needs six 256 B units per element run (three float slices); float none.
inline void GetSwiGLUMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                   uint32_t& minValue, const bool isReuseSource) {
    (void)isReuseSource;
    sim_adv::check_host_args("GetSwiGLUMaxMinTmpSize", srcShape, typeSize);
    const uint32_t factor = typeSize == 4 ? 0 : 6;
    minValue = factor * 256;
    maxValue = factor * std::max(uint32_t(srcShape.GetShapeSize()) * typeSize, 256u);
}
inline void GetSwiGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
    sim_adv::check_type_size("GetSwiGLUTmpBufferFactorSize", typeSize);
    extraBuffer = 0;
    maxLiveNodeCount = typeSize == 4 ? 0 : 6;
}

// Silu and Swish use no scratch.
inline void GetSiluTmpSize(const TensorShape&, const uint32_t, const bool, uint32_t& maxValue, uint32_t& minValue) {
    maxValue = minValue = 0;
}
inline void GetSwishTmpSize(const TensorShape&, const uint32_t, const bool, uint32_t& maxValue, uint32_t& minValue) {
    maxValue = minValue = 0;
}

}  // namespace AscendC

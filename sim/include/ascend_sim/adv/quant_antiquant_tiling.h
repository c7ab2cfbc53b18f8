// The host tmp sizes of AscendAntiQuant (asc-devkit
// include/adv_api/quantization/ascend_antiquant_tiling.h;
// impl/adv_api/tiling/quantization/ascend_antiquant_tiling_impl.cpp ::
// GetAscendAntiQuantMaxTmpSize, GetAscendAntiQuantMinTmpSize,
// GetAscendAntiQuantTmpBufferFactorSize, CheckAntiQuantHostCommon). A half
// output needs none; a bfloat16_t one its float staging: per channel the float
// offset and scale (2 x N) and 64 x K floats (no transpose) or 8 + 8 + 64 floats
// per channel (transpose); per tensor all the source in float at most, 1 KB at least.
#pragma once
#include <cstdint>
#include <string>

#include "../sim.h"
#include "tensor_shape.h"

namespace AscendC {
namespace sim_adv {
inline void antiquant_host_check(const char* api, const TensorShape& srcShape, bool isTranspose,
                                 TensorDataType inputDataType) {
    auto no = [&](const char* what, const std::string& msg) {
        throw ascend_sim::SimViolation(api, -1, what, std::string("[ascend_sim] ") + api + ": " + msg);
    };
    if (srcShape.GetShapeSize() <= 0) no("empty srcShape", "srcShape's size must be above 0");
    // srcShape is [N, K] when transposed; CANN scales K by the data type's enum value.
    if (isTranspose) {
        if (srcShape.GetDimNum() < 2) no("srcShape not [N, K]", "isTranspose true needs srcShape [N, K]");
        const int64_t k = srcShape.GetDim(1);
        if (int64_t(inputDataType) * k % 32 != 0)
            no("K unaligned", "with isTranspose true srcShape's K " + std::to_string(k) + " must be 32 B aligned");
    }
}
inline uint32_t antiquant_scale_size(const TensorShape& scaleShape) { return uint32_t(scaleShape.GetShapeSize()); }
}  // namespace sim_adv

inline uint32_t GetAscendAntiQuantMaxTmpSize(const TensorShape& srcShape, const TensorShape& scaleShape,
                                             bool isTranspose, TensorDataType inputDataType,
                                             TensorDataType outputDataType) {
    sim_adv::antiquant_host_check("GetAscendAntiQuantMaxTmpSize", srcShape, isTranspose, inputDataType);
    if (outputDataType == ge::DT_FLOAT16) return 0;
    const uint32_t scale = sim_adv::antiquant_scale_size(scaleShape), src = uint32_t(srcShape.GetShapeSize());
    if (scale == 1) return src * 4;
    if (isTranspose) return (8 + 8 + 64) * scale * 4;
    return scale * 2 * 4 + 64 * uint32_t(srcShape.GetDim(0)) * 4;
}
inline uint32_t GetAscendAntiQuantMinTmpSize(const TensorShape& srcShape, const TensorShape& scaleShape,
                                             bool isTranspose, TensorDataType inputDataType,
                                             TensorDataType outputDataType) {
    sim_adv::antiquant_host_check("GetAscendAntiQuantMinTmpSize", srcShape, isTranspose, inputDataType);
    if (outputDataType == ge::DT_FLOAT16) return 0;
    const uint32_t scale = sim_adv::antiquant_scale_size(scaleShape);
    if (scale == 1) return 1024;
    if (isTranspose) return (8 + 8 + 64) * scale * 4;
    return scale * 2 * 4 + 64 * uint32_t(srcShape.GetDim(0)) * 4;
}
inline void GetAscendAntiQuantMaxMinTmpSize(const TensorShape& srcShape, const TensorShape& scaleShape,
                                            bool isTranspose, TensorDataType inputDataType,
                                            TensorDataType outputDataType, uint32_t& maxValue, uint32_t& minValue) {
    sim_adv::antiquant_host_check("GetAscendAntiQuantMaxMinTmpSize", srcShape, isTranspose, inputDataType);
    maxValue = GetAscendAntiQuantMaxTmpSize(srcShape, scaleShape, isTranspose, inputDataType, outputDataType);
    minValue = GetAscendAntiQuantMinTmpSize(srcShape, scaleShape, isTranspose, inputDataType, outputDataType);
}
// maxLiveNodeCount x the source's floats + extraBuf.
inline void GetAscendAntiQuantTmpBufferFactorSize(const TensorShape& srcShape, const TensorShape& scaleShape,
                                                  bool isTranspose, TensorDataType, TensorDataType outputDataType,
                                                  uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    maxLiveNodeCount = 0, extraBuf = 0;
    const uint32_t scale = sim_adv::antiquant_scale_size(scaleShape);
    if (outputDataType == ge::DT_FLOAT16) return;
    if (scale == 1) maxLiveNodeCount = 1;
    else if (isTranspose) extraBuf = 80 * scale * 4;
    else extraBuf = scale * 2 * 4 + 64 * uint32_t(srcShape.GetDim(0)) * 4;
}

}  // namespace AscendC

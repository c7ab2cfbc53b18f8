// The host tmp sizes of Power (asc-devkit include/adv_api/math/power_tiling.h;
// impl/adv_api/tiling/math/power_tiling_impl.cpp :: GetPowerMaxMinTmpSize,
// GetPowerTmpBufferFactorSize, the DAV_2201 factors): live nodes of the input
// (tensor-tensor / a scalar operand) int32 6 / 7, float 4 / 5, half 14 / 14 (of
// half-sized nodes), plus 256 B for the float and half scalar block. A shape of
// one dimension of 1 is a scalar operand; the max sizes by the tensor operand.
#pragma once
#include <algorithm>
#include <cstdint>

#include "tensor_shape.h"

namespace AscendC {
namespace sim_adv {
inline bool power_shape_is_tensor(const TensorShape& s) { return !(s.GetDimNum() == 1 && s.GetDim(0) == 1); }
inline uint32_t power_nodes(bool tensorTensor, bool typeIsInt, uint32_t typeSize) {
    if (typeIsInt) return tensorTensor ? 6 : 7;
    if (typeSize == sizeof(float)) return tensorTensor ? 4 : 5;
    return 14;
}
}  // namespace sim_adv

inline void GetPowerMaxMinTmpSize(const TensorShape& srcShape1, const TensorShape& srcShape2, const bool typeIsInt,
                                  const uint32_t typeSize, const bool, uint32_t& maxValue, uint32_t& minValue) {
    const bool t1 = sim_adv::power_shape_is_tensor(srcShape1), t2 = sim_adv::power_shape_is_tensor(srcShape2);
    const uint32_t nodes = sim_adv::power_nodes(t1 && t2, typeIsInt, typeSize);
    const uint32_t extra = typeIsInt ? 0 : 256;
    const uint32_t n = uint32_t((t1 ? srcShape1 : srcShape2).GetShapeSize());
    const uint32_t node = typeSize == sizeof(float) ? std::max(n * typeSize, 256u) : std::max(n * typeSize, 128u);
    maxValue = node * nodes + extra;
    minValue = (typeIsInt || typeSize == sizeof(float) ? 256 * nodes : 128 * nodes) + extra;
}
inline void GetPowerTmpBufferFactorSize(const bool baseIsTensor, const bool expIsTensor, const bool typeIsInt,
                                        const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
    maxLiveNodeCount = sim_adv::power_nodes(baseIsTensor && expIsTensor, typeIsInt, typeSize);
    extraBuffer = typeIsInt ? 0 : 256;
}
}  // namespace AscendC

// The host tmp sizes of Fmod (asc-devkit include/adv_api/math/fmod_tiling.h;
// impl/adv_api/tiling/math/fmod_tiling_impl.cpp :: GetFmodMaxMinTmpSize,
// GetFmodTmpBufferFactorSize): the Trunc's units plus, for half, three float
// slices (6 B a half byte), each at least 256 B.
#pragma once
#include <algorithm>
#include <cstdint>

#include "math_round_tiling.h"

namespace AscendC {
namespace sim_adv {
inline uint32_t fmod_factor(uint32_t typeSize) { return round_factor(typeSize) + (typeSize == sizeof(float) ? 0 : 6); }
}  // namespace sim_adv

inline void GetFmodMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool,
                                 uint32_t& maxValue, uint32_t& minValue) {
    sim_adv::check_host_args("GetFmodMaxMinTmpSize", srcShape, typeSize);
    const uint32_t f = sim_adv::fmod_factor(typeSize);
    minValue = f * 256;
    maxValue = f * std::max(uint32_t(srcShape.GetShapeSize()) * typeSize, 256u);
}
inline void GetFmodTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    extraBuf = 0;
    maxLiveNodeCount = sim_adv::fmod_factor(typeSize);
}
}  // namespace AscendC

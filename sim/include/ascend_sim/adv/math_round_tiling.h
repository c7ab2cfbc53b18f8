// The host tmp sizes of Ceil, Trunc and Frac (asc-devkit include/adv_api/math/ceil_tiling.h,
// trunc_tiling.h; impl/adv_api/tiling/math/ceil_tiling_impl.cpp,
// trunc_tiling_impl.cpp :: GetCeil/TruncMaxMinTmpSize, GetCeil/TruncTmpBufferFactorSize;
// frac_tiling_impl.cpp :: GetFracMaxMinTmpSize, GetFracTmpBufferFactorSize):
// half widens its chunk into tmp (4 B an element), float only sizes its
// chunks by it; at least a repeat's 256 B of either. Frac: two float slices
// for half (4 B of tmp per B of input), nothing for float.
#pragma once
#include <algorithm>
#include <cstdint>

#include "activation_tiling.h"

namespace AscendC {
namespace sim_adv {
// Bytes of tmp per byte of input: 2 for half (widened to float), 1 for float.
inline uint32_t round_factor(uint32_t typeSize) { return typeSize == sizeof(float) ? 1 : 2; }
inline void round_tmp(const char* api, const TensorShape& shape, uint32_t typeSize, uint32_t& maxValue,
                      uint32_t& minValue) {
    check_host_args(api, shape, typeSize);
    minValue = 256 * round_factor(typeSize);
    maxValue = round_factor(typeSize) * std::max(uint32_t(shape.GetShapeSize()) * typeSize, 256u);
}
// Frac's bytes of tmp per byte of input.
inline uint32_t frac_factor(uint32_t typeSize) { return typeSize == sizeof(float) ? 0 : 4; }
}  // namespace sim_adv

inline void GetFracMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool,
                                 uint32_t& maxValue, uint32_t& minValue) {
    sim_adv::check_host_args("GetFracMaxMinTmpSize", srcShape, typeSize);
    minValue = sim_adv::frac_factor(typeSize) * 256;
    maxValue = sim_adv::frac_factor(typeSize) * std::max(uint32_t(srcShape.GetShapeSize()) * typeSize, 256u);
}
inline void GetFracTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    extraBuf = 0;
    maxLiveNodeCount = sim_adv::frac_factor(typeSize);
}

inline void GetCeilMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool,
                                 uint32_t& maxValue, uint32_t& minValue) {
    sim_adv::round_tmp("GetCeilMaxMinTmpSize", srcShape, typeSize, maxValue, minValue);
}
inline void GetTruncMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool,
                                  uint32_t& maxValue, uint32_t& minValue) {
    sim_adv::round_tmp("GetTruncMaxMinTmpSize", srcShape, typeSize, maxValue, minValue);
}
inline void GetCeilTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    extraBuf = 0;
    maxLiveNodeCount = sim_adv::round_factor(typeSize);
}
inline void GetTruncTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    extraBuf = 0;
    maxLiveNodeCount = sim_adv::round_factor(typeSize);
}
}  // namespace AscendC

// The host tmp sizes of WelfordUpdate and WelfordFinalize on A2/A3 (asc-devkit
// include/adv_api/normalization/layernorm_tiling.h, welfordfinalize_tiling.h;
// impl/adv_api/tiling/normalization/layernorm_tiling_impl.cpp
// GetWelfordUpdateMaxMinTmpSize, welfordfinalize_tiling_impl.cpp
// GetWelfordFinalizeMaxMinTmpSize): Update takes one to three 256 B fp32
// buffers a repeat (min) or a repeat's worth for every 64 elements (max);
// Finalize four 64-float rows (min) or two rows and two abLength slices (max).
#pragma once
#include <cstdint>
#include <string>

#include "../sim.h"
#include "tensor_shape.h"

namespace AscendC {
namespace sim_adv {
namespace welford {
[[noreturn]] inline void host_refuse(const char* api, const char* rule, const std::string& what) {
    throw ascend_sim::SimViolation(api, -1, rule, std::string("[ascend_sim] ") + api + ": " + what);
}
}  // namespace welford
}  // namespace sim_adv

inline void GetWelfordUpdateMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSizeT,
                                          const uint32_t typeSizeU, const bool isReuseSource, const bool isInplace,
                                          uint32_t& maxValue, uint32_t& minValue) {
    (void)typeSizeU, (void)isInplace;
    if (srcShape.GetDimNum() != 2)
        sim_adv::welford::host_refuse("GetWelfordUpdateMaxMinTmpSize", "srcShape not [rn, ab]",
                                      "srcShape has " + std::to_string(srcShape.GetDimNum()) +
                                          " dims; it must be 2 ([rnLength, abLength])");
    const uint32_t n = uint32_t(srcShape.GetDim(0) * srcShape.GetDim(1));
    minValue = (typeSizeT == 2 ? 3u : isReuseSource ? 1u : 2u) * 256;
    maxValue = (n + 63) / 64 * minValue;
}

inline void GetWelfordFinalizeMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                                            const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
    (void)typeSize, (void)isReuseSource;
    constexpr const char* api = "GetWelfordFinalizeMaxMinTmpSize";
    if (srcShape.GetDimNum() != 1)
        sim_adv::welford::host_refuse(api, "srcShape not [ab]",
                                      "srcShape has " + std::to_string(srcShape.GetDimNum()) +
                                          " dims; it must be 1 ([abLength])");
    const uint32_t ab = uint32_t(srcShape.GetDim(0));
    if (ab == 0 || ab % 8 != 0)
        sim_adv::welford::host_refuse(api, "abLength not 32 B aligned",
                                      "abLength " + std::to_string(ab) + " must be a positive multiple of 8");
    minValue = 64 * 4 * 4;
    maxValue = ab <= 64 ? minValue : (64 * 2 + ab * 2) * 4;
}

}  // namespace AscendC

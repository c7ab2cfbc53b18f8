// The host tmp-size helper of the advanced ReduceMax (asc-devkit
// include/adv_api/reduce/reduce_tiling.h :: ReducePattern,
// GetReduceMaxMaxMinTmpSize; impl/adv_api/tiling/reduce/reduce_tiling.cpp ::
// GetReduceCommonMaxMinTmpSize, CheckParams) for dav_c220.
#pragma once
#include <cstdint>
#include <string>

#include "../sim.h"
#include "tensor_shape.h"

namespace AscendC {
enum class ReducePattern : uint32_t {
    AR = 0,
    RA = 1,
    R,
    ARA,
    ARAR,
    ARARA,
    ARARAR,
    ARARARA,
    ARARARAR,
    ARARARARA,
    RAR,
    RARA,
    RARAR,
    RARARA,
    RARARAR,
    RARARARA,
};

namespace sim_adv {
// A refusal where reduce_tiling.cpp logs and returns.
inline void reduce_host_fail(const char* api, const char* rule, const std::string& what) {
    throw ascend_sim::SimViolation(api, -1, rule, std::string("[ascend_sim] ") + api + ": " + what);
}
}  // namespace sim_adv

// 0 with isReuseSource; AR: a block or a repeat a row once rows pass a block;
// RA: the rows below the largest power of two under firstAxis (half of them
// when firstAxis is one), each padded to 32 B.
inline void GetReduceMaxMaxMinTmpSize(const TensorShape& srcShape, const TensorDataType dataType,
                                      ReducePattern pattern, bool isSrcInnerPad, bool isReuseSource,
                                      uint32_t& maxValue, uint32_t& minValue) {
    constexpr const char* api = "GetReduceMaxMaxMinTmpSize";
    if (dataType != ge::DT_FLOAT && dataType != ge::DT_FLOAT16)
        sim_adv::reduce_host_fail(api, "data type", "A2/A3 support float and half");
    if (srcShape.GetDimNum() != 2)
        sim_adv::reduce_host_fail(api, "shape not 2-D", "srcShape has " + std::to_string(srcShape.GetDimNum()) +
                                                           " dims; it must have 2");
    if (!isSrcInnerPad) sim_adv::reduce_host_fail(api, "isSrcInnerPad false", "isSrcInnerPad must be true on A2/A3");
    if (pattern != ReducePattern::AR && pattern != ReducePattern::RA)
        sim_adv::reduce_host_fail(api, "pattern", "only the AR and RA patterns are supported");
    const uint32_t first = uint32_t(srcShape.GetDim(0)), last = uint32_t(srcShape.GetDim(1));
    if (first == 0 || last == 0) sim_adv::reduce_host_fail(api, "empty shape", "both axes must be greater than 0");
    const uint32_t size = dataType == ge::DT_FLOAT ? 4 : 2;
    if (isReuseSource) {
        maxValue = minValue = 0;
        return;
    }
    if (pattern == ReducePattern::AR) {
        const uint32_t perBlock = 32 / size, perRepeat = 256 / size;
        maxValue = minValue = last <= perBlock ? 0 : last < perRepeat ? first * perBlock * size : first * perRepeat * size;
        return;
    }
    uint32_t k = 1;
    while (k <= first / 2) k *= 2;
    if (k == first && first > 1) k /= 2;
    maxValue = minValue = k * ((last * size + 31) / 32 * 32);
}
}  // namespace AscendC

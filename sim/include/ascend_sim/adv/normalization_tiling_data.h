// The tiling structs of the normalization APIs, shared by the kernel and host
// headers (asc-devkit include/adv_api/normalization/*_tilingdata.h, whose fields
// the generated AscendC::tiling structs carry in this order; exported at file
// scope as CANN's kernel_tiling.h has them).
#pragma once
#include <cstdint>

namespace AscendC {
namespace tiling {
struct RmsNormTiling {
    uint32_t bLength = 0;
    uint32_t sLength = 0;
    uint32_t hLength = 0;
    uint32_t originalHLength = 0;
    float reciprocalOfHLength = 0;
    uint32_t mainBshLength = 0;
    uint32_t mainBsLength = 0;
    uint32_t mainBsLengthAlign = 0;
    uint32_t loopRound = 0;
    uint32_t inputTailPos = 0;
    uint32_t tailBshLength = 0;
    uint32_t tailBsLength = 0;
};
}  // namespace tiling
using tiling::RmsNormTiling;
}  // namespace AscendC

using AscendC::tiling::RmsNormTiling;

// The parameter and config structs of LayerNorm and WelfordUpdate (asc-devkit
// include/adv_api/normalization/layernorm_utils.h), shared by the kernel and
// host headers.
#pragma once
#include <cstdint>

namespace AscendC {
struct LayerNormConfig {
    bool isNoBeta = false;
    bool isNoGamma = false;
    bool isOnlyOutput = false;
    bool isOutputRstd = true;
};
struct WelfordUpdateConfig {
    constexpr WelfordUpdateConfig(const bool isInplaceIn) : isInplace(isInplaceIn) {}
    bool isInplace = false;
};
constexpr WelfordUpdateConfig WFUPDATE_DEFAULT_CFG = {false};

// A rows of R, each padded to rLengthWithPadding.
struct LayerNormPara {
    uint32_t aLength;
    uint32_t rLength;
    uint32_t rLengthWithPadding;
};
struct WelfordUpdateParam {
    uint32_t rnLength;
    uint32_t abLength;
    uint32_t abComputeLength;
    float nRec;
};
}  // namespace AscendC

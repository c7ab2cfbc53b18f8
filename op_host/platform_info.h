// The platform figures the tiling needs, from the simulator's current SoC
// profile (platform_info_sim.cpp); the CANN build reads PlatformAscendC:
// GetCoreNumAiv, GetCoreMemSize(UB), GetLibApiWorkSpaceSize (platform_info_cann.cpp).
#pragma once
#include "cross_entropy_loss_grad_tiling.h"

namespace xent {
TilingPlatform CurrentPlatform();
}

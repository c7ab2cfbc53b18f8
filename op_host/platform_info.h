// The platform figures the tiling needs, from the simulator's current SoC
// profile (a CANN build reads PlatformAscendC: GetCoreNumAiv, GetCoreMemSize(UB),
// GetLibApiWorkSpaceSize).
#pragma once
#include "cross_entropy_loss_grad_tiling.h"

namespace xent {
TilingPlatform CurrentPlatform();
}

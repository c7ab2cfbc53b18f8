// Simulator build: the tiling's platform figures of any SoC profile (the tiling
// tests walk every profile; CurrentPlatform() uses the current one).
#pragma once
#include "ascend_sim/sim.h"
#include "cross_entropy_loss_grad_tiling.h"

namespace xent {
TilingPlatform PlatformOf(const ascend_sim::SocProfile& p);
// The inverse: the profile named by p.soc with p's figures (its core count may be
// a set_cores override). std::invalid_argument on an unknown name.
ascend_sim::SocProfile ProfileOf(const TilingPlatform& p);
}

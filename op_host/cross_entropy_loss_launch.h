// The one function that starts the forward kernel, as cross_entropy_loss_grad_launch.h:
// launch_sim.cpp over the simulator (synchronous), launch_cann.cpp on the NPU.
#pragma once
#include <cstdint>

#include "cross_entropy_loss_grad_launch.h"  // GmBuffer, LaunchOutcome
#include "cross_entropy_loss_tiling.h"

namespace xent {

struct ForwardLaunchArgs {
    GmBuffer input, target, weight, loss, logProb, zloss, lseForZloss;
    void* workspace = nullptr;
    uint64_t workspaceBytes = 0;
    uint64_t libApiWorkspaceBytes = 0;  // the user workspace (tiling first) starts here
    CrossEntropyLossTilingData tiling{};
    uint32_t blockDim = 0;
    TilingPlatform platform;  // the one phase 1 tiled for
};

// Copies the tiling to the start of the user workspace and launches the kernel on stream.
LaunchOutcome launch_cross_entropy_loss(const ForwardLaunchArgs& args, aclrtStream stream);

}  // namespace xent

// The one function that starts the kernel. launch_sim.cpp implements it over
// the simulator (synchronous); launch_cann.cpp, in the CANN build, with
// aclrtMemcpyAsync + ACLRT_LAUNCH_KERNEL on the stream (asynchronous).
#pragma once
#include <cstdint>
#include <string>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "cross_entropy_loss_grad_tiling.h"

namespace xent {

struct GmBuffer {
    void* data = nullptr;  // nullptr for an absent optional input
    uint64_t bytes = 0;
};

struct LaunchArgs {
    GmBuffer gradLoss, logProb, target, weight, gradZloss, lseForZloss, xGrad;
    void* workspace = nullptr;          // device memory of workspaceBytes
    uint64_t workspaceBytes = 0;
    uint64_t libApiWorkspaceBytes = 0;  // the user workspace (tiling first) starts here
    CrossEntropyLossGradTilingData tiling{};
    uint32_t blockDim = 0;
    // The platform phase 1 tiled for: the launch runs on it, not on whatever the
    // current one is by phase 2 (another thread may have switched the SoC profile).
    TilingPlatform platform;
};

struct LaunchOutcome {
    aclnnStatus status = 0;
    std::string message;        // when status != 0
    bool completed = false;     // the kernel has finished (synchronous launch): the workspace may be read back
};

// Copies the tiling to the start of the user workspace and launches the kernel on stream.
LaunchOutcome launch_cross_entropy_loss_grad(const LaunchArgs& args, aclrtStream stream);

}  // namespace xent

// What the two-phase APIs' phase functions share: a single-use executor holding the
// checked arguments and the tiling of phase 1 (and the platform it tiled for), an error
// reported under the API's name, and a checked tensor as the launch's GM buffer.
#pragma once
#include <cstdint>
#include <string>

#include "aclnn/acl_meta.h"
#include "cross_entropy_loss_grad_launch.h"  // GmBuffer
#include "cross_entropy_loss_grad_tiling.h"  // TilingPlatform
#include "error_report.h"
#include "executor_registry.h"
#include "tensor_checks.h"

namespace xent {

template <class Args, class Tiling>
struct PhaseExecutor : ExecutorBase {
    Args args;
    Tiling tiling;
    uint64_t libApiWorkspaceBytes = 0;
    TilingPlatform platform;  // captured at phase 1; phase 2 launches on it
};

inline aclnnStatus Report(aclnnStatus status, const char* api, const std::string& message) {
    ReportError(std::string(api) + ": " + message);
    return status;
}

inline GmBuffer Buffer(const TensorArg& t) { return GmBuffer{t.data, t.bytes}; }

}  // namespace xent

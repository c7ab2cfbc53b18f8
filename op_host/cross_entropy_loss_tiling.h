// Tiling of CrossEntropyLoss (the forward): a pure function of the problem (shapes,
// dtypes, options) and the platform (vector cores, UB bytes, lib-API workspace
// bytes), as cross_entropy_loss_grad_tiling.h. Property-tested in tests/op_host.
#pragma once
#include <cstdint>
#include <string>

#include "../op_kernel/cross_entropy_loss_tiling_data.h"
#include "cross_entropy_loss_grad_tiling.h"  // TilingPlatform, DtypeBytes

namespace xent {

struct ForwardProblem {
    int64_t n = 0, c = 1;
    int64_t dtype = XENT_FP32;  // XentDtype
    int64_t targetBytes = 8;    // 8 (int64) or 4 (int32)
    int64_t reduction = XENT_MEAN;
    int64_t ignoreIndex = -100;
    bool hasWeight = false;
    double labelSmoothing = 0.0;
    double zlossScale = 0.0;  // lseSquareScaleForZloss
    bool fused = false;       // the gradient for an upstream gradient of 1 instead of log_prob
    double softcap = 0.0;     // > 0: the logits are capped first, softcap * tanh(x / softcap)
};

struct ForwardTilingResult {
    bool ok = false;
    std::string error;  // when !ok
    CrossEntropyLossTilingData data{};
    uint32_t blockDim = 0;
    uint64_t workspaceBytes = 0;  // user bytes + lib-API bytes; 0 when nothing launches
    uint64_t ubBytesUsed = 0;     // sum of the kernel's InitBuffer sizes
};

ForwardTilingResult ComputeForwardTiling(const ForwardProblem& problem, const TilingPlatform& platform);

// Whether phase 2 launches: rows to compute, or a mean/sum to write (of no rows).
inline bool Launches(const CrossEntropyLossTilingData& t) { return t.n > 0 || t.reduction != XENT_NONE; }

// The kernel's UB use for the given tiling data (sum of its InitBuffer sizes).
uint64_t ForwardUbBytesUsed(const CrossEntropyLossTilingData& t);

}  // namespace xent

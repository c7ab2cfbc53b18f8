// Tiling of CrossEntropyLossGrad: a pure function of the problem (shapes,
// dtypes, options) and the platform (vector cores, UB bytes, lib-API
// workspace bytes). No globals, no I/O; property-tested in tests/op_host.
#pragma once
#include <cstdint>
#include <string>

#include "../op_kernel/cross_entropy_loss_grad_tiling_data.h"

namespace xent {

struct TilingProblem {
    int64_t n = 0, c = 1;
    int64_t dtype = XENT_FP32;  // XentDtype
    int64_t targetBytes = 8;    // 8 (int64) or 4 (int32)
    int64_t reduction = XENT_MEAN;
    int64_t ignoreIndex = -100;
    bool hasWeight = false;
    bool hasGradZloss = false;  // gradZlossOptional given
    bool hasLse = false;        // lseForZlossOptional given
    double labelSmoothing = 0.0;
    double zlossScale = 0.0;    // lseSquareScaleForZloss
    // A vocabulary shard: logProb's columns are classes [classOffset, classOffset + c)
    // of classTotal (targets, weight and smoothing are the whole vocabulary's); 0: c.
    int64_t classOffset = 0;
    int64_t classTotal = 0;
};

struct TilingPlatform {
    uint32_t vectorCores = 48;
    uint64_t ubBytes = 188416;
    uint64_t libApiWorkspaceBytes = 16u << 20;
    uint64_t l2Bytes = 192u << 20;  // the L2 cache
    std::string soc;  // the SoC profile these figures are of (simulator build), for the launch; not read by the tiling
};

struct TilingResult {
    bool ok = false;
    std::string error;                 // when !ok
    CrossEntropyLossGradTilingData data{};
    uint32_t blockDim = 0;
    uint64_t workspaceBytes = 0;       // user bytes + lib-API bytes; 0 when N == 0
    uint64_t ubBytesUsed = 0;          // sum of the kernel's InitBuffer sizes
};

TilingResult ComputeTiling(const TilingProblem& problem, const TilingPlatform& platform);

// The problem's fields and the row terms' factors of t (no tiles): the backward's, and
// the fused forward's gradient.
void SetGradProblem(const TilingProblem& problem, uint64_t l2Bytes, CrossEntropyLossGradTilingData& t);
// The prologue of t's problem (W and M for mean, sum_k w_k for weighted smoothing) with
// its workspace slots from slotOffset on; returns the offset past them.
int64_t SetGradPrologue(CrossEntropyLossGradTilingData& t, int64_t slotOffset);

// The kernel's UB use for the given tiling data (sum of its InitBuffer sizes).
uint64_t UbBytesUsed(const CrossEntropyLossGradTilingData& t);

inline int64_t DtypeBytes(int64_t dtype) { return dtype == XENT_FP32 ? 4 : 2; }

}  // namespace xent

// What the calling thread's most recent launch (aclnnXentCrossEntropyLossGrad or
// aclnnXentCrossEntropyLoss) used: the tiling mode, tile sizes, core count and the
// ideal traffic, for tests and for the Python side's reports.
#pragma once
#include <cstdint>
#include <string>

namespace ascend_xent {

struct LaunchInfo {
    // The backward: "row_packed" (TC == C) or "column_split"; the forward: "whole_rows" or
    // "column_tiles"; "" before any launch, "empty" when nothing was launched.
    std::string mode;
    int64_t tileRows = 0;       // R
    int64_t tileCols = 0;       // TC
    int64_t rowTiles = 0;
    int64_t colTiles = 0;
    int64_t blockDim = 0;       // cores launched (0 when N == 0)
    bool prologue = false;      // the backward's launch-wide sums (W, M, sum w) ran as a launch of their own
    int64_t launches = 0;       // kernel launches the call queued (2: the sums launch, then the main kernel)
    uint64_t workspaceBytes = 0;
    uint64_t minTrafficBytes = 0;  // N*C*(input + output element bytes): logProb in and the gradient out, or the logits in and logProb out
    uint64_t ubBytes = 0;          // UB the kernel's buffers take
};

// Per calling thread.
LaunchInfo last_launch_info();

}  // namespace ascend_xent

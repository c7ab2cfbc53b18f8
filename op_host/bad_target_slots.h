// The kernels' out-of-range target report: each core writes {smallest bad row, its
// target} to its own 32-byte workspace slot (kNoBadRow when it saw none); after a
// completed launch the host reads the slots back and takes the smallest row.
#pragma once
#include <cstdint>
#include <string>

namespace xent {

// After a completed launch: ACLNN_SUCCESS, or the status and message (into *message)
// for the smallest bad row; `consequence` says what became of such rows.
int32_t CheckBadTargets(const void* slots, int64_t blockDim, int64_t classes, int64_t ignoreIndex,
                        const char* consequence, std::string* message);

}  // namespace xent

// UB layout of the sums launch's vector path (cross_entropy_loss_grad_sums_vector.h),
// shared by the host (UB budget, in the tiling) and the kernel (offsets). Byte offsets
// in one buffer, each a multiple of 32:
// [stage]   the targets of one batch (int64 or int32)
// [target]  the same as float
// [live]    1 for a row that counts, else 0
// [tmp]     a factor of live, then the weight's byte offsets
// [values]  weight[target] of the live rows, 0 elsewhere
// [slots]   the batch's chunks' 32-byte slots {float W, int32 M}, on their way to GM
// [counts]  M of each chunk as float, one per 32 bytes (ReduceSum's results)
// [reduce]  ReduceSum's tmp buffer (unused by the A2 count form, but an argument)
// [weight]  the whole weight (tiling: sumsWeightBufBytes)
#pragma once
#include <cstdint>

#include "cross_entropy_loss_grad_tiling_data.h"

namespace xent {

constexpr int64_t kSumsBatchRows = 1024;  // rows per batch: whole chunks
constexpr int64_t kSumsBatchChunks = kSumsBatchRows / kMinRowChunk;  // at most
static_assert(kSumsBatchRows % kMaxRowChunk == 0, "a batch holds whole chunks of any size");
static_assert(kSumsBatchRows / 64 <= 255, "Gather's count form: at most 255 repeats");

constexpr int64_t kSumsStageOff = 0;
constexpr int64_t kSumsTargetOff = kSumsStageOff + kSumsBatchRows * 8;
constexpr int64_t kSumsLiveOff = kSumsTargetOff + kSumsBatchRows * 4;
constexpr int64_t kSumsTmpOff = kSumsLiveOff + kSumsBatchRows * 4;
constexpr int64_t kSumsValuesOff = kSumsTmpOff + kSumsBatchRows * 4;
constexpr int64_t kSumsSlotsOff = kSumsValuesOff + kSumsBatchRows * 4;
constexpr int64_t kSumsCountsOff = kSumsSlotsOff + kSumsBatchChunks * kSlotBytes;
constexpr int64_t kSumsReduceTmpOff = kSumsCountsOff + kSumsBatchChunks * kSlotBytes;
constexpr int64_t kSumsWeightOff = kSumsReduceTmpOff + 32;
// The vector path needs every target that can be live to convert to float exactly.
constexpr int64_t kSumsVectorMaxClasses = int64_t(1) << 24;

}  // namespace xent

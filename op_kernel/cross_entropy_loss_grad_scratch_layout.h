// Layout of the small UB scratch buffer (prologue staging, partial sums, the
// bad-target slot). Shared by the host (UB budget) and the kernel (offsets).
#pragma once
#include <cstdint>

#include "cross_entropy_loss_grad_tiling_data.h"

namespace xent {

// [stage]  targets of kRowSub rows (int64), or kWeightSub weights, or kSlotBatch partial slots
// [values] weight[target] of kRowSub rows (float), summed by ReduceSum
// [reduceDst] ReduceSum result (one 32-byte block)
// [reduceTmp] ReduceSum's shared tmp buffer
// [slot]   one 32-byte workspace slot on its way to GM
constexpr int64_t kScratchStageOff = 0;
constexpr int64_t kScratchStageBytes = 4096;
static_assert(kRowSub * 8 <= kScratchStageBytes && kWeightSub * 4 <= kScratchStageBytes &&
                  kSlotBatch * kSlotBytes <= kScratchStageBytes,
              "prologue staging must fit");
// After the prologue, stage holds the main loop's [terms]: 64 floats of scale_i, 64 of -smooth_i.
constexpr int64_t kScratchTermsOff = kScratchStageOff;
static_assert(2 * 64 * 4 <= kScratchStageBytes, "the term blocks must fit");
// Row-packed weighted smoothing (ScaleRowsByStripes): then [rowScales], two sets of 64
// scale_i after the terms, and values holds two sets of 64 of them broadcast to a block each.
constexpr int64_t kScratchRowScalesOff = kScratchTermsOff + 2 * 64 * 4;
static_assert(kScratchRowScalesOff + 2 * kTermRows * 4 <= kScratchStageBytes, "the row scales must fit");
constexpr int64_t kScratchValuesOff = kScratchStageOff + kScratchStageBytes;
constexpr int64_t kScratchRowBlocksOff = kScratchValuesOff;
constexpr int64_t kScratchValuesBytes = 4096;  // kRowSub or kWeightSub floats
static_assert(kRowSub * 4 <= kScratchValuesBytes && kWeightSub * 4 <= kScratchValuesBytes, "values must fit");
static_assert(2 * kTermRows * 32 <= kScratchValuesBytes, "the row scale blocks must fit");
// In the main kernel's totals, values holds the row slots' byte offsets (2 kSlotBatch
// int32), their gathered W and M (2 kSlotBatch floats) and the two sums (one block each).
constexpr int64_t kScratchSlotSumsOff = kScratchValuesOff + 4 * kSlotBatch * 4;
static_assert(kScratchSlotSumsOff + 64 <= kScratchValuesOff + kScratchValuesBytes, "the slot sums must fit");
constexpr int64_t kScratchReduceDstOff = kScratchValuesOff + kScratchValuesBytes;
constexpr int64_t kScratchReduceTmpOff = kScratchReduceDstOff + 32;
constexpr int64_t kScratchReduceTmpBytes = 4096;
constexpr int64_t kScratchSlotOff = kScratchReduceTmpOff + kScratchReduceTmpBytes;
constexpr int64_t kScratchBytes = kScratchSlotOff + kSlotBytes;

}  // namespace xent

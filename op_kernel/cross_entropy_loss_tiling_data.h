// The tiling of one CrossEntropyLoss (forward) launch: a plain struct shared by
// the host (op_host/cross_entropy_loss_tiling.cpp computes it) and the kernel
// (which brings it into UB in one DMA). Only int64_t and float fields, naturally
// aligned, no pointers, size a multiple of 8 bytes.
#pragma once
#include <cstdint>

#include "cross_entropy_loss_grad_tiling_data.h"  // XentDtype, XentReduction, kSlotBytes, kNoBadRow

namespace xent {

// Rows whose scalars (max, sum, logsumexp, loss terms) one group holds in UB at once.
constexpr int64_t kFwdGroupRows = 64;
// The mean/sum pass adds the per-row values in chunks of this many rows, chunk after
// chunk: a fixed order, whatever the core count.
constexpr int64_t kFwdSumChunk = 1024;
// Softcaps up to this take the exp form alone (op_kernel/cross_entropy_loss_fused_steps.h):
// its absolute error, about 4.5 * 2^-24 * cap, is at most 1.7e-5 in a logit, inside a
// float32 loss's tolerance; larger caps, where logits far inside the cap would lose to
// it, add the series near 0 (softcapSeries).
constexpr double kSoftcapExpFormMaxCap = 64.0;
// Column tiles: slots of T the tiles stream through (one loading, one computed, one
// copying out).
constexpr int64_t kFwdSlots = 3;
// Per-row workspace arrays of the mean/sum pass, in this order, each N floats rounded
// up to 32 bytes: the row's loss term, its z-loss term, weight[target] (0 when
// ignored), 1 for a counted row.
constexpr int64_t kFwdRowArrays = 4;

// The per-group scalar buffer (rowBuf), byte offsets. Slots: one 32-byte result per
// row of a group for each reduction (ReduceMax/ReduceSum write a block each). Vectors:
// kFwdGroupRows floats each (the group's ln(sum), loss, z-loss, logsumexp, weight[target],
// counted flag), then the three outputs per row in T, then one 32-byte block for a
// single scalar's Exp/Ln and two for the mean/sum results (float, then T).
constexpr int64_t kFwdSlotMax = 0;
constexpr int64_t kFwdSlotSum = kFwdSlotMax + kFwdGroupRows * 32;
constexpr int64_t kFwdSlotSmooth = kFwdSlotSum + kFwdGroupRows * 32;
constexpr int64_t kFwdVecOff = kFwdSlotSmooth + kFwdGroupRows * 32;
enum FwdVec : int64_t { FWD_LN_SUM = 0, FWD_LOSS, FWD_ZLOSS, FWD_LSE, FWD_WEIGHT, FWD_COUNTED, FWD_VECS };
constexpr int64_t kFwdOutOff = kFwdVecOff + FWD_VECS * kFwdGroupRows * 4;  // loss, zloss, lse in T (2 or 4 B)
constexpr int64_t kFwdScalarOff = kFwdOutOff + 3 * kFwdGroupRows * 4;
constexpr int64_t kFwdFinalOff = kFwdScalarOff + 32;  // {loss, zloss} as float at +0, +32; as T at +64, +96
constexpr int64_t kFwdRowBufBytes = kFwdFinalOff + 4 * 32;

struct CrossEntropyLossTilingData {
    // ---- the problem ----
    int64_t n;            // rows of input
    int64_t c;            // classes
    int64_t dtype;        // XentDtype of input, lossOut, logProbOut, zlossOut, lseForZlossOut
    int64_t targetBytes;  // 8 (int64) or 4 (int32)
    int64_t reduction;    // XentReduction
    int64_t ignoreIndex;
    int64_t hasWeight;    // weightOptional given
    int64_t smoothing;    // labelSmoothing > 0
    int64_t hasZloss;     // lseSquareScaleForZloss != 0
    float oneMinusLs;     // 1 - labelSmoothing
    float lsOverC;        // labelSmoothing / C
    float zlossScale;     // lseSquareScaleForZloss
    float pad0;

    // ---- rows and columns ----
    int64_t blockDim;       // cores launched
    int64_t rowsPerCore;    // a core's rows, base; the first rowRemainder cores get one more
    int64_t rowRemainder;
    // 1: a row fits in UB; tiles of tileRows whole rows, each row read once. 0: a row is
    // walked in column tiles of tileCols, twice (max and sum online, then log_prob).
    int64_t wholeRows;
    int64_t tileRows;
    int64_t tileCols;       // == c when wholeRows
    int64_t weightResident; // 1: the whole weight sits in UB (weightBufBytes holds it)

    // ---- UB buffers, bytes (each a multiple of 32) ----
    int64_t xBufBytes;       // whole rows: one tile of T (fp32: also the work area); column tiles: kFwdSlots slots
    int64_t slotBytes;       // column tiles: the distance from one slot to the next
    int64_t workBufBytes;    // fp16/bf16: the tile in fp32; fp32: 0
    int64_t expBufBytes;     // one row (or column tile) of fp32: exp(x - max), w * log_prob
    int64_t weightBufBytes;  // the whole weight (weightResident), a column tile of it (weighted smoothing), or 0
    int64_t reduceTmpBytes;  // ReduceMax/ReduceSum shared tmp
    int64_t rowBufBytes;     // kFwdRowBufBytes
    int64_t sumBufBytes;     // mean/sum: kFwdRowArrays chunks of kFwdSumChunk floats; none: 0
    int64_t spacerBytes;     // unused UB before the fp32 tiles: 16-bit column tiles put them 64 KiB on

    // ---- user workspace layout (byte offsets from GetUserWorkspace()) ----
    int64_t tilingBytes;      // this struct sits at offset 0
    int64_t badSlotOffset;    // blockDim slots: {smallest bad row, its target, 0, 0} as int64
    int64_t rowArraysOffset;  // mean/sum: kFwdRowArrays arrays of rowArrayStride floats
    int64_t rowArrayStride;   // elements of one per-row array (N rounded up to 8)
    int64_t userWorkspaceBytes;

    // ---- the fused loss and gradient (aclnnXentCrossEntropyLossWithGrad) ----
    // 1: logProb's buffer receives d loss / d input for an upstream gradient of 1
    // instead of log_prob; it may be the input itself (a tile is read before it is
    // written, and never read again).
    int64_t fused;
    int64_t hasSoftcap;    // the logits are capped first: cap * tanh(x / cap)
    float softcap;         // cap
    float invSoftcap;      // 1 / cap
    float twoOverSoftcap;  // 2 / cap
    uint32_t softcapSeries;  // 1: tanh near 0 from its series (a cap above kSoftcapExpFormMaxCap)
    int64_t scratchBufBytes;  // fused with a prologue: its UB scratch (kScratchBytes), else 0
    // fused: the gradient's problem, row-term factors and prologue (W, M, sum_k w_k, summed
    // as the backward's prologue sums them), in the backward's own tiling struct.
    CrossEntropyLossGradTilingData grad;
};

static_assert(sizeof(CrossEntropyLossTilingData) % 8 == 0, "read as int64 words");

}  // namespace xent

// The tiling of one CrossEntropyLossGrad launch: a plain struct shared by the
// host (which computes it, op_host/cross_entropy_loss_grad_tiling.cpp) and the
// kernel (which brings it into UB in one DMA). Only int64_t and float
// fields, naturally aligned, no pointers, size a multiple of 8 bytes.
#pragma once
#include <cstdint>

namespace xent {

enum XentDtype : int64_t { XENT_FP32 = 0, XENT_FP16 = 1, XENT_BF16 = 2 };
enum XentReduction : int64_t { XENT_NONE = 0, XENT_MEAN = 1, XENT_SUM = 2 };

// Prologue chunk sizes: constants or (rows) chosen from N alone, so the mean's W, M and
// sum_k w_k are summed in the same order on every core count, SoC profile and UB size.
// Rows per W/M partial (rowChunkRows): a power of two from kMinRowChunk to kMaxRowChunk,
// chosen from N alone (its scalar loop is the prologue's critical path).
constexpr int64_t kMinRowChunk = 64, kMaxRowChunk = 256;
constexpr int64_t kLocalPrologueRows = 64;  // up to this many rows every core sums the prologue's chunks itself
constexpr int64_t kRowSub = 512;        // rows staged in UB at a time inside a chunk
constexpr int64_t kWeightChunk = 4096;  // weight columns per sum_k w_k partial
constexpr int64_t kWeightSub = 1024;    // weight columns staged in UB at a time
constexpr int64_t kSlotBytes = 32;      // one workspace slot (partials, bad-target report)
constexpr int64_t kSlotBatch = 128;     // partial slots read into UB at a time
constexpr int64_t kNoBadRow = -1;       // bad-target slot value when every target was valid
// Rows whose terms the kernel holds on its scalar stack at once; a piece of a tile's
// float work spans at most this many whole rows.
constexpr int64_t kTermRows = 64;
// Most rows one weighted-smoothing instruction covers (the weight's row copies, see smoothWeightRows).
constexpr int64_t kSmoothWeightRows = 8;
// Classes up to which an int64 target converts to float exactly (2^24): the codes' bound.
constexpr int64_t kMaxCodedClasses = int64_t(1) << 24;

struct CrossEntropyLossGradTilingData {
    // ---- the problem ----
    int64_t n;             // rows of logProb
    int64_t c;             // classes (columns) of logProb
    // A vocabulary shard (the extended API): logProb's column j is class classOffset + j
    // of classTotal. Targets, the weight, the smoothing's C and sum_k w_k are the whole
    // vocabulary's. The vendor API has classOffset = 0, classTotal = c.
    int64_t classOffset;
    int64_t classTotal;
    int64_t dtype;         // XentDtype of gradLoss, logProb, gradZloss, lseForZloss, out
    int64_t targetBytes;   // 8 (int64) or 4 (int32)
    int64_t reduction;     // XentReduction
    int64_t ignoreIndex;
    int64_t hasWeight;     // weightOptional given
    int64_t hasGradZloss;  // gradZlossOptional given and z-loss active
    int64_t hasZloss;      // lseSquareScaleForZloss != 0 (lseForZlossOptional is then given)
    int64_t smoothing;     // labelSmoothing > 0
    int64_t streamLogProb; // 1: logProb and xGrad outgrow the L2 together: logProb is read around it (CACHE_MODE_DISABLE)
    // Of each core's tiles, the first outAround / 65536 write out around the L2 too: the part
    // of an output larger than the L2 that would be evicted (and written back) before the
    // launch ends; the rest stays in the L2 for whatever reads the gradient next.
    int64_t outAround;
    float oneMinusLs;      // 1 - labelSmoothing
    float lsOverC;         // labelSmoothing / classTotal
    float twoZScale;       // 2 * lseSquareScaleForZloss
    float classCount;      // classTotal as float: sum_k w_k without a weight

    // ---- tiles: R rows x TC columns; in UB a row takes its columns rounded up to
    // 32 bytes (the kernel computes that pitch per tile) ----
    int64_t tileRows;      // R
    int64_t tileCols;      // TC (== C in row-packed mode)
    int64_t rowTiles;      // ceil(N / R)
    int64_t colTiles;      // ceil(C / TC)
    int64_t totalTiles;
    int64_t blockDim;      // cores launched
    // A core's share, base; the first tileRemainder cores get one more. Row-major: of
    // the tiles. Column-major: of the N * colTiles row units (unit u: row u mod N of
    // column tile u / N), dealt as contiguous ranges; a core cuts its range into tiles
    // of up to tileRows rows per column tile.
    int64_t tilesPerCore;
    int64_t tileRemainder;
    // Balance (row-major numbering, tiles all TC wide): the last splitTiles tiles are
    // each cut into splitPieces column pieces of splitCols columns (the last one
    // narrower), numbered totalTiles - splitTiles on; core k < tileRemainder takes piece
    // k after its tilesPerCore whole tiles. 0: no pieces, the remainder cores take whole
    // tiles.
    int64_t splitTiles;
    int64_t splitPieces;
    int64_t splitCols;
    // Tile order. 1, column-major (weighted smoothing): a core's tiles share weight
    // columns, loaded once per column tile, and it deals row units, not tiles. 0,
    // row-major: a core's tiles are one contiguous stretch of logProb and out, read and
    // written front to back.
    int64_t colMajorTiles;
    // 1: the whole weight vector sits in UB (small C): weight[t_i] is a scalar UB read,
    // not a GM one, in the prologue and per row, and the smoothing term reads it too.
    int64_t weightResident;
    // Row-packed weighted smoothing with a resident weight: w copied onto this many rows
    // (0, or up to kSmoothWeightRows in 16 KiB) at the tile's row pitch, after the weight
    // in its buffer, so one instruction covers that many consecutive rows: a FusedMulAdd
    // from copies scaled by -smooth (mean, sum), else an Axpy of smooth_i * w_j.
    int64_t smoothWeightRows;

    // ---- UB buffers, bytes (each a multiple of 32) ----
    int64_t ioBuffers;       // tile buffers of the in/out queue (TQueBind<VECIN, VECOUT>): 3 or 2
    int64_t ioBufBytes;      // one tile of T: logProb in, then xGrad out of the same buffer (ioBuffers of them)
    // fp16/bf16 only, else 0: the fp32 work area, the whole tile or (when smaller) the
    // floats of one piece, a multiple of 64 (pieces start on 32-byte blocks of both types)
    int64_t workBufBytes;
    // Unused UB between the tile buffers and the work area, so that the work area starts
    // on the 64 KiB third of UB after the one the tile buffers fill: a Cast between them
    // then never reads and writes one bank (0: no such padding).
    int64_t workPadBytes;
    int64_t weightBufBytes;  // the whole weight (weightResident, then its smoothWeightRows copies), or one tile's weight columns (weighted smoothing), else 0
    int64_t stageRows;       // rows one stage holds: tileRows row-packed, more with column tiles (one DMA for many rows)
    int64_t stageBytes;      // one stage of per-row inputs; 2 stages
    // > 0: the int64 targets' int32 codes at this offset of a stage (the target where it
    // lies in [0, classTotal), else -1 or classTotal: the row's target is then read whole),
    // formed by the vector unit, read two to a 64-bit scalar access; with a resident
    // weight, the codes' weights (fp32) and then the gather's offsets follow, each area
    // stageRows * 4 bytes rounded up to 32. 0: none.
    int64_t stageCodeOff;
    int64_t stageGradOff;    // offsets inside a stage: target at 0, [codes], then gradLoss, gradZloss, lseForZloss
    int64_t stageGzOff;
    int64_t stageLseOff;
    int64_t scratchBytes;    // prologue staging, partial sums, bad-target slot

    // ---- prologue: W, M (mean) and sum_k w_k (weighted smoothing) ----
    int64_t prologue;        // 1: the main kernel needs them
    // 1: at most one row chunk and one weight chunk (N <= kLocalPrologueRows, C <=
    // kWeightChunk): every core sums them itself, with no workspace slot; the same bits.
    int64_t prologueLocal;
    // Blocks of the sums launch queued before the main kernel (its chunks' partial
    // slots); 0: no such launch (no sums, or prologueLocal).
    int64_t sumsBlockDim;
    // 1: the sums launch sums its row chunks on the vector unit (cross_entropy_loss_grad_sums_vector.h),
    // in a buffer of sumsBufBytes whose last sumsWeightBufBytes hold the whole weight (0 without
    // one). 0: on the scalar unit, with the whole weight in UB when sumsWeightBufBytes > 0.
    int64_t sumsVector;
    int64_t sumsBufBytes;
    int64_t sumsWeightBufBytes;
    int64_t rowChunks;       // ceil(N / rowChunkRows) when mean, else 0
    int64_t rowChunkRows;    // rows per row chunk (kMinRowChunk..kMaxRowChunk)
    int64_t weightChunks;    // ceil(classTotal / kWeightChunk) when weighted smoothing, else 0

    // ---- user workspace layout (byte offsets from GetUserWorkspace()) ----
    int64_t tilingBytes;        // this struct sits at offset 0
    int64_t badSlotOffset;      // blockDim slots: {smallest bad row, its target, 0, 0} as int64
    int64_t rowPartialOffset;   // rowChunks slots: {float W partial, int32 M partial}
    int64_t weightPartialOffset;// weightChunks slots: {float sum w partial}
    int64_t userWorkspaceBytes;
};

static_assert(sizeof(CrossEntropyLossGradTilingData) % 8 == 0, "read as int64 words");

}  // namespace xent

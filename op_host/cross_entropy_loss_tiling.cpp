#include "cross_entropy_loss_tiling.h"

#include "../op_kernel/cross_entropy_loss_grad_scratch_layout.h"

namespace xent {
namespace {

int64_t Align(int64_t v, int64_t a) { return (v + a - 1) / a * a; }

// ReduceMax's tmp for `cols` fp32 values without the index (ReduceMax.md):
// roundup(2 * max(1, cols / 64), 8) floats; ReduceSum's count form takes the same buffer.
// With the softcap's series it is also its CompareScalar mask: a bit for each of cols
// rounded up to whole 64-value repeats.
int64_t ReduceTmpBytes(int64_t cols, bool series) {
    const int64_t repeats = cols / 64 > 1 ? cols / 64 : 1;
    const int64_t tmp = Align(2 * repeats, 8) * 4, mask = series ? Align(cols, 64) / 8 : 0;
    return Align(tmp > mask ? tmp : mask, 32);
}

// UB bytes of every buffer but the tile-sized ones.
int64_t FixedBytes(const CrossEntropyLossTilingData& t) {
    return kFwdRowBufBytes + t.sumBufBytes + t.scratchBufBytes;
}

// Column tiles of cols columns: the buffers. The spacer before the fp32 tiles (the
// kernel's InitBuffer order: the T slots, the small buffers, the spacer, the work tile,
// e): fp32, e 256 bytes past a multiple of 512 from each slot (the slots 512-byte
// multiples apart); 16-bit, the work tile 64 KiB into UB when it still fits (the buffers
// before it being shorter), so that the Casts between the T slots and the work tile read
// and write different banks (one bank per 4 KiB of a 64 KiB third).
void SetColumnBuffers(CrossEntropyLossTilingData& t, int64_t cols, int64_t elem, int64_t weightBytes,
                      bool weightTiles, int64_t ub) {
    const bool fp32 = elem == 4;
    t.slotBytes = fp32 ? Align(cols * 4, 512) : Align(cols * elem, 32);
    t.xBufBytes = kFwdSlots * t.slotBytes;
    t.workBufBytes = fp32 ? 0 : cols * 4;
    t.expBufBytes = cols * 4;
    t.weightBufBytes = t.weightResident ? weightBytes : (weightTiles ? cols * 4 : 0);
    t.reduceTmpBytes = ReduceTmpBytes(cols, t.softcapSeries != 0);
    const int64_t before = t.xBufBytes + t.weightBufBytes + t.reduceTmpBytes + FixedBytes(t);
    t.spacerBytes = 0;
    if (fp32) {
        t.spacerBytes = ((256 - before) % 512 + 512) % 512;
    } else if (before < 65536 && 65536 + t.workBufBytes + t.expBufBytes <= ub) {
        t.spacerBytes = 65536 - before;
    }
}

}  // namespace

uint64_t ForwardUbBytesUsed(const CrossEntropyLossTilingData& t) {
    return uint64_t(t.xBufBytes + t.workBufBytes + t.expBufBytes + t.weightBufBytes + t.reduceTmpBytes +
                    t.rowBufBytes + t.sumBufBytes + t.scratchBufBytes + t.spacerBytes);
}

ForwardTilingResult ComputeForwardTiling(const ForwardProblem& p, const TilingPlatform& platform) {
    ForwardTilingResult r;
    CrossEntropyLossTilingData& t = r.data;
    if (p.n < 0 || p.c < 1) {
        r.error = "N must be >= 0 and C >= 1";
        return r;
    }
    const int64_t elem = DtypeBytes(p.dtype);
    const bool fp32 = p.dtype == XENT_FP32;
    t.n = p.n;
    t.c = p.c;
    t.dtype = p.dtype;
    t.targetBytes = p.targetBytes;
    t.reduction = p.reduction;
    t.ignoreIndex = p.ignoreIndex;
    t.hasWeight = p.hasWeight ? 1 : 0;
    t.smoothing = p.labelSmoothing > 0.0 ? 1 : 0;
    t.hasZloss = p.zlossScale != 0.0 ? 1 : 0;
    t.oneMinusLs = static_cast<float>(1.0 - p.labelSmoothing);
    t.lsOverC = static_cast<float>(p.labelSmoothing / double(p.c));
    t.zlossScale = static_cast<float>(p.zlossScale);
    t.rowBufBytes = kFwdRowBufBytes;
    t.sumBufBytes = p.reduction == XENT_NONE ? 0 : kFwdRowArrays * kFwdSumChunk * 4;
    if (p.fused) {
        // The gradient's factors and prologue are the backward's (its slots placed below).
        const TilingProblem g{p.n, p.c, p.dtype, p.targetBytes, p.reduction, p.ignoreIndex, p.hasWeight,
                              /*gradZloss*/ false, /*lse*/ true, p.labelSmoothing, p.zlossScale};
        SetGradProblem(g, platform.l2Bytes, t.grad);
        SetGradPrologue(t.grad, 0);
        t.fused = 1;
        t.scratchBufBytes = t.grad.prologue ? kScratchBytes : 0;
        if (p.softcap > 0.0) {
            t.hasSoftcap = 1;
            t.softcap = static_cast<float>(p.softcap);
            t.invSoftcap = static_cast<float>(1.0 / p.softcap);
            t.twoOverSoftcap = static_cast<float>(2.0 / p.softcap);
            t.softcapSeries = p.softcap > kSoftcapExpFormMaxCap ? 1 : 0;
        }
    }

    // Rows split over the cores in contiguous ranges; every launched core gets a row.
    const int64_t cores = platform.vectorCores;
    t.blockDim = p.n == 0 ? 1 : (p.n < cores ? p.n : cores);
    t.rowsPerCore = p.n / t.blockDim;
    t.rowRemainder = p.n % t.blockDim;
    t.grad.blockDim = t.blockDim;
    t.grad.tileRemainder = t.rowRemainder;  // the prologue deals its chunks from the last core down

    const int64_t ub = static_cast<int64_t>(platform.ubBytes);
    const int64_t perBlock = 32 / elem;
    // Whole rows: one row's tile (T and, for 16-bit, fp32), its exp row, the resident
    // weight and the reduce tmp; as many rows per tile as fit (at most a group).
    const int64_t pitch = Align(p.c, perBlock);
    const int64_t rowTileBytes = Align(pitch * elem, 32) + (fp32 ? 0 : pitch * 4);
    const int64_t weightBytes = p.hasWeight ? Align(p.c * 4, 32) : 0;
    // The exp row: with the softcap's series, whole 64-value repeats (its CompareScalar reads them).
    const int64_t expBytes = (t.softcapSeries ? Align(pitch, 64) : pitch) * 4;
    const int64_t wholeFixed = FixedBytes(t) + expBytes + weightBytes + ReduceTmpBytes(p.c, t.softcapSeries != 0);
    if (wholeFixed + rowTileBytes <= ub) {
        int64_t rows = (ub - wholeFixed) / rowTileBytes;
        if (rows > kFwdGroupRows) rows = kFwdGroupRows;
        t.wholeRows = 1;
        t.tileRows = rows;
        t.tileCols = p.c;
        t.weightResident = p.hasWeight ? 1 : 0;
        t.xBufBytes = Align(rows * pitch * elem, 32);
        t.workBufBytes = fp32 ? 0 : rows * pitch * 4;
        t.expBufBytes = expBytes;
        t.weightBufBytes = weightBytes;
        t.reduceTmpBytes = ReduceTmpBytes(p.c, t.softcapSeries != 0);
    } else {
        // Column tiles of a multiple of 64 columns (256 B of fp32): the weight stays
        // resident when it takes at most a third of UB, else weighted smoothing loads its
        // columns per tile. xBuf holds kFwdSlots tiles of T (the next tile loading, this one
        // computed, the last one copying out); 16-bit values are computed in an fp32 work tile.
        t.wholeRows = 0;
        t.tileRows = 1;
        t.weightResident = p.hasWeight && weightBytes <= ub / 3 ? 1 : 0;
        const bool weightTiles = p.hasWeight && !t.weightResident && p.labelSmoothing > 0.0;
        const int64_t perCol = kFwdSlots * elem + (fp32 ? 0 : 4) + 4 + (weightTiles ? 4 : 0);
        int64_t maxCols = (ub - FixedBytes(t) - (t.weightResident ? weightBytes : 0)) / perCol / 64 * 64;
        for (; maxCols >= 64; maxCols -= 64) {  // the tmp and the padding below take the rest
            SetColumnBuffers(t, maxCols, elem, weightBytes, weightTiles, ub);
            if (ForwardUbBytesUsed(t) <= uint64_t(ub)) break;
        }
        if (maxCols < 64) {
            r.error = "the unified buffer of " + std::to_string(platform.ubBytes) + " bytes is too small";
            return r;
        }
        // As few tiles as fit, of one width (each load hides behind as much compute), an odd
        // number of 64-column repeats: an fp32 tile is then 256 bytes modulo 512, and the
        // fp32 tiles a step reads and writes (v and e) sit in different bank groups.
        const int64_t tiles = (p.c + maxCols - 1) / maxCols;
        int64_t cols = Align((p.c + tiles - 1) / tiles, 64);
        if (cols / 64 % 2 == 0 && cols < p.c && cols + 64 <= maxCols) cols += 64;
        t.tileCols = cols;
        SetColumnBuffers(t, cols, elem, weightBytes, weightTiles, ub);
    }
    r.ubBytesUsed = ForwardUbBytesUsed(t);
    if (r.ubBytesUsed > platform.ubBytes) {
        r.error = "UB plan of " + std::to_string(r.ubBytesUsed) + " bytes exceeds the " +
                  std::to_string(platform.ubBytes) + " bytes available";
        return r;
    }

    // Workspace: the tiling, the bad-target slots, the per-row arrays (mean/sum).
    t.tilingBytes = Align(int64_t(sizeof(CrossEntropyLossTilingData)), 32);
    t.badSlotOffset = t.tilingBytes;
    t.rowArraysOffset = t.badSlotOffset + t.blockDim * kSlotBytes;
    t.rowArrayStride = p.reduction == XENT_NONE ? 0 : Align(p.n, 8);
    t.userWorkspaceBytes = t.rowArraysOffset + kFwdRowArrays * t.rowArrayStride * 4;
    if (t.fused) t.userWorkspaceBytes = SetGradPrologue(t.grad, t.userWorkspaceBytes);
    r.blockDim = static_cast<uint32_t>(t.blockDim);
    // No rows under mean/sum still launches: core 0 writes the reduction of nothing.
    r.workspaceBytes = Launches(t) ? uint64_t(t.userWorkspaceBytes) + platform.libApiWorkspaceBytes : 0;
    r.ok = true;
    return r;
}

}  // namespace xent

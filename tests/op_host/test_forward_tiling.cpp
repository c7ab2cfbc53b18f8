// Property tests of the forward's tiling (a pure function): over random shapes and
// options on every SoC profile, the UB budget holds, a row that fits is read whole,
// rows are dealt to the cores in contiguous ranges that cover N exactly, and the
// workspace holds the tiling, the bad-target slots and the mean/sum's per-row arrays
// (fused: then the gradient prologue's slots, its UB scratch inside the budget).
#include <algorithm>
#include <cstring>
#include <random>

#include "ascend_sim/sim.h"
#include "../op_kernel/cross_entropy_loss_grad_scratch_layout.h"
#include "cross_entropy_loss_tiling.h"
#include "platform_info_sim.h"  // PlatformOf
#include "xtest.h"

using namespace xent;

namespace {

void CheckProperties(const ForwardProblem& p, const TilingPlatform& plat) {
    const ForwardTilingResult r = ComputeForwardTiling(p, plat);
    XCHECK(r.ok);
    const CrossEntropyLossTilingData& t = r.data;
    const int64_t eb = DtypeBytes(p.dtype), perBlock = 32 / eb;
    XCHECK_EQ(r.ubBytesUsed, ForwardUbBytesUsed(t));
    XCHECK(r.ubBytesUsed <= plat.ubBytes);
    for (int64_t b : {t.xBufBytes, t.workBufBytes, t.expBufBytes, t.weightBufBytes, t.reduceTmpBytes, t.rowBufBytes,
                      t.sumBufBytes, t.spacerBytes})
        XCHECK(b % 32 == 0);
    // Tiles: whole rows (tileCols = C), or one row in column tiles of a multiple of 64.
    const int64_t cols = t.wholeRows ? p.c : t.tileCols;
    const int64_t pitch = (cols + perBlock - 1) / perBlock * perBlock;
    XCHECK(t.tileRows >= 1 && t.tileRows <= kFwdGroupRows);
    if (t.wholeRows) {
        XCHECK_EQ(t.tileCols, p.c);
    } else {
        XCHECK_EQ(t.tileRows, int64_t(1));
        XCHECK(t.tileCols % 64 == 0 && t.tileCols < p.c + 64);
        // kFwdSlots slots of T; the fp32 tiles a step reads and writes 256 bytes apart modulo 512.
        XCHECK(t.slotBytes >= t.tileCols * eb && t.slotBytes % 32 == 0 && t.xBufBytes >= kFwdSlots * t.slotBytes);
        // The kernel's InitBuffer order: slots, weight, tmp, rowBuf, sumBuf, scratch, spacer, work, e.
        const int64_t fp32Tiles = t.xBufBytes + t.weightBufBytes + t.reduceTmpBytes + t.rowBufBytes + t.sumBufBytes +
                                  t.scratchBufBytes + t.spacerBytes;
        if (eb == 4) {
            XCHECK_EQ(t.slotBytes % 512, int64_t(0));
            XCHECK_EQ(fp32Tiles % 512, int64_t(256));
        } else {
            if (t.tileCols / 64 % 2 == 1) XCHECK_EQ(t.workBufBytes % 512, int64_t(256));
            XCHECK(t.spacerBytes == 0 || fp32Tiles == 65536);
        }
    }
    XCHECK(t.xBufBytes >= t.tileRows * pitch * eb);
    XCHECK_EQ(t.workBufBytes, eb == 4 ? int64_t(0) : t.tileRows * pitch * 4);
    XCHECK(t.expBufBytes >= pitch * 4);
    // ReduceMax's tmp (ReduceMax.md): roundup(2 * max(1, cols / 64), 8) floats.
    XCHECK(t.reduceTmpBytes >= ((2 * std::max<int64_t>(1, cols / 64) + 7) / 8 * 8) * 4);
    if (t.weightResident) XCHECK(t.weightBufBytes >= p.c * 4);
    if (p.hasWeight && !t.weightResident && p.labelSmoothing > 0) XCHECK(t.weightBufBytes >= t.tileCols * 4);
    if (!p.hasWeight) XCHECK_EQ(t.weightBufBytes, int64_t(0));
    // A row that fits with the fixed buffers is never split.
    const int64_t rowPitch = (p.c + perBlock - 1) / perBlock * perBlock;
    const int64_t wholeNeed = ((rowPitch * eb + 31) / 32 * 32) + (eb == 4 ? 0 : rowPitch * 4) + rowPitch * 4 +
                              (p.hasWeight ? (p.c * 4 + 31) / 32 * 32 : 0) + t.rowBufBytes + t.sumBufBytes + t.scratchBufBytes +
                              ((2 * std::max<int64_t>(1, p.c / 64) + 7) / 8 * 8) * 4;
    if (!t.wholeRows) XCHECK(wholeNeed > int64_t(plat.ubBytes));
    // Rows: contiguous per-core ranges covering N, every launched core with a row.
    XCHECK(t.blockDim >= 1 && t.blockDim <= int64_t(plat.vectorCores));
    XCHECK_EQ(t.rowsPerCore * t.blockDim + t.rowRemainder, p.n);
    XCHECK(t.rowRemainder < t.blockDim);
    if (p.n > 0) XCHECK(t.rowsPerCore >= 1);
    // Workspace.
    XCHECK(t.badSlotOffset >= int64_t(sizeof(CrossEntropyLossTilingData)));
    XCHECK(t.rowArraysOffset >= t.badSlotOffset + t.blockDim * kSlotBytes);
    if (p.reduction != XENT_NONE) XCHECK(t.rowArrayStride >= p.n);
    XCHECK(t.userWorkspaceBytes >= t.rowArraysOffset + kFwdRowArrays * t.rowArrayStride * 4);
    XCHECK_EQ(r.workspaceBytes, Launches(t) ? uint64_t(t.userWorkspaceBytes) + plat.libApiWorkspaceBytes : 0);
    // Fused: the gradient's prologue (W, M under mean; sum_k w_k with weighted smoothing).
    XCHECK_EQ(t.fused, int64_t(p.fused));
    XCHECK_EQ(t.hasSoftcap, int64_t(p.fused && p.softcap > 0));
    XCHECK_EQ(t.softcapSeries, uint32_t(p.fused && p.softcap > kSoftcapExpFormMaxCap));
    if (!p.fused) {
        XCHECK_EQ(t.scratchBufBytes, int64_t(0));
        return;
    }
    const CrossEntropyLossGradTilingData& g = t.grad;
    // Row chunks: from N alone, the fewest rows from 64 up to 256 that make at most 32 chunks.
    int64_t chunkRows = 64;
    while (chunkRows < 256 && (p.n + chunkRows - 1) / chunkRows > 32) chunkRows *= 2;
    XCHECK_EQ(g.rowChunkRows, chunkRows);
    XCHECK_EQ(g.rowChunks, p.reduction == XENT_MEAN ? (p.n + chunkRows - 1) / chunkRows : int64_t(0));
    XCHECK_EQ(g.weightChunks, p.hasWeight && p.labelSmoothing > 0 ? (p.c + kWeightChunk - 1) / kWeightChunk : int64_t(0));
    XCHECK_EQ(t.scratchBufBytes, g.prologue ? kScratchBytes : int64_t(0));
    XCHECK_EQ(g.blockDim, t.blockDim);
    XCHECK(g.rowPartialOffset >= t.rowArraysOffset + kFwdRowArrays * t.rowArrayStride * 4);
    const int64_t slots = g.prologueLocal ? 0 : g.rowChunks + g.weightChunks;
    XCHECK(g.rowPartialOffset + slots * kSlotBytes <= t.userWorkspaceBytes);
}

}  // namespace

XTEST(tiling_properties_random_problems_every_profile) {
    std::mt19937_64 rng(5);
    for (const ascend_sim::SocProfile& prof : ascend_sim::profiles()) {
        const TilingPlatform plat = PlatformOf(prof);
        for (int k = 0; k < 400; ++k) {
            ForwardProblem p;
            p.n = int64_t(rng() % 5000);
            p.c = 1 + int64_t(rng() % (k % 4 == 0 ? 300000 : 5000));
            p.dtype = int64_t(rng() % 3);
            p.targetBytes = rng() % 2 ? 8 : 4;
            p.reduction = int64_t(rng() % 3);
            p.hasWeight = rng() % 2;
            p.labelSmoothing = rng() % 2 ? 0.1 : 0.0;
            p.zlossScale = rng() % 2 ? 1e-4 : 0.0;
            p.fused = k % 3 == 0;
            p.softcap = p.fused && k % 2 ? (k % 4 == 1 ? 30.0 : 1000.0) : 0.0;
            CheckProperties(p, plat);
        }
    }
}

// N * C past 2^31 elements: 64-bit offsets, the tiling of rows is unchanged.
XTEST(tiling_huge_shapes) {
    const TilingPlatform plat = PlatformOf(ascend_sim::current_profile());
    for (int64_t c : {int64_t(1) << 30, int64_t(128256), int64_t(7)}) {
        ForwardProblem p;
        p.c = c;
        p.n = (int64_t(1) << 33) / c;
        p.dtype = XENT_BF16;
        p.hasWeight = true;
        p.labelSmoothing = 0.1;
        CheckProperties(p, plat);
        p.fused = true;
        p.softcap = 30.0;
        CheckProperties(p, plat);
    }
}

XTEST(tiling_is_a_pure_function) {
    ForwardProblem p;
    p.n = 1000;
    p.c = 50000;
    const TilingPlatform plat = PlatformOf(ascend_sim::current_profile());
    const ForwardTilingResult a = ComputeForwardTiling(p, plat), b = ComputeForwardTiling(p, plat);
    XCHECK(std::memcmp(&a.data, &b.data, sizeof(a.data)) == 0);
}

XTEST(tiling_rejects_bad_problems) {
    const TilingPlatform plat = PlatformOf(ascend_sim::current_profile());
    ForwardProblem p;
    p.c = 0;
    XCHECK(!ComputeForwardTiling(p, plat).ok);
    p.c = 10;
    p.n = -1;
    XCHECK(!ComputeForwardTiling(p, plat).ok);
}

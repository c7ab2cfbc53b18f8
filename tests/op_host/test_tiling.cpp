// Property tests of the tiling (a pure function): over random shapes and
// options on every SoC profile, the UB budget holds, tiles cover the problem
// exactly, every launched core gets work (all cores whenever the problem has
// enough 32-byte pieces and bytes), and per-core tile counts differ by at most one.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

#include "ascend_sim/sim.h"
#include "cross_entropy_loss_grad_tiling.h"
#include "platform_info_sim.h"  // PlatformOf
#include "xtest.h"

using namespace xent;

namespace {

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

void CheckProperties(const TilingProblem& p, const TilingPlatform& plat) {
    const TilingResult r = ComputeTiling(p, plat);
    XCHECK(r.ok);
    const CrossEntropyLossGradTilingData& t = r.data;
    const int64_t eb = DtypeBytes(p.dtype), granule = 32 / eb;
    // UB budget
    XCHECK(r.ubBytesUsed == UbBytesUsed(t));
    XCHECK(r.ubBytesUsed <= plat.ubBytes);
    for (int64_t b : {t.ioBufBytes, t.workBufBytes, t.weightBufBytes, t.stageBytes, t.scratchBytes})
        XCHECK(b % 32 == 0);
    // Geometry: R rows x TC columns, pitch on 32 bytes, buffers big enough.
    XCHECK(t.tileRows >= 1 && t.tileRows <= 4095);
    XCHECK(t.tileCols >= 1 && t.tileCols <= p.c);
    XCHECK(t.tileCols == p.c || t.tileCols % granule == 0);
    // Several rows per column-split tile only with weighted smoothing (the weight reload term).
    XCHECK(t.colTiles == 1 || t.tileRows == 1 || (p.hasWeight && p.labelSmoothing > 0));
    // ... and only with row bursts of at least 16 KiB.
    XCHECK(t.colTiles == 1 || t.tileRows == 1 || t.tileCols * eb >= 16384);
    const int64_t pitch = CeilDiv(t.tileCols, granule) * granule;  // the kernel's UB row pitch
    XCHECK(t.ioBuffers == 3 || t.ioBuffers == 2);
    XCHECK(t.ioBufBytes >= t.tileRows * pitch * eb);
    // fp16/bf16: a work area of the whole tile, or pieces of a multiple of 64 floats
    // (at least 2048); fp32 works in the tile buffer.
    if (eb == 2)
        XCHECK(t.workBufBytes >= t.tileRows * pitch * 4 || (t.workBufBytes % 256 == 0 && t.workBufBytes >= 8192));
    else
        XCHECK_EQ(t.workBufBytes, int64_t(0));
    // Padding only to start a whole-tile work area on UB's second 64 KiB third.
    if (t.workPadBytes > 0) {
        XCHECK_EQ(t.ioBuffers * t.ioBufBytes + t.workPadBytes, int64_t(65536));
        XCHECK(t.workBufBytes >= t.tileRows * pitch * 4);
    }
    if (p.hasWeight && p.labelSmoothing > 0) XCHECK(t.weightBufBytes >= t.tileCols * 4);
    // A weight of at most 4096 classes stays in UB whole; a larger one never does.
    XCHECK_EQ(t.weightResident, int64_t(p.hasWeight && p.c <= 4096));  // the vendor API: classOffset 0
    // Row-packed weighted smoothing with a resident weight: w copied onto as many rows at
    // the row pitch as 16 KiB holds, at most 8.
    const bool weightRows = t.weightResident && p.labelSmoothing > 0 && t.tileCols == p.c;
    XCHECK_EQ(t.smoothWeightRows, weightRows ? std::min<int64_t>(8, 16384 / (pitch * 4)) : int64_t(0));
    if (t.weightResident) XCHECK_EQ(t.weightBufBytes, (p.c * 4 + 31) / 32 * 32 + t.smoothWeightRows * pitch * 4);
    if (!p.hasWeight) XCHECK_EQ(t.weightBufBytes, int64_t(0));
    // Row-packed tiles of int64 targets read them as int32 codes, after the targets in a stage.
    const bool codes = p.targetBytes == 8 && t.tileRows > 1 && t.tileCols == p.c && t.classTotal <= kMaxCodedClasses;
    XCHECK_EQ(t.stageCodeOff > 0, codes);
    if (codes) XCHECK(t.stageCodeOff >= t.stageRows * 8 && t.stageCodeOff + t.stageRows * 4 <= t.stageGradOff);
    // A stage holds whole tiles' rows, about 64 of them, 512 with codes, 256 with
    // column-major tiles (at least one tile's).
    if (p.n > 0) {
        const int64_t about = codes ? 512 : t.colMajorTiles ? 256 : 64;
        const int64_t block = std::min<int64_t>(p.n, t.tileRows * std::max<int64_t>(1, about / t.tileRows));
        XCHECK_EQ(t.stageRows, block);
        XCHECK(t.stageBytes >= (t.stageRows * p.targetBytes + 31) / 32 * 32);
    }
    if (p.n == 0) {
        XCHECK_EQ(r.workspaceBytes, uint64_t(0));
        return;
    }
    // Exact cover.
    XCHECK_EQ(t.rowTiles, CeilDiv(p.n, t.tileRows));
    XCHECK_EQ(t.colTiles, CeilDiv(p.c, t.tileCols));
    XCHECK_EQ(t.totalTiles, t.rowTiles * t.colTiles);
    // Every core used whenever N * ceil(C / granule) >= cores and every core gets at
    // least 32 KiB (16 KiB with weighted smoothing) of logProb + out traffic; balance
    // within one tile.
    const int64_t pieces = p.n * CeilDiv(p.c, granule);
    const int64_t share = p.hasWeight && p.labelSmoothing > 0 ? 16384 : 32768;
    const int64_t worthCores = std::max<int64_t>(1, p.n * p.c * 2 * eb / share);
    XCHECK_EQ(t.blockDim, std::min({int64_t(plat.vectorCores), pieces, worthCores}));
    XCHECK_EQ(int64_t(r.blockDim), t.blockDim);
    XCHECK(t.tilesPerCore >= 1);
    XCHECK(t.tileRemainder < t.blockDim || t.splitTiles > 0);
    // Column-major (weighted smoothing, the weight not in UB): the N * colTiles row units
    // dealt to every launched core, within one unit of each other.
    XCHECK_EQ(t.colMajorTiles, int64_t(p.hasWeight && p.labelSmoothing > 0 && !t.weightResident));
    if (t.colMajorTiles) {
        XCHECK_EQ(t.tilesPerCore * t.blockDim + t.tileRemainder, p.n * t.colTiles);
        XCHECK_EQ(t.splitTiles, int64_t(0));
    } else if (t.splitTiles == 0) {
        XCHECK_EQ(t.tilesPerCore * t.blockDim + t.tileRemainder, t.totalTiles);
    } else {
        // The remainder tiles cut into column pieces, one per core: whole-width tiles of
        // a row-major numbering, at least 2 pieces each, pieces on the 32-byte granule.
        XCHECK_EQ(t.tilesPerCore * t.blockDim + t.splitTiles, t.totalTiles);
        XCHECK(t.splitTiles < t.blockDim && t.colMajorTiles == 0 && p.c % t.tileCols == 0);
        XCHECK(t.splitPieces >= 2 && t.splitCols % granule == 0);
        XCHECK(t.splitCols * t.splitPieces >= t.tileCols && t.splitCols * (t.splitPieces - 1) < t.tileCols);
        XCHECK_EQ(t.tileRemainder, t.splitTiles * t.splitPieces);
        XCHECK(t.tileRemainder <= t.blockDim);
    }
    // Workspace layout.
    XCHECK(t.tilingBytes >= int64_t(sizeof(CrossEntropyLossGradTilingData)));
    XCHECK_EQ(t.badSlotOffset, t.tilingBytes);
    XCHECK_EQ(t.rowPartialOffset, t.badSlotOffset + 32 * t.blockDim);
    XCHECK_EQ(t.userWorkspaceBytes, t.weightPartialOffset + 32 * (t.prologueLocal ? 0 : t.weightChunks));
    XCHECK_EQ(r.workspaceBytes, uint64_t(t.userWorkspaceBytes) + plat.libApiWorkspaceBytes);
    XCHECK_EQ(t.prologue, int64_t(p.reduction == XENT_MEAN || (p.hasWeight && p.labelSmoothing > 0)));
    // At most 64 rows and one weight chunk: every core sums the prologue's chunks itself,
    // and the workspace has no partial slot.
    const bool local = t.prologue && p.n <= 64 && t.weightChunks <= 1;
    XCHECK_EQ(t.prologueLocal, int64_t(local));
    XCHECK_EQ(t.weightPartialOffset, t.rowPartialOffset + 32 * (local ? 0 : t.rowChunks));
    // The sums launch: only for slots, at most a block per chunk and per main-kernel core.
    if (t.prologue && !local && p.n > 0) {
        XCHECK(t.sumsBlockDim >= 1 && t.sumsBlockDim <= std::min(t.blockDim, t.rowChunks + t.weightChunks));
    } else {
        XCHECK_EQ(t.sumsBlockDim, int64_t(0));
    }
}

TilingProblem RandomProblem(std::mt19937_64& rng) {
    auto logUniform = [&](double lo, double hi) {
        std::uniform_real_distribution<double> u(std::log(lo), std::log(hi + 1));
        return int64_t(std::exp(u(rng)));
    };
    TilingProblem p;
    p.n = rng() % 10 == 0 ? int64_t(rng() % 64) : logUniform(1, 300000);
    p.c = std::max<int64_t>(1, rng() % 8 == 0 ? int64_t(rng() % 300) : logUniform(1, 1048576));
    p.c = std::min<int64_t>(p.c, 1048576);
    p.n = std::min<int64_t>(p.n, 300000);
    p.dtype = int64_t(rng() % 3);
    p.targetBytes = rng() % 2 ? 8 : 4;
    p.reduction = int64_t(rng() % 3);
    p.hasWeight = rng() % 2;
    p.labelSmoothing = rng() % 2 ? 0.1 : 0.0;
    p.zlossScale = rng() % 3 == 0 ? 1e-4 : 0.0;
    p.hasLse = p.zlossScale != 0.0 || rng() % 2;
    p.hasGradZloss = rng() % 2;
    return p;
}

}  // namespace

XTEST(tiling_properties_random_shapes_every_profile) {
    std::mt19937_64 rng(20240611);
    int cases = 0;
    for (const auto& prof : ascend_sim::profiles()) {
        const TilingPlatform plat = PlatformOf(prof);
        for (int i = 0; i < 1500; ++i) {
            CheckProperties(RandomProblem(rng), plat);
            ++cases;
        }
    }
    XCHECK(cases == 1500 * int(ascend_sim::profiles().size()));
}

XTEST(tiling_properties_edge_shapes) {
    const int64_t ns[] = {0, 1, 2, 7, 39, 40, 47, 48, 49, 63, 64, 65, 255, 4095, 4096, 4097, 131073, 300000};
    const int64_t cs[] = {1, 2, 7, 8, 9, 15, 16, 17, 255, 256, 257, 5000, 11000, 32000, 131073, 262144, 1048576};
    for (const auto& prof : ascend_sim::profiles())
        for (int64_t n : ns)
            for (int64_t c : cs)
                for (int64_t dtype : {XENT_FP32, XENT_BF16})
                    for (bool weightedSmoothing : {false, true}) {
                        TilingProblem p;
                        p.n = n;
                        p.c = c;
                        p.dtype = dtype;
                        p.reduction = XENT_NONE;
                        p.hasWeight = weightedSmoothing;
                        p.labelSmoothing = weightedSmoothing ? 0.2 : 0.0;
                        p.zlossScale = 1.0;
                        p.hasLse = p.hasGradZloss = true;
                        CheckProperties(p, PlatformOf(prof));
                    }
}

XTEST(tiling_is_a_pure_function) {
    std::mt19937_64 rng(7);
    const TilingPlatform plat = PlatformOf(ascend_sim::profiles().front());
    for (int i = 0; i < 200; ++i) {
        const TilingProblem p = RandomProblem(rng);
        const TilingResult a = ComputeTiling(p, plat), b = ComputeTiling(p, plat);
        XCHECK(std::memcmp(&a.data, &b.data, sizeof(a.data)) == 0);
        XCHECK_EQ(a.workspaceBytes, b.workspaceBytes);
    }
}

XTEST(tiling_one_row_huge_c_uses_every_core) {
    for (const auto& prof : ascend_sim::profiles()) {
        TilingProblem p;
        p.n = 1;
        p.c = 524288;
        const TilingResult r = ComputeTiling(p, PlatformOf(prof));
        XCHECK(r.ok);
        XCHECK_EQ(r.data.blockDim, int64_t(prof.vectorCores));
        XCHECK_EQ(r.data.totalTiles, int64_t(prof.vectorCores));  // one tile each: perfectly balanced
    }
}

XTEST(tiling_report_shapes_ascend910b) {
    const auto& prof = ascend_sim::profiles().front();
    struct S { int64_t n, c, dtype; bool weightedSmoothing; } shapes[] = {
        {4096, 32000, XENT_FP32, false},  {4096, 32000, XENT_BF16, false}, {257, 131073, XENT_FP32, false},
        {131073, 257, XENT_FP32, false},  {1, 262144, XENT_FP32, false},   {131073, 257, XENT_FP16, false},
        {1046, 128256, XENT_BF16, false}, {4096, 32000, XENT_BF16, true},  {257, 131073, XENT_BF16, true}};
    for (const S& s : shapes) {
        TilingProblem p;
        p.n = s.n;
        p.c = s.c;
        p.dtype = s.dtype;
        p.hasWeight = s.weightedSmoothing;
        p.labelSmoothing = s.weightedSmoothing ? 0.1 : 0.0;
        const TilingResult r = ComputeTiling(p, PlatformOf(prof));
        XCHECK(r.ok);
        std::printf("  %s N=%lld C=%lld dtype=%lld%s: R=%lld TC=%lld rowTiles=%lld colTiles=%lld tiles=%lld "
                    "blockDim=%lld per-core=%lld(+%lld) buffers=%lld work=%lld UB=%llu\n",
                    prof.name.c_str(), (long long)s.n, (long long)s.c, (long long)s.dtype,
                    s.weightedSmoothing ? " weight+ls" : "",
                    (long long)r.data.tileRows, (long long)r.data.tileCols, (long long)r.data.rowTiles,
                    (long long)r.data.colTiles, (long long)r.data.totalTiles, (long long)r.data.blockDim,
                    (long long)r.data.tilesPerCore, (long long)r.data.tileRemainder, (long long)r.data.ioBuffers,
                    (long long)r.data.workBufBytes, (unsigned long long)r.ubBytesUsed);
    }
}

XTEST(tiling_rejects_bad_problems) {
    const TilingPlatform plat;
    TilingProblem p;
    p.c = 0;
    XCHECK(!ComputeTiling(p, plat).ok);
    p.c = 10;
    p.zlossScale = 1.0;
    p.hasLse = false;
    XCHECK(!ComputeTiling(p, plat).ok);
    TilingPlatform tiny;
    tiny.ubBytes = 4096;
    TilingProblem q;
    q.n = 4;
    q.c = 4;
    XCHECK(!ComputeTiling(q, tiny).ok);
}

// The shapes tests/op_kernel/test_kernel_reference.cpp runs for two paths: 100 x 4000,
// whole-row tiles whose remainder on the launched cores is cut into column pieces;
// 100 x 400 with weighted smoothing, the weight resident and copied onto 8 rows (12.8 KB).
XTEST(remainder_pieces_100x4000_and_weight_rows_100x400) {
    for (int64_t dtype : {XENT_FP32, XENT_FP16, XENT_BF16}) {
        TilingProblem p;
        p.n = 100;
        p.c = 4000;
        p.dtype = dtype;
        const TilingResult split = ComputeTiling(p, TilingPlatform{});
        XCHECK(split.ok);
        XCHECK_EQ(split.data.splitTiles, split.data.totalTiles % split.data.blockDim);
        XCHECK(split.data.splitTiles > 0 && split.data.splitPieces >= 2);
        p.c = 400;
        p.hasWeight = true;
        p.labelSmoothing = 0.1;
        const TilingResult rows = ComputeTiling(p, TilingPlatform{});
        XCHECK(rows.ok);
        XCHECK_EQ(rows.data.smoothWeightRows, int64_t(8));
    }
}

// The sums launch's scalar path (a weight too large for UB): its row chunks, each a scalar
// GM read per row, weigh far more than its weight chunks, so each gets a block of its own
// and the weight chunks share those blocks instead of taking a block each.
XTEST(sums_launch_scalar_path_gives_each_row_chunk_a_block) {
    for (int64_t dtype : {XENT_FP32, XENT_BF16}) {
        TilingProblem p;
        p.n = 1046;
        p.c = 128256;
        p.dtype = dtype;
        p.hasWeight = true;
        p.labelSmoothing = 0.1;
        const TilingResult r = ComputeTiling(p, TilingPlatform{});
        XCHECK(r.ok);
        const CrossEntropyLossGradTilingData& t = r.data;
        XCHECK_EQ(t.sumsVector, int64_t(0));
        XCHECK(t.rowChunks > 1 && t.weightChunks > 1);
        XCHECK(t.rowChunks + t.weightChunks > t.blockDim);
        XCHECK(t.sumsBlockDim >= t.rowChunks && t.sumsBlockDim < t.blockDim);
    }
}

// logProb is read around the L2 exactly when it and the gradient cannot fit there
// together (each profile's L2).
XTEST(tiling_streams_log_prob_that_outgrows_the_l2) {
    for (const auto& prof : ascend_sim::profiles()) {
        const TilingPlatform plat = PlatformOf(prof);
        XCHECK_EQ(plat.l2Bytes, prof.l2Bytes);
        for (int64_t dtype : {int64_t(XENT_FP32), int64_t(XENT_BF16)}) {
            const int64_t eb = DtypeBytes(dtype), c = 32000;
            const int64_t fits = int64_t(plat.l2Bytes) / (2 * c * eb);  // the most rows that fit
            for (int64_t n : {fits, fits + 1}) {
                TilingProblem p;
                p.n = n;
                p.c = c;
                p.dtype = dtype;
                const TilingResult r = ComputeTiling(p, plat);
                XCHECK(r.ok);
                XCHECK_EQ(r.data.streamLogProb, int64_t(2 * n * c * eb > int64_t(plat.l2Bytes)));
            }
        }
    }
}

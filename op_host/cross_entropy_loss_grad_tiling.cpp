// Tiling rule (see docs/cross_entropy_loss_grad.md, "Tiling"):
//   A tile is R rows x TC columns of logProb. Candidates are
//     row-packed   TC = C, R in [1, Rmax]          (when one row fits UB)
//     column-split TC = a multiple of the 32-byte granule < C, R = 1; with
//                  weighted smoothing R in [1, Rmax(TC)] (see WeightedMakespan)
//   The launch uses cores = min(vector cores, N*C*(in + out bytes) / kMinCoreBytes)
//   (at least 1): a core's fixed GM bytes (its bad-target slot, its reads of the
//   prologue's partial slots) would otherwise weigh on a tiny problem's traffic.
//   A candidate is admissible when its UB use fits and it yields at least
//   min(cores, N * ceil(C / granule)) tiles, so every launched core gets work.
//   Among admissible candidates the one with the smallest modelled makespan wins,
//   the largest over cores of
//     tiles * (kTileOverhead + R * (kRowOverhead + TC * (in + out bytes)))
//     + column tiles visited * (kTileOverhead + TC * 4)   (weighted smoothing only)
//   (ties -> fewer tiles). Tiles are numbered column-major with weighted smoothing
//   (a core's tiles then share weight columns), row-major otherwise (a core's tiles
//   are one contiguous stretch of memory), and dealt to cores as contiguous ranges
//   of base or base + 1 tiles.
#include "cross_entropy_loss_grad_tiling.h"

#include <algorithm>
#include <cmath>

#include "../op_kernel/cross_entropy_loss_grad_scratch_layout.h"

namespace xent {
namespace {

// Modelled fixed costs, in bytes of GM traffic one core moves in the same time
// (~33 B/ns per core on an A2). A guess, but it only ranks candidates.
constexpr int64_t kTileOverhead = 32768;  // DMA issue, flags, queue hand-offs, vector call latency
constexpr int64_t kRowOverhead = 1024;    // per-row scalars and target fix-up (and a Muls unless rows share a scale)
constexpr int64_t kMaxTileRows = 4095;    // DataCopyPad blockCount limit
constexpr int64_t kResidentWeightBytes = 16384;  // C <= 4096: the weight stays in UB
// Tensor traffic (logProb in + out) a launched core should have at least. Each core
// also moves a few fixed GM bytes (a 32-byte bad-target slot, 32 bytes per prologue
// partial it reads, the targets of its tiles); at 16 KiB per core they stay under
// ~0.5% of the traffic. The NPU model has launch and SyncAll (~13 us) dominate such
// small problems anyway: a 16 KiB share takes ~0.1 us at one core's DMA rate.
constexpr int64_t kMinCoreBytes = 16384;

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
int64_t Align32(int64_t x) { return (x + 31) / 32 * 32; }
int64_t RoundUp(int64_t x, int64_t m) { return CeilDiv(x, m) * m; }

struct Shape {
    int64_t elemBytes, granule, targetBytes;
    bool none, zloss, gradZ;
    bool weightTile;              // weighted smoothing with weight columns loaded per column tile
    int64_t residentWeightBytes;  // > 0: the whole weight in UB, this many bytes
};

struct StageLayout {
    int64_t gradOff, gzOff, lseOff, bytes;
};

StageLayout Stage(const Shape& s, int64_t rows) {
    StageLayout l{};
    int64_t off = Align32(rows * s.targetBytes);
    l.gradOff = off;
    if (s.none) off += Align32(rows * s.elemBytes);
    l.gzOff = off;
    if (s.none && s.gradZ) off += Align32(rows * s.elemBytes);
    l.lseOff = off;
    if (s.zloss) off += Align32(rows * s.elemBytes);
    l.bytes = off;
    return l;
}

void FillBuffers(const Shape& s, int64_t rows, int64_t cols, CrossEntropyLossGradTilingData& t) {
    const int64_t pitch = RoundUp(cols, s.granule);
    t.tileRows = rows;
    t.tileCols = cols;
    t.ioBufBytes = Align32(rows * pitch * s.elemBytes);
    t.workBufBytes = s.elemBytes == 4 ? 0 : Align32(rows * pitch * 4);
    t.weightBufBytes = s.residentWeightBytes > 0 ? s.residentWeightBytes : s.weightTile ? Align32(cols * 4) : 0;
    const StageLayout st = Stage(s, rows);
    t.stageBytes = st.bytes;
    t.stageGradOff = st.gradOff;
    t.stageGzOff = st.gzOff;
    t.stageLseOff = st.lseOff;
    t.scratchBytes = kScratchBytes;
}

uint64_t UbFor(const Shape& s, int64_t rows, int64_t cols) {
    CrossEntropyLossGradTilingData t{};
    FillBuffers(s, rows, cols, t);
    return UbBytesUsed(t);
}

// Largest value in [lo, hi] for which fits(v) holds (fits is monotone: true, then false); lo - 1 if none.
template <class F>
int64_t LargestFitting(int64_t lo, int64_t hi, F fits) {
    if (hi < lo || !fits(lo)) return lo - 1;
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo + 1) / 2;
        if (fits(mid)) lo = mid; else hi = mid - 1;
    }
    return lo;
}

struct Candidate {
    int64_t rows = 0, cols = 0, tiles = 0;
    double cost = 0;
};

// With weighted smoothing a core loads the weight columns of every column tile
// its range of tiles touches (DataCopyPad, then an MTE2_V wait before the
// first Axpy): a reload costs its bytes and a stall like a tile's fixed cost.
// The most such loads any core makes, for `tiles` tiles (column-major, rowTiles
// per column tile) dealt as contiguous ranges of base or base + 1 to `cores`,
// and the tiles of that core, as the largest of loads * loadCost + tiles * tileCost.
double WeightedMakespan(int64_t tiles, int64_t rowTiles, int64_t cores, double tileCost, double loadCost) {
    const int64_t base = tiles / cores, rem = tiles % cores;
    double worst = 0;
    for (int64_t k = 0; k < cores && k < tiles; ++k) {
        const int64_t first = k * base + std::min(k, rem), count = base + (k < rem ? 1 : 0);
        const int64_t loads = (first + count - 1) / rowTiles - first / rowTiles + 1;
        worst = std::max(worst, static_cast<double>(count) * tileCost + static_cast<double>(loads) * loadCost);
    }
    return worst;
}

}  // namespace

uint64_t UbBytesUsed(const CrossEntropyLossGradTilingData& t) {
    return static_cast<uint64_t>(kIoBuffers * t.ioBufBytes + t.workBufBytes + t.weightBufBytes +
                                 2 * t.stageBytes + t.scratchBytes);
}

TilingResult ComputeTiling(const TilingProblem& p, const TilingPlatform& plat) {
    TilingResult r;
    auto fail = [&](const std::string& msg) {
        r.ok = false;
        r.error = msg;
        return r;
    };
    if (p.n < 0 || p.c < 1) return fail("logProb must be (N, C) with N >= 0 and C >= 1");
    if (p.dtype != XENT_FP32 && p.dtype != XENT_FP16 && p.dtype != XENT_BF16) return fail("unsupported dtype");
    if (p.targetBytes != 4 && p.targetBytes != 8) return fail("target must be int32 or int64");
    if (p.reduction != XENT_NONE && p.reduction != XENT_MEAN && p.reduction != XENT_SUM)
        return fail("unsupported reduction");
    if (plat.vectorCores == 0) return fail("platform reports 0 vector cores");
    if (p.zlossScale != 0.0 && !p.hasLse) return fail("z-loss needs lseForZlossOptional");

    CrossEntropyLossGradTilingData& t = r.data;
    t.n = p.n;
    t.c = p.c;
    t.dtype = p.dtype;
    t.targetBytes = p.targetBytes;
    t.reduction = p.reduction;
    t.ignoreIndex = p.ignoreIndex;
    t.hasWeight = p.hasWeight;
    t.hasZloss = p.zlossScale != 0.0;
    t.hasGradZloss = t.hasZloss && p.hasGradZloss;
    t.smoothing = p.labelSmoothing > 0.0;
    t.oneMinusLs = static_cast<float>(1.0 - p.labelSmoothing);
    t.classOffset = p.classOffset;
    t.classTotal = p.classTotal > 0 ? p.classTotal : p.c;
    t.lsOverC = static_cast<float>(p.labelSmoothing / static_cast<double>(t.classTotal));
    t.twoZScale = static_cast<float>(2.0 * p.zlossScale);
    t.classCount = static_cast<float>(t.classTotal);

    Shape s{};
    s.elemBytes = DtypeBytes(p.dtype);
    s.granule = 32 / s.elemBytes;
    s.targetBytes = p.targetBytes;
    s.none = p.reduction == XENT_NONE;
    s.zloss = t.hasZloss;
    s.gradZ = t.hasGradZloss;
    s.weightTile = p.hasWeight && t.smoothing;
    // A weight of at most kResidentWeightBytes is loaded once per core: its per-row
    // reads then cost a scalar UB access instead of a GM one (the bulk of a small-C
    // row's time), and weighted smoothing never reloads weight columns. A shard's
    // columns must start on a 32-byte boundary of it: Axpy reads them in place.
    const bool residentFits = t.classTotal * 4 <= kResidentWeightBytes && p.classOffset % 8 == 0;
    s.residentWeightBytes = p.hasWeight && residentFits ? Align32(t.classTotal * 4) : 0;
    t.weightResident = s.residentWeightBytes > 0 ? 1 : 0;
    if (t.weightResident) s.weightTile = false;

    const int64_t N = p.n, C = p.c, P = plat.vectorCores;
    const uint64_t ub = plat.ubBytes;
    const int64_t granules = CeilDiv(C, s.granule);
    const int64_t elemTraffic = 2 * s.elemBytes;

    // Widest column tile (R = 1) that fits.
    const int64_t maxGranules =
        LargestFitting(1, granules, [&](int64_t g) { return UbFor(s, 1, g * s.granule) <= ub; });
    if (maxGranules < 1) return fail("UB of " + std::to_string(ub) + " bytes cannot hold even one 32-byte tile");

    if (N > 0) {
        // N * C * elemTraffic cannot overflow: the checks keep N * C below INT64_MAX / 16.
        const int64_t cores = std::max<int64_t>(1, std::min<int64_t>(P, N * C * elemTraffic / kMinCoreBytes));
        const int64_t needTiles = std::min<int64_t>(cores, N * granules);
        Candidate best;
        bool have = false;
        auto consider = [&](int64_t rows, int64_t cols) {
            const int64_t tiles = CeilDiv(N, rows) * CeilDiv(C, cols);
            if (tiles < needTiles) return;
            Candidate c;
            c.rows = rows;
            c.cols = cols;
            c.tiles = tiles;
            const double tileCost = static_cast<double>(kTileOverhead + rows * (kRowOverhead + cols * elemTraffic));
            c.cost = static_cast<double>(CeilDiv(tiles, cores)) * tileCost;
            // The weight reloads only add: skip their O(cores) count when the tiles alone lose.
            if (s.weightTile && (!have || c.cost <= best.cost))
                c.cost = WeightedMakespan(tiles, CeilDiv(N, rows), std::min(cores, tiles), tileCost,
                                          static_cast<double>(kTileOverhead + cols * 4));
            if (!have || c.cost < best.cost || (c.cost == best.cost && c.tiles < best.tiles)) {
                best = c;
                have = true;
            }
        };
        // Row-packed: whole rows, as many per tile as fit.
        if (UbFor(s, 1, C) <= ub) {
            const int64_t rmax = LargestFitting(1, std::min<int64_t>(kMaxTileRows, N),
                                                [&](int64_t rows) { return UbFor(s, rows, C) <= ub; });
            for (int64_t rows = 1; rows <= rmax; ++rows) consider(rows, C);
        }
        // Column-split: k column tiles per row, k from the fewest that fit up to
        // enough to feed every core (and some more, for balance). One row per
        // tile, except with weighted smoothing: there the weight columns take UB
        // once per tile, not per row, so several rows of narrower columns hold
        // more elements, and a core whose tiles stay in one column tile loads its
        // weight columns once. More rows cost only per-row overhead otherwise.
        const int64_t kMin = std::max<int64_t>(2, CeilDiv(granules, maxGranules));
        const int64_t kMax = std::min<int64_t>(granules, kMin + CeilDiv(cores, N) + 2 * cores);
        for (int64_t k = kMin; k <= kMax; ++k) {
            for (int64_t gpt : {CeilDiv(granules, k), std::max<int64_t>(1, granules / k)}) {
                if (gpt > maxGranules) continue;
                const int64_t cols = gpt * s.granule;
                if (cols >= C) continue;  // that is the row-packed R = 1 candidate
                consider(1, cols);
                // DataCopyPad's GM stride between a tile's rows is a uint32 byte count.
                if (!s.weightTile || (C - cols) * s.elemBytes > int64_t(UINT32_MAX)) continue;
                const int64_t rmax = LargestFitting(2, std::min<int64_t>(kMaxTileRows, N),
                                                    [&](int64_t rows) { return UbFor(s, rows, cols) <= ub; });
                for (int64_t rows = 2; rows <= rmax; ++rows) consider(rows, cols);
            }
        }
        if (!have) return fail("no tiling fits UB of " + std::to_string(ub) + " bytes");

        FillBuffers(s, best.rows, best.cols, t);
        t.rowTiles = CeilDiv(N, best.rows);
        t.colTiles = CeilDiv(C, best.cols);
        t.totalTiles = best.tiles;
        t.blockDim = std::min<int64_t>(cores, best.tiles);
        t.tilesPerCore = t.totalTiles / t.blockDim;
        t.tileRemainder = t.totalTiles % t.blockDim;
        t.colMajorTiles = s.weightTile ? 1 : 0;
    } else {
        FillBuffers(s, 1, std::min<int64_t>(C, maxGranules * s.granule), t);
    }

    // Prologue: W and M for mean; sum_k w_k for weighted smoothing.
    const bool mean = p.reduction == XENT_MEAN;
    t.rowChunks = mean ? CeilDiv(N, kRowChunk) : 0;
    t.weightChunks = p.hasWeight && t.smoothing ? CeilDiv(t.classTotal, kWeightChunk) : 0;
    t.prologue = (t.rowChunks > 0 || t.weightChunks > 0) ? 1 : 0;

    // User workspace: the tiling itself, then the slots.
    t.tilingBytes = Align32(sizeof(CrossEntropyLossGradTilingData));
    t.badSlotOffset = t.tilingBytes;
    t.rowPartialOffset = t.badSlotOffset + t.blockDim * kSlotBytes;
    t.weightPartialOffset = t.rowPartialOffset + t.rowChunks * kSlotBytes;
    t.userWorkspaceBytes = t.weightPartialOffset + t.weightChunks * kSlotBytes;

    r.blockDim = static_cast<uint32_t>(t.blockDim);
    r.workspaceBytes = N == 0 ? 0 : static_cast<uint64_t>(t.userWorkspaceBytes) + plat.libApiWorkspaceBytes;
    r.ubBytesUsed = UbBytesUsed(t);
    r.ok = true;
    return r;
}

}  // namespace xent

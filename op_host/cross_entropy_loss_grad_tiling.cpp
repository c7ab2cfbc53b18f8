// Tiling rule (see docs/cross_entropy_loss_grad.md, "Tiling"):
//   A tile is R rows x TC columns of logProb, in an in/out queue of 3 or 2 tile
//   buffers (fp16/bf16 beside an fp32 work area of the whole tile or of a piece of it).
//   Candidates, for each buffer count, are
//     row-packed   TC = C, R in [1, Rmax]          (when one row fits UB)
//     column-split TC = a multiple of the 32-byte granule < C, R = 1; with
//                  weighted smoothing R in [1, Rmax(TC)] (see UnitMakespan)
//                  when a row's burst is at least kMinBurstBytes
//   The launch uses cores = min(vector cores, N*C*(in + out bytes) / kMinCoreBytes)
//   (at least 1; a smaller share with weighted smoothing): each launched core has
//   fixed costs (GM bytes, its start), which would otherwise weigh on a tiny problem.
//   A candidate is admissible when its UB use fits and it yields at least
//   min(cores, N * ceil(C / granule)) tiles, so every launched core gets work.
//   Among admissible candidates the one with the smallest modelled makespan wins,
//   the largest over cores of
//     tiles * (kTileOverhead + (pieces - 1) * kPieceOverhead) + rows * (kRowOverhead + TC * (in + out bytes))
//     + column tiles visited * (kTileOverhead + TC * 4)   (weighted smoothing only)
//   (ties -> fewer tiles). Without weighted smoothing tiles are numbered row-major (a
//   core's tiles are one contiguous stretch of memory) and dealt to cores as
//   contiguous ranges of base or base + 1 tiles, or of base tiles and one column
//   piece of a remainder tile (SplitRemainder). With it the unit is one row of one
//   column tile: the N * colTiles units, column-major, are dealt as contiguous ranges
//   of base or base + 1 units, and a core cuts its range into tiles of up to R rows
//   per column tile (its tiles then share weight columns, and the cores' shares
//   differ by one row of TC columns, not by a tile).
#include "cross_entropy_loss_grad_tiling.h"

#include <algorithm>
#include <cmath>

#include "../op_kernel/cross_entropy_loss_grad_scratch_layout.h"
#include "../op_kernel/cross_entropy_loss_grad_sums_layout.h"

namespace xent {
namespace {

// Modelled fixed costs, in bytes of GM traffic one core moves in the same time
// (~33 B/ns per core on an A2). A guess, but it only ranks candidates.
constexpr int64_t kTileOverhead = 32768;  // DMA issue, flags, queue hand-offs, vector call latency
constexpr int64_t kRowOverhead = 1024;    // per-row scalars and target fix-up (and a Muls unless rows share a scale)
constexpr int64_t kMaxTileRows = 4095;    // DataCopyPad blockCount limit
// Per piece of a tile's float work beyond the first (fp16/bf16 with a work area smaller
// than the tile): its Cast, Exp, Muls, Cast calls and the pipe barriers between them.
constexpr int64_t kPieceOverhead = 4096;
constexpr int64_t kMaxIoBuffers = 3, kMinIoBuffers = 2;  // tile buffers of the in/out queue
constexpr double kTwoBufferStages = 1.5;  // three equal stages over two buffers (see consider())
// A row chunk of the sums launch's vector path, in launched blocks' launch costs: about
// 0.28 us against 0.094 us on the NPU model (ComputeTiling, sumsBlockDim).
constexpr double kSumsChunkBlockCosts = 3.0;
// A row of the sums launch's scalar path, in the same units: its target read from UB and
// weight[target] read from GM (about 71 cycles on the NPU model, whose 60 for a scalar GM
// read is an assumption) or from UB with the weight resident (about 23).
constexpr double kScalarRowBlockCosts = 0.41, kScalarResidentRowBlockCosts = 0.13;
// A row of a multi-row tile is one DataCopyPad burst; several rows only pay when each
// burst is at least this long. The vendor guide counts a strided copy by its total
// size (高效的使用搬运API.md: 16 bursts of 2 KB are "one 32 KB copy"), so on the NPU
// narrower stacked tiles need not be slower; the floor is for the simulator, where
// short strided bursts cost the host more than the rows they save (bf16 4096 x 32000
// with weighted smoothing: 8 x 3568 tiles took 1.5x the CPU time of 2 x 10672; with
// a 4 KiB floor this ranking picks 5 x 5344, modelled at 88.9% of the roofline
// against 87.7% for 2 x 10672).
constexpr int64_t kMinBurstBytes = 16384;
constexpr int64_t kResidentWeightBytes = 16384;  // C <= 4096: the weight stays in UB
// Its row copies for weighted smoothing (8 rows for C <= 512, fewer up to one at C =
// 4096): a short row's instruction pays its start about as much as its repeats.
constexpr int64_t kWeightRowsBytes = 16384;
// With column tiles a core's consecutive tiles share rows: their per-row inputs are
// staged for this many rows at once (one small DMA each instead of one per row).
constexpr int64_t kBlockStageRows = 64;
// Column-major (weighted smoothing) tiles walk down a column tile, often hundreds of
// rows per core: a longer staging saves DMAs (bf16 4096 x 32000: 4 -> 1 per core)
// for 3 KiB more UB with int64 targets.
constexpr int64_t kColumnStageRows = 256;
// Row-packed tiles whose targets the vector unit codes: the scalar unit waits for the
// vector unit once per staging, so a staging holds several tiles' rows.
constexpr int64_t kCodedStageRows = 512;
// Tensor traffic (logProb in + out) a launched core should have at least. Each core
// also moves a few fixed GM bytes (a 32-byte bad-target slot, 32 bytes per prologue
// partial it reads, the targets of its tiles), under 0.5% of such a share. Launch and
// SyncAll (~13 us in the NPU model) dominate problems this small: a 32 KiB share
// moves in ~0.25 us at one core's DMA rate (fp32 1 x 32000 on 7 cores models at
// 15.1 us, on 15 cores with 16 KiB shares at 15.0), while every launched core costs
// the simulator its own start, UB and checks (62 us of host time instead of 115).
// Weighted smoothing keeps 16 KiB: its prologue sums the weight in chunks and each
// core loads the weight columns of its tiles, work that more cores share (bf16
// 1 x 32000 models at 16.1 us on 7 cores, 17.3 on 3).
constexpr int64_t kMinCoreBytes = 32768, kMinCoreBytesWeightedSmoothing = 16384;

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
int64_t Align32(int64_t x) { return (x + 31) / 32 * 32; }
int64_t RoundUp(int64_t x, int64_t m) { return CeilDiv(x, m) * m; }

struct Shape {
    int64_t elemBytes, granule, targetBytes;
    int64_t n, c;
    bool none, zloss, gradZ;
    bool smoothing;
    bool weightTile;              // weighted smoothing with weight columns loaded per column tile
    int64_t residentWeightBytes;  // > 0: the whole weight in UB, this many bytes
    bool targetCodesFit;          // int64 targets of at most kMaxCodedClasses classes
};

struct StageLayout {
    int64_t codeOff, gradOff, gzOff, lseOff, bytes;
};

// codes: the int64 targets' int32 codes follow them, and with a resident weight their
// weights and the gather's offsets (see stageCodeOff).
StageLayout Stage(const Shape& s, int64_t rows, bool codes) {
    StageLayout l{};
    int64_t off = Align32(rows * s.targetBytes);
    l.codeOff = codes ? off : 0;
    if (codes) off += Align32(rows * 4) * (s.residentWeightBytes > 0 ? 3 : 1);
    l.gradOff = off;
    if (s.none) off += Align32(rows * s.elemBytes);
    l.gzOff = off;
    if (s.none && s.gradZ) off += Align32(rows * s.elemBytes);
    l.lseOff = off;
    if (s.zloss) off += Align32(rows * s.elemBytes);
    l.bytes = off;
    return l;
}

// The fp32 work area of fp16/bf16 (fp32 works in the tile buffer): the whole tile when
// the UB left over holds it, else as many floats (a multiple of 64) as it holds; the
// kernel then works through the tile in pieces of that size. Fewer than kMinWorkElems
// floats do not fit (the pieces' fixed costs would swamp them).
constexpr int64_t kMinWorkElems = 2048;
constexpr int64_t kUbThird = 65536;
constexpr int64_t kWorkGranule = 64;

// Rows of the resident weight's copies for weighted smoothing (0: none, the resident
// weight is read in place): with the copies at the tile's row pitch, one instruction
// covers that many whole rows, and under mean and sum the kernel scales them by the
// smoothing once. Whole rows only, up to kSmoothWeightRows of them in kWeightRowsBytes.
int64_t SmoothWeightRows(const Shape& s, int64_t cols, int64_t pitch) {
    if (s.residentWeightBytes == 0 || !s.smoothing || cols != s.c) return 0;
    return std::min<int64_t>(kSmoothWeightRows, kWeightRowsBytes / (pitch * 4));
}

// UB's 48 banks are three 64 KiB thirds of 16 bank groups (避免bank冲突（NPU架构版本2201）.md):
// a vector instruction that reads one bank and writes the same bank in a beat takes two.
// The kernel's Casts read the tile buffer and write the work area (and back) with
// different strides (16-bit against 32-bit elements), so wherever both share a third
// some of their repeats do. When the tile buffers fit in the first third and UB has room,
// the work area starts on the second (bf16 4194 x 32000 with weight + ls 0.1 on the NPU
// model: 245.6 -> 237.3 us). TPipe takes buffers in InitBuffer order from UB address 0
// (kernel_tpipe_impl.h: TPipe::InitBuffer, from the pool's maxAddr on).
void PadToThird(uint64_t ub, CrossEntropyLossGradTilingData& t) {
    const int64_t io = t.ioBuffers * t.ioBufBytes;
    t.workPadBytes = 0;
    if (io >= kUbThird) return;
    const int64_t pad = kUbThird - io;
    if (UbBytesUsed(t) + static_cast<uint64_t>(pad) <= ub) t.workPadBytes = pad;
}

// The buffers of an R x TC tile with `buffers` tile buffers; false when they do not fit `ub`.
bool FillBuffers(const Shape& s, int64_t rows, int64_t cols, int64_t buffers, uint64_t ub,
                 CrossEntropyLossGradTilingData& t) {
    const int64_t pitch = RoundUp(cols, s.granule);
    t.tileRows = rows;
    t.tileCols = cols;
    t.ioBuffers = buffers;
    t.ioBufBytes = Align32(rows * pitch * s.elemBytes);
    t.workBufBytes = 0;
    t.workPadBytes = 0;
    t.smoothWeightRows = SmoothWeightRows(s, cols, pitch);
    t.weightBufBytes = s.residentWeightBytes > 0 ? s.residentWeightBytes + t.smoothWeightRows * pitch * 4
                       : s.weightTile                ? Align32(cols * 4)
                                                     : 0;
    // A staging holds whole tiles' rows, about kBlockStageRows of them: the consecutive
    // tiles of a core share it (a row's column tiles, the next rows).
    // Row-packed tiles read a target per row: read as int32 codes, two to a scalar access.
    const bool codes = s.targetCodesFit && rows > 1 && cols == s.c;
    const int64_t blockRows = codes ? kCodedStageRows : s.weightTile ? kColumnStageRows : kBlockStageRows;
    t.stageRows = std::min<int64_t>(std::max<int64_t>(s.n, 1), rows * std::max<int64_t>(1, blockRows / rows));
    const StageLayout st = Stage(s, t.stageRows, codes);
    t.stageBytes = st.bytes;
    t.stageCodeOff = st.codeOff;
    t.stageGradOff = st.gradOff;
    t.stageGzOff = st.gzOff;
    t.stageLseOff = st.lseOff;
    t.scratchBytes = kScratchBytes;
    const int64_t used = static_cast<int64_t>(UbBytesUsed(t));
    if (used > static_cast<int64_t>(ub)) return false;
    if (s.elemBytes == 4) return true;
    const int64_t left = static_cast<int64_t>(ub) - used;
    if (Align32(rows * pitch * 4) <= left) {
        t.workBufBytes = Align32(rows * pitch * 4);
        PadToThird(ub, t);
        return true;
    }
    t.workBufBytes = left / (4 * kWorkGranule) * (4 * kWorkGranule);
    return t.workBufBytes >= kMinWorkElems * 4;
}

bool Fits(const Shape& s, int64_t rows, int64_t cols, int64_t buffers, uint64_t ub) {
    CrossEntropyLossGradTilingData t{};
    return FillBuffers(s, rows, cols, buffers, ub, t);
}

// Pieces a tile's float work would take in one work area: one when it holds the tile,
// else groups of whole rows (at most kTermRows), else column pieces of each row. The
// kernel cuts a tile of several rows into pieces in both halves of the work area and
// overlaps them (its Compute), but each piece beyond the first still costs its calls:
// counting them keeps the 16-bit row-packed tiles within one work area (bf16 131073 x
// 257 on the NPU model, measured together: 69.6 us main, 86.4 when the overlapped pieces
// counted as one).
int64_t Pieces(int64_t rows, int64_t pitch, int64_t workElems) {
    if (workElems == 0 || rows * pitch <= workElems) return 1;
    if (pitch <= workElems) return CeilDiv(rows, std::min<int64_t>(workElems / pitch, kTermRows));
    return rows * CeilDiv(pitch, workElems);
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
    int64_t rows = 0, cols = 0, buffers = 0, tiles = 0;
    double cost = 0;
};

// Column-major (weighted smoothing): the N * colTiles row units dealt as contiguous
// ranges of base or base + 1 to `cores` (the kernel's UnitTile). The largest over
// cores of tiles * tileCost + units * unitCost + loads * loadCost, where a core cuts
// its range into tiles of up to `rows` rows per column tile and loads the weight
// columns of every column tile it touches (DataCopyPad, then an MTE2_V wait before
// the first Axpy: a reload costs its bytes and a stall like a tile's fixed cost).
double UnitMakespan(int64_t n, int64_t colTiles, int64_t rows, int64_t cores, double tileCost, double unitCost,
                    double loadCost) {
    const int64_t units = n * colTiles, base = units / cores, rem = units % cores;
    double worst = 0;
    for (int64_t k = 0; k < cores; ++k) {
        const int64_t u0 = k * base + std::min(k, rem), u1 = u0 + base + (k < rem ? 1 : 0);
        int64_t tiles = 0, loads = 0;
        for (int64_t u = u0; u < u1; ++loads) {
            const int64_t end = std::min(u1, (u / n + 1) * n);
            tiles += CeilDiv(end - u, rows);
            u = end;
        }
        worst = std::max(worst, static_cast<double>(tiles) * tileCost + static_cast<double>(u1 - u0) * unitCost +
                                    static_cast<double>(loads) * loadCost);
    }
    return worst;
}

}  // namespace

// The remainder tiles r = totalTiles mod blockDim would give r cores a whole tile more
// than the rest (the launch's slowest core). Cut into k = blockDim / r column pieces,
// they give each of r * k cores a k-th of a tile more instead. Row-major numbering
// only (column-major deals row units) and only when every tile is TC wide, so every
// piece holds columns.
void SplitRemainder(const Shape& s, CrossEntropyLossGradTilingData& t) {
    const int64_t r = t.tileRemainder;
    if (r == 0 || t.colMajorTiles || s.c % t.tileCols != 0) return;
    const int64_t k = std::min(t.blockDim / r, CeilDiv(t.tileCols, s.granule));
    if (k < 2) return;
    t.splitCols = RoundUp(CeilDiv(t.tileCols, k), s.granule);
    t.splitPieces = CeilDiv(t.tileCols, t.splitCols);
    t.splitTiles = r;
    t.tileRemainder = r * t.splitPieces;
}

uint64_t UbBytesUsed(const CrossEntropyLossGradTilingData& t) {
    return static_cast<uint64_t>(t.ioBuffers * t.ioBufBytes + t.workPadBytes + t.workBufBytes + t.weightBufBytes +
                                 2 * t.stageBytes + t.scratchBytes);
}

void SetGradProblem(const TilingProblem& p, uint64_t l2Bytes, CrossEntropyLossGradTilingData& t) {
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
    // logProb is read once: where it and the gradient outgrow the L2 together, allocating
    // it would evict the gradient's dirty lines, so it is read around the L2 (the vendor's
    // add_high_performance measured 29% for the same change, case 5 against 4). A read
    // around the L2 still hits the lines already there (the L2 is kept coherent, so a dirty
    // line from the forward cannot be skipped): a logProb still resident loses nothing.
    // Of a gradient that outgrows the L2 too, the share the L2 would evict before the launch
    // ends is written around it: streamed to HBM once instead of allocated, evicted and
    // written back (fp32 4096 x 32000 on the NPU model: 567 us against 794).
    const uint64_t tensorBytes = static_cast<uint64_t>(p.n) * static_cast<uint64_t>(p.c) * DtypeBytes(p.dtype);
    t.streamLogProb = 2 * tensorBytes > l2Bytes;
    t.outAround = tensorBytes > l2Bytes
                      ? static_cast<int64_t>(65536.0 * (1.0 - static_cast<double>(l2Bytes) / static_cast<double>(tensorBytes)))
                      : 0;
    t.oneMinusLs = static_cast<float>(1.0 - p.labelSmoothing);
    t.classOffset = p.classOffset;
    t.classTotal = p.classTotal > 0 ? p.classTotal : p.c;
    t.lsOverC = static_cast<float>(p.labelSmoothing / static_cast<double>(t.classTotal));
    t.twoZScale = static_cast<float>(2.0 * p.zlossScale);
    t.classCount = static_cast<float>(t.classTotal);
}

// Rows per W/M chunk, from N alone (never the core count or UB size, so the sums keep
// their bits everywhere): the fewest rows, from kMinRowChunk, that make at most
// kRowChunkTarget chunks, up to kMaxRowChunk. A mid-sized N then spreads its chunks over
// more blocks of the sums launch, whose scalar path reads weight[target] from GM row by
// row (bf16 1046 x 128256 with weight: 5 chunks of 256 rows took 13.1 us on the NPU
// model, 17 of 64 rows 5.7 us), while a large N keeps chunks of kMaxRowChunk rows: every
// core of the main kernel walks all their slots.
constexpr int64_t kRowChunkTarget = 32;
int64_t RowChunkRows(int64_t n) {
    int64_t rows = kMinRowChunk;
    while (rows < kMaxRowChunk && CeilDiv(n, rows) > kRowChunkTarget) rows *= 2;
    return rows;
}

// Blocks of the sums launch's scalar path, which deals chunk j to block j mod blocks (the
// kernel's Partials): the count, up to t.sumsBlockDim, with the least launch cost plus
// busiest block, in launched blocks' costs. Its row chunks weigh far more than its
// weight chunks, so a block per row chunk, with the weight chunks shared among them,
// beats a block per chunk (bf16 1046 x 128256 with weight and smoothing: 17 row chunks
// and 32 weight chunks, 7.8 us of sums launch on 17 blocks against 9.0 on 48; the best
// count the model finds, 25, gives 7.5).
int64_t ScalarSumsBlocks(const CrossEntropyLossGradTilingData& t) {
    const double rowCost =
        static_cast<double>(t.rowChunkRows) * (t.weightResident || !t.hasWeight ? kScalarResidentRowBlockCosts
                                                                                : kScalarRowBlockCosts);
    const int64_t chunks = t.rowChunks + t.weightChunks;
    int64_t best = t.sumsBlockDim;
    double bestCost = 0;
    for (int64_t blocks = 1; blocks <= t.sumsBlockDim; ++blocks) {
        double busiest = 0;
        for (int64_t b = 0; b < blocks; ++b) {
            double work = 0;
            for (int64_t j = b; j < chunks; j += blocks) work += j < t.rowChunks ? rowCost : kSumsChunkBlockCosts;
            busiest = std::max(busiest, work);
        }
        const double cost = static_cast<double>(blocks) + busiest;
        if (blocks == 1 || cost < bestCost) {
            best = blocks;
            bestCost = cost;
        }
    }
    return best;
}

int64_t SetGradPrologue(CrossEntropyLossGradTilingData& t, int64_t slotOffset) {
    // Prologue: W and M for mean; sum_k w_k for weighted smoothing.
    const bool mean = t.reduction == XENT_MEAN;
    t.rowChunkRows = RowChunkRows(t.n);
    t.rowChunks = mean ? CeilDiv(t.n, t.rowChunkRows) : 0;
    t.weightChunks = t.hasWeight && t.smoothing ? CeilDiv(t.classTotal, kWeightChunk) : 0;
    t.prologue = (t.rowChunks > 0 || t.weightChunks > 0) ? 1 : 0;
    // A few rows and at most one weight chunk: each core summing them itself takes what
    // the chunks' owners take anyway, without their slots and a launch (the backward) or a
    // SyncAll (the fused kernel) on the critical path; with more than kLocalPrologueRows
    // rows each core's scalar pass over them would cost the simulator more.
    t.prologueLocal = t.prologue && t.rowChunks <= 1 && t.weightChunks <= 1 && t.n <= kLocalPrologueRows ? 1 : 0;
    t.rowPartialOffset = slotOffset;
    t.weightPartialOffset = t.rowPartialOffset + (t.prologueLocal ? 0 : t.rowChunks) * kSlotBytes;
    return t.weightPartialOffset + (t.prologueLocal ? 0 : t.weightChunks) * kSlotBytes;
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
    SetGradProblem(p, plat.l2Bytes, t);

    Shape s{};
    s.elemBytes = DtypeBytes(p.dtype);
    s.granule = 32 / s.elemBytes;
    s.targetBytes = p.targetBytes;
    s.n = p.n;
    s.c = p.c;
    s.none = p.reduction == XENT_NONE;
    s.zloss = t.hasZloss;
    s.gradZ = t.hasGradZloss;
    s.smoothing = t.smoothing;
    s.weightTile = p.hasWeight && t.smoothing;
    s.targetCodesFit = p.targetBytes == 8 && t.classTotal <= kMaxCodedClasses;
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

    // Widest column tile (R = 1) that fits, with three tile buffers and with two.
    int64_t maxGranules[4] = {0, 0, 0, 0};
    for (int64_t buffers : {kMaxIoBuffers, kMinIoBuffers})
        maxGranules[buffers] = LargestFitting(
            1, granules, [&](int64_t g) { return Fits(s, 1, g * s.granule, buffers, ub); });
    if (maxGranules[kMinIoBuffers] < 1)
        return fail("UB of " + std::to_string(ub) + " bytes cannot hold even one 32-byte tile");

    if (N > 0) {
        // N * C * elemTraffic cannot overflow: the checks keep N * C below INT64_MAX / 16.
        const int64_t minCoreBytes = p.hasWeight && t.smoothing ? kMinCoreBytesWeightedSmoothing : kMinCoreBytes;
        const int64_t cores = std::max<int64_t>(1, std::min<int64_t>(P, N * C * elemTraffic / minCoreBytes));
        const int64_t needTiles = std::min<int64_t>(cores, N * granules);
        Candidate best;
        bool have = false;
        auto consider = [&](int64_t rows, int64_t cols, int64_t buffers) {
            const int64_t tiles = CeilDiv(N, rows) * CeilDiv(C, cols);
            if (tiles < needTiles) return;
            // Weighted smoothing deals row units, so its slowest core may have fewer
            // whole tiles' work than ceil(tiles / cores): bound it by the floor.
            const double perCore = static_cast<double>(s.weightTile ? tiles / cores : CeilDiv(tiles, cores));
            const int64_t rowCost = kRowOverhead + cols * elemTraffic;
            double tileCost = static_cast<double>(kTileOverhead + rows * rowCost);
            // fp16/bf16: a tile's copy in, float work (two Casts, Exp, one pass of the row terms)
            // and copy out take about as long each, and a buffer holds its tile through all
            // three, so two buffers give a tile every three stages over two, three buffers one
            // every stage (bf16 4096 x 32000 on the NPU model: 242 us on 2 buffers of 1 x 32000,
            // 222 on 3 of 1 x 16000; with weight and ls 0.1, 255.0 on 2 of 2 x 10672, 240.3 on
            // 3 of 1 x 10672). fp32's float work is a third of its copies: no such loss.
            if (buffers == kMinIoBuffers && s.elemBytes == 2) tileCost *= kTwoBufferStages;
            // The pieces and the weight reloads only add: skip them when the tiles alone lose.
            if (have && perCore * tileCost > best.cost) return;
            CrossEntropyLossGradTilingData f{};
            FillBuffers(s, rows, cols, buffers, ub, f);
            tileCost += static_cast<double>(
                (Pieces(rows, RoundUp(cols, s.granule), f.workBufBytes / 4) - 1) * kPieceOverhead);
            Candidate c;
            c.rows = rows;
            c.cols = cols;
            c.buffers = buffers;
            c.tiles = tiles;
            c.cost = perCore * tileCost;
            if (s.weightTile)
                c.cost = UnitMakespan(N, CeilDiv(C, cols), rows, std::min(cores, tiles),
                                      tileCost - static_cast<double>(rows * rowCost), static_cast<double>(rowCost),
                                      static_cast<double>(kTileOverhead + cols * 4));
            if (!have || c.cost < best.cost || (c.cost == best.cost && c.tiles < best.tiles)) {
                best = c;
                have = true;
            }
        };
        // Three tile buffers first: on a tie the third (the copy out of tile i-1 beside
        // the copy in of tile i+1) is kept. Two hold wider tiles in the same UB: the
        // copy in of tile i+1 then waits for the copy out of tile i-1, which keeps the
        // MTE (the longer stage of these tiles) busy all the same.
        for (int64_t buffers : {kMaxIoBuffers, kMinIoBuffers}) {
            if (maxGranules[buffers] < 1) continue;
            // Row-packed: whole rows, as many per tile as fit.
            if (Fits(s, 1, C, buffers, ub)) {
                const int64_t rmax = LargestFitting(1, std::min<int64_t>(kMaxTileRows, N),
                                                    [&](int64_t rows) { return Fits(s, rows, C, buffers, ub); });
                for (int64_t rows = 1; rows <= rmax; ++rows) consider(rows, C, buffers);
            }
            // Column-split: k column tiles per row, k from the fewest that fit up to
            // enough to feed every core (and some more, for balance). One row per
            // tile, except with weighted smoothing: there the weight columns take UB
            // once per tile, not per row, so several rows of narrower columns hold
            // more elements, and a core whose tiles stay in one column tile loads its
            // weight columns once. More rows cost only per-row overhead otherwise.
            const int64_t kMin = std::max<int64_t>(2, CeilDiv(granules, maxGranules[buffers]));
            const int64_t kMax = std::min<int64_t>(granules, kMin + CeilDiv(cores, N) + 2 * cores);
            for (int64_t k = kMin; k <= kMax; ++k) {
                for (int64_t gpt : {CeilDiv(granules, k), std::max<int64_t>(1, granules / k)}) {
                    if (gpt > maxGranules[buffers]) continue;
                    const int64_t cols = gpt * s.granule;
                    if (cols >= C) continue;  // that is the row-packed R = 1 candidate
                    consider(1, cols, buffers);
                    // DataCopyPad's GM stride between a tile's rows is a uint32 byte count.
                    if (!s.weightTile || (C - cols) * s.elemBytes > int64_t(UINT32_MAX)) continue;
                    if (cols * s.elemBytes < kMinBurstBytes) continue;
                    const int64_t rmax = LargestFitting(2, std::min<int64_t>(kMaxTileRows, N), [&](int64_t rows) {
                        return Fits(s, rows, cols, buffers, ub);
                    });
                    for (int64_t rows = 2; rows <= rmax; ++rows) consider(rows, cols, buffers);
                }
            }
        }
        if (!have) return fail("no tiling fits UB of " + std::to_string(ub) + " bytes");

        FillBuffers(s, best.rows, best.cols, best.buffers, ub, t);
        t.rowTiles = CeilDiv(N, best.rows);
        t.colTiles = CeilDiv(C, best.cols);
        t.totalTiles = best.tiles;
        t.blockDim = std::min<int64_t>(cores, best.tiles);
        t.colMajorTiles = s.weightTile ? 1 : 0;
        const int64_t shares = t.colMajorTiles ? N * t.colTiles : t.totalTiles;  // row units or tiles
        t.tilesPerCore = shares / t.blockDim;
        t.tileRemainder = shares % t.blockDim;
        SplitRemainder(s, t);
    } else {
        const int64_t buffers = maxGranules[kMaxIoBuffers] >= 1 ? kMaxIoBuffers : kMinIoBuffers;
        FillBuffers(s, 1, std::min<int64_t>(C, maxGranules[buffers] * s.granule), buffers, ub, t);
    }

    // User workspace: the tiling itself, the bad-target slots, the prologue's slots.
    t.tilingBytes = Align32(sizeof(CrossEntropyLossGradTilingData));
    t.badSlotOffset = t.tilingBytes;
    t.userWorkspaceBytes = SetGradPrologue(t, t.badSlotOffset + t.blockDim * kSlotBytes);
    // The backward's sums over more than one chunk run as a launch of their own before it.
    t.sumsBlockDim = t.prologue && !t.prologueLocal ? std::min(t.blockDim, t.rowChunks + t.weightChunks) : 0;
    // Its row chunks on the vector unit when every target that can be live converts to
    // float exactly and the whole weight fits in UB beside the path's other buffers; else
    // on the scalar unit, with the weight in UB when the main kernel keeps it there too.
    const int64_t weightBytes = p.hasWeight ? Align32(t.classTotal * 4) : 0;
    if (t.sumsBlockDim > 0 && t.rowChunks > 0 && t.classTotal <= kSumsVectorMaxClasses &&
        kSumsWeightOff + weightBytes + kScratchBytes <= static_cast<int64_t>(ub)) {
        t.sumsVector = 1;
        t.sumsBufBytes = kSumsWeightOff + weightBytes;
        t.sumsWeightBufBytes = weightBytes;
        // Launched blocks cost the launch time (about 0.094 us each on the NPU model) and a
        // vector-path chunk about three times that: b blocks take about b + 3 chunks / b
        // block costs, least at b = sqrt(3 chunks) (4096 x 32000 bf16 with weight and
        // smoothing: 8 blocks for its 24 chunks, 4.8 us against 5.9 on 24).
        const int64_t chunks = t.rowChunks + t.weightChunks;
        const int64_t best = static_cast<int64_t>(std::ceil(std::sqrt(kSumsChunkBlockCosts * static_cast<double>(chunks))));
        t.sumsBlockDim = std::min(t.sumsBlockDim, std::max<int64_t>(1, best));
    } else if (t.sumsBlockDim > 0) {
        if (t.weightResident) t.sumsWeightBufBytes = weightBytes;
        t.sumsBlockDim = ScalarSumsBlocks(t);
    }

    r.blockDim = static_cast<uint32_t>(t.blockDim);
    r.workspaceBytes = N == 0 ? 0 : static_cast<uint64_t>(t.userWorkspaceBytes) + plat.libApiWorkspaceBytes;
    r.ubBytesUsed = UbBytesUsed(t);
    r.ok = true;
    return r;
}

}  // namespace xent

// CrossEntropyLossGrad on one vector core:
//   xGrad_ij = exp(logProb_ij) * scale_i - smooth_i * w_j - [j == t_i] * nll_i
// (row terms in cross_entropy_loss_grad_row_terms.h). The core walks a
// contiguous range of tiles (R rows x TC columns, numbered row-major), then, when
// the remainder tiles are split, one column piece of them; with weighted smoothing
// a contiguous range of row units (one row of one column tile each, column-major:
// see colMajorTiles in the tiling data) in tiles of up to R rows; all of it
// through one TQueBind<VECIN, VECOUT> of ioBuffers (3 or 2) tile buffers: a tile is
// copied in, computed and copied out of the same buffer, so while tile i is computed,
// tile i+1 is copied in and (with three) tile i-1 out. fp16/bf16 compute in fp32
// through a work area of the whole tile or of a piece of it. The queue's ring is
// shared by both hops and a DeQue takes its head, so the calls go in ring order:
// EnQue<GM, VECIN>(i+1), EnQue<VECOUT, GM>(i), DeQue<GM, VECIN>(i+1),
// DeQue<VECOUT, GM>(i) (a DeQue only makes its pipe wait: the scalar unit goes on). Per tile:
//   DataCopyPad in -> per piece: [Cast to fp32] -> Exp -> Muls(scale_i) per run of rows with
//   one scale -> Adds(-smooth_i) per run, or Axpy(w, -smooth_i) per row -> scalar
//   fix-up of the target column (v - nll_i in fp32) -> [Cast CAST_RINT] -> DataCopyPad out;
//   a piece's fix-up waits until the next piece's vector work is issued (Compute).
// logProb is read once and out written once; per-row inputs are staged in small
// DataCopyPads (once for a row's consecutive column tiles), weight[t_i] is one
// scalar read per row and tile, from a UB copy of the whole weight when it is small.
#pragma once
#include "kernel_operator.h"

#include "cross_entropy_loss_grad_common.h"
#include "cross_entropy_loss_grad_reductions.h"
#include "cross_entropy_loss_grad_row_terms.h"
#include "cross_entropy_loss_grad_scratch_layout.h"
#include "cross_entropy_loss_grad_tiling_data.h"
#include "cross_entropy_loss_scale_add.h"
#include "kernel_entry.h"

namespace xent {

struct KernelArgs {  // one declaration each: GM_ADDR is a macro ending in '*'
    GM_ADDR gradLoss;
    GM_ADDR logProb;
    GM_ADDR target;
    GM_ADDR weight;
    GM_ADDR gradZloss;
    GM_ADDR lseForZloss;
    GM_ADDR xGrad;
    GM_ADDR userWorkspace;
};

// What a kernel entry of the backward does with its arguments (the main kernel's and the
// sums launch's take the same ones): the tiling, then Kernel's instance for its codes.
template <template <class, class> class Kernel>
__aicore__ inline void RunGradEntry(const KernelArgs& a, GM_ADDR tiling) {
    CrossEntropyLossGradTilingData t;
    ReadTiling(tiling, t);
    RunForDtype<Kernel>(t, a);
}

template <class T, class TTarget>
class CrossEntropyLossGradKernel {
public:
    __aicore__ inline CrossEntropyLossGradKernel(const CrossEntropyLossGradTilingData& t) : t_(t) {}

    __aicore__ inline void Init(const KernelArgs& a) {
        core_ = AscendC::GetBlockIdx();
        const GmSizes z = SizesOf(t_);
        const uint64_t n = z.n, c = z.c, rowInputs = z.perRowOrOne;
        logProbGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a.logProb), n * c);
        outGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a.xGrad), n * c);
        // Read once: allocating it in the L2 would only evict the gradient's dirty lines.
        if (t_.streamLogProb) logProbGm_.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);
        // The same gradient for the tiles the L2 could not keep to the end (outAround): written
        // around it, to HBM once, instead of allocated, evicted and written back.
        outAroundGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a.xGrad), n * c);
        outAroundGm_.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);
        targetGm_.SetGlobalBuffer(reinterpret_cast<__gm__ TTarget*>(a.target), n);
        gradLossGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a.gradLoss), rowInputs);
        if (t_.hasWeight)
            weightGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(a.weight), static_cast<uint64_t>(t_.classTotal));
        if (t_.hasGradZloss) gradZGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a.gradZloss), rowInputs);
        if (t_.hasZloss) lseGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a.lseForZloss), n);
        badSlotGm_.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(a.userWorkspace + t_.badSlotOffset),
                                   static_cast<uint64_t>(t_.blockDim) * (kSlotBytes / 8));
        userWs_ = a.userWorkspace;

        pipe_.InitBuffer(ioQ_, static_cast<uint8_t>(t_.ioBuffers), static_cast<uint32_t>(t_.ioBufBytes));
        if (t_.workPadBytes > 0) pipe_.InitBuffer(padBuf_, static_cast<uint32_t>(t_.workPadBytes));
        if (t_.workBufBytes > 0) pipe_.InitBuffer(workBuf_, static_cast<uint32_t>(t_.workBufBytes));
        if (t_.weightBufBytes > 0) pipe_.InitBuffer(weightBuf_, static_cast<uint32_t>(t_.weightBufBytes));
        weights_.gm = weightGm_;
        if (t_.weightResident) LoadResidentWeight();
        pipe_.InitBuffer(stageBuf_, static_cast<uint32_t>(2 * t_.stageBytes));
        pipe_.InitBuffer(scratchBuf_, static_cast<uint32_t>(t_.scratchBytes));
        scaleAdd_.Init(scratchBuf_.GetWithOffset<float>(128, kScratchTermsOff));
        if (t_.stageCodeOff > 0) {
            stageEvent_[0] = pipe_.template AllocEventID<AscendC::HardEvent::MTE2_V>();
            stageEvent_[1] = pipe_.template AllocEventID<AscendC::HardEvent::MTE2_V>();
            codeEvent_ = pipe_.template AllocEventID<AscendC::HardEvent::V_S>();
        } else {
            stageEvent_[0] = pipe_.template AllocEventID<AscendC::HardEvent::MTE2_S>();
            stageEvent_[1] = pipe_.template AllocEventID<AscendC::HardEvent::MTE2_S>();
        }
        fixEvent_[0] = pipe_.template AllocEventID<AscendC::HardEvent::V_S>();
        fixEvent_[1] = pipe_.template AllocEventID<AscendC::HardEvent::V_S>();

        // 0-D gradients of mean/sum: one scalar each per launch.
        if (t_.reduction != XENT_NONE) {
            s_.grad = ToF32(gradLossGm_.GetValue(0));
            s_.gradZ = t_.hasGradZloss ? ToF32(gradZGm_.GetValue(0)) : 0.0f;
        }
        s_.classWeightSum = t_.classCount;
    }

    __aicore__ inline void Process() {
        if (t_.prologue) {
            CrossEntropyLossGradReductions<TTarget> reductions(t_, pipe_, scratchBuf_, targetGm_, weightGm_, weights_,
                                                               userWs_, bad_);
            if (t_.prologueLocal) reductions.Local(s_);
            else reductions.Totals(s_);
        }
        SmoothWeightCopies();
        int64_t count = 0;
        if (t_.colMajorTiles) {
            unit0_ = core_ * t_.tilesPerCore + (core_ < t_.tileRemainder ? core_ : t_.tileRemainder);
            unitEnd_ = unit0_ + t_.tilesPerCore + (core_ < t_.tileRemainder ? 1 : 0);
            count = UnitTiles();
        } else {
            const bool extra = core_ < t_.tileRemainder;
            first_ = core_ * t_.tilesPerCore + (t_.splitTiles > 0 ? 0 : (extra ? core_ : t_.tileRemainder));
            count = t_.tilesPerCore + (extra ? 1 : 0);
            lastTile_ = first_ + (t_.splitTiles > 0 ? t_.tilesPerCore : count) - 1;
        }
        const int64_t around = count * t_.outAround / 65536;  // tiles written around the L2
        AscendC::LocalTensor<T> x;  // the tile being computed: logProb in, xGrad out
        if (count > 0) {
            CopyIn(CoreTile(0), 0);
            x = ioQ_.template DeQue<AscendC::TPosition::GM, AscendC::TPosition::VECIN, T>();
        }
        for (int64_t i = 0; i < count; ++i) {
            const bool more = i + 1 < count;
            if (more) CopyIn(CoreTile(i + 1), static_cast<int32_t>((i + 1) & 1));
            Compute(CoreTile(i), static_cast<int32_t>(i & 1), x);
            AscendC::LocalTensor<T> next;
            if (more) next = ioQ_.template DeQue<AscendC::TPosition::GM, AscendC::TPosition::VECIN, T>();
            CopyOut(CoreTile(i), i < around);
            x = next;
        }
        if (t_.stageCodeOff > 0) {
            pipe_.template ReleaseEventID<AscendC::HardEvent::MTE2_V>(stageEvent_[0]);
            pipe_.template ReleaseEventID<AscendC::HardEvent::MTE2_V>(stageEvent_[1]);
            pipe_.template ReleaseEventID<AscendC::HardEvent::V_S>(codeEvent_);
        } else {
            pipe_.template ReleaseEventID<AscendC::HardEvent::MTE2_S>(stageEvent_[0]);
            pipe_.template ReleaseEventID<AscendC::HardEvent::MTE2_S>(stageEvent_[1]);
        }
        pipe_.template ReleaseEventID<AscendC::HardEvent::V_S>(fixEvent_[0]);
        pipe_.template ReleaseEventID<AscendC::HardEvent::V_S>(fixEvent_[1]);
        ReportBadTargets();
    }

private:
    static constexpr bool kFp32 = SameType<T, float>::value;
    static constexpr int32_t kRowDead = -2;   // ignored or bad target: the whole row is 0
    static constexpr int32_t kRowNoFix = -1;  // live row whose target column lies outside this tile
    static constexpr int64_t kChunk = kTermRows;  // rows whose terms sit on the scalar stack at once

    // pitch: UB elements per row, cols rounded up to whole 32-byte blocks. Rows
    // sit back to back at the tile's own pitch (DataCopyPad defines each row's
    // rounded tail), so a tile's rows * pitch elements are all written, also in
    // the shorter last column tile.
    struct Tile {
        int64_t row0, rows, col0, cols, pitch;
    };

    // This core's i-th tile: column-major, its own i-th (UnitTile); row-major, a
    // contiguous stretch from first_, then (with split remainder tiles) its piece.
    __aicore__ inline int64_t CoreTile(int64_t i) const {
        if (t_.colMajorTiles) return i;
        return t_.splitTiles > 0 && i == t_.tilesPerCore ? WholeTiles() + core_ : first_ + i;
    }

    // Column-major: this core's row units [unit0_, unitEnd_) (unit u is row u mod N of
    // column tile u / N) in tiles of up to tileRows rows, a column tile's rows from the
    // first of the range in it on. A run is the units of one column tile: from u to
    // UnitRunEnd(u), in UnitRunTiles(u) tiles.
    __aicore__ inline int64_t UnitRunEnd(int64_t u) const {
        const int64_t colTileEnd = (u / t_.n + 1) * t_.n;
        return unitEnd_ < colTileEnd ? unitEnd_ : colTileEnd;
    }

    __aicore__ inline int64_t UnitRunTiles(int64_t u) const {
        return (UnitRunEnd(u) - u + t_.tileRows - 1) / t_.tileRows;
    }

    __aicore__ inline int64_t UnitTiles() const {
        int64_t tiles = 0;
        for (int64_t u = unit0_; u < unitEnd_; u = UnitRunEnd(u)) tiles += UnitRunTiles(u);
        return tiles;
    }

    // This core's i-th tile (0 <= i < UnitTiles()).
    __aicore__ inline Tile UnitTile(int64_t i) const {
        int64_t u = unit0_;
        for (int64_t here = UnitRunTiles(u); i >= here && u < unitEnd_; here = UnitRunTiles(u)) {
            i -= here;
            u = UnitRunEnd(u);
        }
        const int64_t colTile = u / t_.n;
        Tile g{0, 0, 0, 0, 0};
        g.row0 = u - colTile * t_.n + i * t_.tileRows;
        const int64_t left = UnitRunEnd(u) - colTile * t_.n - g.row0;
        g.rows = left < t_.tileRows ? left : t_.tileRows;
        g.col0 = colTile * t_.tileCols;
        g.cols = t_.c - g.col0 < t_.tileCols ? t_.c - g.col0 : t_.tileCols;
        g.pitch = (g.cols + kPerBlock - 1) / kPerBlock * kPerBlock;
        return g;
    }

    // Column-major: one past the last row of this core's range in the column tile from col0.
    __aicore__ inline int64_t UnitRowsEnd(int64_t col0) const {
        const int64_t end = unitEnd_ - col0 / t_.tileCols * t_.n;
        return end < t_.n ? end : t_.n;
    }

    // Tiles before the split ones: pieces are numbered from here on.
    __aicore__ inline int64_t WholeTiles() const { return t_.totalTiles - t_.splitTiles; }

    __aicore__ inline bool IsPiece(int64_t index) const { return t_.splitTiles > 0 && index >= WholeTiles(); }

    __aicore__ inline Tile TileAt(int64_t index) const {
        if (t_.colMajorTiles) return UnitTile(index);
        if (IsPiece(index)) {  // column piece p % splitPieces of split tile p / splitPieces
            const int64_t p = index - WholeTiles();
            Tile g = WholeTileAt(WholeTiles() + p / t_.splitPieces);
            const int64_t c0 = (p % t_.splitPieces) * t_.splitCols;
            g.col0 += c0;
            g.cols = g.cols - c0 < t_.splitCols ? g.cols - c0 : t_.splitCols;
            g.pitch = (g.cols + kPerBlock - 1) / kPerBlock * kPerBlock;
            return g;
        }
        return WholeTileAt(index);
    }

    // Row-major tile `index`.
    __aicore__ inline Tile WholeTileAt(int64_t index) const {
        Tile g;
        g.row0 = index / t_.colTiles * t_.tileRows;
        g.rows = t_.n - g.row0 < t_.tileRows ? t_.n - g.row0 : t_.tileRows;
        g.col0 = index % t_.colTiles * t_.tileCols;
        g.cols = t_.c - g.col0 < t_.tileCols ? t_.c - g.col0 : t_.tileCols;
        g.pitch = (g.cols + kPerBlock - 1) / kPerBlock * kPerBlock;
        return g;
    }

    static constexpr int64_t kPerBlock = 32 / static_cast<int64_t>(sizeof(T));  // elements per 32-byte block

    template <class U>
    __aicore__ inline void StageRows(const AscendC::GlobalTensor<U>& gm, int64_t row0, int64_t rows, int32_t stage,
                                     int64_t offset) {
        AscendC::LocalTensor<U> ub = stageBuf_.GetWithOffset<U>(StageElems<U>(), static_cast<uint32_t>(stage * t_.stageBytes + offset));
        AscendC::DataCopyPad(ub, gm[row0], AscendC::DataCopyExtParams(1, static_cast<uint32_t>(rows * sizeof(U)), 0, 0, 0),
                             AscendC::DataCopyPadExtParams<U>(false, 0, 0, 0));
    }

    // The tile's per-row inputs in one of the two stage areas. A staging holds up to
    // stageRows rows from the tile's first on (no further than the last row of this
    // core's tiles that follow in order), so later tiles whose rows it holds (a row's
    // column tiles, the next rows of a column tile) need no DMA and no flag. A new
    // staging goes to the area the previous tile does not use: the next Compute
    // still reads that one.
    __aicore__ inline void StageTile(const Tile& g, int64_t index, int32_t slot) {
        if (g.row0 >= stagedRow0_ && g.row0 + g.rows <= stagedRow0_ + stagedRows_) {
            tileStage_[slot] = lastStage_;
            tileWaits_[slot] = false;
            tileRowBase_[slot] = g.row0 - stagedRow0_;
            return;
        }
        const int32_t stage = lastStage_ ^ 1;
        const int64_t end = RowsEnd(index);
        const int64_t rows = end - g.row0 < t_.stageRows ? end - g.row0 : t_.stageRows;
        StageRows(targetGm_, g.row0, rows, stage, 0);
        if (t_.reduction == XENT_NONE) StageRows(gradLossGm_, g.row0, rows, stage, t_.stageGradOff);
        if (t_.reduction == XENT_NONE && t_.hasGradZloss) StageRows(gradZGm_, g.row0, rows, stage, t_.stageGzOff);
        if (t_.hasZloss) StageRows(lseGm_, g.row0, rows, stage, t_.stageLseOff);
        if (t_.stageCodeOff > 0) AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(stageEvent_[stage]);
        else AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(stageEvent_[stage]);
        stageRowsOf_[stage] = rows;
        lastStage_ = stage;
        stagedRow0_ = g.row0;
        stagedRows_ = rows;
        tileStage_[slot] = stage;
        tileWaits_[slot] = true;
        tileRowBase_[slot] = 0;
    }

    // One past the last row of this core's tiles from `index` on whose rows only grow:
    // to its last tile (row-major), or to the end of its range in index's column tile
    // (column-major).
    __aicore__ inline int64_t RowsEnd(int64_t index) const {
        if (t_.colMajorTiles) return UnitRowsEnd(TileAt(index).col0);
        const Tile g = TileAt(IsPiece(index) ? index : lastTile_);
        return g.row0 + g.rows;
    }

    // Per-row inputs first (their MTE2_S flag then need not wait for the tile), then the
    // tile. slot: the tile's parity, which names its queue buffers and its stage record.
    __aicore__ inline void CopyIn(int64_t index, int32_t slot) {
        const Tile g = TileAt(index);
        StageTile(g, index, slot);

        AscendC::LocalTensor<T> x = ioQ_.template AllocTensor<T>();
        AscendC::DataCopyPad(x, logProbGm_[static_cast<uint64_t>(g.row0) * t_.c + g.col0],
                             AscendC::DataCopyExtParams(static_cast<uint16_t>(g.rows),
                                                        static_cast<uint32_t>(g.cols * sizeof(T)),
                                                        static_cast<uint32_t>((t_.c - g.cols) * sizeof(T)), 0, 0),
                             AscendC::DataCopyPadExtParams<T>(false, 0, 0, 0));
        ioQ_.template EnQue<AscendC::TPosition::GM, AscendC::TPosition::VECIN, T>(x);
    }

    // x: the tile's dequeued buffer, logProb in, xGrad out (enqueued for the copy out).
    // The float work goes piece by piece: fp32 in the tile buffer itself, fp16/bf16
    // through the work area. A tile of several rows goes in pieces of whole rows, in two
    // alternating halves of the work area, so that the scalar unit fixes one piece's
    // target columns while the vector unit works the next (PieceRows); otherwise the
    // whole tile when it fits, else groups of whole rows, else column pieces of one row,
    // each finished before the next. Every step is elementwise, so the pieces give the
    // bits of one pass over the tile; the 16-bit tile buffers then take 2 B of UB per
    // element instead of sharing it with a 4 B work tile, and hold whole rows.
    __aicore__ inline void Compute(int64_t index, int32_t slot, AscendC::LocalTensor<T>& x) {
        const Tile g = TileAt(index);
        const int64_t work = kFp32 ? g.rows * g.pitch : t_.workBufBytes / 4;
        int64_t pieceRows = PieceRows(g.rows, g.pitch, work), pieceCols = g.pitch;
        const bool overlap = pieceRows > 0;
        if (!overlap) {
            pieceRows = g.rows;
            if (g.rows * g.pitch > work) {
                pieceRows = g.pitch <= work ? (work / g.pitch < kChunk ? work / g.pitch : kChunk) : 1;
                pieceCols = g.pitch <= work ? g.pitch : work;
            }
        }
        termsRows_ = 0;
        termsSpan_ = kChunk / pieceRows * pieceRows;  // whole pieces: no piece straddles two chunks
        int32_t piece = 0;
        for (int64_t ra = 0; ra < g.rows; ra += pieceRows) {
            const int64_t rb = g.rows - ra < pieceRows ? g.rows : ra + pieceRows;
            for (int64_t c0 = 0; c0 < g.pitch; c0 += pieceCols, ++piece) {
                const int64_t c1 = g.pitch - c0 < pieceCols ? g.pitch : c0 + pieceCols;
                const int64_t area = overlap && !kFp32 ? (piece & 1) * HalfWork(work) : 0;
                Piece(g, slot, x, ra, rb, c0, c1, piece == 0, area, piece & 1);
                if (!overlap) FinishPiece(piece & 1);
                else if (piece > 0) FinishPiece((piece - 1) & 1);
            }
        }
        if (overlap) FinishPiece((piece - 1) & 1);
        ioQ_.template EnQue<AscendC::TPosition::VECOUT, AscendC::TPosition::GM, T>(x);
    }

    // Rows per piece when a tile of `rows` rows at `pitch` goes in overlapped pieces (at
    // least two, at most kChunk rows, each fp16/bf16 piece in half of the work area of
    // `work` floats); 0 when it does not (one row, or no room for a row in each half).
    __aicore__ inline static int64_t PieceRows(int64_t rows, int64_t pitch, int64_t work) {
        if (rows < 2 || (!kFp32 && HalfWork(work) < pitch)) return 0;
        const int64_t fit = kFp32 ? kChunk : HalfWork(work) / pitch;
        const int64_t cap = fit < kChunk ? fit : kChunk;
        int64_t pieces = (rows + cap - 1) / cap;
        if (pieces < 2) pieces = 2;
        return (rows + pieces - 1) / pieces;
    }

    // Floats in each half of a work area of `work` floats (256-byte aligned).
    __aicore__ inline static int64_t HalfWork(int64_t work) { return work / 2 / 64 * 64; }

    // A piece whose vector work is issued, and whose target-column fix-up and (fp16/bf16)
    // Cast back into the tile buffer are still to come (FinishPiece). A piece holds at
    // most kChunk rows, so at most kChunk fix-ups. Pieces alternate between two of these
    // slots, and a slot's V_S event and stripe scale set are its own: a slot is used
    // again only after FinishPiece has waited for its flag.
    struct PendingPiece {
        AscendC::LocalTensor<float> p;  // the piece's fp32 values
        AscendC::LocalTensor<T> x;      // the tile buffer, element e0 on
        int64_t e0 = 0;
        int32_t n = 0, fixes = 0;
        bool stripes = false;  // its row terms took the stripe form (ScaleRowsByStripes)
        uint32_t at[kChunk];
        float nll[kChunk];
    };

    // p[at] -= nll_i at each target column of the piece, once the vector unit is done with
    // it (v - nll_i in fp32, rounded once by the Cast), then the Cast back for fp16/bf16.
    __aicore__ inline void FinishPiece(int32_t s) {
        PendingPiece& d = pending_[s];
        if (d.fixes > 0 || d.stripes) AscendC::WaitFlag<AscendC::HardEvent::V_S>(fixEvent_[s]);
        if (d.fixes > 0) {
            for (int32_t j = 0; j < d.fixes; ++j) d.p.SetValue(d.at[j], d.p.GetValue(d.at[j]) - d.nll[j]);
            WaitPipe<AscendC::HardEvent::S_V>(pipe_);
        }
        if constexpr (!kFp32) {
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Cast(d.x[d.e0], d.p, AscendC::RoundMode::CAST_RINT, static_cast<uint32_t>(d.n));
        }
    }

    // Rows [ra, rb) x columns [c0, c1) of the tile (c1 <= pitch; whole rows when c0 = 0
    // and c1 = pitch, else ra + 1 = rb): exp and the row terms in fp32 (from `area` floats
    // into the work area for fp16/bf16); the fix-ups it needs are recorded in pending slot s.
    __aicore__ inline void Piece(const Tile& g, int32_t slot, AscendC::LocalTensor<T>& x, int64_t ra, int64_t rb,
                                 int64_t c0, int64_t c1, bool first, int64_t area, int32_t s) {
        PendingPiece& d = pending_[s];
        const int64_t e0 = ra * g.pitch + c0;
        // Every row's data and its 32-byte-rounded tail (DataCopyPad fills the tail).
        const int32_t n = static_cast<int32_t>((rb - ra - 1) * g.pitch + c1 - c0);
        const int64_t dataEnd = c1 < g.cols ? c1 : g.cols;  // the piece's last data column + 1 in a row
        // p: the fp32 values (x itself for fp32); element (r, c) of the tile is p[(r - ra) * pitch + c - c0]
        AscendC::LocalTensor<float> p = WorkArea(x, e0, area);
        AscendC::PipeBarrier<PIPE_V>();  // the last reads of this work area
        d.p = p;
        d.x = x;
        d.e0 = e0;
        d.n = n;
        d.fixes = 0;
        d.stripes = false;
        // The codes go first, so that the scalar unit waits for them and not for the exp.
        if (first && tileWaits_[slot] && t_.stageCodeOff > 0) CodeTargets(tileStage_[slot]);
        // p = exp(logProb), in fp32
        if constexpr (!kFp32) {
            AscendC::Cast(p, x[e0], AscendC::RoundMode::CAST_NONE, static_cast<uint32_t>(n));
            AscendC::PipeBarrier<PIPE_V>();
        }
        AscendC::Exp(p, p, n);
        AscendC::PipeBarrier<PIPE_V>();
        if (first) {
            LoadWeightTile(g);
            if (tileWaits_[slot] && t_.stageCodeOff > 0) AscendC::WaitFlag<AscendC::HardEvent::V_S>(codeEvent_);
            else if (tileWaits_[slot]) AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(stageEvent_[tileStage_[slot]]);
        }
        AscendC::LocalTensor<float> w;
        if (t_.smoothing && t_.hasWeight)
            w = weightBuf_.template Get<float>()[(t_.weightResident ? t_.classOffset + g.col0 : 0) + c0];

        for (int64_t r0 = ra, rn = 0; r0 < rb; r0 += rn) {
            const int64_t k = TermsFrom(g, slot, r0);  // rows r0.. are terms entries k..
            rn = rb - r0 < termsRows_ - k ? rb - r0 : termsRows_ - k;  // the rows of the piece that have terms
            const float* scale = scale_ + k;
            const float* smooth = smooth_ + k;
            const int32_t* fixCol = fixCol_ + k;
            const int64_t at0 = (r0 - ra) * g.pitch;  // row r0 in p
            // p * scale_i - smooth_i * w_j, w_j = 1 without a weight: one instruction per run
            // of rows with the same terms (a whole row-packed tile under mean/sum without
            // weight or z-loss; the pitch padding between its rows is computed too and
            // never copied out); smooth_i = +0 adds nothing.
            const bool wholeRows = g.cols == t_.c && c0 == 0 && c1 == g.pitch;
            if (t_.smoothing && !t_.hasWeight) {
                for (int64_t k0 = 0, k1 = 0; k0 < rn; k0 = k1) {
                    k1 = RunEnd(rn, scale, smooth, k0);
                    scaleAdd_.Apply(p[at0 + k0 * g.pitch], scale[k0], smooth[k0], RunCount(g, k1 - k0, c0, dataEnd));
                }
            } else if (smoothedWeight_ && (t_.smoothWeightRows == 0 || wholeRows)) {
                const bool rowCopies = t_.smoothWeightRows > 0;
                if (rowCopies && StripesPay(rn, scale, fixCol, g.pitch)) {
                    ScaleRowsByStripes(p[at0], rn, scale, fixCol, g.pitch, WeightRows(g.pitch), true, s);
                    d.stripes = true;
                } else {
                    ScaleSmoothedWeight(p[at0], rn, scale, fixCol, g, c0, dataEnd,
                                        rowCopies ? WeightRows(g.pitch) : w, rowCopies ? t_.smoothWeightRows : 1);
                }
            } else {
                if (wholeRows && StripesPay(rn, scale, fixCol, g.pitch)) {
                    ScaleRowsByStripes(p[at0], rn, scale, fixCol, g.pitch, p, false, s);
                    d.stripes = true;
                } else {
                    for (int64_t k0 = 0, k1 = 0; k0 < rn; k0 = k1) {
                        k1 = RunEnd(rn, scale, k0);
                        AscendC::Muls(p[at0 + k0 * g.pitch], p[at0 + k0 * g.pitch], scale[k0],
                                      RunCount(g, k1 - k0, c0, dataEnd));
                    }
                }
                if (t_.smoothing && t_.hasWeight) {
                    AscendC::PipeBarrier<PIPE_V>();
                    if (t_.smoothWeightRows > 0 && wholeRows) {
                        SmoothWholeRows(p[at0], rn, smooth, fixCol, g);
                    } else {
                        for (int64_t j = 0; j < rn; ++j) {
                            if (fixCol[j] == kRowDead) continue;
                            AscendC::Axpy(p[at0 + j * g.pitch], w, -smooth[j], static_cast<int32_t>(dataEnd - c0));
                        }
                    }
                }
            }
            // - nll_i at the target column: p - 1 formed in fp32, rounded once by the Cast.
            for (int64_t j = 0; j < rn; ++j) {
                if (fixCol[j] < c0 || fixCol[j] >= dataEnd) continue;
                d.at[d.fixes] = static_cast<uint32_t>(at0 + j * g.pitch + fixCol[j] - c0);
                d.nll[d.fixes++] = nll_[k + j];
            }
        }
        // The fix-ups wait for the vector unit, and so does the next stripe form's scalar
        // writes of its row scales into the set this piece's Brcb read.
        if (d.fixes > 0 || d.stripes) AscendC::SetFlag<AscendC::HardEvent::V_S>(fixEvent_[s]);
    }

    // The stripe form pays where the run form would take more instructions (one per run of
    // equal scale_i, a dead row ending a run) than it takes stripes, and a repeat can step
    // a whole row (a repeat stride of at most 255 blocks).
    __aicore__ inline bool StripesPay(int64_t rn, const float* scale, const int32_t* fixCol, int64_t pitch) const {
        if (pitch / 8 > 255 || rn < 2) return false;
        int64_t runs = 1;
        for (int64_t k = 1; k < rn; ++k)
            if (fixCol[k] == kRowDead || fixCol[k - 1] == kRowDead || FloatBits(scale[k]) != FloatBits(scale[k - 1]))
                ++runs;
        return runs > (pitch + 63) / 64 + 1;
    }

    // p = p * scale_i (+ sw_j with addSw: weighted smoothing under mean or sum, sw the row
    // copy of -smooth * w_j) over rn whole rows whose scale_i differ: the scales broadcast
    // to a 32-byte block each (Brcb), then per run of live rows one Mul or FusedMulAdd per
    // 64-column stripe, a repeat per row (the row's block, and the same sw row for every
    // repeat), instead of one instruction per row (and, with sw, a rewritten scale block
    // per row). A run of dead rows is one Muls by 0, as in the run form. set: the pending
    // slot's set of scales and blocks.
    __aicore__ inline void ScaleRowsByStripes(const AscendC::LocalTensor<float>& p, int64_t rn, const float* scale,
                                              const int32_t* fixCol, int64_t pitch,
                                              const AscendC::LocalTensor<float>& sw, bool addSw, int32_t set) {
        const AscendC::LocalTensor<float> scales =
            scratchBuf_.GetWithOffset<float>(kChunk, static_cast<uint32_t>(kScratchRowScalesOff + set * kChunk * 4));
        const AscendC::LocalTensor<float> blocks =
            scratchBuf_.GetWithOffset<float>(kChunk * 8, static_cast<uint32_t>(kScratchRowBlocksOff + set * kChunk * 32));
        const int64_t padded = (rn + 7) / 8 * 8;  // Brcb reads whole groups of 8
        for (int64_t j = 0; j < padded; ++j)
            scales.SetValue(static_cast<uint32_t>(j), j < rn && fixCol[j] != kRowDead ? scale[j] : 0.0f);
        WaitPipe<AscendC::HardEvent::S_V>(pipe_);
        AscendC::Brcb(blocks, scales, static_cast<uint8_t>(padded / 8), AscendC::BrcbRepeatParams(1, 8));
        AscendC::PipeBarrier<PIPE_V>();
        const uint8_t rowBlocks = static_cast<uint8_t>(pitch / 8);
        for (int64_t k0 = 0, k1 = 0; k0 < rn; k0 = k1) {
            const bool dead = fixCol[k0] == kRowDead;
            for (k1 = k0 + 1; k1 < rn && (fixCol[k1] == kRowDead) == dead;) ++k1;
            const AscendC::LocalTensor<float> rows = p[k0 * pitch];
            if (dead) {
                AscendC::Muls(rows, rows, 0.0f, static_cast<int32_t>((k1 - k0) * pitch));
                continue;
            }
            for (int64_t c = 0; c < pitch; c += 64) {
                const uint64_t lanes = static_cast<uint64_t>(pitch - c < 64 ? pitch - c : 64);
                if (addSw)  // dst = src0 * dst + src1
                    AscendC::FusedMulAdd(rows[c], blocks[k0 * 8], sw[c], lanes, static_cast<uint8_t>(k1 - k0),
                                         AscendC::BinaryRepeatParams(1, 0, 1, rowBlocks, 1, 0));
                else
                    AscendC::Mul(rows[c], rows[c], blocks[k0 * 8], lanes, static_cast<uint8_t>(k1 - k0),
                                 AscendC::BinaryRepeatParams(1, 1, 0, rowBlocks, rowBlocks, 1));
            }
        }
    }

    // Weighted smoothing where every live row has the same smooth_i (mean and sum): p =
    // p * scale_i + sw_j over rn rows from sw, the weight columns already multiplied by
    // -smooth (smoothedWeight_): one FusedMulAdd per run of up to maxRows live rows with
    // equal scale_i (sw holds that many copies at the row pitch), one Muls by 0 per
    // run of dead rows.
    __aicore__ inline void ScaleSmoothedWeight(const AscendC::LocalTensor<float>& p, int64_t rn, const float* scale,
                                               const int32_t* fixCol, const Tile& g, int64_t c0, int64_t dataEnd,
                                               const AscendC::LocalTensor<float>& sw, int64_t maxRows) {
        for (int64_t k0 = 0, k1 = 0; k0 < rn; k0 = k1) {
            const bool dead = fixCol[k0] == kRowDead;
            k1 = k0 + 1;
            while (k1 < rn && (fixCol[k1] == kRowDead) == dead &&
                   (dead || (k1 - k0 < maxRows && FloatBits(scale[k1]) == FloatBits(scale[k0]))))
                ++k1;
            const int32_t count = RunCount(g, k1 - k0, c0, dataEnd);
            if (dead) AscendC::Muls(p[k0 * g.pitch], p[k0 * g.pitch], 0.0f, count);
            else scaleAdd_.ApplyTensor(p[k0 * g.pitch], scale[k0], sw, count);
        }
    }

    // p -= smooth_i * w_j over rn whole rows: one Axpy per run of up to smoothWeightRows
    // rows with equal smooth_i, over those rows and the pitch padding between them, from
    // w's copies laid out at the same pitch (element for element). Dead rows end a run
    // and are skipped, as in the per-row form; every element gets the same Axpy.
    __aicore__ inline void SmoothWholeRows(const AscendC::LocalTensor<float>& p, int64_t rn, const float* smooth,
                                           const int32_t* fixCol, const Tile& g) {
        const AscendC::LocalTensor<float> wRows = WeightRows(g.pitch);
        for (int64_t k0 = 0, k1 = 0; k0 < rn; k0 = k1) {
            k1 = k0 + 1;
            if (fixCol[k0] == kRowDead) continue;
            while (k1 < rn && k1 - k0 < t_.smoothWeightRows && fixCol[k1] != kRowDead &&
                   FloatBits(smooth[k1]) == FloatBits(smooth[k0]))
                ++k1;
            AscendC::Axpy(p[k0 * g.pitch], wRows, -smooth[k0], RunCount(g, k1 - k0, 0, g.cols));
        }
    }

    // w's smoothWeightRows copies at the row pitch, after the resident weight.
    __aicore__ inline AscendC::LocalTensor<float> WeightRows(int64_t pitch) {
        return weightBuf_.template GetWithOffset<float>(static_cast<uint32_t>(t_.smoothWeightRows * pitch),
                                                        static_cast<uint32_t>((t_.classTotal * 4 + 31) / 32 * 32));
    }

    // The row terms (from the staged inputs) of tile rows r0 on, for a chunk of up to
    // kChunk rows, whole pieces (termsSpan_), held on the scalar stack (no UB round trip)
    // while the tile's pieces need them: computed once per row and tile. Returns r0's entry.
    __aicore__ inline int64_t TermsFrom(const Tile& g, int32_t slot, int64_t r0) {
        if (r0 < termsRow0_ || r0 >= termsRow0_ + termsRows_) {
            termsRow0_ = r0;
            termsRows_ = g.rows - r0 < termsSpan_ ? g.rows - r0 : termsSpan_;
            for (int64_t k = 0; k < termsRows_; ++k) {
                int32_t col = kRowDead;
                const RowTerms terms = TermsOfRow(g, r0 + k, tileStage_[slot], tileRowBase_[slot], col);
                scale_[k] = terms.scale;
                smooth_[k] = terms.smooth;
                nll_[k] = terms.nll;
                fixCol_[k] = col;
            }
        }
        return r0 - termsRow0_;
    }

    __aicore__ inline void CopyOut(int64_t index, bool aroundL2) {
        const Tile g = TileAt(index);
        AscendC::LocalTensor<T> y = ioQ_.template DeQue<AscendC::TPosition::VECOUT, AscendC::TPosition::GM, T>();
        AscendC::DataCopyPad((aroundL2 ? outAroundGm_ : outGm_)[static_cast<uint64_t>(g.row0) * t_.c + g.col0], y,
                             AscendC::DataCopyExtParams(static_cast<uint16_t>(g.rows),
                                                        static_cast<uint32_t>(g.cols * sizeof(T)),
                                                        0, static_cast<uint32_t>((t_.c - g.cols) * sizeof(T)), 0));
        ioQ_.FreeTensor(y);
    }

    // scale_i, smooth_i, nll_i of tile row r (staged at rowBase + r); col = target column
    // inside the tile, kRowNoFix, or kRowDead.
    __aicore__ inline RowTerms TermsOfRow(const Tile& g, int64_t r, int32_t stage, int64_t rowBase, int32_t& col) {
        const uint32_t ur = static_cast<uint32_t>(rowBase + r);
        const int64_t base = stage * t_.stageBytes;
        bool coded = false;
        const int64_t target = StagedTarget(base, ur, coded);
        if (!RowIsLive(t_, g.row0 + r, target, bad_)) {
            col = kRowDead;
            return RowTerms{0.0f, 0.0f, 0.0f};
        }
        float grad = s_.grad, gradZ = s_.gradZ, lse = 0.0f;
        if (t_.reduction == XENT_NONE) {
            grad = ToF32(StagedValue(base + t_.stageGradOff, ur));
            if (t_.hasGradZloss) gradZ = ToF32(StagedValue(base + t_.stageGzOff, ur));
        }
        if (t_.hasZloss) lse = ToF32(StagedValue(base + t_.stageLseOff, ur));
        float targetWeight = 1.0f;
        if (t_.hasWeight && coded && t_.weightResident)  // the code's weight, gathered beside it
            targetWeight = BitCast<float>(PairValue(codeWord_[1], base + t_.stageCodeOff + 4 * CodeAreaFloats(), ur));
        else if (t_.hasWeight)
            targetWeight = weights_.At(target);
        // A shard's target may be another shard's column: live, but no fix-up here.
        const int64_t local = target - t_.classOffset;
        col = (local >= g.col0 && local < g.col0 + g.cols) ? static_cast<int32_t>(local - g.col0) : kRowNoFix;
        return ComputeRowTerms(t_, s_, grad, gradZ, lse, targetWeight);
    }

    // A staging's int32 target codes (stageCodeOff): float(target) clamped to [-1, C] and
    // converted back, C = classTotal <= 2^24 (exact below it), so a code in [0, C) is the
    // target itself and any other (-1, C) stands for a target outside [0, C).
    __aicore__ inline void CodeTargets(int32_t stage) {
        const int32_t n = static_cast<int32_t>((stageRowsOf_[stage] + 1) / 2 * 2);  // whole pairs: the stage's 32-byte tail is defined
        const AscendC::LocalTensor<float> codes = stageBuf_.GetWithOffset<float>(
            static_cast<uint32_t>(CodeAreaFloats() * (t_.weightResident ? 3 : 1)),
            static_cast<uint32_t>(stage * t_.stageBytes + t_.stageCodeOff));
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(stageEvent_[stage]);
        AscendC::Cast(codes, stageBuf_.GetWithOffset<TTarget>(StageElems<TTarget>(), static_cast<uint32_t>(stage * t_.stageBytes)),
                      AscendC::RoundMode::CAST_RINT, n);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Maxs(codes, codes, -1.0f, n);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Mins(codes, codes, t_.classCount, n);
        AscendC::PipeBarrier<PIPE_V>();
        if (t_.weightResident) {
            // weight[min(max(code, 0), C - 1)], the gather's offsets in the third area.
            const AscendC::LocalTensor<float> index = codes[2 * CodeAreaFloats()];
            AscendC::Maxs(index, codes, 0.0f, n);
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Mins(index, index, t_.classCount - 1.0f, n);
            AscendC::PipeBarrier<PIPE_V>();
            GatherAtFloatIndex(codes[CodeAreaFloats()], weights_.ub, index, n);
        }
        AscendC::Cast(codes.template ReinterpretCast<int32_t>(), codes, AscendC::RoundMode::CAST_RINT, n);
        AscendC::SetFlag<AscendC::HardEvent::V_S>(codeEvent_);
        codeWord_[0].at = codeWord_[1].at = -1;
    }

    // Floats of one area of the codes (their weights and offsets follow at this stride).
    __aicore__ inline int64_t CodeAreaFloats() const { return (t_.stageRows * 4 + 31) / 32 * 8; }

    // The 32-bit value of row r in a stage area of pairs (area: its byte in stageBuf_),
    // two rows to a 64-bit scalar read, the last pair read kept in `pair`.
    struct PairRead {
        int64_t at = -1;  // the stage byte of the pair in word
        uint64_t word = 0;
    };
    __aicore__ inline uint32_t PairValue(PairRead& pair, int64_t area, uint32_t r) {
        const int64_t at = area + static_cast<int64_t>(r / 2) * 8;
        if (at != pair.at) {
            pair.word = static_cast<uint64_t>(
                stageBuf_.GetWithOffset<int64_t>(StageElems<int32_t>() / 2, static_cast<uint32_t>(area)).GetValue(r / 2));
            pair.at = at;
        }
        return static_cast<uint32_t>((r & 1) ? pair.word >> 32 : pair.word);
    }

    // Row r's target: from its code where it has one in [0, C) (coded), else the staged
    // target itself.
    __aicore__ inline int64_t StagedTarget(int64_t base, uint32_t r, bool& coded) {
        coded = false;
        if (t_.stageCodeOff > 0) {
            const int64_t code = static_cast<int32_t>(PairValue(codeWord_[0], base + t_.stageCodeOff, r));
            coded = code >= 0 && code < t_.classTotal;
            if (coded) return code;
        }
        return static_cast<int64_t>(
            stageBuf_.GetWithOffset<TTarget>(StageElems<TTarget>(), static_cast<uint32_t>(base)).GetValue(r));
    }

    __aicore__ inline T StagedValue(int64_t offset, uint32_t r) {
        return stageBuf_.GetWithOffset<T>(StageElems<T>(), static_cast<uint32_t>(offset)).GetValue(r);
    }

    // The whole weight, once per core, for the scalar unit and the vector unit; with
    // smoothWeightRows, copied onto that many rows for SmoothWholeRows.
    __aicore__ inline void LoadResidentWeight() {
        weights_.MakeResident(weightBuf_.template Get<float>(), t_.classTotal, pipe_);
        WaitPipe<AscendC::HardEvent::MTE2_V>(pipe_);
        if (t_.smoothWeightRows == 0) return;
        // Row-packed: every tile has the pitch of tile 0. The padding between the copies
        // is 0 (Axpy reads it beside the tile's own padding); the copies are whole
        // 32-byte blocks of this shard's columns (the shard starts on one).
        const int64_t pitch = TileAt(0).pitch;
        const AscendC::LocalTensor<float> wRows = WeightRows(pitch);
        AscendC::Duplicate(wRows, 0.0f, static_cast<int32_t>(t_.smoothWeightRows * pitch));
        AscendC::PipeBarrier<PIPE_V>();
        for (int64_t r = 0; r < t_.smoothWeightRows; ++r)
            AscendC::DataCopy(wRows[r * pitch], weights_.ub[t_.classOffset], static_cast<uint32_t>((t_.c + 7) / 8 * 8));
    }

    // Under mean and sum every live row has the same smooth_i: the weight copies that only
    // the smoothing reads (the row copies, or the tile's columns) then hold -smooth * w_j,
    // and a row's scale and smoothing are one FusedMulAdd (ScaleSmoothedWeight).
    __aicore__ inline void SmoothWeightCopies() {
        const bool ownCopies = t_.smoothWeightRows > 0 || (t_.weightBufBytes > 0 && !t_.weightResident);
        if (!t_.smoothing || !t_.hasWeight || t_.reduction == XENT_NONE || !ownCopies) return;
        smoothedWeight_ = true;
        smoothAll_ = ComputeRowTerms(t_, s_, s_.grad, s_.gradZ, 0.0f, 1.0f).smooth;
        if (t_.smoothWeightRows == 0) return;  // LoadWeightTile scales each tile's columns
        const int64_t pitch = TileAt(0).pitch;  // every row-packed tile's, as in LoadResidentWeight
        const AscendC::LocalTensor<float> wRows = WeightRows(pitch);
        AscendC::PipeBarrier<PIPE_V>();  // the copies LoadResidentWeight made
        AscendC::Muls(wRows, wRows, -smoothAll_, static_cast<int32_t>(t_.smoothWeightRows * pitch));
        AscendC::PipeBarrier<PIPE_V>();
    }

    // The weight columns of the tile, reloaded only when the column tile changes.
    __aicore__ inline void LoadWeightTile(const Tile& g) {
        if (t_.weightBufBytes == 0 || t_.weightResident || g.col0 == loadedCol0_) return;
        if (loadedCol0_ >= 0) WaitPipe<AscendC::HardEvent::V_MTE2>(pipe_);  // last Axpy done with the old one
        AscendC::LocalTensor<float> w = weightBuf_.template Get<float>();
        AscendC::DataCopyPad(w, weightGm_[t_.classOffset + g.col0],
                             AscendC::DataCopyExtParams(1, static_cast<uint32_t>(g.cols * 4), 0, 0, 0),
                             AscendC::DataCopyPadExtParams<float>(false, 0, 0, 0.0f));
        WaitPipe<AscendC::HardEvent::MTE2_V>(pipe_);
        if (smoothedWeight_) {
            AscendC::Muls(w, w, -smoothAll_, static_cast<int32_t>(g.cols));
            AscendC::PipeBarrier<PIPE_V>();
        }
        loadedCol0_ = g.col0;
    }

    // The fp32 values of a piece from tile element e0 on: the tile buffer itself (fp32)
    // or the work area.
    __aicore__ inline AscendC::LocalTensor<float> WorkArea(const AscendC::LocalTensor<T>& x, int64_t e0, int64_t area) {
        if constexpr (kFp32) {
            return x[e0];
        } else {
            return workBuf_.template Get<float>()[area];
        }
    }

    // Smallest bad row this core saw -> its own 32-byte slot {row, target, 0, 0}.
    __aicore__ inline void ReportBadTargets() {
        WriteBadRowSlot(pipe_, scratchBuf_.GetWithOffset<int64_t>(kSlotBytes / 8, kScratchSlotOff), badSlotGm_, core_, bad_);
    }

    // Elements of U in one 32-byte-aligned stage area of stageRows values.
    template <class U>
    __aicore__ inline uint32_t StageElems() const {
        return static_cast<uint32_t>((t_.stageRows * static_cast<int64_t>(sizeof(U)) + 31) / 32 * 32 / sizeof(U));
    }
    // Elements from column c0 of a row to column dataEnd of the row `rows` - 1 further.
    __aicore__ inline static int32_t RunCount(const Tile& g, int64_t rows, int64_t c0, int64_t dataEnd) {
        return static_cast<int32_t>((rows - 1) * g.pitch + dataEnd - c0);
    }
    // The end of the run of entries of v[0, n) from k0 on with v[k0]'s bits (+0 and
    // -0 apart: they scale and add differently). Plain loops, not lambdas, in device code.
    __aicore__ inline static int64_t RunEnd(int64_t n, const float* v, int64_t k0) { return RunEnd(n, v, v, k0); }
    // The same for the pairs (a[k], b[k]).
    __aicore__ inline static int64_t RunEnd(int64_t n, const float* a, const float* b, int64_t k0) {
        int64_t k1 = k0 + 1;
        while (k1 < n && FloatBits(a[k1]) == FloatBits(a[k0]) && FloatBits(b[k1]) == FloatBits(b[k0])) ++k1;
        return k1;
    }

    const CrossEntropyLossGradTilingData& t_;
    AscendC::TPipe pipe_;
    // Ring depth 2: tile i+1's input and tile i's output are enqueued at once.
    AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, 2> ioQ_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> padBuf_, workBuf_, weightBuf_, stageBuf_, scratchBuf_;
    AscendC::GlobalTensor<T> logProbGm_, outGm_, outAroundGm_, gradLossGm_, gradZGm_, lseGm_;
    AscendC::GlobalTensor<TTarget> targetGm_;
    AscendC::GlobalTensor<float> weightGm_;
    TargetWeights weights_;
    AscendC::GlobalTensor<int64_t> badSlotGm_;
    GM_ADDR userWs_ = nullptr;
    AscendC::TEventID stageEvent_[2] = {0, 0};  // MTE2_S, or MTE2_V with target codes
    AscendC::TEventID codeEvent_ = 0;           // V_S: a staging's target codes are formed
    int64_t stageRowsOf_[2] = {0, 0};           // rows of each stage area's staging
    PairRead codeWord_[2];                      // the last pair of codes, and of their weights, read
    // Per pending slot, the V_S flag its fix-ups (and the next stripe writes) wait for: two,
    // since the next piece's is set before this one's is waited.
    AscendC::TEventID fixEvent_[2] = {0, 0};
    PendingPiece pending_[2];
    int32_t lastStage_ = 1;  // the stage area of the last staging (the first goes to 0)
    int64_t stagedRow0_ = -1, stagedRows_ = 0;
    // Per tile slot: its stage area, whether Compute waits for it, and the staged row of its first row.
    int32_t tileStage_[2] = {0, 0};
    bool tileWaits_[2] = {false, false};
    int64_t tileRowBase_[2] = {0, 0};
    int64_t unit0_ = 0, unitEnd_ = 0;  // column-major: this core's row units
    int64_t first_ = 0;      // this core's first tile
    int64_t lastTile_ = -1;  // this core's last tile of its contiguous stretch
    LaunchScalars s_;
    BadRowTracker bad_;
    int64_t core_ = 0;
    int64_t loadedCol0_ = -1;  // the first column of the loaded weight tile
    ScaleAddBlocks scaleAdd_;  // its blocks in the scratch buffer's prologue stage, free after the prologue
    // Weighted smoothing under mean or sum: smoothAll_ is every live row's smooth_i, and
    // the weight copies Axpy would read hold -smoothAll_ * w_j instead.
    bool smoothedWeight_ = false;
    float smoothAll_ = 0.0f;
    // The row terms of tile rows [termsRow0_, termsRow0_ + termsRows_) of the tile being computed.
    float scale_[kChunk];
    float smooth_[kChunk];
    float nll_[kChunk];
    int32_t fixCol_[kChunk];
    int64_t termsRow0_ = 0, termsRows_ = 0, termsSpan_ = kChunk;
};

}  // namespace xent

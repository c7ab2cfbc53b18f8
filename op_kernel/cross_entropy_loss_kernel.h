// CrossEntropyLoss (the forward) on one vector core, over a contiguous range of rows:
//   lse_i = max_i + ln sum_j exp(x_ij - max_i) (max_i when infinite, as torch.logsumexp)
//   logProb_ij = (x_ij - max_i) - ln sum_i
//   loss_i = (1 - ls) w[t_i] (-logProb_i,t_i) + ls / C * sum_j w_j (-logProb_ij) + z_i
//   z_i = lseSquareScaleForZloss * lse_i^2      (ignored rows: loss_i = z_i = 0)
// all in fp32 whatever T is. Rows are taken in groups of up to kFwdGroupRows:
//   whole rows (a row fits in UB): the group is one tile, read once; per row
//     ReduceMax, Adds(-max), Exp, ReduceSum; one Ln for the group; per row
//     Adds(-ln sum), the smoothing's ReduceSum (of w * logProb with a weight); the
//     target column by a scalar read; Cast back (CAST_RINT) and out.
//   column tiles (a row does not fit): each row is read twice, tile by tile: first the
//     max and the sum online (the sum rescaled by exp(old max - new max) when the max
//     grows), then logProb and the smoothing sum. The tiles come as one stream through
//     three slots: the next tile's load runs beside this one's compute and the last one's
//     copy out.
// Per-row results go out per group: loss, zloss (reduction none) or the per-row terms
// to the workspace (mean/sum), and lseForZloss. Under mean/sum every core then meets at
// SyncAll and core 0 adds the per-row terms chunk by chunk in row order (kFwdSumChunk
// rows per ReduceSum): the same bits on every core count.
// Whole rows: the pipes are serialised by flag pairs around every hand-over.
// Fused (aclnnXentCrossEntropyLossWithGrad): the logits are optionally soft-capped as they
// arrive in UB; the launch-wide W, M and sum_k w_k come first (the backward's prologue);
// where the forward writes log_prob the tile's gradient for an upstream gradient of 1
// goes out instead (cross_entropy_loss_fused_steps.h), over the input when asked.
#pragma once
#include "kernel_operator.h"

#include "cross_entropy_loss_fused_steps.h"
#include "cross_entropy_loss_grad_common.h"
#include "cross_entropy_loss_grad_reductions.h"
#include "cross_entropy_loss_grad_row_terms.h"
#include "cross_entropy_loss_tiling_data.h"

namespace xent {

struct ForwardArgs {  // one declaration each: GM_ADDR is a macro ending in '*'
    GM_ADDR input;
    GM_ADDR target;
    GM_ADDR weight;
    GM_ADDR loss;
    GM_ADDR logProb;
    GM_ADDR zloss;
    GM_ADDR lseForZloss;
    GM_ADDR userWorkspace;
};

template <class T, class TTarget>
class CrossEntropyLossKernel {
public:
    __aicore__ inline CrossEntropyLossKernel(const CrossEntropyLossTilingData& t)
        : t_(t), core_(AscendC::GetBlockIdx()) {}

    __aicore__ inline void Init(const ForwardArgs& a) {
        const GmSizes z = SizesOf(t_);
        const uint64_t n = z.n, c = z.c, lossElems = z.perRowOrOne;
        inputGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a.input), n * c);
        logProbGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a.logProb), n * c);
        // The fused gradient goes around the L2: nothing in this launch reads it, and its
        // dirty lines would evict the logits the second pass over a row reads again, then
        // cost HBM their write-back on top. (The forward's log_prob stays: the backward reads it.)
        if (t_.fused) logProbGm_.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);
        targetGm_.SetGlobalBuffer(reinterpret_cast<__gm__ TTarget*>(a.target), n);
        if (t_.hasWeight) weightGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(a.weight), c);
        lossGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a.loss), lossElems);
        zlossGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a.zloss), lossElems);
        lseGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a.lseForZloss), n);
        badSlotGm_.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(a.userWorkspace + t_.badSlotOffset),
                                   static_cast<uint64_t>(t_.blockDim) * (kSlotBytes / 8));
        if (t_.reduction != XENT_NONE)
            rowArraysGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(a.userWorkspace + t_.rowArraysOffset),
                                         static_cast<uint64_t>(kFwdRowArrays * t_.rowArrayStride));

        // In this order from the start of UB: the T tiles, the small buffers, a spacer (the
        // fp32 work tile then starts in the next 64 KiB third of UB, in other banks than
        // the T tiles its Casts read and write), the fp32 tiles.
        pipe_.InitBuffer(xBuf_, static_cast<uint32_t>(t_.xBufBytes));
        if (t_.weightBufBytes > 0) pipe_.InitBuffer(weightBuf_, static_cast<uint32_t>(t_.weightBufBytes));
        pipe_.InitBuffer(tmpBuf_, static_cast<uint32_t>(t_.reduceTmpBytes));
        pipe_.InitBuffer(rowBuf_, static_cast<uint32_t>(t_.rowBufBytes));
        if (t_.sumBufBytes > 0) pipe_.InitBuffer(sumBuf_, static_cast<uint32_t>(t_.sumBufBytes));
        if (t_.scratchBufBytes > 0) pipe_.InitBuffer(scratchBuf_, static_cast<uint32_t>(t_.scratchBufBytes));
        if (t_.spacerBytes > 0) pipe_.InitBuffer(spacerBuf_, static_cast<uint32_t>(t_.spacerBytes));
        if (t_.workBufBytes > 0) pipe_.InitBuffer(workBuf_, static_cast<uint32_t>(t_.workBufBytes));
        pipe_.InitBuffer(expBuf_, static_cast<uint32_t>(t_.expBufBytes));
        if (!t_.wholeRows) {
            for (int64_t b = 0; b < kFwdSlots; ++b) {
                slotLoaded_[b] = pipe_.template AllocEventID<AscendC::HardEvent::MTE2_V>();
                slotFreedByV_[b] = pipe_.template AllocEventID<AscendC::HardEvent::V_MTE2>();
                slotFreedByMte3_[b] = pipe_.template AllocEventID<AscendC::HardEvent::MTE3_MTE2>();
            }
        }
        // The softcap series' CompareScalar reads the exp tile in whole 64-value repeats,
        // past the values it is given: those lanes hold something defined.
        if (t_.softcapSeries) {
            AscendC::Duplicate(expBuf_.Get<float>(), 0.0f, static_cast<int32_t>(t_.expBufBytes / 4));
            AscendC::PipeBarrier<PIPE_V>();
        }
        userWs_ = a.userWorkspace;
        weights_.gm = weightGm_;
        s_.classWeightSum = t_.grad.classCount;
        s_.grad = 1.0f;  // the gradient of the loss itself: the backward scales it
        if (t_.weightResident) {
            weights_.ub = weightBuf_.Get<float>();
            weights_.resident = true;
            AscendC::DataCopyPad(weightBuf_.Get<float>(), weightGm_,
                                 AscendC::DataCopyExtParams(1, static_cast<uint32_t>(t_.c * 4), 0, 0, 0),
                                 AscendC::DataCopyPadExtParams<float>(false, 0, 0, 0.0f));
            WaitPipe<AscendC::HardEvent::MTE2_S>(pipe_);
            WaitPipe<AscendC::HardEvent::MTE2_V>(pipe_);
        }
    }

    __aicore__ inline void Process() {
        if (t_.fused && t_.grad.prologue) {
            CrossEntropyLossGradReductions<TTarget> reductions(t_.grad, pipe_, scratchBuf_, targetGm_, weightGm_,
                                                               weights_, userWs_, bad_);
            reductions.InLaunch(core_, t_.blockDim, s_);
        }
        const bool extra = core_ < t_.rowRemainder;
        const int64_t row0 = core_ * t_.rowsPerCore + (extra ? core_ : t_.rowRemainder);
        const int64_t rowEnd = row0 + t_.rowsPerCore + (extra ? 1 : 0);
        const int64_t group = t_.wholeRows ? t_.tileRows : kFwdGroupRows;
        if (!t_.wholeRows) StartColumnStream(row0, rowEnd);
        for (int64_t r0 = row0; r0 < rowEnd; r0 += group) {
            const int64_t rows = rowEnd - r0 < group ? rowEnd - r0 : group;
            // The previous group's scalars have left UB (DMA) and been cast (V).
            WaitPipe<AscendC::HardEvent::MTE3_S>(pipe_);
            WaitPipe<AscendC::HardEvent::V_S>(pipe_);
            if (t_.wholeRows) {
                WholeRows(r0, rows);
            } else {
                for (int64_t r = 0; r < rows; ++r) SplitRow(r0, r);
            }
            WriteGroup(r0, rows);
        }
        if (!t_.wholeRows) EndColumnStream();
        ReportBadTargets();
        if (t_.reduction != XENT_NONE) {
            AscendC::PipeBarrier<PIPE_ALL>();  // the per-row terms are in GM before core 0 reads them
            AscendC::SyncAll();
            if (core_ == 0) Reduce();
        }
    }

private:
    static constexpr bool kFp32 = SameType<T, float>::value;
    static constexpr int64_t kPerBlock = 32 / static_cast<int64_t>(sizeof(T));
    static constexpr int64_t kMaxRepeats = 255;  // of one vector instruction

    __aicore__ inline static int64_t Pitch(int64_t cols) { return (cols + kPerBlock - 1) / kPerBlock * kPerBlock; }

    __aicore__ inline static float NegInf() {
        union {
            uint32_t u;
            float f;
        } v{0xff800000u};
        return v.f;
    }

    // logsumexp from the row max and ln sum_j exp(x_j - max), as torch.logsumexp: an
    // infinite max is the logsumexp itself (+inf: an exp overflows; -inf: every exp is 0),
    // where max + ln sum is NaN (x - max is inf - inf). log_prob stays NaN there, as
    // torch.log_softmax.
    __aicore__ inline static float Lse(float max, float lnSum) {
        return max == NegInf() || max == -NegInf() ? max : max + lnSum;
    }

    // Element (row r, column j) of a tile: fp32 values (the tile itself for fp32).
    __aicore__ inline AscendC::LocalTensor<float> Work() {
        if constexpr (kFp32) {
            return xBuf_.Get<float>();
        } else {
            return workBuf_.Get<float>();
        }
    }

    __aicore__ inline AscendC::LocalTensor<float> Slot(int64_t base, int64_t r) {
        return rowBuf_.GetWithOffset<float>(8, static_cast<uint32_t>(base + r * 32));
    }
    __aicore__ inline AscendC::LocalTensor<float> Vec(int64_t which) {
        return rowBuf_.GetWithOffset<float>(kFwdGroupRows, static_cast<uint32_t>(kFwdVecOff + which * kFwdGroupRows * 4));
    }
    __aicore__ inline AscendC::LocalTensor<T> OutVec(int64_t which) {
        return rowBuf_.GetWithOffset<T>(kFwdGroupRows, static_cast<uint32_t>(kFwdOutOff + which * kFwdGroupRows * 4));
    }

    // Whole rows: rows of input from row0 into the tile (rows at the 32-byte pitch), as fp32.
    __aicore__ inline void LoadRows(int64_t row0, int64_t rows) {
        WaitPipe<AscendC::HardEvent::V_MTE2>(pipe_);    // the last tile's vector reads
        WaitPipe<AscendC::HardEvent::MTE3_MTE2>(pipe_); // the last tile's copy out
        AscendC::LocalTensor<T> x = xBuf_.Get<T>();
        AscendC::DataCopyPad(x, inputGm_[static_cast<uint64_t>(row0) * t_.c],
                             AscendC::DataCopyExtParams(static_cast<uint16_t>(rows), static_cast<uint32_t>(t_.c * sizeof(T)), 0, 0, 0),
                             AscendC::DataCopyPadExtParams<T>(false, 0, 0, 0));
        WaitPipe<AscendC::HardEvent::MTE2_V>(pipe_);
        if constexpr (!kFp32) {
            AscendC::Cast(Work(), x, AscendC::RoundMode::CAST_NONE, static_cast<uint32_t>(rows * Pitch(t_.c)));
            AscendC::PipeBarrier<PIPE_V>();
        }
        if (t_.hasSoftcap)
            for (int64_t r = 0; r < rows; ++r) Softcap(Work()[r * Pitch(t_.c)], t_.c);
    }

    // Softcap of n values in place; the exp tile and the reduce tmp (as its mask) are free
    // between the steps that use them.
    __aicore__ inline void Softcap(const AscendC::LocalTensor<float>& v, int64_t n) {
        xent::Softcap(v, expBuf_.Get<float>(), tmpBuf_.Get<uint8_t>(), t_, n);
    }

    // Whole rows: the tile's fp32 log_prob (or gradient) back to T and out to logProb from row0.
    __aicore__ inline void StoreRows(int64_t row0, int64_t rows) {
        AscendC::LocalTensor<T> x = xBuf_.Get<T>();
        if constexpr (!kFp32) {
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Cast(x, Work(), AscendC::RoundMode::CAST_RINT, static_cast<uint32_t>(rows * Pitch(t_.c)));
        }
        WaitPipe<AscendC::HardEvent::V_MTE3>(pipe_);
        AscendC::DataCopyPad(logProbGm_[static_cast<uint64_t>(row0) * t_.c], x,
                             AscendC::DataCopyExtParams(static_cast<uint16_t>(rows), static_cast<uint32_t>(t_.c * sizeof(T)), 0, 0, 0));
    }

    // Sum of cols fp32 values into a slot, in place or through a separate scratch (src
    // kept). The values are halved by elementwise Add (into scratch; it may be src, which
    // is then overwritten) down to one 256-byte repeat, then one ReduceSum: about one vector
    // pass over the values where a ReduceSum of all of them takes a WholeReduce (7 cycles)
    // per 64. The order depends on cols alone.
    __aicore__ inline void FoldSumInto(const AscendC::LocalTensor<float>& dst, const AscendC::LocalTensor<float>& src,
                                       const AscendC::LocalTensor<float>& scratch, int64_t cols) {
        AscendC::LocalTensor<float> from = src;
        bool inPlace = src.GetPhyAddr() == scratch.GetPhyAddr();
        int64_t n = cols;
        while (n > 64) {
            const int64_t h = ((n + 1) / 2 + 7) / 8 * 8;  // the kept half, whole 32-byte blocks
            const int64_t m = n - h;                      // folded onto its first m
            if (!inPlace) {  // the unfolded tail [m, h) first (from its block start), then the fold over it
                const int64_t m8 = m / 8 * 8;
                AscendC::Adds(scratch[m8], from[m8], 0.0f, static_cast<int32_t>(h - m8));
                AscendC::PipeBarrier<PIPE_V>();
            }
            AscendC::Add(scratch, from, from[h], static_cast<int32_t>(m));
            AscendC::PipeBarrier<PIPE_V>();
            from = scratch;
            inPlace = true;
            n = h;
        }
        AscendC::ReduceSum(dst, from, tmpBuf_.Get<float>(), static_cast<int32_t>(n));
        AscendC::PipeBarrier<PIPE_V>();
    }
    // Max / sum of n fp32 values (src kept) into a slot, through scratch (n / 7 + 32
    // floats): BlockReduceMax/Sum takes each 32-byte block to one value, one cycle a
    // 64-value repeat where a ReduceMax/ReduceSum takes a WholeReduce (7 cycles) and the
    // halving of FoldSumInto a pass over half the values per level; the values short of a
    // whole repeat go to one value after the level's blocks by a ReduceMax/ReduceSum of
    // them. Level after level, down to one repeat. The order depends on n alone.
    template <bool kMax>
    __aicore__ inline void BlockFoldInto(const AscendC::LocalTensor<float>& dst, const AscendC::LocalTensor<float>& src,
                                         const AscendC::LocalTensor<float>& scratch, int64_t n) {
        AscendC::LocalTensor<float> from = src;
        int64_t at = 0;
        while (n > 64) {
            const int64_t repeats = n / 64, rest = n - repeats * 64;
            const AscendC::LocalTensor<float> to = scratch[at];
            for (int64_t r0 = 0; r0 < repeats; r0 += kMaxRepeats) {
                const int32_t k = static_cast<int32_t>(repeats - r0 < kMaxRepeats ? repeats - r0 : kMaxRepeats);
                if constexpr (kMax) {
                    AscendC::BlockReduceMax(to[r0 * 8], from[r0 * 64], k, 64, 1, 1, 8);
                } else {
                    AscendC::BlockReduceSum(to[r0 * 8], from[r0 * 64], k, 64, 1, 1, 8);
                }
            }
            if (rest > 0) Reduce1<kMax>(to[repeats * 8], from[repeats * 64], rest);
            AscendC::PipeBarrier<PIPE_V>();
            from = to;
            n = repeats * 8 + (rest > 0 ? 1 : 0);
            at += (n + 7) / 8 * 8;
        }
        Reduce1<kMax>(dst, from, n);
        AscendC::PipeBarrier<PIPE_V>();
    }
    template <bool kMax>
    __aicore__ inline void Reduce1(const AscendC::LocalTensor<float>& dst, const AscendC::LocalTensor<float>& src,
                                   int64_t n) {
        if constexpr (kMax) {
            AscendC::ReduceMax(dst, src, tmpBuf_.Get<float>(), static_cast<int32_t>(n));
        } else {
            AscendC::ReduceSum(dst, src, tmpBuf_.Get<float>(), static_cast<int32_t>(n));
        }
    }

    // src kept (the expBuf is the scratch) / src overwritten.
    __aicore__ inline void MaxInto(const AscendC::LocalTensor<float>& dst, const AscendC::LocalTensor<float>& src,
                                   int64_t cols) {
        BlockFoldInto<true>(dst, src, expBuf_.Get<float>(), cols);
    }
    __aicore__ inline void SumInto(const AscendC::LocalTensor<float>& dst, const AscendC::LocalTensor<float>& src,
                                   int64_t cols) {
        FoldSumInto(dst, src, src, cols);
    }

    // v -= m; exp(v) summed into the slot (v then holds x - m).
    __aicore__ inline void ShiftAndSumExp(const AscendC::LocalTensor<float>& v, float m, int64_t cols,
                                          const AscendC::LocalTensor<float>& slot) {
        AscendC::LocalTensor<float> e = expBuf_.Get<float>();
        AscendC::Adds(v, v, -m, static_cast<int32_t>(cols));
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Exp(e, v, static_cast<int32_t>(cols));
        AscendC::PipeBarrier<PIPE_V>();
        SumInto(slot, e, cols);
    }

    // v -= lnSum (v: x - max -> log_prob); the smoothing sum sum_j w_j log_prob_j into the slot.
    __aicore__ inline void FinishLogProb(const AscendC::LocalTensor<float>& v, float lnSum, int64_t col0, int64_t cols,
                                         const AscendC::LocalTensor<float>& slot) {
        AscendC::Adds(v, v, -lnSum, static_cast<int32_t>(cols));
        AscendC::PipeBarrier<PIPE_V>();
        SmoothingSum(v, col0, cols, slot);
    }

    // The smoothing sum sum_j w_j log_prob_j of v (log_prob, kept) into the slot; expBuf is the scratch.
    __aicore__ inline void SmoothingSum(const AscendC::LocalTensor<float>& v, int64_t col0, int64_t cols,
                                        const AscendC::LocalTensor<float>& slot) {
        if (!t_.smoothing) return;
        if (t_.hasWeight) {
            AscendC::LocalTensor<float> e = expBuf_.Get<float>();
            AscendC::Mul(e, v, WeightColumns(col0, cols), static_cast<int32_t>(cols));
            AscendC::PipeBarrier<PIPE_V>();
            SumInto(slot, e, cols);
        } else {
            FoldSumInto(slot, v, expBuf_.Get<float>(), cols);
        }
    }

    // Softcap: v holds z = y - max (kept for the slope); log_prob = z - lnSum goes to the
    // exp tile, where the smoothing sum takes it (the same values FinishLogProb's gives).
    __aicore__ inline void CappedSmoothingSum(const AscendC::LocalTensor<float>& v, float lnSum, int64_t col0,
                                              int64_t cols, const AscendC::LocalTensor<float>& slot) {
        if (!t_.smoothing) return;
        const AscendC::LocalTensor<float> e = expBuf_.Get<float>();
        AscendC::Adds(e, v, -lnSum, static_cast<int32_t>(cols));
        AscendC::PipeBarrier<PIPE_V>();
        SmoothingSum(e, col0, cols, slot);
    }

    // weight[col0, col0 + cols) in UB: a view of the resident weight, or loaded.
    __aicore__ inline AscendC::LocalTensor<float> WeightColumns(int64_t col0, int64_t cols) {
        AscendC::LocalTensor<float> w = weightBuf_.Get<float>();
        if (t_.weightResident) return w[col0];
        WaitPipe<AscendC::HardEvent::V_MTE2>(pipe_);  // the last Mul's read of the previous columns
        AscendC::DataCopyPad(w, weightGm_[col0], AscendC::DataCopyExtParams(1, static_cast<uint32_t>(cols * 4), 0, 0, 0),
                             AscendC::DataCopyPadExtParams<float>(false, 0, 0, 0.0f));
        WaitPipe<AscendC::HardEvent::MTE2_V>(pipe_);
        return w;
    }

    // exp(v) or ln(v) of one scalar, through the vector unit.
    __aicore__ inline float ScalarExp(float v) { return ScalarUnary(v, true); }
    __aicore__ inline float ScalarUnary(float v, bool exp) {
        AscendC::LocalTensor<float> s = rowBuf_.GetWithOffset<float>(8, static_cast<uint32_t>(kFwdScalarOff));
        s.SetValue(0, v);
        WaitPipe<AscendC::HardEvent::S_V>(pipe_);
        if (exp) {
            AscendC::Exp(s, s, 1);
        } else {
            AscendC::Ln(s, s, 1);
        }
        WaitPipe<AscendC::HardEvent::V_S>(pipe_);
        return s.GetValue(0);
    }

    // A group of whole rows: one tile, read once.
    __aicore__ inline void WholeRows(int64_t row0, int64_t rows) {
        const int64_t c = t_.c, pitch = Pitch(c);
        LoadRows(row0, rows);
        AscendC::LocalTensor<float> w = Work();
        for (int64_t r = 0; r < rows; ++r) MaxInto(Slot(kFwdSlotMax, r), w[r * pitch], c);
        WaitPipe<AscendC::HardEvent::V_S>(pipe_);
        for (int64_t r = 0; r < rows; ++r) max_[r] = Slot(kFwdSlotMax, r).GetValue(0);
        WaitPipe<AscendC::HardEvent::S_V>(pipe_);
        for (int64_t r = 0; r < rows; ++r) ShiftAndSumExp(w[r * pitch], max_[r], c, Slot(kFwdSlotSum, r));
        WaitPipe<AscendC::HardEvent::V_S>(pipe_);
        AscendC::LocalTensor<float> lnSum = Vec(FWD_LN_SUM);
        for (int64_t r = 0; r < rows; ++r) lnSum.SetValue(static_cast<uint32_t>(r), Slot(kFwdSlotSum, r).GetValue(0));
        WaitPipe<AscendC::HardEvent::S_V>(pipe_);
        AscendC::Ln(lnSum, lnSum, static_cast<int32_t>(rows));
        WaitPipe<AscendC::HardEvent::V_S>(pipe_);
        for (int64_t r = 0; r < rows; ++r) lnSum_[r] = lnSum.GetValue(static_cast<uint32_t>(r));
        WaitPipe<AscendC::HardEvent::S_V>(pipe_);
        for (int64_t r = 0; r < rows; ++r) {
            if (t_.hasSoftcap) {
                CappedSmoothingSum(w[r * pitch], lnSum_[r], 0, c, Slot(kFwdSlotSmooth, r));
            } else {
                FinishLogProb(w[r * pitch], lnSum_[r], 0, c, Slot(kFwdSlotSmooth, r));
            }
        }
        WaitPipe<AscendC::HardEvent::V_S>(pipe_);
        for (int64_t r = 0; r < rows; ++r) {
            const int64_t target = static_cast<int64_t>(targetGm_.GetValue(static_cast<uint64_t>(row0 + r)));
            const bool live = RowIsLive(t_.ignoreIndex, c, row0 + r, target, bad_);
            float lpTarget = live ? w.GetValue(static_cast<uint32_t>(r * pitch + target)) : 0.0f;
            if (t_.hasSoftcap) {  // the tile holds z = y - max: log_prob as the Adds would give it
                zTarget_[r] = lpTarget;
                lpTarget = live ? lpTarget - lnSum_[r] : 0.0f;
            }
            const float smooth = t_.smoothing ? Slot(kFwdSlotSmooth, r).GetValue(0) : 0.0f;
            SetRow(r, live, target, lpTarget, smooth, Lse(max_[r], lnSum_[r]));
            if (t_.fused) {
                live_[r] = live;
                target_[r] = target;
            }
        }
        WaitPipe<AscendC::HardEvent::S_V>(pipe_);
        if (t_.fused) {
            for (int64_t r = 0; r < rows; ++r) {
                const float lse = Lse(max_[r], lnSum_[r]);
                RowGradient(w[r * pitch], expBuf_.Get<float>(), LoadedWeightColumns(0), t_, live_[r],
                            GradTerms(live_[r], target_[r], lse), max_[r], lnSum_[r], lse, c);
            }
            WaitPipe<AscendC::HardEvent::V_S>(pipe_);
            for (int64_t r = 0; r < rows; ++r)
                if (live_[r])
                    FixTarget(w, r * pitch + target_[r], target_[r], Lse(max_[r], lnSum_[r]),
                              SoftcapSlope(t_, zTarget_[r], max_[r]));
            WaitPipe<AscendC::HardEvent::S_V>(pipe_);
            WaitPipe<AscendC::HardEvent::S_MTE3>(pipe_);
        }
        StoreRows(row0, rows);
    }

    // One row in column tiles: max and sum online, then log_prob (or the gradient) tile by
    // tile. The steps go from one fp32 tile to the other (v, the tile's values, and e):
    // a step that reads and writes the same bank costs two beats a repeat, one that reads v
    // and writes e one (the tiling puts them 256 bytes apart modulo 512, in other bank groups).
    __aicore__ inline void SplitRow(int64_t row0, int64_t r) {
        const int64_t row = row0 + r;
        const AscendC::LocalTensor<float> e = expBuf_.Get<float>();
        float m = NegInf(), sum = 0.0f;
        for (int64_t col0 = 0; col0 < t_.c; col0 += t_.tileCols) {
            const int64_t cols = ColsAt(col0);
            const AscendC::LocalTensor<float> v = TakeTile(cols);
            MaxInto(Slot(kFwdSlotMax, 0), v, cols);
            WaitPipe<AscendC::HardEvent::V_S>(pipe_);
            const float tileMax = Slot(kFwdSlotMax, 0).GetValue(0);
            const float newMax = tileMax > m ? tileMax : m;
            if (newMax != NegInf()) {  // else every value so far is -inf: nothing to add
                if (m != NegInf() && newMax > m) sum = sum * ScalarExp(m - newMax);
                WaitPipe<AscendC::HardEvent::S_V>(pipe_);
                // e = exp(x - max), summed with v (done with) as the scratch.
                AscendC::Adds(e, v, -newMax, static_cast<int32_t>(cols));
                AscendC::PipeBarrier<PIPE_V>();
                AscendC::Exp(e, e, static_cast<int32_t>(cols));
                AscendC::PipeBarrier<PIPE_V>();
                BlockFoldInto<false>(Slot(kFwdSlotSum, 0), e, v, cols);
                WaitPipe<AscendC::HardEvent::V_S>(pipe_);
                sum = sum + Slot(kFwdSlotSum, 0).GetValue(0);
                m = newMax;
            }
            ReleaseTile();
        }
        // A row of -inf only: NaN throughout, as the whole-row path's -inf - -inf gives.
        if (m == NegInf()) sum = m - m;
        const float lnSum = ScalarUnary(sum, false);
        const float lse = Lse(m, lnSum);
        const int64_t target = static_cast<int64_t>(targetGm_.GetValue(static_cast<uint64_t>(row)));
        const bool live = RowIsLive(t_.ignoreIndex, t_.c, row, target, bad_);
        const RowTerms terms = t_.fused ? GradTerms(live, target, lse) : RowTerms{0.0f, 0.0f, 0.0f};
        // Fused without softcap or smoothing no step needs log_prob but at the target: the
        // gradient comes from x (RowGradientFromX), the target's log_prob from the scalar
        // unit, (x - max) - ln sum as the two Adds would give it.
        const bool fromX = t_.fused && !t_.hasSoftcap && !t_.smoothing;
        float smooth = 0.0f, lpTarget = 0.0f, zTarget = 0.0f;
        for (int64_t col0 = 0; col0 < t_.c; col0 += t_.tileCols) {
            const int64_t cols = ColsAt(col0);
            const AscendC::LocalTensor<float> v = TakeTile(cols);
            if (t_.hasSoftcap) {  // v = z = y - max, which the slope needs; log_prob in e for the smoothing
                AscendC::Adds(v, v, -m, static_cast<int32_t>(cols));
                AscendC::PipeBarrier<PIPE_V>();
                CappedSmoothingSum(v, lnSum, col0, cols, Slot(kFwdSlotSmooth, 0));
            } else if (!fromX) {
                AscendC::Adds(e, v, -m, static_cast<int32_t>(cols));
                AscendC::PipeBarrier<PIPE_V>();
                AscendC::Adds(v, e, -lnSum, static_cast<int32_t>(cols));  // v = log_prob
                AscendC::PipeBarrier<PIPE_V>();
                SmoothingSum(v, col0, cols, Slot(kFwdSlotSmooth, 0));
            }
            const bool hasTarget = live && target >= col0 && target < col0 + cols;
            if (t_.smoothing || hasTarget) {  // else the scalar unit need not wait for this tile
                WaitPipe<AscendC::HardEvent::V_S>(pipe_);
                if (t_.smoothing) smooth = smooth + Slot(kFwdSlotSmooth, 0).GetValue(0);
                if (hasTarget) {
                    lpTarget = v.GetValue(static_cast<uint32_t>(target - col0));
                    if (fromX) lpTarget = (lpTarget - m) - lnSum;
                    if (t_.hasSoftcap) {
                        zTarget = lpTarget;
                        lpTarget = lpTarget - lnSum;
                    }
                }
                WaitPipe<AscendC::HardEvent::S_V>(pipe_);
            }
            if (t_.fused) {
                if (fromX) {
                    RowGradientFromX(v, e, live, terms, m, sum, lse, cols);
                } else {
                    RowGradient(v, e, LoadedWeightColumns(col0), t_, live, terms, m, lnSum, lse, cols);
                }
                if (hasTarget) {
                    WaitPipe<AscendC::HardEvent::V_S>(pipe_);
                    FixTarget(v, target - col0, target, lse, SoftcapSlope(t_, zTarget, m));
                    WaitPipe<AscendC::HardEvent::S_V>(pipe_);
                    WaitPipe<AscendC::HardEvent::S_MTE3>(pipe_);
                }
            }
            StoreTakenTile(row, col0, cols);
        }
        SetRow(r, live, target, lpTarget, smooth, lse);
    }

    // ---- Column tiles: the core's loads as one stream through the kFwdSlots slots of xBuf ----
    // Each row's tiles are loaded twice (the max and sum pass, then the output pass), in
    // the order they are computed; tile k sits in slot k % kFwdSlots. Taking tile k sends
    // out the load of tile k + 1 first, so MTE2 brings it in while the vector unit works on
    // tile k. A slot is free again once the vector unit is done with it (V_MTE2) or, when
    // the tile's output is cast back into it, once MTE3 has copied that out (MTE3_MTE2):
    // with three slots that copy has the compute of the next tile to finish in before its
    // slot is loaded again.
    enum SlotState : int64_t { SLOT_CLEAR = 0, SLOT_FREED_BY_V, SLOT_FREED_BY_MTE3 };

    __aicore__ inline int64_t ColsAt(int64_t col0) const { return t_.c - col0 < t_.tileCols ? t_.c - col0 : t_.tileCols; }

    __aicore__ inline AscendC::LocalTensor<T> SlotTile(int64_t b) {
        return xBuf_.Get<T>()[b * t_.slotBytes / static_cast<int64_t>(sizeof(T))];
    }
    // The fp32 values of slot b's tile: the slot itself (fp32) or the work tile.
    __aicore__ inline AscendC::LocalTensor<float> SlotWork(int64_t b) {
        if constexpr (kFp32) {
            return SlotTile(b);
        } else {
            return workBuf_.Get<float>();
        }
    }

    __aicore__ inline void StartColumnStream(int64_t row0, int64_t rowEnd) {
        nextRow_ = row0;
        streamEnd_ = rowEnd;
        IssueLoad();
    }

    __aicore__ inline void IssueLoad() {
        if (nextRow_ >= streamEnd_) return;
        const int64_t b = issued_ % kFwdSlots, cols = ColsAt(nextCol0_);
        WaitSlotFree(b);
        AscendC::DataCopyPad(SlotTile(b), inputGm_[static_cast<uint64_t>(nextRow_) * t_.c + nextCol0_],
                             AscendC::DataCopyExtParams(1, static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0),
                             AscendC::DataCopyPadExtParams<T>(false, 0, 0, 0));
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(slotLoaded_[b]);
        ++issued_;
        nextCol0_ += t_.tileCols;
        if (nextCol0_ >= t_.c) {
            nextCol0_ = 0;
            nextPass_ = 1 - nextPass_;
            if (nextPass_ == 0) ++nextRow_;
        }
    }

    __aicore__ inline void WaitSlotFree(int64_t b) {
        if (slotState_[b] == SLOT_FREED_BY_V) AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(slotFreedByV_[b]);
        if (slotState_[b] == SLOT_FREED_BY_MTE3) AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(slotFreedByMte3_[b]);
        slotState_[b] = SLOT_CLEAR;
    }

    // The next tile of the stream as fp32 values (16-bit: cast into the work tile), capped
    // when asked.
    __aicore__ inline AscendC::LocalTensor<float> TakeTile(int64_t cols) {
        const int64_t b = taken_++ % kFwdSlots;
        IssueLoad();
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(slotLoaded_[b]);
        const AscendC::LocalTensor<float> v = SlotWork(b);
        if constexpr (!kFp32) {
            AscendC::PipeBarrier<PIPE_V>();  // the last tile's cast out of the work tile
            AscendC::Cast(v, SlotTile(b), AscendC::RoundMode::CAST_NONE, static_cast<uint32_t>(cols));
            AscendC::PipeBarrier<PIPE_V>();
        }
        if (t_.hasSoftcap) Softcap(v, cols);
        return v;
    }

    // The tile taken last: the vector unit is done with its slot.
    __aicore__ inline void ReleaseTile() {
        const int64_t b = (taken_ - 1) % kFwdSlots;
        AscendC::SetFlag<AscendC::HardEvent::V_MTE2>(slotFreedByV_[b]);
        slotState_[b] = SLOT_FREED_BY_V;
    }

    // The tile taken last, its fp32 values cast back (CAST_RINT) into its slot and out to
    // logProb at (row, col0); the slot is free once MTE3 has read it.
    __aicore__ inline void StoreTakenTile(int64_t row, int64_t col0, int64_t cols) {
        const int64_t b = (taken_ - 1) % kFwdSlots;
        const AscendC::LocalTensor<T> x = SlotTile(b);
        if constexpr (!kFp32) {
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Cast(x, SlotWork(b), AscendC::RoundMode::CAST_RINT, static_cast<uint32_t>(cols));
        }
        WaitPipe<AscendC::HardEvent::V_MTE3>(pipe_);
        AscendC::DataCopyPad(logProbGm_[static_cast<uint64_t>(row) * t_.c + col0], x,
                             AscendC::DataCopyExtParams(1, static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0));
        AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(slotFreedByMte3_[b]);
        slotState_[b] = SLOT_FREED_BY_MTE3;
    }

    __aicore__ inline void EndColumnStream() {
        for (int64_t b = 0; b < kFwdSlots; ++b) {
            WaitSlotFree(b);
            pipe_.template ReleaseEventID<AscendC::HardEvent::MTE2_V>(slotLoaded_[b]);
            pipe_.template ReleaseEventID<AscendC::HardEvent::V_MTE2>(slotFreedByV_[b]);
            pipe_.template ReleaseEventID<AscendC::HardEvent::MTE3_MTE2>(slotFreedByMte3_[b]);
        }
    }

    // Row r's results into the group's vectors (scalar stores; the caller syncs S_V/S_MTE3).
    __aicore__ inline void SetRow(int64_t r, bool live, int64_t target, float lpTarget, float smooth, float lse) {
        const uint32_t ur = static_cast<uint32_t>(r);
        float loss = 0.0f, z = 0.0f, wt = 0.0f;
        if (live) {
            wt = t_.hasWeight ? TargetWeight(target) : 1.0f;
            loss = -wt * lpTarget;
            if (t_.smoothing) loss = t_.oneMinusLs * loss + t_.lsOverC * -smooth;
            if (t_.hasZloss) z = t_.zlossScale * lse * lse;
        }
        Vec(FWD_LOSS).SetValue(ur, t_.reduction == XENT_NONE ? loss + z : loss);
        Vec(FWD_ZLOSS).SetValue(ur, z);
        Vec(FWD_LSE).SetValue(ur, lse);
        Vec(FWD_WEIGHT).SetValue(ur, wt);
        Vec(FWD_COUNTED).SetValue(ur, live ? 1.0f : 0.0f);
    }

    // Fused: the row's gradient factors for an upstream gradient of 1 (the backward's formula).
    __aicore__ inline RowTerms GradTerms(bool live, int64_t target, float lse) {
        if (!live) return RowTerms{0.0f, 0.0f, 0.0f};
        return ComputeRowTerms(t_.grad, s_, 1.0f, 0.0f, lse, t_.hasWeight ? weights_.At(target) : 1.0f);
    }

    // Fused: the target column's - nll times the softcap's slope there (1 without), in fp32.
    __aicore__ inline void FixTarget(const AscendC::LocalTensor<float>& v, int64_t index, int64_t target, float lse,
                                     float slope) {
        const float nll = GradTerms(true, target, lse).nll;
        const uint32_t i = static_cast<uint32_t>(index);
        v.SetValue(i, v.GetValue(i) - nll * slope);
    }

    // The weight columns FinishLogProb used for the tile from col0 (weighted smoothing;
    // none without a weight buffer, where RowGradient reads none).
    __aicore__ inline AscendC::LocalTensor<float> LoadedWeightColumns(int64_t col0) {
        if (t_.weightBufBytes == 0) return AscendC::LocalTensor<float>();
        AscendC::LocalTensor<float> w = weightBuf_.Get<float>();
        return t_.weightResident ? w[col0] : w;
    }

    __aicore__ inline float TargetWeight(int64_t target) {
        if (t_.weightResident) return weightBuf_.Get<float>().GetValue(static_cast<uint32_t>(target));
        return weightGm_.GetValue(static_cast<uint64_t>(target));
    }

    // The group's per-row results out: lseForZloss always; loss and zloss (none) or the
    // per-row terms to the workspace (mean/sum).
    __aicore__ inline void WriteGroup(int64_t row0, int64_t rows) {
        WaitPipe<AscendC::HardEvent::S_V>(pipe_);
        WaitPipe<AscendC::HardEvent::S_MTE3>(pipe_);
        WaitPipe<AscendC::HardEvent::MTE3_V>(pipe_);  // the last group's copies out of the T vectors
        if (t_.reduction == XENT_NONE) {
            RowsOut(lossGm_, FWD_LOSS, 0, row0, rows);
            RowsOut(zlossGm_, FWD_ZLOSS, 1, row0, rows);
        } else {
            const int64_t vecs[kFwdRowArrays] = {FWD_LOSS, FWD_ZLOSS, FWD_WEIGHT, FWD_COUNTED};
            for (int64_t k = 0; k < kFwdRowArrays; ++k)
                AscendC::DataCopyPad(rowArraysGm_[k * t_.rowArrayStride + row0], Vec(vecs[k]),
                                     AscendC::DataCopyExtParams(1, static_cast<uint32_t>(rows * 4), 0, 0, 0));
        }
        RowsOut(lseGm_, FWD_LSE, 2, row0, rows);
    }

    __aicore__ inline void RowsOut(const AscendC::GlobalTensor<T>& gm, int64_t vec, int64_t out, int64_t row0,
                                   int64_t rows) {
        AscendC::LocalTensor<T> o;
        if constexpr (kFp32) {
            o = Vec(vec);
        } else {
            o = OutVec(out);
            AscendC::Cast(o, Vec(vec), AscendC::RoundMode::CAST_RINT, static_cast<uint32_t>(rows));
            WaitPipe<AscendC::HardEvent::V_MTE3>(pipe_);
        }
        AscendC::DataCopyPad(gm[row0], o, AscendC::DataCopyExtParams(1, static_cast<uint32_t>(rows * sizeof(T)), 0, 0, 0));
    }

    // Core 0, after SyncAll: the per-row terms added chunk by chunk in row order.
    __aicore__ inline void Reduce() {
        float loss = 0.0f, z = 0.0f, weight = 0.0f;
        int64_t counted = 0;
        AscendC::LocalTensor<float> chunk = sumBuf_.Get<float>();
        for (int64_t r0 = 0; r0 < t_.n; r0 += kFwdSumChunk) {
            const int64_t rows = t_.n - r0 < kFwdSumChunk ? t_.n - r0 : kFwdSumChunk;
            WaitPipe<AscendC::HardEvent::V_MTE2>(pipe_);
            AscendC::DataCopyPad(chunk, rowArraysGm_[r0],
                                 AscendC::DataCopyExtParams(static_cast<uint16_t>(kFwdRowArrays),
                                                            static_cast<uint32_t>(rows * 4),
                                                            static_cast<uint32_t>((t_.rowArrayStride - rows) * 4),
                                                            static_cast<uint32_t>((kFwdSumChunk * 4 - (rows * 4 + 31) / 32 * 32) / 32), 0),
                                 AscendC::DataCopyPadExtParams<float>(false, 0, 0, 0.0f));
            WaitPipe<AscendC::HardEvent::MTE2_V>(pipe_);
            for (int64_t k = 0; k < kFwdRowArrays; ++k) SumInto(Slot(kFwdSlotSum, k), chunk[k * kFwdSumChunk], rows);
            WaitPipe<AscendC::HardEvent::V_S>(pipe_);
            loss = loss + Slot(kFwdSlotSum, 0).GetValue(0);
            z = z + Slot(kFwdSlotSum, 1).GetValue(0);
            weight = weight + Slot(kFwdSlotSum, 2).GetValue(0);
            counted += static_cast<int64_t>(Slot(kFwdSlotSum, 3).GetValue(0));
        }
        float zloss = z;
        if (t_.reduction == XENT_MEAN) {
            zloss = counted > 0 ? z / static_cast<float>(counted) : 0.0f;
            loss = loss / weight;  // 0 / 0 = NaN when every row is ignored, as PyTorch
        }
        loss = loss + zloss;
        AscendC::LocalTensor<float> f = rowBuf_.GetWithOffset<float>(16, static_cast<uint32_t>(kFwdFinalOff));
        WaitPipe<AscendC::HardEvent::V_S>(pipe_);
        f.SetValue(0, loss);
        f.SetValue(8, zloss);
        WaitPipe<AscendC::HardEvent::S_V>(pipe_);
        WaitPipe<AscendC::HardEvent::S_MTE3>(pipe_);
        AscendC::LocalTensor<T> o;
        if constexpr (kFp32) {
            o = f;
        } else {
            o = rowBuf_.GetWithOffset<T>(32 / sizeof(T) * 2, static_cast<uint32_t>(kFwdFinalOff + 64));
            AscendC::Cast(o, f, AscendC::RoundMode::CAST_RINT, 1);
            AscendC::Cast(o[32 / sizeof(T)], f[8], AscendC::RoundMode::CAST_RINT, 1);
            WaitPipe<AscendC::HardEvent::V_MTE3>(pipe_);
        }
        const AscendC::DataCopyExtParams one(1, static_cast<uint32_t>(sizeof(T)), 0, 0, 0);
        AscendC::DataCopyPad(lossGm_, o, one);
        AscendC::DataCopyPad(zlossGm_, o[32 / sizeof(T)], one);
    }

    // Smallest bad row this core saw -> its own 32-byte slot {row, target, 0, 0}.
    __aicore__ inline void ReportBadTargets() {
        WaitPipe<AscendC::HardEvent::V_S>(pipe_);  // the vector unit's last use of the block (ScalarUnary)
        WriteBadRowSlot(pipe_, rowBuf_.GetWithOffset<int64_t>(4, static_cast<uint32_t>(kFwdScalarOff)), badSlotGm_,
                        core_, bad_);
    }

    const CrossEntropyLossTilingData& t_;
    AscendC::TPipe pipe_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> xBuf_, workBuf_, expBuf_, weightBuf_, tmpBuf_, rowBuf_, sumBuf_,
        scratchBuf_, spacerBuf_;
    AscendC::GlobalTensor<T> inputGm_, logProbGm_, lossGm_, zlossGm_, lseGm_;
    AscendC::GlobalTensor<TTarget> targetGm_;
    AscendC::GlobalTensor<float> weightGm_, rowArraysGm_;
    AscendC::GlobalTensor<int64_t> badSlotGm_;
    BadRowTracker bad_;
    int64_t core_;
    float max_[kFwdGroupRows];
    float lnSum_[kFwdGroupRows];
    // Fused: the launch-wide sums, the weight for the prologue, and a group's rows.
    LaunchScalars s_;
    TargetWeights weights_;
    GM_ADDR userWs_ = nullptr;
    // Column tiles: the stream's next load (row, pass, column), its end, loads issued and
    // tiles taken, and each slot's pending free event.
    int64_t nextRow_ = 0, nextPass_ = 0, nextCol0_ = 0, streamEnd_ = 0, issued_ = 0, taken_ = 0;
    int64_t slotState_[kFwdSlots] = {SLOT_CLEAR, SLOT_CLEAR, SLOT_CLEAR};
    AscendC::TEventID slotLoaded_[kFwdSlots], slotFreedByV_[kFwdSlots], slotFreedByMte3_[kFwdSlots];
    bool live_[kFwdGroupRows];
    int64_t target_[kFwdGroupRows];
    float zTarget_[kFwdGroupRows];  // softcap: y - max at the target, for its slope
};

}  // namespace xent

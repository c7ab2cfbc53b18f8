// The launch-wide sums the per-row terms need:
//   W = sum of weight[target_i] over non-ignored rows, M = their count (mean)
//   sum_k w_k (weighted label smoothing)
// Determinism: the sums are cut into chunks (rowChunkRows rows, chosen from N alone,
// and kWeightChunk columns) that do not depend on the core count or UB size. Each
// chunk's partial is summed in a fixed order (ReduceSum over kRowSub/kWeightSub
// staged values, then in sequence) and written to its own 32-byte workspace slot
// by a launch of its own (cross_entropy_loss_grad_sums, before the main kernel on
// the same stream); every core of the main kernel then adds all partials up in a fixed
// order (SumRowPartials, SumWeightPartials), so every core, core count and SoC profile
// gets the same bits, and no core ever waits for another (no SyncAll, nothing that
// could deadlock). The fused kernel, which syncs its cores for its loss anyway, does the
// same within its one launch (InLaunch). M is counted exactly. Small problems (one chunk
// of each) skip the slots: every core of the main kernel sums the chunk itself.
#pragma once
#include "kernel_operator.h"

#include "cross_entropy_loss_grad_common.h"
#include "cross_entropy_loss_grad_row_terms.h"
#include "cross_entropy_loss_grad_scratch_layout.h"

namespace xent {

template <class TTarget>
class CrossEntropyLossGradReductions {
public:
    __aicore__ inline CrossEntropyLossGradReductions(const CrossEntropyLossGradTilingData& t, AscendC::TPipe& pipe,
                                                     AscendC::TBuf<AscendC::TPosition::VECCALC>& scratch,
                                                     const AscendC::GlobalTensor<TTarget>& target,
                                                     const AscendC::GlobalTensor<float>& weight,
                                                     const TargetWeights& targetWeights, GM_ADDR userWs,
                                                     BadRowTracker& bad)
        : t_(t), pipe_(pipe), scratch_(scratch), targetGm_(target), weightGm_(weight), targetWeights_(targetWeights),
          bad_(bad) {
        rowPartialGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(userWs + t.rowPartialOffset),
                                      static_cast<uint64_t>(t.rowChunks) * kSlotFloats);
        weightPartialGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(userWs + t.weightPartialOffset),
                                         static_cast<uint64_t>(t.weightChunks) * kSlotFloats);
    }

    // The sums launch: chunk j of the row chunks then the weight chunks, on block j mod blocks.
    __aicore__ inline void Partials(int64_t block, int64_t blocks) {
        for (int64_t j = block; j < t_.rowChunks + t_.weightChunks; j += blocks) {
            if (j < t_.rowChunks) RowChunk(j);
            else WeightChunk(j - t_.rowChunks);
        }
    }

    // Weight chunk k's slot (the sums launch's vector path deals the chunks itself).
    __aicore__ inline void WeightPartial(int64_t k) { WeightChunk(k); }

    // The main kernel, after the sums launch: every core adds the slots up in a fixed order.
    __aicore__ inline void Totals(LaunchScalars& s) {
        if (t_.rowChunks > 0) SumRowPartials(s);
        if (t_.weightChunks > 0) SumWeightPartials(s);
    }

    // All of it within one launch, for a kernel that syncs its cores anyway (the fused
    // kernel, for its loss): the partials, SyncAll, the totals; or Local.
    __aicore__ inline void InLaunch(int64_t core, int64_t cores, LaunchScalars& s) {
        if (t_.prologueLocal) {
            Local(s);
            return;
        }
        Partials(core, cores);
        AscendC::PipeBarrier<PIPE_ALL>();  // partial slots are in GM before the other cores look
        AscendC::SyncAll();
        Totals(s);
    }

    // The main kernel, at most one chunk of each (prologueLocal): chunk 0 summed here,
    // added up as Totals adds its one slot.
    __aicore__ inline void Local(LaunchScalars& s) {
        if (t_.rowChunks > 0) {
            float weightSum = 0.0f;
            int32_t count = 0;
            RowChunkSums(0, weightSum, count);
            SetRowSums(0.0f + weightSum, count, s);
        }
        if (t_.weightChunks > 0) s.classWeightSum = 0.0f + WeightChunkSum(0);
    }

private:
    static constexpr int64_t kSlotFloats = kSlotBytes / 4;

    // W and M of rows [k*rowChunkRows, ...) -> slot k: {float W, int32 M}.
    __aicore__ inline void RowChunk(int64_t k) {
        float weightSum = 0.0f;
        int32_t count = 0;
        RowChunkSums(k, weightSum, count);
        WriteSlot(rowPartialGm_[k * kSlotFloats], weightSum, count);
    }

    __aicore__ inline void RowChunkSums(int64_t k, float& weightSum, int32_t& count) {
        const int64_t r0 = k * t_.rowChunkRows;
        const int64_t r1 = r0 + t_.rowChunkRows < t_.n ? r0 + t_.rowChunkRows : t_.n;
        AscendC::LocalTensor<TTarget> targets = scratch_.GetWithOffset<TTarget>(kRowSub, kScratchStageOff);
        AscendC::LocalTensor<float> values = scratch_.GetWithOffset<float>(kWeightSub, kScratchValuesOff);
        for (int64_t s0 = r0; s0 < r1; s0 += kRowSub) {
            const int64_t rows = r1 - s0 < kRowSub ? r1 - s0 : kRowSub;
            AscendC::DataCopyPad(targets, targetGm_[s0],
                                 AscendC::DataCopyExtParams(1, static_cast<uint32_t>(rows * sizeof(TTarget)), 0, 0, 0),
                                 AscendC::DataCopyPadExtParams<TTarget>(false, 0, 0, 0));
            WaitPipe<AscendC::HardEvent::MTE2_S>(pipe_);
            for (int64_t r = 0; r < rows; ++r) {
                const int64_t target = static_cast<int64_t>(targets.GetValue(static_cast<uint32_t>(r)));
                const bool live = RowIsLive(t_, s0 + r, target, bad_);
                count += live ? 1 : 0;
                if (t_.hasWeight) values.SetValue(static_cast<uint32_t>(r), live ? targetWeights_.At(target) : 0.0f);
            }
            if (t_.hasWeight) {
                weightSum += ReduceStaged(values, rows);
            }
        }
    }

    // sum of weight[k*kWeightChunk, ...) -> slot k: {float}.
    __aicore__ inline void WeightChunk(int64_t k) { WriteSlot(weightPartialGm_[k * kSlotFloats], WeightChunkSum(k), 0); }

    __aicore__ inline float WeightChunkSum(int64_t k) {
        const int64_t c0 = k * kWeightChunk;
        const int64_t c1 = c0 + kWeightChunk < t_.classTotal ? c0 + kWeightChunk : t_.classTotal;
        float sum = 0.0f;
        AscendC::LocalTensor<float> values = scratch_.GetWithOffset<float>(kWeightSub, kScratchValuesOff);
        for (int64_t s0 = c0; s0 < c1; s0 += kWeightSub) {
            const int64_t cols = c1 - s0 < kWeightSub ? c1 - s0 : kWeightSub;
            WaitPipe<AscendC::HardEvent::S_MTE2>(pipe_);  // the row chunks' scalar stores into values are done
            AscendC::DataCopyPad(values, weightGm_[s0],
                                 AscendC::DataCopyExtParams(1, static_cast<uint32_t>(cols * 4), 0, 0, 0),
                                 AscendC::DataCopyPadExtParams<float>(false, 0, 0, 0.0f));
            WaitPipe<AscendC::HardEvent::MTE2_V>(pipe_);
            sum += ReduceStaged(values, cols);
        }
        return sum;
    }

    // ReduceSum of the first n staged values (written by S or MTE2 before this call).
    __aicore__ inline float ReduceStaged(const AscendC::LocalTensor<float>& values, int64_t n) {
        AscendC::LocalTensor<float> dst = scratch_.GetWithOffset<float>(8, kScratchReduceDstOff);
        AscendC::LocalTensor<float> tmp = scratch_.GetWithOffset<float>(kWeightSub, kScratchReduceTmpOff);
        WaitPipe<AscendC::HardEvent::S_V>(pipe_);
        AscendC::ReduceSum(dst, values, tmp, static_cast<int32_t>(n));
        WaitPipe<AscendC::HardEvent::V_S>(pipe_);
        return dst.GetValue(0);
    }

    __aicore__ inline void WriteSlot(const AscendC::GlobalTensor<float>& slot, float value, int32_t count) {
        AscendC::LocalTensor<float> ub = scratch_.GetWithOffset<float>(kSlotFloats, kScratchSlotOff);
        WaitPipe<AscendC::HardEvent::MTE3_S>(pipe_);  // the previous slot has left UB
        ub.SetValue(0, value);
        ub.template ReinterpretCast<int32_t>().SetValue(1, count);
        WaitPipe<AscendC::HardEvent::S_MTE3>(pipe_);
        AscendC::DataCopyPad(slot, ub, AscendC::DataCopyExtParams(1, 8, 0, 0, 0));
    }

    // Brings slots [b0, b0 + cnt) (cnt <= kSlotBatch) into the stage area, for the scalar
    // unit's reads (forScalar) or the vector unit's.
    __aicore__ inline AscendC::LocalTensor<float> LoadSlots(const AscendC::GlobalTensor<float>& slots, int64_t b0,
                                                            int64_t cnt, bool forScalar = true) {
        AscendC::LocalTensor<float> stage =
            scratch_.GetWithOffset<float>(kSlotBatch * kSlotFloats, kScratchStageOff);
        AscendC::DataCopyPad(stage, slots[b0 * kSlotFloats],
                             AscendC::DataCopyExtParams(1, static_cast<uint32_t>(cnt * kSlotBytes), 0, 0, 0),
                             AscendC::DataCopyPadExtParams<float>(false, 0, 0, 0.0f));
        if (forScalar) WaitPipe<AscendC::HardEvent::MTE2_S>(pipe_);
        else WaitPipe<AscendC::HardEvent::MTE2_V>(pipe_);
        return stage;
    }

    // On the vector unit, in batches of kSlotBatch slots: their W and M gathered into
    // rows of their own (Gather by byte offsets j * 32 and j * 32 + 4), M converted to
    // float (exact: a batch counts at most kSlotBatch * kMaxRowChunk rows), one ReduceSum
    // each; the batches' results added in batch order on the scalar unit. Every core runs
    // the same instructions on the same slots: the same bits everywhere. (Slot by slot
    // on the scalar unit this was 2 UB reads a slot, 27 us of every core at 522248 x 257
    // on the NPU model, before its first tile.)
    __aicore__ inline void SumRowPartials(LaunchScalars& s) {
        const AscendC::LocalTensor<int32_t> offsets =
            scratch_.GetWithOffset<int32_t>(2 * kSlotBatch, kScratchValuesOff);
        const AscendC::LocalTensor<float> gathered =
            scratch_.GetWithOffset<float>(2 * kSlotBatch, kScratchValuesOff + 2 * kSlotBatch * 4);
        const AscendC::LocalTensor<float> dst = scratch_.GetWithOffset<float>(16, kScratchSlotSumsOff);
        const AscendC::LocalTensor<float> tmp = scratch_.GetWithOffset<float>(kWeightSub, kScratchReduceTmpOff);
        AscendC::CreateVecIndex(offsets, int32_t(0), static_cast<uint32_t>(kSlotBatch));
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Muls(offsets, offsets, int32_t(kSlotBytes), static_cast<int32_t>(kSlotBatch));
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Adds(offsets[kSlotBatch], offsets, int32_t(4), static_cast<int32_t>(kSlotBatch));
        AscendC::PipeBarrier<PIPE_V>();
        const AscendC::LocalTensor<uint32_t> wAt = offsets.template ReinterpretCast<uint32_t>();
        const AscendC::LocalTensor<uint32_t> mAt = offsets[kSlotBatch].template ReinterpretCast<uint32_t>();
        float weightSum = 0.0f;
        int64_t count = 0;
        for (int64_t b0 = 0; b0 < t_.rowChunks; b0 += kSlotBatch) {
            const int32_t cnt = static_cast<int32_t>(t_.rowChunks - b0 < kSlotBatch ? t_.rowChunks - b0 : kSlotBatch);
            if (b0 > 0) WaitPipe<AscendC::HardEvent::V_MTE2>(pipe_);  // the last batch's Gathers have read the stage
            const AscendC::LocalTensor<float> stage = LoadSlots(rowPartialGm_, b0, cnt, false);
            if (b0 > 0) WaitPipe<AscendC::HardEvent::S_V>(pipe_);  // the last results are read
            AscendC::Gather(gathered, stage, wAt, 0, static_cast<uint32_t>(cnt));
            AscendC::Gather(gathered[kSlotBatch], stage, mAt, 0, static_cast<uint32_t>(cnt));
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Cast(gathered[kSlotBatch], gathered[kSlotBatch].template ReinterpretCast<int32_t>(),
                          AscendC::RoundMode::CAST_NONE, static_cast<uint32_t>(cnt));
            AscendC::ReduceSum(dst, gathered, tmp, cnt);
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::ReduceSum(dst[8], gathered[kSlotBatch], tmp, cnt);
            WaitPipe<AscendC::HardEvent::V_S>(pipe_);
            weightSum += dst.GetValue(0);
            count += static_cast<int64_t>(dst.GetValue(8));
        }
        SetRowSums(weightSum, count, s);
    }

    __aicore__ inline void SetRowSums(float weightSum, int64_t count, LaunchScalars& s) {
        s.rowCount = static_cast<float>(count);
        s.weightSum = t_.hasWeight ? weightSum : s.rowCount;  // without a weight W = M exactly
    }

    __aicore__ inline void SumWeightPartials(LaunchScalars& s) {
        float sum = 0.0f;
        for (int64_t b0 = 0; b0 < t_.weightChunks; b0 += kSlotBatch) {
            const int64_t cnt = t_.weightChunks - b0 < kSlotBatch ? t_.weightChunks - b0 : kSlotBatch;
            AscendC::LocalTensor<float> stage = LoadSlots(weightPartialGm_, b0, cnt);
            for (int64_t j = 0; j < cnt; ++j) sum += stage.GetValue(static_cast<uint32_t>(j * kSlotFloats));
        }
        s.classWeightSum = sum;
    }

    const CrossEntropyLossGradTilingData& t_;
    AscendC::TPipe& pipe_;
    AscendC::TBuf<AscendC::TPosition::VECCALC>& scratch_;
    const AscendC::GlobalTensor<TTarget>& targetGm_;
    const AscendC::GlobalTensor<float>& weightGm_;
    const TargetWeights& targetWeights_;
    AscendC::GlobalTensor<float> rowPartialGm_;
    AscendC::GlobalTensor<float> weightPartialGm_;
    BadRowTracker& bad_;
};

}  // namespace xent

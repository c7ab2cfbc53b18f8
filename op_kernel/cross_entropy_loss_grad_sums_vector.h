// The sums launch's W and M partials (cross_entropy_loss_grad_reductions.h) on the vector
// unit: a block's row chunks are contiguous, so their targets come in batches of
// kSumsBatchRows in one DMA each, and a row's liveness and weight[target] are vector
// work instead of three scalar UB accesses per row. Each chunk's partial is the same
// ReduceSum over the same rowChunkRows values as the scalar path's (weight[target], or 0
// for a row that is ignored or out of range; M as the sum of 0/1), so the slots hold
// the same numbers on any core count.
//
// Per batch, in fp32 (exact: the tiling takes this path only when classTotal <= 2^24,
// so every target that can be live converts exactly, and any other converts to a value
// outside [0, classTotal)):
//   t     = float(target)
//   live  = [t >= 0] * [t <= C - 1] * [t != ignoreIndex], each factor min(max(x, 0), 1)
//           of an integer-valued x
//   w     = Gather(weight, 4 * t * live) * live      (the whole weight is in UB)
#pragma once
#include "kernel_operator.h"

#include "cross_entropy_loss_grad_common.h"
#include "cross_entropy_loss_grad_sums_layout.h"
#include "cross_entropy_loss_grad_tiling_data.h"

namespace xent {

template <class TTarget>
class RowPartialsOnVector {
public:
    __aicore__ inline RowPartialsOnVector(const CrossEntropyLossGradTilingData& t, AscendC::TPipe& pipe,
                                          AscendC::TBuf<AscendC::TPosition::VECCALC>& buf,
                                          const AscendC::GlobalTensor<TTarget>& target,
                                          const AscendC::GlobalTensor<float>& weight, GM_ADDR userWs)
        : t_(t), pipe_(pipe), buf_(buf), targetGm_(target), weightGm_(weight) {
        rowPartialGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(userWs + t.rowPartialOffset),
                                      static_cast<uint64_t>(t.rowChunks) * kSlotFloats);
    }

    // Row chunks [k0, k1) -> their slots {float W, int32 M}.
    __aicore__ inline void Run(int64_t k0, int64_t k1) {
        if (k0 >= k1) return;
        // Every byte of the slots DataCopyPad sends out is defined (the slots' padding is 0).
        AscendC::Duplicate(Floats(kSumsSlotsOff, kSumsBatchChunks * kSlotFloats), 0.0f,
                           static_cast<int32_t>(kSumsBatchChunks * kSlotFloats));
        if (t_.hasWeight) {
            AscendC::DataCopyPad(Floats(kSumsWeightOff, t_.sumsWeightBufBytes / 4), weightGm_,
                                 AscendC::DataCopyExtParams(1, static_cast<uint32_t>(t_.classTotal * 4), 0, 0, 0),
                                 AscendC::DataCopyPadExtParams<float>(false, 0, 0, 0.0f));
        }
        const int64_t chunk = t_.rowChunkRows;
        const int64_t end = k1 * chunk < t_.n ? k1 * chunk : t_.n;
        for (int64_t r0 = k0 * chunk; r0 < end; r0 += kSumsBatchRows) {
            const int64_t rows = end - r0 < kSumsBatchRows ? end - r0 : kSumsBatchRows;
            Batch(r0, rows, r0 != k0 * chunk);
        }
    }

private:
    static constexpr int64_t kSlotFloats = kSlotBytes / 4;

    __aicore__ inline AscendC::LocalTensor<float> Floats(int64_t off, int64_t n) {
        return buf_.GetWithOffset<float>(static_cast<uint32_t>(n), static_cast<uint32_t>(off));
    }

    // Rows [r0, r0 + rows) (whole chunks, the last one possibly short) -> their slots.
    __aicore__ inline void Batch(int64_t r0, int64_t rows, bool after) {
        const int32_t n = static_cast<int32_t>(rows);
        AscendC::LocalTensor<TTarget> targets =
            buf_.GetWithOffset<TTarget>(static_cast<uint32_t>(kSumsBatchRows), static_cast<uint32_t>(kSumsStageOff));
        const AscendC::LocalTensor<float> tf = Floats(kSumsTargetOff, kSumsBatchRows);
        const AscendC::LocalTensor<float> live = Floats(kSumsLiveOff, kSumsBatchRows);
        const AscendC::LocalTensor<float> tmp = Floats(kSumsTmpOff, kSumsBatchRows);
        const AscendC::LocalTensor<float> w = Floats(kSumsValuesOff, kSumsBatchRows);
        if (after) WaitPipe<AscendC::HardEvent::V_MTE2>(pipe_);  // the last batch's Cast has read the stage
        AscendC::DataCopyPad(targets, targetGm_[r0],
                             AscendC::DataCopyExtParams(1, static_cast<uint32_t>(rows * sizeof(TTarget)), 0, 0, 0),
                             AscendC::DataCopyPadExtParams<TTarget>(false, 0, 0, 0));
        WaitPipe<AscendC::HardEvent::MTE2_V>(pipe_);  // (also the weight, before the first batch)
        // int64 -> float rounds (CAST_RINT: the modes A2 allows); int32 -> float is exact below 2^24.
        if constexpr (sizeof(TTarget) == 8) AscendC::Cast(tf, targets, AscendC::RoundMode::CAST_RINT, n);
        else AscendC::Cast(tf, targets, AscendC::RoundMode::CAST_NONE, n);
        AscendC::PipeBarrier<PIPE_V>();
        // live = [t >= 0]: min(max(t + 1, 0), 1)
        Indicator(live, tf, 1.0f, 1.0f, n);
        // * [t <= C - 1]: min(max(C - t, 0), 1)
        Indicator(tmp, tf, -1.0f, static_cast<float>(t_.classTotal), n);
        AscendC::Mul(live, live, tmp, n);
        AscendC::PipeBarrier<PIPE_V>();
        // * [t != ignoreIndex] (a value outside [0, C) is already out): min(|t - ignoreIndex|, 1)
        if (t_.ignoreIndex >= 0 && t_.ignoreIndex < t_.classTotal) {
            AscendC::Adds(tmp, tf, -static_cast<float>(t_.ignoreIndex), n);
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Abs(tmp, tmp, n);
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Mins(tmp, tmp, 1.0f, n);
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Mul(live, live, tmp, n);
        }
        AscendC::PipeBarrier<PIPE_V>();
        if (t_.hasWeight) {
            // Index t for a live row, 0 (in range) for any other.
            AscendC::Mul(tmp, tf, live, n);
            AscendC::PipeBarrier<PIPE_V>();
            GatherAtFloatIndex(w, Floats(kSumsWeightOff, t_.sumsWeightBufBytes / 4), tmp, n);
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Mul(w, w, live, n);
            AscendC::PipeBarrier<PIPE_V>();
        }
        // One ReduceSum per chunk, its result stored by the scalar unit into the chunk's slot
        // (W) or count cell (M), once the last batch's slots have left UB.
        if (after) WaitPipe<AscendC::HardEvent::MTE3_S>(pipe_);
        const AscendC::LocalTensor<float> slots = Floats(kSumsSlotsOff, kSumsBatchChunks * kSlotFloats);
        const AscendC::LocalTensor<float> counts = Floats(kSumsCountsOff, kSumsBatchChunks * kSlotFloats);
        const AscendC::LocalTensor<float> reduceTmp = Floats(kSumsReduceTmpOff, kSlotFloats);
        const int64_t chunk = t_.rowChunkRows;
        const int64_t chunks = (rows + chunk - 1) / chunk;
        for (int64_t c = 0; c < chunks; ++c) {
            const int32_t cr = static_cast<int32_t>(rows - c * chunk < chunk ? rows - c * chunk : chunk);
            AscendC::ReduceSum(counts[c * kSlotFloats], live[c * chunk], reduceTmp, cr);
            if (t_.hasWeight) AscendC::ReduceSum(slots[c * kSlotFloats], w[c * chunk], reduceTmp, cr);
        }
        const AscendC::LocalTensor<int32_t> slotsInt = slots.template ReinterpretCast<int32_t>();
        for (int64_t c = 0; c < chunks; ++c)
            slotsInt.SetValue(static_cast<uint32_t>(c * kSlotFloats + 1),
                              static_cast<int32_t>(counts.GetValue(static_cast<uint32_t>(c * kSlotFloats))));
        WaitPipe<AscendC::HardEvent::S_MTE3>(pipe_);
        AscendC::DataCopyPad(rowPartialGm_[r0 / chunk * kSlotFloats], slots,
                             AscendC::DataCopyExtParams(1, static_cast<uint32_t>(chunks * kSlotBytes), 0, 0, 0));
    }

    // dst = min(max(scale * t + add, 0), 1): 1 where that integer is >= 1, 0 where <= 0.
    __aicore__ inline void Indicator(const AscendC::LocalTensor<float>& dst, const AscendC::LocalTensor<float>& tf,
                                     float scale, float add, int32_t n) {
        if (scale != 1.0f) {
            AscendC::Muls(dst, tf, scale, n);
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Adds(dst, dst, add, n);
        } else {
            AscendC::Adds(dst, tf, add, n);
        }
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Maxs(dst, dst, 0.0f, n);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Mins(dst, dst, 1.0f, n);
        AscendC::PipeBarrier<PIPE_V>();
    }

    const CrossEntropyLossGradTilingData& t_;
    AscendC::TPipe& pipe_;
    AscendC::TBuf<AscendC::TPosition::VECCALC>& buf_;
    const AscendC::GlobalTensor<TTarget>& targetGm_;
    const AscendC::GlobalTensor<float>& weightGm_;
    AscendC::GlobalTensor<float> rowPartialGm_;
};

}  // namespace xent

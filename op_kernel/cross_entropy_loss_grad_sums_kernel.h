// The launch before CrossEntropyLossGrad's main kernel when its launch-wide sums
// span more than one chunk (cross_entropy_loss_grad_reductions.h): each block writes
// the partial slots of its chunks, nothing else. Out-of-range targets are left to
// the main kernel, which sees every row and reports them.
// With sumsVector (the usual case) a block takes a contiguous range of the chunks and
// sums its row chunks on the vector unit (cross_entropy_loss_grad_sums_vector.h);
// otherwise (more than 2^24 classes, or a weight too large for UB) chunk j goes to block
// j mod blocks and the scalar unit walks the rows, reading weight[target] from GM (or from
// UB when the tiling keeps the weight there: sumsWeightBufBytes).
#pragma once
#include "kernel_operator.h"

#include "cross_entropy_loss_grad_common.h"
#include "cross_entropy_loss_grad_kernel.h"  // KernelArgs
#include "cross_entropy_loss_grad_reductions.h"
#include "cross_entropy_loss_grad_scratch_layout.h"
#include "cross_entropy_loss_grad_sums_vector.h"

namespace xent {

template <class T, class TTarget>  // T unused: the entry picks instances as the main kernel's does
class CrossEntropyLossGradSumsKernel {
public:
    __aicore__ inline CrossEntropyLossGradSumsKernel(const CrossEntropyLossGradTilingData& t) : t_(t) {}

    __aicore__ inline void Init(const KernelArgs& a) {
        targetGm_.SetGlobalBuffer(reinterpret_cast<__gm__ TTarget*>(a.target), static_cast<uint64_t>(t_.n));
        if (t_.hasWeight)
            weightGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(a.weight), static_cast<uint64_t>(t_.classTotal));
        weights_.gm = weightGm_;
        userWs_ = a.userWorkspace;
        pipe_.InitBuffer(scratchBuf_, static_cast<uint32_t>(t_.scratchBytes));
        if (t_.sumsVector) {
            pipe_.InitBuffer(sumsBuf_, static_cast<uint32_t>(t_.sumsBufBytes));
        } else if (t_.sumsWeightBufBytes > 0) {
            // The main kernel keeps the whole weight in UB (small C): here it fits too, and
            // weight[target] becomes a scalar UB read instead of a GM one.
            pipe_.InitBuffer(sumsBuf_, static_cast<uint32_t>(t_.sumsWeightBufBytes));
            weights_.MakeResident(sumsBuf_.template Get<float>(), t_.classTotal, pipe_);
        }
    }

    __aicore__ inline void Process() {
        BadRowTracker unreported;
        CrossEntropyLossGradReductions<TTarget> reductions(t_, pipe_, scratchBuf_, targetGm_, weightGm_, weights_,
                                                           userWs_, unreported);
        const int64_t block = AscendC::GetBlockIdx(), blocks = AscendC::GetBlockNum();
        if (!t_.sumsVector) {
            reductions.Partials(block, blocks);
            return;
        }
        const int64_t chunks = t_.rowChunks + t_.weightChunks;
        const int64_t j0 = chunks * block / blocks, j1 = chunks * (block + 1) / blocks;
        RowPartialsOnVector<TTarget> rows(t_, pipe_, sumsBuf_, targetGm_, weightGm_, userWs_);
        rows.Run(j0 < t_.rowChunks ? j0 : t_.rowChunks, j1 < t_.rowChunks ? j1 : t_.rowChunks);
        for (int64_t j = j0 > t_.rowChunks ? j0 : t_.rowChunks; j < j1; ++j) reductions.WeightPartial(j - t_.rowChunks);
    }

private:
    const CrossEntropyLossGradTilingData& t_;
    AscendC::TPipe pipe_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> scratchBuf_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> sumsBuf_;
    AscendC::GlobalTensor<TTarget> targetGm_;
    AscendC::GlobalTensor<float> weightGm_;
    TargetWeights weights_;
    GM_ADDR userWs_;
};

}  // namespace xent

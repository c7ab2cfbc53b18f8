// The launch before CrossEntropyLossGrad's main kernel when its launch-wide sums
// span more than one chunk (cross_entropy_loss_grad_reductions.h): each block writes
// the partial slots of its chunks, nothing else. Out-of-range targets are left to
// the main kernel, which sees every row and reports them.
#pragma once
#include "kernel_operator.h"

#include "cross_entropy_loss_grad_common.h"
#include "cross_entropy_loss_grad_kernel.h"  // KernelArgs
#include "cross_entropy_loss_grad_reductions.h"
#include "cross_entropy_loss_grad_scratch_layout.h"

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
        // The main kernel keeps the whole weight in UB when it fits beside its tiles: here it
        // fits too, and weight[target] becomes a scalar UB read instead of a GM one.
        if (t_.weightResident) {
            pipe_.InitBuffer(weightBuf_, static_cast<uint32_t>((t_.classTotal * 4 + 31) / 32 * 32));
            weights_.MakeResident(weightBuf_.template Get<float>(), t_.classTotal, pipe_);
        }
    }

    __aicore__ inline void Process() {
        BadRowTracker unreported;
        CrossEntropyLossGradReductions<TTarget> reductions(t_, pipe_, scratchBuf_, targetGm_, weightGm_, weights_,
                                                           userWs_, unreported);
        reductions.Partials(AscendC::GetBlockIdx(), AscendC::GetBlockNum());
    }

private:
    const CrossEntropyLossGradTilingData& t_;
    AscendC::TPipe pipe_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> scratchBuf_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> weightBuf_;
    AscendC::GlobalTensor<TTarget> targetGm_;
    AscendC::GlobalTensor<float> weightGm_;
    TargetWeights weights_;
    GM_ADDR userWs_;
};

}  // namespace xent

// Kernel entry of CrossEntropyLossGrad (Kernel-Launch style: no TILING_KEY_IS,
// so the dtype codes in the tiling pick the template instance).
// The tiling arrives as a GM pointer and is read with one bounds-checked DMA.
#include "kernel_operator.h"

#include "cross_entropy_loss_grad_kernel.h"

extern "C" __global__ __aicore__ void cross_entropy_loss_grad(GM_ADDR gradLoss, GM_ADDR logProb, GM_ADDR target,
                                                              GM_ADDR weight, GM_ADDR gradZloss, GM_ADDR lseForZloss,
                                                              GM_ADDR xGrad, GM_ADDR workspace, GM_ADDR tiling) {
    // No core waits for another (the launch-wide sums come from the sums launch before):
    // a vector-only kernel. No guard: CANN defines the macro in every build mode.
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    xent::RunGradEntry<xent::CrossEntropyLossGradKernel>(
        {gradLoss, logProb, target, weight, gradZloss, lseForZloss, xGrad, AscendC::GetUserWorkspace(workspace)}, tiling);
}

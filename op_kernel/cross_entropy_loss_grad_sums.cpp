// Kernel entry of CrossEntropyLossGrad's sums launch (cross_entropy_loss_grad_sums_kernel.h):
// queued before the main kernel on the same stream when the tiling asks for it.
// Same arguments as the main kernel, so both read one tiling and one workspace.
#include "kernel_operator.h"

#include "cross_entropy_loss_grad_sums_kernel.h"

extern "C" __global__ __aicore__ void cross_entropy_loss_grad_sums(GM_ADDR gradLoss, GM_ADDR logProb, GM_ADDR target,
                                                                   GM_ADDR weight, GM_ADDR gradZloss, GM_ADDR lseForZloss,
                                                                   GM_ADDR xGrad, GM_ADDR workspace, GM_ADDR tiling) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    xent::RunGradEntry<xent::CrossEntropyLossGradSumsKernel>(
        {gradLoss, logProb, target, weight, gradZloss, lseForZloss, xGrad, AscendC::GetUserWorkspace(workspace)}, tiling);
}

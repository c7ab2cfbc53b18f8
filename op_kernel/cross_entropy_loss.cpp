// Kernel entry of CrossEntropyLoss, the forward (Kernel-Launch style, like
// cross_entropy_loss_grad.cpp: the dtype codes in the tiling pick the template
// instance). The tiling arrives as a GM pointer and is read in one DMA.
#include "kernel_operator.h"

#include "kernel_entry.h"
#include "cross_entropy_loss_kernel.h"
#include "cross_entropy_loss_tiling_data.h"

// Batch schedule mode for the SyncAll of mean/sum, as cross_entropy_loss_grad.cpp.
#if ASCEND_XENT_BATCH_SCHEDULE
#define XENT_FWD_BATCH_SCHEDULE __schedmode__(1)
#else
#define XENT_FWD_BATCH_SCHEDULE
#endif

extern "C" XENT_FWD_BATCH_SCHEDULE __global__ __aicore__ void cross_entropy_loss(GM_ADDR input, GM_ADDR target,
                                                                                 GM_ADDR weight, GM_ADDR loss,
                                                                                 GM_ADDR logProb, GM_ADDR zloss,
                                                                                 GM_ADDR lseForZloss, GM_ADDR workspace,
                                                                                 GM_ADDR tiling) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);  // SyncAll (mean/sum) needs a mix kernel
    xent::CrossEntropyLossTilingData t;
    xent::ReadTiling(tiling, t);
    const xent::ForwardArgs args{input, target, weight, loss, logProb, zloss, lseForZloss,
                                 AscendC::GetUserWorkspace(workspace)};
    xent::RunForDtype<xent::CrossEntropyLossKernel>(t, args);
}

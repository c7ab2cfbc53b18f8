// Kernel entry of CrossEntropyLossGrad (Kernel-Launch style: no TILING_KEY_IS,
// so the dtype codes in the tiling pick the template instance).
// The tiling arrives as a GM pointer and is read through a GlobalTensor, word
// by word, so every access is an ordinary (bounds-checked) GM read.
#include "kernel_operator.h"

#include "kernel_entry.h"
#include "cross_entropy_loss_grad_kernel.h"
#include "cross_entropy_loss_grad_tiling_data.h"

// Batch schedule mode: the launch waits until all its blocks can start at once, so
// the hard SyncAll cannot deadlock against another stream's kernel holding cores
// (asc-devkit: SyncAll.md, SIMD-BuiltIn关键字.md). The qualifier exists from asc-devkit
// 9.1.0; an older toolkit builds with -DASCEND_XENT_BATCH_SCHEDULE=OFF (one stream at
// a time is then safe, concurrent streams may hang).
#if ASCEND_XENT_BATCH_SCHEDULE
#define XENT_BATCH_SCHEDULE __schedmode__(1)
#else
#define XENT_BATCH_SCHEDULE
#endif

extern "C" XENT_BATCH_SCHEDULE __global__ __aicore__ void cross_entropy_loss_grad(GM_ADDR gradLoss, GM_ADDR logProb, GM_ADDR target,
                                                              GM_ADDR weight, GM_ADDR gradZloss, GM_ADDR lseForZloss,
                                                              GM_ADDR xGrad, GM_ADDR workspace, GM_ADDR tiling) {
    // SyncAll in the prologue needs a mix kernel. No guard: CANN defines the macro
    // in every build mode (empty where a SoC has no kernel types), the simulator too.
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);
    xent::CrossEntropyLossGradTilingData t;
    xent::ReadTiling(tiling, t);
    const xent::KernelArgs args{gradLoss, logProb, target, weight, gradZloss, lseForZloss, xGrad,
                                AscendC::GetUserWorkspace(workspace)};
    xent::RunForDtype<xent::CrossEntropyLossGradKernel>(t, args);
}

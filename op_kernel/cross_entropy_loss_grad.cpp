// Kernel entry of CrossEntropyLossGrad (Kernel-Launch style: no TILING_KEY_IS,
// so the dtype codes in the tiling pick the template instance).
// The tiling arrives as a GM pointer and is read through a GlobalTensor, word
// by word, so every access is an ordinary (bounds-checked) GM read.
#include "kernel_operator.h"

#include "cross_entropy_loss_grad_kernel.h"
#include "cross_entropy_loss_grad_tiling_data.h"

namespace {

__aicore__ inline void ReadTiling(GM_ADDR tiling, xent::CrossEntropyLossGradTilingData& out) {
    AscendC::GlobalTensor<int64_t> words;
    words.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(tiling), xent::kTilingWords);
    union {
        xent::CrossEntropyLossGradTilingData data;
        int64_t word[xent::kTilingWords];
    } u;
    for (int64_t i = 0; i < xent::kTilingWords; ++i) u.word[i] = words.GetValue(static_cast<uint64_t>(i));
    out = u.data;
}

template <class T, class TTarget>
__aicore__ inline void Run(const xent::CrossEntropyLossGradTilingData& t, const xent::KernelArgs& args) {
    xent::CrossEntropyLossGradKernel<T, TTarget> op(t);
    op.Init(args);
    op.Process();
}

template <class T>
__aicore__ inline void RunForTarget(const xent::CrossEntropyLossGradTilingData& t, const xent::KernelArgs& args) {
    if (t.targetBytes == 8) {
        Run<T, int64_t>(t, args);
    } else {
        Run<T, int32_t>(t, args);
    }
}

}  // namespace

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
    ReadTiling(tiling, t);
    const xent::KernelArgs args{gradLoss, logProb, target, weight, gradZloss, lseForZloss, xGrad,
                                AscendC::GetUserWorkspace(workspace)};
    if (t.dtype == xent::XENT_FP32) {
        RunForTarget<float>(t, args);
    } else if (t.dtype == xent::XENT_FP16) {
        RunForTarget<half>(t, args);
    } else {
        RunForTarget<bfloat16_t>(t, args);
    }
}

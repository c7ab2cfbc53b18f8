// What both kernel entries do before the work: bring the tiling into UB in one copy
// and pick the template instance from its dtype and target-width codes
// (Kernel-Launch style: no TILING_KEY_IS).
#pragma once
#include "kernel_operator.h"

#include "cross_entropy_loss_grad_tiling_data.h"  // XentDtype

namespace xent {

// One DMA to the start of UB and scalar reads from there: one GM round trip per
// block instead of one per word. The MTE2 -> S wait orders the copy before every
// later instruction, so the kernel's TPipe may lay its buffers over those bytes.
template <class Tiling>
__aicore__ inline void ReadTiling(GM_ADDR tiling, Tiling& out) {
    constexpr uint32_t kWords = sizeof(Tiling) / 8;
    static_assert(sizeof(Tiling) % 8 == 0, "read as int64 words");
    AscendC::GlobalTensor<int64_t> gm;
    gm.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(tiling), kWords);
    const AscendC::LocalTensor<int64_t> ub(AscendC::TPosition::VECIN, 0, (kWords + 3) / 4 * 4);
    AscendC::DataCopyPad(ub, gm, AscendC::DataCopyExtParams(1, kWords * 8, 0, 0, 0),
                         AscendC::DataCopyPadExtParams<int64_t>(false, 0, 0, 0));
    AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID0);
    union {
        Tiling data;
        int64_t word[kWords];
    } u;
    for (uint32_t i = 0; i < kWords; ++i) u.word[i] = ub.GetValue(i);
    out = u.data;
}

template <template <class, class> class Kernel, class T, class Tiling, class Args>
__aicore__ inline void RunForTarget(const Tiling& t, const Args& args) {
    if (t.targetBytes == 8) {
        Kernel<T, int64_t> op(t);
        op.Init(args);
        op.Process();
    } else {
        Kernel<T, int32_t> op(t);
        op.Init(args);
        op.Process();
    }
}

// Kernel<T, TTarget>(tiling).Init(args), Process() for the tiling's dtype and target width.
template <template <class, class> class Kernel, class Tiling, class Args>
__aicore__ inline void RunForDtype(const Tiling& t, const Args& args) {
    if (t.dtype == XENT_FP32) {
        RunForTarget<Kernel, float>(t, args);
    } else if (t.dtype == XENT_FP16) {
        RunForTarget<Kernel, half>(t, args);
    } else {
        RunForTarget<Kernel, bfloat16_t>(t, args);
    }
}

}  // namespace xent

// What both kernel entries do before the work: read the tiling from GM word by word
// (every access an ordinary, bounds-checked GM read) and pick the template instance
// from its dtype and target-width codes (Kernel-Launch style: no TILING_KEY_IS).
#pragma once
#include "kernel_operator.h"

#include "cross_entropy_loss_grad_tiling_data.h"  // XentDtype

namespace xent {

template <class Tiling>
__aicore__ inline void ReadTiling(GM_ADDR tiling, Tiling& out) {
    constexpr int64_t kWords = sizeof(Tiling) / 8;
    static_assert(sizeof(Tiling) % 8 == 0, "read as int64 words");
    AscendC::GlobalTensor<int64_t> words;
    words.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(tiling), kWords);
    union {
        Tiling data;
        int64_t word[kWords];
    } u;
    for (int64_t i = 0; i < kWords; ++i) u.word[i] = words.GetValue(static_cast<uint64_t>(i));
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

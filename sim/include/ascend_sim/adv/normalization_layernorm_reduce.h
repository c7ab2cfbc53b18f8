// The row sums and row broadcasts LayerNorm and WelfordFinalize share
// (asc-devkit impl/adv_api/detail/normalization/layernorm/
// layernorm_common_basic_impl.h LayerNormReduceSumImpl, BroadcastLastDim).
#pragma once
#include <cstdint>

#include "../kernel_sync.h"
#include "../kernel_vec_binary.h"
#include "../kernel_vec_compare.h"
#include "../kernel_vec_mask.h"
#include "../kernel_vec_reduce_repeat.h"
#include "../kernel_vec_scalar.h"

namespace AscendC {
namespace sim_adv {
namespace lnorm {

constexpr uint32_t floatsPerRepeat = 64;

// Row sums of bs rows of h floats in Normal mode: each row's 64-float blocks
// (and a partial last one) added into its first in place, then one vcadd a row,
// into compact[i] (with relocate) and into strided[i * h]. Ends in Counter mode.
template <bool relocate = true>
void reduce_sum(const LocalTensor<float>& compact, const LocalTensor<float>& strided, const LocalTensor<float>& src,
                uint32_t bs, uint32_t h) {
    ResetMask();
    SetMaskNorm();
    const BinaryRepeatParams fold(1, 1, 1, 0, 8, 0);
    if (h > floatsPerRepeat) {
        const uint32_t whole = h / floatsPerRepeat - 1, rest = h % floatsPerRepeat;
        for (uint32_t i = 0; i < bs * h; i += h) {
            if (rest == 0 || whole > 0) {
                Add(src[i], src[i + floatsPerRepeat], src[i], floatsPerRepeat, uint8_t(whole), fold);
                PipeBarrier<PIPE_V>();
            }
            if (rest != 0) {
                Add(src[i], src[i + h / floatsPerRepeat * floatsPerRepeat], src[i], int32_t(rest), 1, fold);
                PipeBarrier<PIPE_V>();
            }
        }
    }
    const int32_t len = int32_t(h > floatsPerRepeat ? floatsPerRepeat : h);
    const int32_t srcRep = int32_t(h / 8);
    for (uint32_t done = 0; done < bs; done += MAX_REPEAT_TIMES) {
        const uint32_t n = bs - done < MAX_REPEAT_TIMES ? bs - done : MAX_REPEAT_TIMES;
        if constexpr (relocate)
            WholeReduceSum<float>(compact[done], src[done * h], len, int32_t(n), 1, DEFAULT_BLK_STRIDE, srcRep);
        WholeReduceSum<float>(strided[done * h], src[done * h], len, int32_t(n), int32_t(h), DEFAULT_BLK_STRIDE,
                              srcRep);
        PipeBarrier<PIPE_V>();
    }
    SetMaskCount();
}

// dst row i (h floats) = src[i * h], in Counter mode: CMPMASK holds the value
// and a selMask zeroed in src's own first bytes picks the scalar for every
// element (Select mode 1). src's first h halfwords are clobbered, as there.
inline void broadcast_last_dim(const LocalTensor<float>& dst, const LocalTensor<float>& src, uint32_t bs,
                               uint32_t h) {
    // SetCmpMask loads 16 B, of which Select mode 1 takes the first float, and
    // the selMask is src's first h halfwords times 0: the bytes past src[0]
    // count as defined so that the initcheck reports only reads reaching a result.
    auto load = [](const LocalTensor<float>& at) {
        ascend_sim::detail::ub_written("SetCmpMask", at[1].GetPhyAddr(), 12);
        SetCmpMask<float>(at);
    };
    SetVectorMask<uint8_t, MaskMode::COUNTER>(0, h);
    load(src);
    PipeBarrier<PIPE_V>();
    if (h > 2) ascend_sim::detail::ub_written("Muls", src[1].GetPhyAddr(), uint64_t(h) * 2 - 4);
    const LocalTensor<int16_t> bits = src.ReinterpretCast<int16_t>();
    Muls<int16_t, false>(bits, bits, int16_t(0), MASK_PLACEHOLDER, 1, UnaryRepeatParams{});
    PipeBarrier<PIPE_V>();
    const LocalTensor<uint16_t> sel = bits.ReinterpretCast<uint16_t>();
    Select<float, uint16_t>(dst, sel, dst, 1, BinaryRepeatParams{});
    PipeBarrier<PIPE_V>();
    for (uint32_t i = 1; i < bs; ++i) {
        load(src[i * h]);
        PipeBarrier<PIPE_V>();
        Select<float, uint16_t>(dst[i * h], sel, dst, 1, BinaryRepeatParams{});
        PipeBarrier<PIPE_V>();
    }
}

}  // namespace lnorm
}  // namespace sim_adv
}  // namespace AscendC

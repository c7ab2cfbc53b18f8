// Small device helpers shared by the kernel's parts.
#pragma once
#include "kernel_operator.h"

#include "cross_entropy_loss_grad_tiling_data.h"

namespace xent {

template <class A, class B>
struct SameType {
    static constexpr bool value = false;
};
template <class A>
struct SameType<A, A> {
    static constexpr bool value = true;
};

// Scalar conversions of one staged element to fp32 (exact for all three).
__aicore__ inline float ToF32(float v) { return v; }
__aicore__ inline float ToF32(half v) { return static_cast<float>(v); }
// bf16 through ToFloat: on the device bfloat16_t need not convert with a cast
// (CANN 8.x scalar API; 9.x keeps it as a deprecated name of the scalar Cast).
__aicore__ inline float ToF32(bfloat16_t v) { return AscendC::ToFloat(v); }

// A launch's GM element counts: rows, classes, and a value per row (reduction none) or
// one (mean/sum).
struct GmSizes {
    uint64_t n, c, perRowOrOne;
};
template <class Tiling>
__aicore__ inline GmSizes SizesOf(const Tiling& t) {
    const uint64_t n = static_cast<uint64_t>(t.n);
    return GmSizes{n, static_cast<uint64_t>(t.c), t.reduction == XENT_NONE ? n : 1};
}

// One Set/Wait pair: the dst pipe of E waits for everything its src pipe issued so far.
template <AscendC::HardEvent E>
__aicore__ inline void WaitPipe(AscendC::TPipe& pipe) {
    const AscendC::TEventID id = pipe.FetchEventID(E);
    AscendC::SetFlag<E>(id);
    AscendC::WaitFlag<E>(id);
}

// The smallest row whose target is neither ignoreIndex nor in [0, classTotal).
struct BadRowTracker {
    int64_t row = kNoBadRow;
    int64_t target = 0;
    __aicore__ inline void Note(int64_t r, int64_t t) {
        if (row == kNoBadRow || r < row) {
            row = r;
            target = t;
        }
    }
};

// Smallest bad row a core saw -> its own 32-byte slot {row, target, 0, 0}, through a
// 32-byte UB block (after the block's last copy out).
__aicore__ inline void WriteBadRowSlot(AscendC::TPipe& pipe, const AscendC::LocalTensor<int64_t>& slot,
                                       const AscendC::GlobalTensor<int64_t>& slots, int64_t core,
                                       const BadRowTracker& bad) {
    WaitPipe<AscendC::HardEvent::MTE3_S>(pipe);
    slot.SetValue(0, bad.row);
    slot.SetValue(1, bad.target);
    slot.SetValue(2, int64_t(0));
    slot.SetValue(3, int64_t(0));
    WaitPipe<AscendC::HardEvent::S_MTE3>(pipe);
    AscendC::DataCopyPad(slots[core * (kSlotBytes / 8)], slot,
                         AscendC::DataCopyExtParams(1, static_cast<uint32_t>(kSlotBytes), 0, 0, 0));
}

// Whether a row contributes; out-of-range targets are noted and treated as ignored.
// dst[i] = src[index[i]] for n whole-number float indices into src: a Gather at byte
// offsets 4 index[i], which overwrite index.
__aicore__ inline void GatherAtFloatIndex(const AscendC::LocalTensor<float>& dst, const AscendC::LocalTensor<float>& src,
                                          const AscendC::LocalTensor<float>& index, int32_t n) {
    AscendC::Muls(index, index, 4.0f, n);
    AscendC::PipeBarrier<PIPE_V>();
    const AscendC::LocalTensor<int32_t> bytes = index.template ReinterpretCast<int32_t>();
    AscendC::Cast(bytes, index, AscendC::RoundMode::CAST_RINT, n);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Gather(dst, src, bytes.template ReinterpretCast<uint32_t>(), 0, static_cast<uint32_t>(n));
}

__aicore__ inline bool RowIsLive(int64_t ignoreIndex, int64_t classes, int64_t row, int64_t target,
                                 BadRowTracker& bad) {
    if (target == ignoreIndex) return false;
    if (target < 0 || target >= classes) {
        bad.Note(row, target);
        return false;
    }
    return true;
}

__aicore__ inline bool RowIsLive(const CrossEntropyLossGradTilingData& t, int64_t row, int64_t target,
                                 BadRowTracker& bad) {
    return RowIsLive(t.ignoreIndex, t.classTotal, row, target, bad);
}

// weight[target]: from the UB copy when the whole weight is resident (a scalar UB
// read), else one scalar GM read. The caller keeps the UB copy ordered before the
// reads (MTE2_S after its load).
struct TargetWeights {
    AscendC::GlobalTensor<float> gm;
    AscendC::LocalTensor<float> ub;
    bool resident = false;
    __aicore__ inline float At(int64_t target) const {
        return resident ? ub.GetValue(static_cast<uint32_t>(target)) : gm.GetValue(static_cast<uint64_t>(target));
    }
    // The whole weight (classes floats) into `into`, ready for the scalar unit's reads.
    __aicore__ inline void MakeResident(const AscendC::LocalTensor<float>& into, int64_t classes,
                                        AscendC::TPipe& pipe) {
        ub = into;
        resident = true;
        AscendC::DataCopyPad(ub, gm, AscendC::DataCopyExtParams(1, static_cast<uint32_t>(classes * 4), 0, 0, 0),
                             AscendC::DataCopyPadExtParams<float>(false, 0, 0, 0.0f));
        WaitPipe<AscendC::HardEvent::MTE2_S>(pipe);
    }
};

}  // namespace xent

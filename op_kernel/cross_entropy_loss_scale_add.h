// p = p * scale + add in one FusedMulAdd (dst = src0 * dst + src1) instead of a Muls and
// then an Adds or Axpy: each of those reads and writes one UB bank, two beats a repeat
// by the bank rules of 避免bank冲突（NPU架构版本2201）.md, so the fused pass saves one.
// src0 is a 256-byte block of scale read again by every repeat (repeat stride 0); src1
// another of -smooth, or a tensor read element for element that holds -smooth * w_j.
// The blocks are rewritten only when their value changes.
#pragma once
#include "kernel_operator.h"

namespace xent {

// The same bytes as another type of their size.
template <class To, class From>
__aicore__ inline To BitCast(From v) {
    static_assert(sizeof(To) == sizeof(From), "same size");
    union {
        From from;
        To to;
    } b{v};
    return b.to;
}

// A float's bits: +0 and -0 apart (they scale and add differently), NaNs by payload.
__aicore__ inline uint32_t FloatBits(float f) { return BitCast<uint32_t>(f); }

class ScaleAddBlocks {
public:
    // blocks: 2 x 64 floats of UB that nothing else writes while this is in use.
    __aicore__ inline void Init(const AscendC::LocalTensor<float>& blocks) { blocks_ = blocks; }

    // p = p * scale - smooth over count elements; a smooth of +0 keeps the Muls alone.
    __aicore__ inline void Apply(const AscendC::LocalTensor<float>& p, float scale, float smooth, int32_t count) {
        if (FloatBits(smooth) == 0) {
            AscendC::Muls(p, p, scale, count);
            return;
        }
        SetBlocks(scale, true, smooth);
        Fma(p, blocks_[kLanes], false, count);
    }

    // p = p * scale + sw element for element over count elements (sw holds -smooth * w_j).
    __aicore__ inline void ApplyTensor(const AscendC::LocalTensor<float>& p, float scale,
                                       const AscendC::LocalTensor<float>& sw, int32_t count) {
        SetBlocks(scale, false, 0.0f);
        Fma(p, sw, true, count);
    }

private:
    static constexpr int32_t kLanes = 64;  // fp32 lanes of one repeat

    __aicore__ inline void SetBlocks(float scale, bool withSmooth, float smooth) {
        const bool newScale = !scaleSet_ || FloatBits(scale) != scaleBits_;
        const bool newSmooth = withSmooth && (!smoothSet_ || FloatBits(smooth) != smoothBits_);
        if (newScale || newSmooth) {
            AscendC::PipeBarrier<PIPE_V>();  // the last FusedMulAdd's reads of the blocks
            if (newScale) AscendC::Duplicate(blocks_, scale, kLanes);
            if (newSmooth) AscendC::Duplicate(blocks_[kLanes], -smooth, kLanes);
            AscendC::PipeBarrier<PIPE_V>();
        }
        scaleSet_ = true;
        scaleBits_ = FloatBits(scale);
        if (withSmooth) {
            smoothSet_ = true;
            smoothBits_ = FloatBits(smooth);
        }
    }

    __aicore__ inline void Fma(const AscendC::LocalTensor<float>& p, const AscendC::LocalTensor<float>& add,
                               bool perElement, int32_t count) {
        const AscendC::BinaryRepeatParams params(1, 1, 1, 8, 0, perElement ? 8 : 0);
        constexpr int32_t kMaxRepeats = 255;
        int32_t at = 0;
        for (int32_t left = count / kLanes; left > 0;) {
            const int32_t repeats = left < kMaxRepeats ? left : kMaxRepeats;
            AscendC::FusedMulAdd(p[at], blocks_, perElement ? add[at] : add, static_cast<uint64_t>(kLanes),
                                 static_cast<uint8_t>(repeats), params);
            at += repeats * kLanes;
            left -= repeats;
        }
        if (count % kLanes != 0)
            AscendC::FusedMulAdd(p[at], blocks_, perElement ? add[at] : add, static_cast<uint64_t>(count % kLanes), 1,
                                 params);
    }

    AscendC::LocalTensor<float> blocks_;
    bool scaleSet_ = false, smoothSet_ = false;
    uint32_t scaleBits_ = 0, smoothBits_ = 0;
};

}  // namespace xent

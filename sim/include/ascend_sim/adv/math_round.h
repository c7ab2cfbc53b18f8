// Ceil, Trunc and Frac (asc-devkit include/adv_api/math/ceil.h, trunc.h, frac.h; dav_c220:
// impl/adv_api/detail/math/ceil/ceil_common_impl.h :: CeilImpl, CeilProcess;
// ceil_v220_impl.h :: CeilProcess (float); trunc/trunc_common_impl.h ::
// TruncImpl, TruncCompute; trunc_v220_impl.h :: TruncCastForTrunc): Counter-mode
// chunks of the tmp's elements (half: half of them, both rounded down to 32),
// a float-to-float Cast with the rounding mode, half widened into tmp first
// and narrowed back (CAST_NONE). Ceil.md: src, dst and the tmp pairwise
// disjoint; Trunc.md (trunc_check_common.h): only the tmp disjoint from both,
// src and dst may overlap (Fmod truncates in place). Frac (frac/frac_common_impl.h :: FracImpl, FracCompute;
// frac_v220_impl.h :: TruncCastForFrac): x - trunc(x), float in one pass
// without tmp, half in chunks through two float slices of tmp; Frac.md: src
// and dst disjoint.
#pragma once
#include <cstdint>
#include <type_traits>

#include "../kernel_sync.h"
#include "../kernel_tpipe.h"
#include "../kernel_vec_binary.h"
#include "../kernel_vec_cast.h"
#include "../kernel_vec_mask.h"
#include "adv_check.h"

namespace AscendC {
namespace sim_adv {

template <RoundMode mode>
void round_chunk(const LocalTensor<float>& dst, const LocalTensor<float>& src, const LocalTensor<uint8_t>&) {
    Cast<float, float, false>(dst, src, mode, MASK_PLACEHOLDER, 1,
                              {1, 1, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE});
    PipeBarrier<PIPE_V>();
}
// half has no rounding Cast to itself: through float in tmp.
template <RoundMode mode>
void round_chunk(const LocalTensor<half>& dst, const LocalTensor<half>& src, const LocalTensor<uint8_t>& tmp) {
    const LocalTensor<float> wide = tmp.ReinterpretCast<float>();
    Cast<float, half, false>(wide, src, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1,
                             {1, 1, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE / 2});
    PipeBarrier<PIPE_V>();
    round_chunk<mode>(wide, wide, tmp);
    Cast<half, float, false>(dst, wide, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1,
                             {1, 1, DEFAULT_REPEAT_STRIDE / 2, DEFAULT_REPEAT_STRIDE});
    PipeBarrier<PIPE_V>();
}

template <RoundMode mode, class T>
void round_api(const char* api, const char* getter, const LocalTensor<T>& dst, const LocalTensor<T>& src,
               const LocalTensor<uint8_t>& tmp, uint32_t count) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "Ceil/Trunc: A2/A3 support half and float");
    check_count(api, count, src, "srcTensor");
    check_count(api, count, dst, "dstTensor");
    if (mode != RoundMode::CAST_TRUNC) check_disjoint(api, src, count, "srcTensor", dst, count, "dstTensor");
    check_tmp(api, tmp, 256 * (sizeof(T) == 2 ? 2 : 1), getter);
    check_disjoint(api, tmp, tmp.GetSize(), "sharedTmpBuffer", src, count, "srcTensor");
    check_disjoint(api, tmp, tmp.GetSize(), "sharedTmpBuffer", dst, count, "dstTensor");
    uint32_t split = tmp.GetSize() / sizeof(T);
    split = (sizeof(T) == 2 ? split / 2 : split) / ONE_BLK_SIZE * ONE_BLK_SIZE;
    const uint32_t loops = count / split, tail = count % split;
    SetMaskCount();
    SetVectorMask<T, MaskMode::COUNTER>(0, split);
    for (uint32_t i = 0; i < loops; ++i) round_chunk<mode>(dst[i * split], src[i * split], tmp);
    if (tail > 0) {
        SetVectorMask<T>(0, tail);
        round_chunk<mode>(dst[loops * split], src[loops * split], tmp);
    }
    SetMaskNorm();
    ResetMask();
}

// dst = src - trunc(src) over the elements the Counter-mode mask holds.
inline void frac_chunk(const LocalTensor<float>& dst, const LocalTensor<float>& src, const LocalTensor<float>&,
                       uint32_t) {
    round_chunk<RoundMode::CAST_TRUNC>(dst, src, {});
    Sub<float, false>(dst, src, dst, MASK_PLACEHOLDER, 1, BinaryRepeatParams{});
    PipeBarrier<PIPE_V>();
}
inline void frac_chunk(const LocalTensor<half>& dst, const LocalTensor<half>& src, const LocalTensor<float>& tmp,
                       uint32_t slice) {
    const LocalTensor<float> wide = tmp, whole = tmp[slice];
    Cast<float, half, false>(wide, src, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1,
                             {1, 1, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE / 2});
    PipeBarrier<PIPE_V>();
    frac_chunk(whole, wide, tmp, slice);
    Cast<half, float, false>(dst, whole, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1,
                             {1, 1, DEFAULT_REPEAT_STRIDE / 2, DEFAULT_REPEAT_STRIDE});
    PipeBarrier<PIPE_V>();
}

}  // namespace sim_adv

template <typename T, bool isReuseSource = false>
void Ceil(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
          const uint32_t calCount) {
    sim_adv::round_api<RoundMode::CAST_CEIL>("Ceil", "GetCeilMaxMinTmpSize", dstTensor, srcTensor, sharedTmpBuffer,
                                             calCount);
}
template <typename T, bool isReuseSource = false>
void Ceil(const LocalTensor<T>&, const LocalTensor<T>&, const uint32_t) {
    ASCEND_SIM_NEEDS_TMP("Ceil");
}
template <typename T, bool isReuseSource = false>
void Trunc(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
           const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
    sim_adv::round_api<RoundMode::CAST_TRUNC>("Trunc", "GetTruncMaxMinTmpSize", dstTensor, srcTensor,
                                              sharedTmpBuffer, calCount);
}
template <typename T, bool isReuseSource = false>
void Trunc(const LocalTensor<T>&, const LocalTensor<T>&, const uint32_t) {
    ASCEND_SIM_NEEDS_TMP("Trunc");
}

template <typename T, bool isReuseSource = false>
void Frac(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "Frac: A2/A3 support half and float");
    constexpr const char* api = "Frac";
    sim_adv::check_count(api, calCount, srcTensor, "srcTensor");
    sim_adv::check_count(api, calCount, dstTensor, "dstTensor");
    sim_adv::check_disjoint(api, srcTensor, calCount, "srcTensor", dstTensor, calCount, "dstTensor");
    // GetFracMaxMinTmpSize: 4 x 256 B for half (two float slices), none for float.
    uint32_t slice = 0, rounds = 1, tail = 0;
    if constexpr (sizeof(T) == 2) {
        sim_adv::check_tmp(api, sharedTmpBuffer, 4 * 256, "GetFracMaxMinTmpSize");
        slice = sharedTmpBuffer.GetSize() / sizeof(float) / 2 / ONE_BLK_SIZE * ONE_BLK_SIZE;
        rounds = calCount / slice;
        tail = calCount % slice;
    }
    const LocalTensor<float> tmp = sharedTmpBuffer.ReinterpretCast<float>();
    SetMaskCount();
    SetVectorMask<half, MaskMode::COUNTER>(0, sizeof(T) == 2 ? slice : calCount);
    uint32_t offset = 0;
    for (uint32_t i = 0; i < rounds; ++i, offset += slice)
        sim_adv::frac_chunk(dstTensor[offset], srcTensor[offset], tmp, slice);
    if (tail != 0) {
        SetVectorMask<half, MaskMode::COUNTER>(0, tail);
        sim_adv::frac_chunk(dstTensor[offset], srcTensor[offset], tmp, slice);
    }
    SetMaskNorm();
    ResetMask();
}
// frac.h: without calCount all of srcTensor; without sharedTmpBuffer the
// stack buffer (FracImpl pops it with PopStackBuffer<uint8_t, TPosition::LCM>).
template <typename T, bool isReuseSource = false>
void Frac(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer) {
    Frac<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize());
}
template <typename T, bool isReuseSource = false>
void Frac(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount) {
    LocalTensor<uint8_t> stack;
    PopStackBuffer<uint8_t, TPosition::LCM>(stack);
    Frac<T, isReuseSource>(dstTensor, srcTensor, stack, calCount);
}
template <typename T, bool isReuseSource = false>
void Frac(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {
    Frac<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize());
}

}  // namespace AscendC

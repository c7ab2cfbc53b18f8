// AscendAntiQuant, int8_t or int4b_t to half or bfloat16_t (asc-devkit
// include/adv_api/quantization/ascend_antiquant.h; A2: impl/adv_api/detail/
// quantization/antiquant/ascend_antiquant_impl.h AscendAntiQuantImpl,
// AscendAntiQuantNoTranspose, AntiQuantNoTransposeImplScalar, AntiQuantImplScalar,
// AntiQuantOuterLoop/InnerLoop, AscendAntiQuantFP16Transpose; ascend_antiquant_c220_impl.h
// PreCast, AscendAntiQuantNoTransposePerformance(Tail), AntiQuantCheckPerformanceMode,
// AscendAntiQuantBF16Transpose, CalcN64ByBrcb, the bfloat16_t inner loops;
// checks: api_check/.../antiquant_check_common.h). dst = (src + offset) x scale.
// Without transpose src is [K, N] and a channel is a column; transposed it is
// [N, K] and a channel is a row. half is computed in half (Cast, Add, Mul);
// bfloat16_t in float through the sharedTmpBuffer, rounded back with CAST_RINT.
// Each branch runs the real code's sequence of basic vector ops, so its
// strides, masks and tmp use are checked as issued.
#pragma once
#include <cstdint>
#include <type_traits>

#include "../kernel_sync.h"
#include "../kernel_vec_binary.h"
#include "../kernel_vec_cast.h"
#include "../kernel_vec_mask.h"
#include "../kernel_vec_scalar.h"
#include "adv_check.h"

namespace AscendC {

// ascend_antiquant_utils.h: the offset and scale shapes when their ShapeInfo is not used (0: use it).
struct AntiQuantShapeInfo {
    uint32_t offsetHeight{0};
    uint32_t offsetWidth{0};
    uint32_t scaleHeight{0};
    uint32_t scaleWidth{0};
};

namespace sim_adv {

constexpr const char* kAntiQuant = "AscendAntiQuant";

// A shape dimension of offset/scale: shapeInfo's when set, else the tensor's ShapeInfo.
template <class T>
uint32_t antiquant_dim(const LocalTensor<T>& t, uint32_t given, uint32_t dim, const char* role, const char* field) {
    if (given != 0) return given;
    const uint32_t v = t.GetShapeInfo().shape[dim];
    if (v == 0)
        d::fail(kAntiQuant, "no shape", "%s has no shape[%u] (SetShapeInfo on it, or pass shapeInfo.%s)", role, dim,
                field);
    return v;
}

// A repeat of 128 halves reads 128 B of int8_t, 64 B of int4b_t.
template <class S>
UnaryRepeatParams antiquant_cast_src_params() {
    UnaryRepeatParams p;
    p.srcRepStride = ascend_sim::is_nibble_v<S> ? DEFAULT_REPEAT_STRIDE / 4 : DEFAULT_REPEAT_STRIDE / 2;
    return p;
}

// ---- the element-wise loops (AntiQuantInnerLoop / AntiQuantOuterLoop) ----

// half, offset/scale tensors of calCount elements.
template <class S, bool withOffset>
void antiquant_inner(const LocalTensor<half>& dst, const LocalTensor<S>& src, const LocalTensor<half>& offset,
                     const LocalTensor<half>& scale, uint32_t calCount) {
    SetVectorMask<half, MaskMode::COUNTER>(0, calCount);
    Cast<half, S, false>(dst, src, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, antiquant_cast_src_params<S>());
    PipeBarrier<PIPE_V>();
    if constexpr (withOffset) {
        Add<half, false>(dst, offset, dst, MASK_PLACEHOLDER, 1, BinaryRepeatParams{});
        PipeBarrier<PIPE_V>();
    }
    Mul<half, false>(dst, scale, dst, MASK_PLACEHOLDER, 1, BinaryRepeatParams{});
    PipeBarrier<PIPE_V>();
}
// half, scalars.
template <class S, bool withOffset>
void antiquant_inner(const LocalTensor<half>& dst, const LocalTensor<S>& src, half offset, half scale,
                     uint32_t calCount) {
    SetVectorMask<half, MaskMode::COUNTER>(0, calCount);
    Cast<half, S, false>(dst, src, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, antiquant_cast_src_params<S>());
    PipeBarrier<PIPE_V>();
    if constexpr (withOffset) {
        Adds<half, false>(dst, dst, offset, MASK_PLACEHOLDER, 1, UnaryRepeatParams{});
        PipeBarrier<PIPE_V>();
    }
    Muls<half, false>(dst, dst, scale, MASK_PLACEHOLDER, 1, UnaryRepeatParams{});
    PipeBarrier<PIPE_V>();
}

// bfloat16_t: src -> half at tmp[2c], -> float at tmp[0]; the float offset/scale at tmp[4c].
template <class S, bool withOffset>
void antiquant_inner_bf16(const LocalTensor<bfloat16_t>& dst, const LocalTensor<S>& src,
                          const LocalTensor<bfloat16_t>& offset, const LocalTensor<bfloat16_t>& scale,
                          const LocalTensor<uint8_t>& tmp, uint32_t calCount) {
    const LocalTensor<half> wide16 = tmp[calCount * 2].ReinterpretCast<half>();
    const LocalTensor<float> factor = tmp[calCount * 4].ReinterpretCast<float>();
    const LocalTensor<float> acc = tmp.ReinterpretCast<float>();
    UnaryRepeatParams toF32, toDst;
    toF32.srcRepStride = DEFAULT_REPEAT_STRIDE / 2;
    toDst.dstRepStride = DEFAULT_REPEAT_STRIDE / 2;
    SetVectorMask<float, MaskMode::COUNTER>(0, calCount);
    Cast<half, S, false>(wide16, src, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, antiquant_cast_src_params<S>());
    PipeBarrier<PIPE_V>();
    Cast<float, half, false>(acc, wide16, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, toF32);
    PipeBarrier<PIPE_V>();
    if constexpr (withOffset) {
        Cast<float, bfloat16_t, false>(factor, offset, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, toF32);
        PipeBarrier<PIPE_V>();
        Add<float, false>(acc, acc, factor, MASK_PLACEHOLDER, 1, BinaryRepeatParams{});
        PipeBarrier<PIPE_V>();
    }
    Cast<float, bfloat16_t, false>(factor, scale, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, toF32);
    PipeBarrier<PIPE_V>();
    Mul<float, false>(acc, acc, factor, MASK_PLACEHOLDER, 1, BinaryRepeatParams{});
    PipeBarrier<PIPE_V>();
    Cast<bfloat16_t, float, false>(dst, acc, RoundMode::CAST_RINT, MASK_PLACEHOLDER, 1, toDst);
    PipeBarrier<PIPE_V>();
}
template <class S, bool withOffset>
void antiquant_inner_bf16(const LocalTensor<bfloat16_t>& dst, const LocalTensor<S>& src, bfloat16_t offset,
                          bfloat16_t scale, const LocalTensor<uint8_t>& tmp, uint32_t calCount) {
    const LocalTensor<half> wide16 = tmp[calCount * 2].ReinterpretCast<half>();
    const LocalTensor<float> acc = tmp.ReinterpretCast<float>();
    UnaryRepeatParams toF32, toDst;
    toF32.srcRepStride = DEFAULT_REPEAT_STRIDE / 2;
    toDst.dstRepStride = DEFAULT_REPEAT_STRIDE / 2;
    SetVectorMask<float, MaskMode::COUNTER>(0, calCount);
    Cast<half, S, false>(wide16, src, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, antiquant_cast_src_params<S>());
    PipeBarrier<PIPE_V>();
    Cast<float, half, false>(acc, wide16, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, toF32);
    PipeBarrier<PIPE_V>();
    if constexpr (withOffset) {
        Adds<float, false>(acc, acc, ToFloat(offset), MASK_PLACEHOLDER, 1, UnaryRepeatParams{});
        PipeBarrier<PIPE_V>();
    }
    Muls<float, false>(acc, acc, ToFloat(scale), MASK_PLACEHOLDER, 1, UnaryRepeatParams{});
    PipeBarrier<PIPE_V>();
    Cast<bfloat16_t, float, false>(dst, acc, RoundMode::CAST_RINT, MASK_PLACEHOLDER, 1, toDst);
    PipeBarrier<PIPE_V>();
}

// AntiQuantOuterLoop: half in one go; bfloat16_t in chunks of tmp / 8 B (offset and
// scale tensors are not advanced with the chunks, as in the real loop).
template <class S, class D, bool withOffset, class P>
void antiquant_outer(const LocalTensor<D>& dst, const LocalTensor<S>& src, const P& offset, const P& scale,
                     const LocalTensor<uint8_t>& tmp, uint32_t calCount) {
    if constexpr (std::is_same_v<D, half>) {
        antiquant_inner<S, withOffset>(dst, src, offset, scale, calCount);
    } else {
        const uint32_t chunk = tmp.GetSize() / sizeof(D) / 4;
        if (chunk == 0)
            d::fail(kAntiQuant, "sharedTmpBuffer too small",
                    "sharedTmpBuffer holds %u B; a bfloat16_t output needs at least 8 B per element of a pass "
                    "(GetAscendAntiQuantMaxMinTmpSize)",
                    tmp.GetSize());
        uint32_t off = 0;
        for (; off + chunk <= calCount; off += chunk)
            antiquant_inner_bf16<S, withOffset>(dst[off], src[off], offset, scale, tmp, chunk);
        if (off < calCount) antiquant_inner_bf16<S, withOffset>(dst[off], src[off], offset, scale, tmp, calCount - off);
    }
}

// ---- no transpose, per channel: the "performance" branch ----

// half: rows of dst (already cast) in 128-column strips, offset/scale rows repeated (src1 stride 0).
inline void antiquant_perf_rows(const LocalTensor<half>& dst, const LocalTensor<half>& offset,
                                const LocalTensor<half>& scale, uint32_t rows, uint32_t n) {
    BinaryRepeatParams p;
    p.src0RepStride = uint8_t(n * sizeof(half) / ONE_BLK_SIZE);
    p.src1RepStride = 0;
    p.dstRepStride = uint8_t(n * sizeof(half) / ONE_BLK_SIZE);
    SetMaskCount();
    SetVectorMask<half, MaskMode::COUNTER>(0, 128 * rows);
    for (uint32_t c = 0; c + 128 <= n; c += 128) {
        Add<half, false>(dst[c], dst[c], offset[c], MASK_PLACEHOLDER, uint8_t(rows), p);
        PipeBarrier<PIPE_V>();
        Mul<half, false>(dst[c], dst[c], scale[c], MASK_PLACEHOLDER, uint8_t(rows), p);
        PipeBarrier<PIPE_V>();
    }
    SetMaskNorm();
    ResetMask();
}
inline void antiquant_perf_tail(const LocalTensor<half>& dst, const LocalTensor<half>& offset,
                                const LocalTensor<half>& scale, uint32_t rows, uint32_t n, uint32_t cols) {
    BinaryRepeatParams p;
    p.src0RepStride = uint8_t(n * sizeof(half) / ONE_BLK_SIZE);
    p.src1RepStride = 0;
    p.dstRepStride = uint8_t(n * sizeof(half) / ONE_BLK_SIZE);
    SetMaskNorm();
    SetVectorMask<half, MaskMode::NORMAL>(cols);
    Add<half, false>(dst, dst, offset, MASK_PLACEHOLDER, uint8_t(rows), p);
    PipeBarrier<PIPE_V>();
    Mul<half, false>(dst, dst, scale, MASK_PLACEHOLDER, uint8_t(rows), p);
    PipeBarrier<PIPE_V>();
    ResetMask();
}

// bfloat16_t: the float offset at tmp[0] and scale at tmp[4n]; per 64-column
// strip the int8 rows cast to half at tmp[8n + 128 rows], to float at tmp[8n].
template <class S>
void antiquant_perf_strip_bf16(const LocalTensor<bfloat16_t>& dst, const LocalTensor<S>& src,
                               const LocalTensor<uint8_t>& tmp, uint32_t rows, uint32_t n, uint32_t col,
                               uint32_t cols, bool tail) {
    const uint32_t accPos = n * sizeof(float) * 2, widePos = accPos + 64 * rows * sizeof(half);
    const LocalTensor<half> wide16 = tmp[widePos].ReinterpretCast<half>();
    const LocalTensor<float> acc = tmp[accPos].ReinterpretCast<float>();
    const LocalTensor<float> offsetF = tmp[col * sizeof(float)].ReinterpretCast<float>();
    const LocalTensor<float> scaleF = tmp[n * sizeof(float) + col * sizeof(float)].ReinterpretCast<float>();
    UnaryRepeatParams fromS, toF32, toDst;
    fromS.srcRepStride = uint8_t(ascend_sim::elem_bytes<S>(n) / ONE_BLK_SIZE);
    fromS.dstRepStride = DEFAULT_REPEAT_STRIDE / 2;
    toF32.srcRepStride = DEFAULT_REPEAT_STRIDE / 2;
    toDst.dstRepStride = uint8_t(n * sizeof(bfloat16_t) / ONE_BLK_SIZE);
    BinaryRepeatParams p;
    p.src1RepStride = 0;
    SetMaskNorm();
    SetVectorMask<half, MaskMode::NORMAL>(cols);
    Cast<half, S, false>(wide16, src[col], RoundMode::CAST_NONE, MASK_PLACEHOLDER, uint8_t(rows), fromS);
    PipeBarrier<PIPE_V>();
    if (!tail) {
        SetMaskCount();
        SetVectorMask<float, MaskMode::COUNTER>(0, 64 * rows);
    }
    Cast<float, half, false>(acc, wide16, RoundMode::CAST_NONE, MASK_PLACEHOLDER, uint8_t(rows), toF32);
    PipeBarrier<PIPE_V>();
    Add<float, false>(acc, acc, offsetF, MASK_PLACEHOLDER, uint8_t(rows), p);
    PipeBarrier<PIPE_V>();
    Mul<float, false>(acc, acc, scaleF, MASK_PLACEHOLDER, uint8_t(rows), p);
    PipeBarrier<PIPE_V>();
    Cast<bfloat16_t, float, false>(dst[col], acc, RoundMode::CAST_RINT, MASK_PLACEHOLDER, uint8_t(rows), toDst);
    PipeBarrier<PIPE_V>();
}

template <class S>
void antiquant_precast(const LocalTensor<half>& dst, const LocalTensor<S>& src, const LocalTensor<half>&,
                       const LocalTensor<half>&, const LocalTensor<uint8_t>&) {
    const uint32_t n = src.GetSize();
    SetMaskCount();
    SetVectorMask<half, MaskMode::COUNTER>(0, n);
    Cast<half, S, false>(dst, src, RoundMode::CAST_NONE, MASK_PLACEHOLDER,
                         ascend_sim::is_nibble_v<S> ? uint8_t(1) : uint8_t((n + 255) / 256),
                         antiquant_cast_src_params<S>());
    PipeBarrier<PIPE_V>();
}
template <class S>
void antiquant_precast(const LocalTensor<bfloat16_t>&, const LocalTensor<S>&, const LocalTensor<bfloat16_t>& offset,
                       const LocalTensor<bfloat16_t>& scale, const LocalTensor<uint8_t>& tmp) {
    const uint32_t n = offset.GetSize();
    UnaryRepeatParams toF32;
    toF32.srcRepStride = DEFAULT_REPEAT_STRIDE / 2;
    SetMaskCount();
    SetVectorMask<half, MaskMode::COUNTER>(0, n);
    const uint8_t reps = uint8_t((n + 127) / 128);
    Cast<float, bfloat16_t, false>(tmp.ReinterpretCast<float>(), offset, RoundMode::CAST_NONE, MASK_PLACEHOLDER, reps,
                                   toF32);
    PipeBarrier<PIPE_V>();
    Cast<float, bfloat16_t, false>(tmp[n * sizeof(float)].ReinterpretCast<float>(), scale, RoundMode::CAST_NONE,
                                   MASK_PLACEHOLDER, reps, toF32);
    PipeBarrier<PIPE_V>();
}

// `rows` rows starting at dst / src (at most 255: one repeat per row).
template <class S, class D>
void antiquant_perf_block(const LocalTensor<D>& dst, const LocalTensor<S>& src, const LocalTensor<D>& offset,
                          const LocalTensor<D>& scale, const LocalTensor<uint8_t>& tmp, uint32_t rows, uint32_t n) {
    if constexpr (std::is_same_v<D, half>) {
        const uint32_t aligned = n / 128 * 128;
        antiquant_perf_rows(dst, offset, scale, rows, n);
        if (aligned < n) antiquant_perf_tail(dst[aligned], offset[aligned], scale[aligned], rows, n, n - aligned);
    } else {
        const uint32_t aligned = n / 64 * 64;
        for (uint32_t c = 0; c < aligned; c += 64) antiquant_perf_strip_bf16(dst, src, tmp, rows, n, c, 64, false);
        SetMaskNorm();
        ResetMask();
        if (aligned < n) {
            antiquant_perf_strip_bf16(dst, src, tmp, rows, n, aligned, n - aligned, true);
            ResetMask();
        }
    }
}

template <class S, class D>
void antiquant_no_transpose(const LocalTensor<D>& dst, const LocalTensor<S>& src, const LocalTensor<D>& offset,
                            const LocalTensor<D>& scale, const LocalTensor<uint8_t>& tmp, uint32_t k,
                            const AntiQuantShapeInfo& info) {
    const uint32_t n = src.GetSize() / k;
    // AntiQuantCheckPerformanceMode: bfloat16_t needs the float offset/scale and a 64-column strip.
    const bool perf = std::is_same_v<D, half> ||
                      tmp.GetSize() >= scale.GetSize() * 2 * sizeof(float) + 64 * k * sizeof(float);
    if (perf) {
        antiquant_precast(dst, src, offset, scale, tmp);
        for (uint32_t r = 0; r < k; r += 255) {
            const uint32_t rows = k - r < 255 ? k - r : 255;
            antiquant_perf_block(dst[r * n], src[r * n], offset, scale, tmp, rows, n);
        }
        return;
    }
    // AntiQuantNoTransposeImplScalar: the first offset/scale row, for K / groups rows.
    const uint32_t groups = antiquant_dim(scale, info.scaleHeight, 0, "scale", "scaleHeight");
    SetMaskCount();
    for (uint32_t j = 0; j < k / groups; ++j)
        antiquant_outer<S, D, true>(dst[j * n], src[j * n], offset, scale, tmp, n);
}

// Scale only, no transpose: row r of a group of K / groups rows takes scale row r / (K / groups).
template <class S, class D>
void antiquant_no_transpose_scale(const LocalTensor<D>& dst, const LocalTensor<S>& src, const LocalTensor<D>& scale,
                                  const LocalTensor<uint8_t>& tmp, uint32_t k, const AntiQuantShapeInfo& info) {
    const uint32_t groups = antiquant_dim(scale, info.scaleHeight, 0, "scale", "scaleHeight");
    const uint32_t n = antiquant_dim(scale, info.scaleWidth, 1, "scale", "scaleWidth");
    const uint32_t rows = k / groups;
    SetMaskCount();
    for (uint32_t g = 0; g < groups; ++g)
        for (uint32_t j = 0; j < rows; ++j)
            antiquant_outer<S, D, false>(dst[(g * rows + j) * n], src[(g * rows + j) * n], scale, scale[g * n], tmp,
                                         n);
    SetMaskNorm();
    ResetMask();
}

// ---- transposed: src [N, K]; the scalar fallback (AntiQuantImplScalar) ----

template <class S, class D, bool withOffset>
void antiquant_rows_scalar(const LocalTensor<D>& dst, const LocalTensor<S>& src, const LocalTensor<D>& offset,
                           const LocalTensor<D>& scale, const LocalTensor<uint8_t>& tmp, uint32_t k,
                           const AntiQuantShapeInfo& info) {
    const uint32_t n = src.GetSize() / k;
    const uint32_t width = withOffset ? antiquant_dim(offset, info.offsetWidth, 1, "offset", "offsetWidth")
                                      : antiquant_dim(scale, info.scaleWidth, 1, "scale", "scaleWidth");
    const uint32_t group = k / width, perRow = k / group;
    SetMaskCount();
    for (uint32_t i = 0; i < n; ++i)
        for (uint32_t j = 0; j < perRow; ++j) {
            const D s = scale.GetValue(i * perRow + j);
            const D o = withOffset ? offset.GetValue(i * perRow + j) : s;
            antiquant_outer<S, D, withOffset>(dst[i * k + j * group], src[i * k + j * group], o, s, tmp, group);
            PipeBarrier<PIPE_V>();
        }
}

// half: offset/scale broadcast to a 16-element block per channel (Brcb), then
// 128-column strips of every row (Counter mode) and the K % 128 tail columns (Normal).
template <bool withOffset>
void antiquant_fp16_t_strips(const LocalTensor<half>& dst, const LocalTensor<half>& scaleB,
                             const LocalTensor<half>& offsetB, uint32_t n, uint32_t k) {
    const uint8_t rep = uint8_t(k * sizeof(half) / ONE_BLK_SIZE);
    const BinaryRepeatParams p(1, 1, 0, rep, rep, 1);
    if (k >= 128) {
        SetMaskCount();
        SetVectorMask<half, MaskMode::COUNTER>(0, n * 128);
        for (uint32_t c = 0; c + 128 <= k; c += 128) {
            if constexpr (withOffset) {
                Add<half, false>(dst[c], dst[c], offsetB, MASK_PLACEHOLDER, uint8_t(n), p);
                PipeBarrier<PIPE_V>();
            }
            Mul<half, false>(dst[c], dst[c], scaleB, MASK_PLACEHOLDER, uint8_t(n), p);
            PipeBarrier<PIPE_V>();
        }
    }
    const uint32_t tailK = k % 128;
    if (tailK == 0) return;
    const LocalTensor<half> t = dst[k - tailK];
    SetMaskNorm();
    SetVectorMask<half, MaskMode::NORMAL>(tailK);
    for (uint32_t r = 0; r < n; r += 255) {
        const uint32_t reps = n - r < 255 ? n - r : 255;
        if constexpr (withOffset) {
            Add<half, false>(t[r * k], t[r * k], offsetB[r * 16], MASK_PLACEHOLDER, uint8_t(reps), p);
            PipeBarrier<PIPE_V>();
        }
        Mul<half, false>(t[r * k], t[r * k], scaleB[r * 16], MASK_PLACEHOLDER, uint8_t(reps), p);
        PipeBarrier<PIPE_V>();
    }
}

template <class S, bool withOffset>
void antiquant_fp16_transpose(const LocalTensor<half>& dst, const LocalTensor<S>& src, const LocalTensor<half>& offset,
                              const LocalTensor<half>& scale, const LocalTensor<uint8_t>& tmp, uint32_t k,
                              const AntiQuantShapeInfo& info) {
    const uint32_t channels = antiquant_dim(scale, info.scaleHeight, 0, "scale", "scaleHeight");
    const uint32_t need = 16 * channels * (withOffset ? 2 : 1);
    if (tmp.GetSize() / sizeof(half) < need || k >= 4096)
        return antiquant_rows_scalar<S, half, withOffset>(dst, src, offset, scale, tmp, k, info);
    SetMaskCount();
    SetVectorMask<half, MaskMode::COUNTER>(0, src.GetSize());
    Cast<half, S, false>(dst, src, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, antiquant_cast_src_params<S>());
    PipeBarrier<PIPE_V>();
    const LocalTensor<half> stack = tmp.ReinterpretCast<half>();
    const LocalTensor<half> scaleB = stack, offsetB = stack[16 * channels];
    // AntiQuantFp16Brcb: whole groups of 8 channels.
    const uint8_t reps = uint8_t(channels / 8);
    SetMaskNorm();
    ResetMask();
    Brcb(scaleB, scale, reps, BrcbRepeatParams(DEFAULT_BLK_STRIDE, DEFAULT_REPEAT_STRIDE));
    PipeBarrier<PIPE_V>();
    if constexpr (withOffset) {
        Brcb(offsetB, offset, reps, BrcbRepeatParams(DEFAULT_BLK_STRIDE, DEFAULT_REPEAT_STRIDE));
        PipeBarrier<PIPE_V>();
    }
    antiquant_fp16_t_strips<withOffset>(dst, scaleB, offsetB, src.GetSize() / k, k);
}

// bfloat16_t (CalcN64ByBrcb): float offset [0, 8N), scale [8N, 16N) as 8-float
// blocks per channel, the 64-column strip of every row in float at [16N, ...).
template <class S, bool withOffset>
void antiquant_bf16_transpose(const LocalTensor<bfloat16_t>& dst, const LocalTensor<S>& src,
                              const LocalTensor<bfloat16_t>& offset, const LocalTensor<bfloat16_t>& scale,
                              const LocalTensor<uint8_t>& tmp, uint32_t k, const AntiQuantShapeInfo& info) {
    if (k > 255 * 8 || k % 64 != 0)
        return antiquant_rows_scalar<S, bfloat16_t, withOffset>(dst, src, offset, scale, tmp, k, info);
    // int8_t keeps the sizes of the tensors, int4b_t takes the channels from the shape
    const uint32_t ch = ascend_sim::is_nibble_v<S> ? antiquant_dim(scale, info.scaleHeight, 0, "scale", "scaleHeight")
                                                   : scale.GetSize();
    const uint32_t rows = ascend_sim::is_nibble_v<S> ? ch : src.GetSize() / k, strips = k / 64;
    check_tmp(kAntiQuant, tmp, ch * (64 + 16) * uint32_t(sizeof(float)), "GetAscendAntiQuantMaxMinTmpSize");
    const LocalTensor<float> stack = tmp.ReinterpretCast<float>();
    const LocalTensor<float> offsetB = stack, scaleB = stack[8 * ch], acc = stack[16 * ch];
    UnaryRepeatParams fromS, toF32, toDst;
    fromS.srcRepStride = uint8_t(ascend_sim::is_nibble_v<S> ? strips : 2 * strips);
    fromS.dstRepStride = DEFAULT_REPEAT_STRIDE / 2;
    toF32.srcRepStride = DEFAULT_REPEAT_STRIDE / 2;
    toDst.dstRepStride = uint8_t(4 * strips);
    BinaryRepeatParams p;
    p.src1BlkStride = 0;
    p.src1RepStride = 1;
    SetMaskCount();
    // CastAndBrcb: cast into the last eighth, broadcast to the whole.
    const uint32_t at = 7 * offset.GetSize();
    SetVectorMask<half, MaskMode::COUNTER>(0, ch);
    if constexpr (withOffset) {
        Cast<float, bfloat16_t, false>(offsetB[at], offset, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, toF32);
        PipeBarrier<PIPE_V>();
    }
    Cast<float, bfloat16_t, false>(scaleB[at], scale, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, toF32);
    PipeBarrier<PIPE_V>();
    const uint8_t brcbReps = uint8_t((ch + 7) / 8);
    SetMaskNorm();
    ResetMask();
    if constexpr (withOffset) {
        Brcb(offsetB, offsetB[at], brcbReps, BrcbRepeatParams(1, 8));
        PipeBarrier<PIPE_V>();
    }
    Brcb(scaleB, scaleB[at], brcbReps, BrcbRepeatParams(1, 8));
    PipeBarrier<PIPE_V>();
    const LocalTensor<half> wide16 = acc[32 * ch].ReinterpretCast<half>();
    for (uint32_t s = 0; s < strips; ++s) {
        SetMaskNorm();
        SetVectorMask<half, MaskMode::NORMAL>(0, ~uint64_t(0));
        Cast<half, S, false>(wide16, src[64 * s], RoundMode::CAST_NONE, MASK_PLACEHOLDER, uint8_t(ch), fromS);
        PipeBarrier<PIPE_V>();
        Cast<float, half, false>(acc, wide16, RoundMode::CAST_NONE, MASK_PLACEHOLDER, uint8_t(ch), toF32);
        PipeBarrier<PIPE_V>();
        SetMaskCount();
        SetVectorMask<float, MaskMode::COUNTER>(0, 64 * ch);
        if constexpr (withOffset) {
            Add<float, false>(acc, acc, offsetB, MASK_PLACEHOLDER, uint8_t(ch), p);
            PipeBarrier<PIPE_V>();
        }
        Mul<float, false>(acc, acc, scaleB, MASK_PLACEHOLDER, uint8_t(ch), p);
        PipeBarrier<PIPE_V>();
        SetMaskNorm();
        SetVectorMask<float, MaskMode::NORMAL>(0, ~uint64_t(0));
        Cast<bfloat16_t, float, false>(dst[64 * s], acc, RoundMode::CAST_RINT, MASK_PLACEHOLDER, uint8_t(rows), toDst);
        PipeBarrier<PIPE_V>();
    }
}

template <class S, class D, bool isTranspose>
void antiquant_check(const LocalTensor<D>& dst, const LocalTensor<S>& src, uint32_t k) {
    static_assert(std::is_same_v<S, int8_t> || ascend_sim::is_nibble_v<S>,
                  "AscendAntiQuant: InputDataType must be int8_t or int4b_t");
    static_assert(std::is_same_v<D, half> || std::is_same_v<D, bfloat16_t>,
                  "AscendAntiQuant: OutputDataType must be half or bfloat16_t");
    if (k == 0) d::fail(kAntiQuant, "K is 0", "k must be above 0");
    if (src.GetSize() % k != 0)
        d::fail(kAntiQuant, "K does not divide src", "src's %u elements are not a whole number of rows of k %u",
                src.GetSize(), k);
    if (isTranspose && k * sizeof(S) % ONE_BLK_SIZE != 0)
        d::fail(kAntiQuant, "K unaligned", "with isTranspose true k x sizeof(InputDataType) is %u; it must be a "
                "multiple of 32", unsigned(k * sizeof(S)));
    check_count(kAntiQuant, src.GetSize(), dst, "dst");
}
template <class D>
void antiquant_check_shape(const LocalTensor<D>& t, uint32_t h, uint32_t w, const char* role, const char* fields) {
    if (h * w > t.GetSize())
        d::fail(kAntiQuant, "shapeInfo beyond tensor", "shapeInfo.%s give %u elements, more than %s's size %u", fields,
                h * w, role, t.GetSize());
}

}  // namespace sim_adv

// offset and scale tensors.
template <typename InputDataType, typename OutputDataType, bool isTranspose>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const LocalTensor<OutputDataType>& offset, const LocalTensor<OutputDataType>& scale,
                     const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                     const AntiQuantShapeInfo& shapeInfo = {}) {
    namespace a = sim_adv;
    a::antiquant_check<InputDataType, OutputDataType, isTranspose>(dst, src, k);
    a::antiquant_check_shape(scale, shapeInfo.scaleHeight, shapeInfo.scaleWidth, "scale", "scaleHeight x scaleWidth");
    a::antiquant_check_shape(offset, shapeInfo.offsetHeight, shapeInfo.offsetWidth, "offset",
                             "offsetHeight x offsetWidth");
    if constexpr (!isTranspose)
        a::antiquant_no_transpose(dst, src, offset, scale, sharedTmpBuffer, k, shapeInfo);
    else if constexpr (std::is_same_v<OutputDataType, half>)
        a::antiquant_fp16_transpose<InputDataType, true>(dst, src, offset, scale, sharedTmpBuffer, k, shapeInfo);
    else
        a::antiquant_bf16_transpose<InputDataType, true>(dst, src, offset, scale, sharedTmpBuffer, k, shapeInfo);
    SetMaskNorm();
    ResetMask();
}
// scale tensor only.
template <typename InputDataType, typename OutputDataType, bool isTranspose>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const LocalTensor<OutputDataType>& scale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                     const uint32_t k, const AntiQuantShapeInfo& shapeInfo = {}) {
    namespace a = sim_adv;
    a::antiquant_check<InputDataType, OutputDataType, isTranspose>(dst, src, k);
    a::antiquant_check_shape(scale, shapeInfo.scaleHeight, shapeInfo.scaleWidth, "scale", "scaleHeight x scaleWidth");
    if constexpr (!isTranspose)
        a::antiquant_no_transpose_scale(dst, src, scale, sharedTmpBuffer, k, shapeInfo);
    else if constexpr (std::is_same_v<OutputDataType, half>)
        a::antiquant_fp16_transpose<InputDataType, false>(dst, src, scale, scale, sharedTmpBuffer, k, shapeInfo);
    else
        a::antiquant_bf16_transpose<InputDataType, false>(dst, src, scale, scale, sharedTmpBuffer, k, shapeInfo);
    SetMaskNorm();
    ResetMask();
}
// offset and scale scalars (per tensor): the same loop whether transposed or not.
template <typename InputDataType, typename OutputDataType, bool isTranspose>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const OutputDataType offset, const OutputDataType scale,
                     const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                     const AntiQuantShapeInfo& shapeInfo = {}) {
    (void)shapeInfo;
    sim_adv::antiquant_check<InputDataType, OutputDataType, isTranspose>(dst, src, k);
    SetMaskCount();
    sim_adv::antiquant_outer<InputDataType, OutputDataType, true>(dst, src, offset, scale, sharedTmpBuffer,
                                                                  src.GetSize());
    SetMaskNorm();
    ResetMask();
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const OutputDataType scale, const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                     const AntiQuantShapeInfo& shapeInfo = {}) {
    (void)shapeInfo;
    sim_adv::antiquant_check<InputDataType, OutputDataType, isTranspose>(dst, src, k);
    SetMaskCount();
    sim_adv::antiquant_outer<InputDataType, OutputDataType, false>(dst, src, scale, scale, sharedTmpBuffer,
                                                                   src.GetSize());
    SetMaskNorm();
    ResetMask();
}
// Without sharedTmpBuffer: the stack tmp.
template <typename InputDataType, typename OutputDataType, bool isTranspose>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const LocalTensor<OutputDataType>& offset, const LocalTensor<OutputDataType>& scale,
                     const uint32_t k, const AntiQuantShapeInfo& shapeInfo = {}) {
    AscendAntiQuant<InputDataType, OutputDataType, isTranspose>(dst, src, offset, scale,
                                                                sim_adv::stack_tmp(sim_adv::kAntiQuant), k, shapeInfo);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const OutputDataType offset, const OutputDataType scale, const uint32_t k,
                     const AntiQuantShapeInfo& shapeInfo = {}) {
    AscendAntiQuant<InputDataType, OutputDataType, isTranspose>(dst, src, offset, scale,
                                                                sim_adv::stack_tmp(sim_adv::kAntiQuant), k, shapeInfo);
}

}  // namespace AscendC

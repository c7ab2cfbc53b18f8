// Broadcast of a 1-D or 2-D tensor (asc-devkit include/adv_api/pad/broadcast.h;
// dav_c220: impl/adv_api/detail/pad/broadcast/broadcast_common_impl.h ::
// BroadCastCommon, BroadCastCompute, TwoDimBroadCastFirstDim;
// broadcast_v220_impl.h :: TwoDimBroadCastLastDim, BrcbToOneBlock,
// TwoDimBroadCastLastDimAlign220 / NotAlign220, NoBroad;
// broadcast_common_utils.h :: TwoDimBroadCastDimAlign, LoopBroadCast):
// equal sizes a Counter-mode Copy, one source element a Duplicate, axis 1
// (a column to rows) Brcb + strided Copy (+ GatherMask when a row is not
// 32 B aligned), axis 0 (a row to rows) Or with a zero block. 1-byte types go
// through half in the sharedTmpBuffer. Axis 1 reads the column 8 elements a
// Brcb repeat, so up to the next multiple of 8 of it must be initialised. The
// BroadcastTiling form is 3510-only.
#pragma once
#include <cstdint>
#include <type_traits>

#include "../kernel_sync.h"
#include "../kernel_tpipe.h"
#include "../kernel_vec_binary.h"
#include "../kernel_vec_cast.h"
#include "../kernel_vec_gather_mask.h"
#include "../kernel_vec_mask.h"
#include "../kernel_vec_ops.h"
#include "../kernel_vec_scalar.h"
#include "adv_check.h"

namespace AscendC {
namespace sim_adv {

// Each of the first `rows` source elements into a block of tmp (Brcb, 8 a repeat).
template <class T>
void brc_to_blocks(const LocalTensor<T>& src, uint32_t rows, const LocalTensor<T>& tmp) {
    constexpr uint32_t perBlock = ONE_BLK_SIZE / sizeof(T);
    const uint32_t repeats = (rows + 7) / 8, maxRepeats = sizeof(T) == sizeof(float) ? 255 : 254;
    uint32_t done = 0;
    for (; done + maxRepeats <= repeats; done += maxRepeats)
        Brcb(tmp[done * 8 * perBlock], src[done * 8], uint8_t(maxRepeats), {1, DEFAULT_REPEAT_STRIDE});
    if (repeats > done) Brcb(tmp[done * 8 * perBlock], src[done * 8], uint8_t(repeats - done), {1, DEFAULT_REPEAT_STRIDE});
    PipeBarrier<PIPE_V>();
}

// Copies each row's block across `width` elements of `dst` (rows of `rowElems`).
template <class T>
void brc_copy_rows(const LocalTensor<T>& dst, const LocalTensor<T>& blocks, uint32_t rows, uint32_t width,
                   uint32_t rowElems) {
    constexpr uint32_t perBlock = ONE_BLK_SIZE / sizeof(T);
    SetVectorMask<T, MaskMode::COUNTER>(width);
    const CopyRepeatParams params(1, 0, uint16_t(rowElems / perBlock), 1);
    uint32_t r = 0;
    for (; r + MAX_REPEAT_TIMES <= rows; r += MAX_REPEAT_TIMES)
        Copy<T, false>(dst[r * rowElems], blocks[r * perBlock], MASK_PLACEHOLDER, MAX_REPEAT_TIMES, params);
    if (rows > r) Copy<T, false>(dst[r * rowElems], blocks[r * perBlock], MASK_PLACEHOLDER, uint8_t(rows - r), params);
    PipeBarrier<PIPE_V>();
}

// Axis 1: dst[rows][width] = src[rows], in chunks of rows the tmp holds.
template <class T>
void brc_last_dim(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t rows,
                  uint32_t width, const LocalTensor<T>& tmp) {
    constexpr uint32_t perBlock = ONE_BLK_SIZE / sizeof(T);
    const bool aligned = width % perBlock == 0;
    const uint32_t widthAlign = (width + perBlock - 1) / perBlock * perBlock;
    // GetAlignLoopNumbers / GetNotAlignLoopNumbers: a block per row, plus the padded rows when not aligned.
    const uint32_t minElems = perBlock * perBlock + (aligned ? 0 : perBlock * widthAlign);
    if (tmp.GetSize() < minElems)
        d::fail(api, "sharedTmpBuffer below the minimum",
                "sharedTmpBuffer holds %u elements, less than the %u the axis-1 broadcast of rows of %u needs",
                tmp.GetSize(), minElems, width);
    const uint32_t chunk = tmp.GetSize() / minElems * perBlock;
    for (uint32_t r = 0; r < rows; r += chunk) {
        const uint32_t n = rows - r < chunk ? rows - r : chunk;
        brc_to_blocks(src[r], n, tmp);
        if (aligned) {
            brc_copy_rows(dst[r * width], tmp, n, width, width);
            continue;
        }
        const LocalTensor<T> padded = tmp[n * perBlock];
        brc_copy_rows(padded, tmp, n, widthAlign, widthAlign);
        uint64_t rsvdCnt = 0;
        GatherMask(dst[r * width], padded, uint8_t(7), true, width,
                   GatherMaskParams(1, uint16_t(n), uint16_t(widthAlign / perBlock), 0), rsvdCnt);
        SetMaskCount();
        PipeBarrier<PIPE_V>();
    }
}

// Axis 0: dst[rows][width] = src[width], ORing src with a zero block into each row.
template <class T>
void brc_first_dim(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t rows,
                   uint32_t width, const LocalTensor<T>& tmp) {
    constexpr uint32_t perBlock = ONE_BLK_SIZE / sizeof(T);
    if (width % perBlock != 0)
        d::fail(api, "row not 32 B aligned", "axis 0: dstShape[1] %u of %zu-byte elements is not a multiple of 32 B",
                width, sizeof(T));
    const LocalTensor<uint16_t> zero = tmp.template ReinterpretCast<uint16_t>();
    Duplicate(zero, uint16_t(0), int32_t(ONE_BLK_SIZE / sizeof(uint16_t)));
    PipeBarrier<PIPE_V>();
    const LocalTensor<uint16_t> s = src.template ReinterpretCast<uint16_t>();
    const uint32_t halfWords = sizeof(T) / sizeof(uint16_t);
    if (width >= 255 * perBlock) {  // LoopBroadCast: a Counter-mode Or a row
        SetMaskCount();
        SetVectorMask<T, MaskMode::COUNTER>(width * halfWords);
        for (uint32_t r = 0; r < rows; ++r)
            Or<uint16_t, false>(dst[r * width].template ReinterpretCast<uint16_t>(), s, zero, MASK_PLACEHOLDER, 1,
                                BinaryRepeatParams(1, 1, 0, 8, 8, 0));
        PipeBarrier<PIPE_V>();
        return;
    }
    // TwoDimBroadCastDimAlign: 8 rows an Or, a block of each row a repeat.
    const uint8_t repeats = uint8_t(width / perBlock);
    const BinaryRepeatParams params(uint8_t(width * halfWords / 16), 0, 0, 1, 1, 0);
    SetMaskNorm();
    for (uint32_t r = 0; r < rows; r += 8) {
        const uint32_t n = rows - r < 8 ? rows - r : 8;
        SetVectorMask<uint16_t, MaskMode::NORMAL>(n * 16);
        Or<uint16_t, false>(dst[r * width].template ReinterpretCast<uint16_t>(), s, zero, MASK_PLACEHOLDER, repeats,
                            params);
    }
    PipeBarrier<PIPE_V>();
}

template <class T, int32_t dim, int32_t axis>
void brc_compute(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t* dstShape,
                 const uint32_t* srcShape, const LocalTensor<T>& tmp) {
    uint32_t srcSize = 1, dstSize = 1;
    for (int32_t i = 0; i < dim; ++i) srcSize *= srcShape[i], dstSize *= dstShape[i];
    if (srcSize == dstSize) {  // NoBroad
        SetVectorMask<T, MaskMode::COUNTER>(dstSize);
        Copy<T, false>(dst, src, MASK_PLACEHOLDER, 1, {1, 1, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE});
        PipeBarrier<PIPE_V>();
    } else if (srcSize == 1) {
        const TEventID toScalar = GetTPipePtr()->FetchEventID(HardEvent::V_S);
        SetFlag<HardEvent::V_S>(toScalar);
        WaitFlag<HardEvent::V_S>(toScalar);
        const T scalar = src.GetValue(0);
        const TEventID toVector = GetTPipePtr()->FetchEventID(HardEvent::S_V);
        SetFlag<HardEvent::S_V>(toVector);
        WaitFlag<HardEvent::S_V>(toVector);
        Duplicate(dst, scalar, int32_t(dstSize));
        PipeBarrier<PIPE_V>();
    } else if constexpr (dim == 2) {
        if constexpr (axis == 1) brc_last_dim(api, dst, src, dstShape[0], dstShape[1], tmp);
        else brc_first_dim(api, dst, src, dstShape[0], dstShape[1], tmp);
    } else {
        d::fail(api, "shape not supported", "dim %d: srcShape of %u elements is neither dstShape's %u nor 1", dim,
                srcSize, dstSize);
    }
    SetMaskCount();
}

template <class T, int32_t dim, int32_t axis>
void broadcast(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t* dstShape,
               const uint32_t* srcShape, const LocalTensor<uint8_t>& tmp) {
    constexpr const char* api = "Broadcast";
    static_assert(dim == 1 || dim == 2, "Broadcast: A2/A3 support dim 1 and 2");
    static_assert(axis == 0 || axis == 1, "Broadcast: axis is 0 or 1");
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4, "Broadcast: A2/A3 support b8, b16 and b32");
    for (int32_t i = 0; i < dim; ++i)
        if (srcShape[i] != dstShape[i] && srcShape[i] != 1)
            d::fail(api, "shapes do not broadcast", "srcShape[%d] %u is neither dstShape[%d] %u nor 1", i, srcShape[i],
                    i, dstShape[i]);
    uint32_t srcSize = 1, dstSize = 1;
    for (int32_t i = 0; i < dim; ++i) srcSize *= srcShape[i], dstSize *= dstShape[i];
    check_count(api, srcSize, src, "srcLocal");
    check_count(api, dstSize, dst, "dstLocal");
    // Broadcast.md, 约束说明: 不支持源操作数与目的操作数地址重叠 (in place too).
    check_disjoint(api, src, srcSize, "srcLocal", dst, dstSize, "dstLocal");
    if constexpr (sizeof(T) == 1) {
        // Widened to half: src, dst and the work space one after another in tmp.
        const LocalTensor<half> wide = tmp.ReinterpretCast<half>();
        const uint32_t srcAlign = (srcSize + 15) / 16 * 16, dstAlign = (dstSize + 15) / 16 * 16;
        if (tmp.GetSize() < (srcAlign + dstAlign) * sizeof(half))
            d::fail(api, "sharedTmpBuffer below the minimum",
                    "sharedTmpBuffer holds %u B, less than the %u B the half copies of src and dst take",
                    tmp.GetSize(), uint32_t((srcAlign + dstAlign) * sizeof(half)));
        const LocalTensor<half> wideSrc = wide, wideDst = wide[srcAlign], work = wideDst[dstAlign];
        SetMaskCount();
        SetVectorMask<T, MaskMode::COUNTER>(srcSize);
        Cast<half, T, false>(wideSrc, src, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1,
                             {1, 1, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE / 2});
        PipeBarrier<PIPE_V>();
        brc_compute<half, dim, axis>(api, wideDst, wideSrc, dstShape, srcShape, work);
        SetVectorMask<T, MaskMode::COUNTER>(dstSize);
        Cast<T, half, false>(dst, wideDst, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1,
                             {1, 1, DEFAULT_REPEAT_STRIDE / 2, DEFAULT_REPEAT_STRIDE});
        PipeBarrier<PIPE_V>();
    } else {
        SetMaskCount();
        brc_compute<T, dim, axis>(api, dst, src, dstShape, srcShape, tmp.ReinterpretCast<T>());
    }
    SetMaskNorm();
    ResetMask();
}

}  // namespace sim_adv

template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
               const uint32_t srcShape[dim], LocalTensor<uint8_t>& sharedTmpBuffer) {
    sim_adv::broadcast<T, dim, axis>(dstLocal, srcLocal, dstShape, srcShape, sharedTmpBuffer);
}
// Without sharedTmpBuffer: the stack buffer (BroadCastCommon pops it).
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
               const uint32_t srcShape[dim]) {
    LocalTensor<uint8_t> stack;
    PopStackBuffer<uint8_t, TPosition::LCM>(stack);
    sim_adv::broadcast<T, dim, axis>(dstLocal, srcLocal, dstShape, srcShape, stack);
}

// BroadCast: the implementation's own name (impl/adv_api/detail/pad/broadcast/
// broadcast_common_impl.h), which kernels call as well.
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
               const uint32_t srcShape[dim], LocalTensor<uint8_t>& sharedTmpBuffer) {
    Broadcast<T, dim, axis, isReuseSource>(dstLocal, srcLocal, dstShape, srcShape, sharedTmpBuffer);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
               const uint32_t srcShape[dim]) {
    Broadcast<T, dim, axis, isReuseSource>(dstLocal, srcLocal, dstShape, srcShape);
}

}  // namespace AscendC

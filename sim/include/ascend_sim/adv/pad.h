// UnPad (asc-devkit include/adv_api/pad/pad.h; dav_c220: impl/adv_api/detail/pad/
// pad/pad_v220_impl.h UnPadCompute): one Counter-mode GatherMask of the
// built-in all-elements pattern that keeps the first srcWidth - rightPad
// elements of each row, a row per repeat; A2 uses no sharedTmpBuffer.
// Pad (pad_v220_impl.h PadCompute; pad_base_impl.h AlignedPad): for 32 B
// rows a UB-to-UB DataCopy of the rows, then Duplicate of padValue under the
// mask of the right pad's lanes in each row's last block, 255 rows a
// repeat. Other rows (pad_base_impl.h UnAlignedPad) go through the
// sharedTmpBuffer's two halves as a column of 32 B rows: Brcb spreads each
// source element over a row of the first half, UB-to-UB DataCopy moves rows
// to the second (Duplicate rows of padValue at the pads), TransDataTo5HD
// transposes its 16-row blocks in place, and a DataCopy of each block's
// first row (b32: first two) writes the output row piece.
#pragma once
#include <cstdint>
#include <type_traits>

#include "../kernel_data_copy.h"
#include "../kernel_sync.h"
#include "../kernel_tpipe.h"
#include "../kernel_vec_scalar.h"
#include "../kernel_vec_gather_mask.h"
#include "../kernel_vec_mask.h"
#include "../kernel_vec_transpose.h"
#include "adv_check.h"
#include "pad_pad_params.h"
#include "pad_params.h"

namespace AscendC {
namespace sim_adv {

template <typename T>
void unaligned_pad(const LocalTensor<T>& dst, const LocalTensor<T>& src, const PadParams& pp,
                   const LocalTensor<uint8_t>& sharedTmpBuffer, const PadTiling& t) {
    constexpr const char* api = "Pad";
    constexpr uint32_t perRow = ONE_BLK_SIZE / sizeof(T);
    const uint32_t left = pp.leftPad, right = pp.rightPad, outWidth = t.srcWidth + left + right;
    // pad_check_common.h; Pad.md: the source's data 32 B aligned
    if (outWidth % perRow != 0)
        d::fail(api, "padded row not 32 B aligned",
                "(tiling.srcWidth %u + leftPad %u + rightPad %u) x %zu B is not a multiple of 32 B", t.srcWidth,
                left, right, sizeof(T));
    if (uint64_t(t.srcHeight) * t.srcWidth % perRow != 0)
        d::fail(api, "source not 32 B aligned",
                "srcHeight %u x srcWidth %u x %zu B is not a multiple of 32 B (Pad.md)", t.srcHeight, t.srcWidth,
                sizeof(T));
    const uint32_t blocks = t.tmpBuffer1BlockNum, rows = t.tmpBuffer1RowNum, tailRows = t.widthFractalTailAlingned;
    // with no blocks dav_c220's loop never ends
    if (blocks == 0)
        d::fail(api, "tiling without tmp blocks",
                "tiling.tmpBuffer1BlockNum is 0 (PadTilingFunc got stackBufferSize 0 or too little): unaligned rows "
                "need the tiling of the sharedTmpBuffer");
    check_tmp(api, sharedTmpBuffer, 2 * blocks * 16 * ONE_BLK_SIZE, "PadTilingFunc's stackBufferSize");
    const LocalTensor<T> tmp = sharedTmpBuffer.ReinterpretCast<T>();
    const LocalTensor<T> spread = tmp, column = tmp[t.tmpBuffer2Offset];
    const T value = static_cast<T>(pp.padValue);
    TransDataTo5HDParams tp;
    tp.repeatTimes = uint8_t(blocks);
    if (blocks > 1) tp.dstRepStride = tp.srcRepStride = 16;
    uint64_t list[NCHW_CONV_ADDR_LIST_SIZE];
    for (uint32_t i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i)
        list[i] = uint64_t(reinterpret_cast<uintptr_t>(column[i * perRow].GetPhyAddr()));
    uint32_t spreadRows = rows, spreadAt = rows, loads = 0;  // spread starts used up
    const uint32_t maxRep = t.maxRepeatTimes;
    auto load = [&] {
        const bool tail = loads == t.brcbFractal;
        const uint32_t reps = tail ? t.brcbFractalTailRepeatTimes : t.brcbTilingRepeatTimes;
        const uint32_t rest = tail ? t.brcbFractalTailRepeatTimesTail : t.brcbTilingRepeatTimesTail;
        const uint32_t from = loads * t.brcbTiling;
        for (uint32_t r = 0; r < reps; ++r)
            Brcb(spread[r * maxRep * 8 * perRow], src[from + r * maxRep * 8], uint8_t(maxRep), {1, 8});
        if (rest != 0)
            Brcb(spread[reps * maxRep * 8 * perRow], src[from + reps * maxRep * 8], uint8_t(rest), {1, 8});
        if (tail) spreadRows = t.brcbFractalTail;
        ++loads;
        spreadAt = 0;
    };
    auto move = [&](uint32_t& filled, uint32_t n) {
        DataCopy(column[filled * perRow], spread[spreadAt * perRow], DataCopyParams{1, uint16_t(n), 0, 0});
        spreadAt += n;
        filled += n;
    };
    for (uint32_t j = 0; j < t.srcHeight; ++j) {
        for (uint32_t i = 0; i <= t.widthFractal; ++i) {
            const bool last = i == t.widthFractal;
            uint32_t filled = 0;
            if (i == 0 && left != 0) {
                Duplicate<T, true>(column, value, perRow, uint8_t(left), 1, 1);
                filled = left;
            }
            if (last && right != 0)
                Duplicate<T, true>(column[(tailRows - right) * perRow], value, perRow, uint8_t(right), 1, 1);
            uint32_t need = last ? tailRows - filled - right : rows - filled;
            while (need != 0) {
                PipeBarrier<PIPE_V>();
                const uint32_t have = spreadRows - spreadAt;
                if (need > have) {
                    if (have != 0) {
                        move(filled, have);
                        need -= have;
                        PipeBarrier<PIPE_V>();
                    }
                    load();
                } else {
                    move(filled, need);
                    need = 0;
                }
            }
            PipeBarrier<PIPE_V>();
            // The last piece fills tailRows rows; the transposes of the rest,
            // never written or left from earlier pieces, are not copied out:
            // they count as defined so that the initcheck reports only reads
            // reaching a result.
            if (last && tailRows < rows)
                d::ub_written("TransDataTo5HD", column[tailRows * perRow].GetPhyAddr(),
                              uint64_t(rows - tailRows) * ONE_BLK_SIZE);
            TransDataTo5HD<T>(list, list, tp);
            PipeBarrier<PIPE_V>();
            const uint32_t out = j * outWidth + i * 16 * blocks;
            const uint32_t groups = last ? tailRows / 16 : blocks;
            if constexpr (sizeof(T) == 2) {
                DataCopy(dst[out], column, DataCopyParams{uint16_t(groups), 1, 15, 0});
            } else {
                if (groups != 0) DataCopy(dst[out], column, DataCopyParams{uint16_t(groups), 2, 14, 0});
                if (last && tailRows % 16 != 0)
                    DataCopy(dst[out + groups * 16], column[groups * 16 * 8], DataCopyParams{1, 1, 15, 0});
            }
        }
    }
}

}  // namespace sim_adv

template <typename T>
void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, UnPadParams& unPadParams,
           LocalTensor<uint8_t>& sharedTmpBuffer, UnPadTiling& tiling) {
    static_assert(sim_vec::one_of_v<T, uint16_t, int16_t, uint32_t, int32_t, half, float>,
                  "UnPad: A2/A3 support uint16_t, int16_t, uint32_t, int32_t, half and float");
    (void)sharedTmpBuffer;
    constexpr const char* api = "UnPad";
    namespace d = ascend_sim::detail;
    // CheckUnPadParamsClass: whole-block rows, a right pad inside the last block.
    if (tiling.srcWidth * sizeof(T) % ONE_BLK_SIZE != 0)
        d::fail(api, "row not 32 B aligned", "tiling.srcWidth %u x %u B is not a multiple of 32 B", tiling.srcWidth,
                unsigned(sizeof(T)));
    if (unPadParams.rightPad == 0 || unPadParams.rightPad * sizeof(T) >= ONE_BLK_SIZE)
        d::fail(api, "rightPad out of range", "unPadParams.rightPad %u must be above 0 and below %u (32 B)",
                unsigned(unPadParams.rightPad), unsigned(ONE_BLK_SIZE / sizeof(T)));
    GatherMaskParams p;
    p.repeatTimes = uint16_t(tiling.srcHeight);
    p.src0RepeatStride = uint16_t(tiling.srcWidth * sizeof(T) / ONE_BLK_SIZE);
    uint64_t kept = 0;
    constexpr uint8_t allElements = 7;  // REDUCEV2_MODE_SEVEN
    GatherMask(dstTensor, srcTensor, allElements, true, tiling.srcWidth - unPadParams.rightPad, p, kept);
    ResetMask();
}
// pad.h: without sharedTmpBuffer the stack buffer (PopStackBuffer), unused on A2.
template <typename T>
void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, UnPadParams& unPadParams,
           UnPadTiling& tiling) {
    LocalTensor<uint8_t> stack;
    PopStackBuffer<uint8_t, TPosition::LCM>(stack);
    UnPad(dstTensor, srcTensor, unPadParams, stack, tiling);
}

template <typename T>
void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams,
         const LocalTensor<uint8_t>& sharedTmpBuffer, PadTiling& tiling) {
    static_assert(sim_vec::one_of_v<T, int16_t, uint16_t, int32_t, uint32_t, half, float>,
                  "Pad: A2/A3 support int16_t, uint16_t, int32_t, uint32_t, half and float");
    (void)sharedTmpBuffer;
    constexpr const char* api = "Pad";
    namespace d = ascend_sim::detail;
    // pad_check_common.h
    if ((padParams.leftPad > padParams.rightPad ? padParams.leftPad : padParams.rightPad) * sizeof(T) >= ONE_BLK_SIZE)
        d::fail(api, "pad out of range", "padParams.leftPad %u / rightPad %u: each must stay below 32 B",
                unsigned(padParams.leftPad), unsigned(padParams.rightPad));
    if (tiling.srcWidth * sizeof(T) % ONE_BLK_SIZE != 0) {
        sim_adv::unaligned_pad(dstTensor, srcTensor, padParams, sharedTmpBuffer, tiling);
        return;
    }
    if (tiling.srcWidth == tiling.srcOriWidth || padParams.leftPad != 0 || padParams.rightPad == 0)
        d::fail(api, "aligned pad parameters",
                "aligned rows: tiling.srcOriWidth (%u) must differ from srcWidth (%u), leftPad (%u) be 0 and "
                "rightPad (%u) above 0",
                tiling.srcOriWidth, tiling.srcWidth, unsigned(padParams.leftPad), unsigned(padParams.rightPad));
    const uint32_t perBlock = ONE_BLK_SIZE / sizeof(T);
    DataCopy(dstTensor, srcTensor, tiling.srcHeight * tiling.srcWidth);
    PipeBarrier<PIPE_V>();
    // the right pad's lanes of the last block: rightPad bits from the first lane past srcOriWidth
    const uint64_t mask[2] = {((uint64_t(1) << padParams.rightPad) - 1)
                                  << (perBlock - (tiling.srcWidth - tiling.srcOriWidth)),
                              0};
    const T value = static_cast<T>(padParams.padValue);
    for (uint32_t i = 0; i < tiling.heightFractal; ++i)
        Duplicate<T, true>(dstTensor[i * tiling.mainLoopOffset + tiling.widthWithoutLastBlock], value, mask,
                           uint8_t(tiling.heightTiling), 1, uint8_t(tiling.blocksPerRow));
    if (tiling.heightFractalTail != 0)
        Duplicate<T, true>(dstTensor[tiling.tailBlockOffset], value, mask, uint8_t(tiling.heightFractalTail), 1,
                           uint8_t(tiling.blocksPerRow));
}
// pad.h: without sharedTmpBuffer the stack buffer (PopStackBuffer).
template <typename T>
void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams, PadTiling& tiling) {
    LocalTensor<uint8_t> stack;
    PopStackBuffer<uint8_t, TPosition::LCM>(stack);
    Pad(dstTensor, srcTensor, padParams, stack, tiling);
}

}  // namespace AscendC

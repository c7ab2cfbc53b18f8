// UnPad (asc-devkit include/adv_api/pad/pad.h; dav_c220: impl/adv_api/detail/pad/
// pad/pad_v220_impl.h UnPadCompute): one Counter-mode GatherMask of the
// built-in all-elements pattern that keeps the first srcWidth - rightPad
// elements of each row, a row per repeat; A2 uses no sharedTmpBuffer.
// Pad (pad_v220_impl.h PadCompute; pad_base_impl.h AlignedPad): for 32 B
// rows a UB-to-UB DataCopy of the rows, then Duplicate of padValue under the
// mask of the right pad's lanes in each row's last block, 255 rows a
// repeat. Rows that are not 32 B aligned take UnAlignedPad's Brcb and
// TransDataTo5HD, which the simulator does not have: refused when called.
#pragma once
#include <cstdint>
#include <type_traits>

#include "../kernel_data_copy.h"
#include "../kernel_sync.h"
#include "../kernel_tpipe.h"
#include "../kernel_vec_scalar.h"
#include "../kernel_vec_gather_mask.h"
#include "../kernel_vec_mask.h"
#include "adv_check.h"
#include "pad_pad_params.h"
#include "pad_params.h"

namespace AscendC {

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
    if (tiling.srcWidth * sizeof(T) % ONE_BLK_SIZE != 0)
        d::fail(api, "unaligned rows not modelled",
                "tiling.srcWidth %u x %zu B is not 32 B aligned: that path (UnAlignedPad) runs Brcb and "
                "TransDataTo5HD, which the simulator does not model",
                tiling.srcWidth, sizeof(T));
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

// UnPad (asc-devkit include/adv_api/pad/pad.h; dav_c220: impl/adv_api/detail/pad/
// pad/pad_v220_impl.h UnPadCompute): one Counter-mode GatherMask of the
// built-in all-elements pattern that keeps the first srcWidth - rightPad
// elements of each row, a row per repeat; A2 uses no sharedTmpBuffer.
// Pad is not modelled: its dav_c220 path copies UB to UB with DataCopy
// (and, for unaligned widths, TransDataTo5HD), neither of which the simulator has.
#pragma once
#include <cstdint>
#include <type_traits>

#include "../kernel_tpipe.h"
#include "../kernel_vec_gather_mask.h"
#include "../kernel_vec_mask.h"
#include "adv_check.h"
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

}  // namespace AscendC

// InitOutput: fills size elements of GM with value (CANN: kernel_operator_common_intf.h,
// kernel_operator_common_intf_impl.h; deprecated there in favour of Fill). As
// dav_c220 does it: Duplicate value over the PopStackBuffer UB (at most
// 255 x 32 B of it), V_MTE3, then DataCopyPad rounds of that many elements and
// a tail round.
#pragma once
#include <cstdint>

#include "kernel_data_copy.h"
#include "kernel_sync.h"
#include "kernel_tpipe.h"
#include "kernel_vec_ops.h"

namespace AscendC {

template <typename T>
void InitOutput(GlobalTensor<T> gmWorkspaceAddr, uint32_t size, T value = 0) {
    LocalTensor<T> popBuffer;
    PopStackBuffer<T, TPosition::LCM>(popBuffer);
    const uint32_t maxBurst = (255 * ONE_BLK_SIZE) / sizeof(T);  // MAX_REPEAT_TIMES blocks
    const uint32_t popSize = popBuffer.GetSize() >= maxBurst ? maxBurst : popBuffer.GetSize();
    const uint32_t rounds = size / popSize, tail = size % popSize;
    Duplicate(popBuffer, value, int32_t(popSize));
    const TEventID id = GetTPipePtr()->FetchEventID(HardEvent::V_MTE3);
    SetFlag<HardEvent::V_MTE3>(id);
    WaitFlag<HardEvent::V_MTE3>(id);
    for (uint32_t r = 0; r < rounds; ++r)
        DataCopyPad(gmWorkspaceAddr[uint64_t(r) * popSize], popBuffer,
                    DataCopyExtParams(1, uint32_t(popSize * sizeof(T)), 0, 0, 0));
    if (tail != 0)
        DataCopyPad(gmWorkspaceAddr[uint64_t(rounds) * popSize], popBuffer,
                    DataCopyExtParams(1, uint32_t(tail * sizeof(T)), 0, 0, 0));
}

}  // namespace AscendC

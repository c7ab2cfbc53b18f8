// Fill / InitGlobalMemory: size elements of GM set to value (asc-devkit
// include/adv_api/utils/init_global_memory.h; dav_c220: impl/adv_api/detail/
// utils/init_global_memory/init_global_memory_v220_impl.h ::
// InitGlobalMemoryImpl): the stack buffer (at most 255 repeats of 256 B)
// Duplicated to value, a V_MTE3 flag, DataCopyPad bursts of it to GM and a
// tail burst, then PipeBarrier<PIPE_MTE3>. A later UB use must wait on MTE3
// (the MTE3_MTE2 sync the example shows); the checks see every copy.
// init_global_memory_check_common.h: gmWorkspaceAddr non-empty, size within it.
#pragma once
#include <cstdint>

#include "../kernel_data_copy.h"
#include "../kernel_sync.h"
#include "../kernel_tpipe.h"
#include "../kernel_vec_ops.h"
#include "adv_check.h"

namespace AscendC {

template <typename T>
void InitGlobalMemory(GlobalTensor<T>& gmWorkspaceAddr, const uint64_t size, const T value) {
    constexpr const char* api = "Fill";
    if (gmWorkspaceAddr.GetSize() == 0)
        sim_adv::d::fail(api, "empty GM tensor", "gmWorkspaceAddr holds no elements (SetGlobalBuffer with its size)");
    if (size > gmWorkspaceAddr.GetSize())
        sim_adv::d::fail(api, "size beyond tensor", "size %llu is larger than gmWorkspaceAddr's size %llu",
                         (unsigned long long)size, (unsigned long long)gmWorkspaceAddr.GetSize());
    LocalTensor<T> pop;
    PopStackBuffer<T, TPosition::LCM>(pop);
    constexpr uint32_t maxBurst = MAX_REPEAT_TIMES * 256 / sizeof(T);
    const uint32_t popSize = pop.GetSize() >= maxBurst ? maxBurst : pop.GetSize();
    const uint64_t rounds = size / popSize, tail = size % popSize;
    Duplicate<T>(pop, value, int32_t(popSize));
    const TEventID toMte3 = GetTPipePtr()->FetchEventID(HardEvent::V_MTE3);
    SetFlag<HardEvent::V_MTE3>(toMte3);
    WaitFlag<HardEvent::V_MTE3>(toMte3);
    DataCopyExtParams burst;
    burst.blockCount = 1;
    burst.blockLen = uint32_t(popSize * sizeof(T));
    for (uint64_t i = 0; i < rounds; ++i) DataCopyPad(gmWorkspaceAddr[i * popSize], pop, burst);
    if (tail != 0) {
        burst.blockLen = uint32_t(tail * sizeof(T));
        DataCopyPad(gmWorkspaceAddr[rounds * popSize], pop, burst);
    }
    PipeBarrier<PIPE_MTE3>();
}
template <typename T>
void Fill(GlobalTensor<T>& gmWorkspaceAddr, const uint64_t size, const T value) {
    InitGlobalMemory<T>(gmWorkspaceAddr, size, value);
}

}  // namespace AscendC

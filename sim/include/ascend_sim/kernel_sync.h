// In-core synchronisation (SetFlag/WaitFlag, PipeBarrier, TQueSync), inter-core
// synchronisation (SyncAll), the block index, the DCache and the workspace
// (CANN: kernel_operator_sync_intf.h, kernel_operator_common_intf.h).
#pragma once
#include <cstdint>

#include "device_runtime.h"
#include "kernel_defs.h"
#include "kernel_tensor.h"

namespace AscendC {

// dst pipe waits for the src pipe's work issued before the SetFlag.
// Legal on AIV: S<->V, S<->MTE2, S<->MTE3, V<->MTE2, V<->MTE3, MTE2<->MTE3; ids 0..7.
template <HardEvent event>
void SetFlag(int32_t eventID, ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
    ascend_sim::detail::set_flag("SetFlag", uint8_t(event), eventID);
}
template <HardEvent event>
void WaitFlag(int32_t eventID, ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
    ascend_sim::detail::wait_flag("WaitFlag", uint8_t(event), eventID);
}

// Orders work within one pipe; PIPE_ALL drains every pipe.
template <pipe_t pipe>
void PipeBarrier(ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
    static_assert(pipe != PIPE_S, "PipeBarrier<PIPE_S> is not allowed (the scalar pipe is in order)");
    ascend_sim::detail::pipe_barrier("PipeBarrier", int(pipe));
}

namespace sim_sync {
constexpr HardEvent event_of(pipe_t src, pipe_t dst) {
    return (src == PIPE_S && dst == PIPE_V)         ? HardEvent::S_V
           : (src == PIPE_V && dst == PIPE_S)       ? HardEvent::V_S
           : (src == PIPE_S && dst == PIPE_MTE2)    ? HardEvent::S_MTE2
           : (src == PIPE_MTE2 && dst == PIPE_S)    ? HardEvent::MTE2_S
           : (src == PIPE_S && dst == PIPE_MTE3)    ? HardEvent::S_MTE3
           : (src == PIPE_MTE3 && dst == PIPE_S)    ? HardEvent::MTE3_S
           : (src == PIPE_V && dst == PIPE_MTE2)    ? HardEvent::V_MTE2
           : (src == PIPE_MTE2 && dst == PIPE_V)    ? HardEvent::MTE2_V
           : (src == PIPE_V && dst == PIPE_MTE3)    ? HardEvent::V_MTE3
           : (src == PIPE_MTE3 && dst == PIPE_V)    ? HardEvent::MTE3_V
           : (src == PIPE_MTE2 && dst == PIPE_MTE3) ? HardEvent::MTE2_MTE3
           : (src == PIPE_MTE3 && dst == PIPE_MTE2) ? HardEvent::MTE3_MTE2
                                                    : HardEvent::MAX;
}
}  // namespace sim_sync

template <pipe_t src, pipe_t dst>
class TQueSync {
public:
    static_assert(sim_sync::event_of(src, dst) != HardEvent::MAX,
                  "TQueSync: not a legal AIV pipe pair (S<->V, S<->MTE2, S<->MTE3, V<->MTE2, V<->MTE3, MTE2<->MTE3)");
    void SetFlag(TEventID id, ASCEND_SIM_SITE) { ASCEND_SIM_ENTER; ascend_sim::detail::set_flag("TQueSync::SetFlag", uint8_t(sim_sync::event_of(src, dst)), id); }
    void WaitFlag(TEventID id, ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
        ascend_sim::detail::wait_flag("TQueSync::WaitFlag", uint8_t(sim_sync::event_of(src, dst)), id);
    }
};

inline int64_t GetBlockIdx(ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
    const int64_t b = ascend_sim::detail::block_idx_or_none();
    if (b < 0) ascend_sim::detail::fail("GetBlockIdx", "outside a kernel", "called outside a kernel launch");
    return b;
}
inline int64_t GetBlockNum(ASCEND_SIM_SITE) { ASCEND_SIM_ENTER; return ascend_sim::detail::block_num("GetBlockNum"); }

// Hard inter-core barrier: needs blockDim <= the SoC's vector cores. Acts as
// PipeBarrier<PIPE_ALL> inside the block.
template <bool isAIVOnly = true>
void SyncAll(ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
    if (!isAIVOnly)
        ascend_sim::detail::fail("SyncAll", "isAIVOnly must be true",
                                 "SyncAll<false> in an AIV kernel waits for cube cores that never arrive (hang)");
    ascend_sim::detail::sync_all("SyncAll");
}
// Soft barrier through a zeroed GM workspace of >= GetBlockNum()*32 bytes and
// a UB workspace of >= GetBlockNum()*32 bytes.
template <bool isAIVOnly = true>
void SyncAll(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
             const int32_t usedCores = 0, ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
    ascend_sim::detail::sync_all_soft("SyncAll", gmWorkspace.gm_ref(), gmWorkspace.GetSize() * sizeof(int32_t),
                                      ubWorkspace.ub_ref(), usedCores);
}

namespace sim_sync {
// The flag of (blockIdx, eventID): int32 index blockNum * 8 * eventID + blockIdx * 8,
// blockNum doubled for a mixed kernel's layout (two AIV per core).
inline void ib_flag(const char* api, bool set, bool aivOnly, const GlobalTensor<int32_t>& gm,
                    const LocalTensor<int32_t>& ub, int32_t blockIdx, int32_t eventID) {
    const int64_t blockNum = GetBlockNum() * (aivOnly ? 1 : 2);
    const int64_t at = blockNum * 8 * eventID + int64_t(blockIdx) * 8;
    ascend_sim::detail::ib_flag(api, set, gm.gm_ref(uint64_t(at)), ub.ub_ref(), blockIdx, eventID);
}
}  // namespace sim_sync

// Inter-block flags in a zeroed GM workspace (ib_sync.cpp): IBSet waits until the
// flag of (blockIdx, eventID) is down and raises it; IBWait waits until it is up
// and lowers it. Both act as PipeBarrier<PIPE_ALL> before and after; accesses
// before an IBSet are ordered before those after the IBWait that sees it.
template <bool isAIVOnly = true>
void IBSet(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace, int32_t blockIdx,
           int32_t eventID, ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
    sim_sync::ib_flag("IBSet", true, isAIVOnly, gmWorkspace, ubWorkspace, blockIdx, eventID);
}
template <bool isAIVOnly = true>
void IBWait(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace, int32_t blockIdx,
            int32_t eventID, ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
    sim_sync::ib_flag("IBWait", false, isAIVOnly, gmWorkspace, ubWorkspace, blockIdx, eventID);
}

// Blocks in index order (ib_sync.cpp): the GM workspace holds GetBlockNum() x 32 B,
// the UB workspace GetBlockNum() x 32 + 32 B (the round counter after the slots).
inline void InitDetermineComputeWorkspace(GlobalTensor<int32_t>& gmWorkspace, LocalTensor<int32_t>& ubWorkspace, ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
    ascend_sim::detail::determine_sync("InitDetermineComputeWorkspace", ascend_sim::detail::DetermineStep::INIT,
                                       gmWorkspace.gm_ref(), ubWorkspace.ub_ref());
}
// Waits until every block before this one has notified in this round.
inline void WaitPreBlock(GlobalTensor<int32_t>& gmWorkspace, LocalTensor<int32_t>& ubWorkspace, ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
    ascend_sim::detail::determine_sync("WaitPreBlock", ascend_sim::detail::DetermineStep::WAIT, gmWorkspace.gm_ref(),
                                       ubWorkspace.ub_ref());
}
inline void NotifyNextBlock(GlobalTensor<int32_t>& gmWorkspace, LocalTensor<int32_t>& ubWorkspace, ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
    ascend_sim::detail::determine_sync("NotifyNextBlock", ascend_sim::detail::DetermineStep::NOTIFY,
                                       gmWorkspace.gm_ref(), ubWorkspace.ub_ref());
}

// The super-kernel early start between two fused operators: dav_c220 raises or
// waits for a cross-core flag only in a super-kernel build
// (__ASCENDC_SUPERKERNEL_EARLY_START_*) or with FORCE. A launch here is one
// operator, run after the previous launch has ended and before the next one
// starts, so there is no neighbour task to order against: both do nothing.
template <pipe_t AIV_PIPE = PIPE_MTE3, pipe_t AIC_PIPE = PIPE_FIX, bool FORCE = false>
void SetNextTaskStart(ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;}
template <bool FORCE = false>
void WaitPreTaskEnd(ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;}

// The memory DataSyncBarrier waits for (kernel_event.h).
enum class MemDsbT : uint8_t { ALL = 0, DDR, UB, SEQ };

// dsb: later instructions wait for the memory accesses issued before it. The
// simulator's scalar unit completes each access before the next; what the
// barrier adds is the order GM flags rely on: the scalar GM accesses before it
// count as complete when a later flag write publishes (ib_sync.cpp).
template <MemDsbT arg0>
void DataSyncBarrier(ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
    if constexpr (arg0 == MemDsbT::ALL || arg0 == MemDsbT::DDR)
        ascend_sim::detail::data_sync_barrier_gm("DataSyncBarrier");
}

// Writes back (and invalidates) the DCache line holding dst, or the whole cache.
template <class T, CacheLine entireType, DcciDst dcciDst = DcciDst::CACHELINE_OUT>
void DataCacheCleanAndInvalid(const GlobalTensor<T>& dst, ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
    ascend_sim::detail::dcci("DataCacheCleanAndInvalid", dst.GetPhyAddr(),
                             entireType == CacheLine::ENTIRE_DATA_CACHE);
}

// On the NPU the user workspace starts after the library's 16 MiB (CANN's CPU
// twin returns ws unchanged; the simulator follows the NPU).
inline GM_ADDR GetUserWorkspace(GM_ADDR workspace) {
    return static_cast<GM_ADDR>(ascend_sim::detail::user_workspace("GetUserWorkspace", workspace));
}
inline void SetSysWorkspace(GM_ADDR workspace, ASCEND_SIM_SITE) { ASCEND_SIM_ENTER; ascend_sim::detail::set_sys_workspace(workspace); }
inline GM_ADDR GetSysWorkSpacePtr() { return static_cast<GM_ADDR>(ascend_sim::detail::sys_workspace()); }

}  // namespace AscendC

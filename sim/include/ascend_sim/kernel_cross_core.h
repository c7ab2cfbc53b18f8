// CrossCoreSetFlag / CrossCoreWaitFlag: the hardware inter-core flags of the
// FFTS scheduler (CANN: kernel_operator_block_sync_intf.h; dav_c220
// kernel_operator_sync_impl.h, NotifyEventImpl / WaitEventImpl, which issue
// ffts_cross_core_sync(pipe, msg) and wait_flag_dev(flagId)).
// Every simulated block is an AIV core. A __mix__(1, 2) kernel on N AI Cores is
// a launch of 2N blocks: block i is sub-block i % 2 of AI Core i / 2, as
// GetBlockIdx numbers the AIV there.
//   mode 0: once every AIV of the launch has set flagId, each one's counter of
//           flagId goes up by one;
//   mode 1: the same for the two AIV of one AI Core (blocks 2k and 2k + 1);
//   mode 2: syncs the AIC of an AI Core with its AIV; a launch here has no AIC,
//           so it is refused.
// A wait (its template arguments are ignored on A2: wait_flag_dev blocks every
// pipe) takes one from this block's counter of flagId, waiting while it is 0;
// a counter holds 0..15, and a flagId changes mode on a block only once its
// syncs in the other mode are done. The set happens once its pipe's earlier work is done:
// the GM accesses it covers are ordered, for the race check, before those
// after each wait it releases (cross_core.cpp).
#pragma once
#include <cstdint>

#include "kernel_defs.h"

namespace ascend_sim::detail {
void cross_core_set(const char* api, int modeId, int pipeT, uint32_t flagId);
void cross_core_wait(const char* api, uint32_t flagId);
}  // namespace ascend_sim::detail

namespace AscendC {

template <uint8_t modeId, pipe_t pipe>
void CrossCoreSetFlag(uint16_t flagId) {
    ascend_sim::detail::cross_core_set("CrossCoreSetFlag", modeId, int(pipe), flagId);
}

template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
void CrossCoreWaitFlag(uint16_t flagId) {
    ascend_sim::detail::cross_core_wait("CrossCoreWaitFlag", flagId);
}

}  // namespace AscendC

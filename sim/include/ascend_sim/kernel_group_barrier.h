// GroupBarrier: one group of AIV blocks (Arrive) releases another (Wait)
// through counters in a zeroed GM workspace (CANN: core_mng/roc/
// kernel_operator_group_barrier_intf.h, dav_c220 kernel_operator_group_barrier_impl.h).
// Layout, as dav_c220 has it: num = max(arriveSize, waitSize) cache lines of
// 512 B; line i holds the arrive counter at byte 0 and the wait counter at byte
// 64. The constructor stores 1 in the first int32 of each of the 50 UB blocks
// at the end of the UB (TOTAL_UB_SIZE - 50 x 32 B); each step atomically adds
// those blocks (MTE3, after an S_MTE3 flag) to the num counters of its kind.
// Arrive of round r > 1 first waits until its wait counter reads (r - 1) x
// waitSize; Wait waits until its arrive counter reads at least round x arriveSize.
// The waits yield to the other blocks and a wait nothing can satisfy is
// reported (ib_sync.cpp); an Arrive orders the arriving block's accesses before
// it before those of the blocks whose Wait it releases, for the GM race check.
#pragma once
#include <cstdint>

#include "device_runtime.h"
#include "kernel_defs.h"
#include "kernel_set_atomic.h"
#include "kernel_sync.h"

namespace AscendC {

enum class PipeMode : uint8_t { SCALAR_MODE = 0, MTE3_MODE = 1, MAX };

template <PipeMode pipeMode>
class GroupBarrier {
public:
    GroupBarrier(GM_ADDR groupWorkspace, uint32_t arriveSizeIn, uint32_t waitSizeIn)
        : arrive_(groupWorkspace), wait_(groupWorkspace + kCounterGap), arriveSize_(arriveSizeIn),
          waitSize_(waitSizeIn) {
        const char* api = "GroupBarrier";
        if (pipeMode != PipeMode::MTE3_MODE)
            ascend_sim::detail::fail(api, "pipeMode must be MTE3_MODE",
                                     "dav_c220 supports PipeMode::MTE3_MODE only");
        const int64_t blocks = GetBlockNum();
        check_size(api, "arriveSizeIn", arriveSize_, blocks);
        check_size(api, "waitSizeIn", waitSize_, blocks);
        ascend_sim::detail::group_barrier_init(api);
    }
    GroupBarrier() = delete;

    void Arrive(uint32_t arriveIndex) {
        const char* api = "GroupBarrier::Arrive";
        check_index(api, "arriveIndex", arriveIndex);
        if (counter_ > 1)  // the previous round's waits must all have ended
            ascend_sim::detail::group_barrier_poll(api, wait_ + kLine * arriveIndex, (counter_ - 1) * waitSize_,
                                                   false);
        write_current_value(api, arrive_);
        counter_ += 1;
        hasArrive_ = true;
    }

    void Wait(uint32_t waitIndex) {
        const char* api = "GroupBarrier::Wait";
        check_index(api, "waitIndex", waitIndex);
        const uint32_t round = hasArrive_ ? counter_ - 1 : counter_;
        ascend_sim::detail::group_barrier_poll(api, arrive_ + kLine * waitIndex, round * arriveSize_, true);
        write_current_value(api, wait_);
        if (!hasArrive_) counter_ += 1;
        hasArrive_ = false;
    }

    // The workspace bytes the barrier needs: max(arriveSize, waitSize) x 512.
    uint64_t GetWorkspaceLen() { return uint64_t(counters()) * kLine; }

private:
    static constexpr uint32_t kLine = 512;       // CACHE_LINE_LEN: one counter pair per line
    static constexpr uint32_t kCounterGap = 64;  // BARRIER_SIZE: the wait counter's offset in a line

    static void check_size(const char* api, const char* what, uint32_t n, int64_t blocks) {
        if (n == 0) ascend_sim::detail::fail(api, "group size zero", "%s is 0; it must be larger than 0", what);
        if (int64_t(n) > blocks)
            ascend_sim::detail::fail(api, "group size over the block count",
                                     "%s %u is larger than GetBlockNum() %lld", what, n, (long long)blocks);
    }
    void check_index(const char* api, const char* what, uint32_t i) const {
        if (i >= counters())
            ascend_sim::detail::fail(api, "index outside the workspace's counters",
                                     "%s %u is outside [0, %u): the workspace holds max(arriveSize, waitSize) "
                                     "counters",
                                     what, i, counters());
    }
    uint32_t counters() const { return arriveSize_ > waitSize_ ? arriveSize_ : waitSize_; }

    // dav_c220 __WriteCurrentValue: S_MTE3, atomic add (int32) of the reserved UB
    // blocks to the counters, atomics off again.
    void write_current_value(const char* api, GM_ADDR at) {
        const int8_t id = ascend_sim::detail::fetch_event_id(uint8_t(HardEvent::S_MTE3));
        ascend_sim::detail::set_flag(api, uint8_t(HardEvent::S_MTE3), id);
        ascend_sim::detail::wait_flag(api, uint8_t(HardEvent::S_MTE3), id);
        SetAtomicAdd<int32_t>();
        ascend_sim::detail::group_barrier_add(api, at, counters());
        SetAtomicNone();
    }

    GM_ADDR arrive_;
    GM_ADDR wait_;
    uint32_t arriveSize_;
    uint32_t waitSize_;
    uint32_t counter_ = 1;    // the round this block is in
    bool hasArrive_ = false;  // whether it called Arrive in this round
};

}  // namespace AscendC

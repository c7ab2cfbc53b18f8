// IBSet / IBWait (kernel_operator_block_sync_intf_impl.h): one int32 flag in GM
// per (block, event), at index blockNum * 8 * eventID + blockIdx * 8 of the
// workspace. IBSet polls it until it reads 0 and writes 1; IBWait until it reads
// 1 and writes 0; each between two pipe_barrier(PIPE_ALL), through the 32 B of
// UB workspace its DMA uses. Blocks are fibers: a failed poll steps aside
// (poll_yield). When every block that has not ended waits for a flag or in
// SyncAll, and every waiter has polled since the last flag changed, no flag can
// change any more: the wait is reported (the NPU would hang). A pair orders GM
// accesses for the race check: the setter's segment clock travels with the flag.
#include <algorithm>
#include <atomic>
#include <cstring>

#include "ascend_sim/runtime_state.h"
#include "ub_operand.h"

namespace ascend_sim::detail {

namespace {
void ensure_clocks(Launch& L) {
    if (L.ibUsed) return;
    L.ibUsed = true;
    L.ibClock.assign(L.blockDim, {std::vector<uint32_t>(L.blockDim, 0)});
    L.ibPolling.assign(L.blockDim, 0);
    L.ibFailedAt.assign(L.blockDim, UINT64_MAX);
}

bool stuck(const Launch& L) {
    if (L.ibPollers + L.arrived + L.ended < L.blockDim) return false;
    for (uint32_t i = 0; i < L.blockDim; ++i)
        if (L.ibPolling[i] && L.ibFailedAt[i] != L.ibProgress) return false;
    return true;
}

void set_polling(Launch& L, uint32_t idx, bool on) {
    if (bool(L.ibPolling[idx]) == on) return;
    L.ibPolling[idx] = on;
    if (on) ++L.ibPollers;
    else --L.ibPollers;
}

// The block's next segment: what it knew, joined with what the flag carries.
void next_segment(Launch& L, Block& b, const std::vector<uint32_t>* learnt) {
    std::vector<uint32_t> c = L.ibClock[b.idx].back();
    if (learnt)
        for (size_t i = 0; i < c.size(); ++i) c[i] = std::max(c[i], (*learnt)[i]);
    L.ibClock[b.idx].push_back(std::move(c));
    ++b.seg;
}
}  // namespace

void ib_flag(const char* api, bool set, const GmRef& flag, const UbRef& ubWs, int32_t blockIdx, int32_t eventID) {
    Block& b = cur(api);
    Launch& L = *b.launch;
    if (!L.fiberMode)
        fail(api, "blockDim over the core count",
             "blockDim %u exceeds the %u vector cores of %s; inter-core sync needs every block resident at once "
             "(the NPU would hang)",
             b.num, L.prof.vectorCores, L.prof.name.c_str());
    if (blockIdx < 0 || uint32_t(blockIdx) >= b.num)
        fail(api, "blockIdx out of range", "blockIdx %d is outside [0, %u)", blockIdx, b.num);
    if (eventID < 0) fail(api, "eventID out of range", "eventID %d is negative", eventID);
    check_gm(api, "the flag read of", flag, 32);
    const uint64_t ubOff = check_ub_operand(api, b, ubWs, "ubWorkspace");
    if (ubWs.dataLen < 32)
        fail(api, "UB workspace under 32 B", "ubWorkspace holds %u B; the flag is read through 32 B of it",
             ubWs.dataLen);
    b.hz.barrier_all();
    // This block's streaming GM stores reach other host threads before the flag does.
    std::atomic_thread_fence(std::memory_order_seq_cst);
    auto* word = static_cast<uint8_t*>(const_cast<void*>(flag.p));
    const int32_t want = set ? 0 : 1;
    std::unique_lock<std::mutex> lk(L.mu);
    ensure_clocks(L);
    for (;;) {
        int32_t v;
        std::memcpy(&v, word, sizeof v);
        if (v == want) break;
        set_polling(L, b.idx, true);
        L.ibFailedAt[b.idx] = L.ibProgress;
        if (stuck(L)) {
            set_polling(L, b.idx, false);
            lk.unlock();
            fail(api, "inter-core wait never satisfied",
                 "waits for the flag of block %d, event %d to read %d (it reads %d); every other block has ended or "
                 "waits (IBSet, IBWait or SyncAll), so nothing can change it: the NPU would hang",
                 blockIdx, eventID, want, v);
        }
        lk.unlock();
        poll_yield(b);
        lk.lock();
    }
    set_polling(L, b.idx, false);
    const int32_t now = set ? 1 : 0;
    std::memcpy(word, &now, sizeof now);
    ++L.ibProgress;
    const uint64_t at = reinterpret_cast<uint64_t>(word);
    if (set) {
        std::vector<uint32_t> c = L.ibClock[b.idx].back();
        c[b.idx] = b.seg + 1;  // this block's accesses so far
        L.ibFlagClock[at] = std::move(c);
        next_segment(L, b, nullptr);
    } else {
        const auto it = L.ibFlagClock.find(at);
        next_segment(L, b, it == L.ibFlagClock.end() ? nullptr : &it->second);
    }
    lk.unlock();
    std::memcpy(b.ub + ubOff, word, 32);  // the 32 B its DMA read, with the flag as written back
    ub_written(api, ubWs.p, 32);
    b.hz.barrier_all();
}

}  // namespace ascend_sim::detail

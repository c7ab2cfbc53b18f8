// Inter-core synchronisation through GM words, as dav_c220 does it:
//   IBSet / IBWait (kernel_operator_block_sync_intf_impl.h): one int32 flag per
//     (block, event), at index blockNum * 8 * eventID + blockIdx * 8 of the
//     workspace; IBSet polls it until it reads 0 and writes 1, IBWait until it
//     reads 1 and writes 0.
//   InitDetermineComputeWorkspace / WaitPreBlock / NotifyNextBlock
//     (dav_c220/kernel_operator_determine_compute_sync_impl.h): one 32 B slot per
//     block and a round counter k in the UB workspace after blockNum slots;
//     block i waits for slots k..k (i of them) then 0..0, then writes k to its
//     own slot (the last block zeroes them all), and counts k + 1.
//   GroupBarrier (dav_c220/core_mng/roc/kernel_operator_group_barrier_impl.h):
//     counters 512 B apart that every step adds 1 to atomically, polled after
//     a dcci of their line (kernel_group_barrier.h has the rounds).
// Each acts as PipeBarrier<PIPE_ALL> before and after. Blocks are fibers: a
// failed poll steps aside (poll_yield); when every block that has not ended
// waits in a poll or in SyncAll, and every poller has polled since the last
// write, no word can change any more: the wait is reported (the NPU would
// hang). The words order GM accesses for the race check: a write leaves the
// writer's clock at the word's address, a successful poll learns it.
//
// GM flags written and polled by the kernel itself order them the same way
// (release and acquire, TSan's reads-from rule): a flag-like write
// (WriteGmByPassDCache, or the DataCacheCleanAndInvalid that writes a line
// SetValue dirtied back) publishes this block's accesses so far that have
// completed; a flag-like read (ReadGmByPassDCache, or a GetValue that fills its
// line from GM) that sees the bytes such a write left learns them. Completed,
// on A2: a scalar GM access before a DataSyncBarrier<ALL or DDR> (the scalar
// unit orders its GM accesses only through it: DataSyncBarrier(ISASI).md, and
// WriteGmByPassDCache(ISASI).md for a clean and a bypass write); a DMA the
// scalar unit has waited for (WaitFlag<MTE3_S>, PipeBarrier<PIPE_ALL>). An
// access still in flight is published by a later flag write, once complete.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <string>

#include "ascend_sim/kernel_defs.h"
#include "ascend_sim/runtime_state.h"
#include "timing_trace.h"
#include "ub_operand.h"

namespace ascend_sim::detail {

Launch& launch_for_sync(const char* api, Block& b) {
    Launch& L = *b.launch;
    if (!L.fiberMode)
        fail(api, "blockDim over the core count",
             "blockDim %u exceeds the %u vector cores of %s; inter-core sync needs every block resident at once "
             "(the NPU would hang)",
             b.num, L.prof.vectorCores, L.prof.name.c_str());
    return L;
}

void ensure_clocks(Launch& L) {
    if (L.ibUsed) return;
    L.ibUsed = true;
    L.ibClock.assign(L.blockDim, {std::vector<uint32_t>(L.blockDim, 0)});
    L.ibPolling.assign(L.blockDim, 0);
    L.ibFailedAt.assign(L.blockDim, UINT64_MAX);
}

namespace {
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
}  // namespace

void poll(const char* api, Block& b, std::unique_lock<std::mutex>& lk, const std::function<bool()>& ready,
          const std::function<std::string()>& what) {
    Launch& L = *b.launch;
    while (!ready()) {
        set_polling(L, b.idx, true);
        L.ibFailedAt[b.idx] = L.ibProgress;
        if (stuck(L)) {
            set_polling(L, b.idx, false);
            const std::string w = what();
            lk.unlock();
            fail(api, "inter-core wait never satisfied",
                 "%s; every other block has ended or waits (IBSet, IBWait, WaitPreBlock, GroupBarrier, "
                 "CrossCoreWaitFlag or SyncAll), so nothing can change it: the NPU would hang",
                 w.c_str());
        }
        lk.unlock();
        poll_yield(b);
        lk.lock();
    }
    set_polling(L, b.idx, false);
}

void learn_clock(Launch& L, Block& b, const std::vector<uint32_t>* seen) {
    std::vector<uint32_t> c = L.ibClock[b.idx].back();
    if (seen)
        for (size_t i = 0; i < c.size(); ++i) c[i] = std::max(c[i], (*seen)[i]);
    L.ibClock[b.idx].push_back(std::move(c));
    ++b.seg;
}

void publish_into(Launch& L, Block& b, std::vector<uint32_t>& w) {
    const std::vector<uint32_t>& mine = L.ibClock[b.idx].back();
    w.resize(mine.size(), 0);
    for (size_t i = 0; i < w.size(); ++i) w[i] = std::max(w[i], mine[i]);
    w[b.idx] = b.seg + 1;
    L.ibClock[b.idx].push_back(mine);
    ++b.seg;
    ++L.ibProgress;
}

namespace {
// What a successful poll of the word at `at` saw: its writers' accesses so far.
void learn(Launch& L, Block& b, uint64_t at) {
    const auto it = L.ibFlagClock.find(at);
    learn_clock(L, b, it == L.ibFlagClock.end() ? nullptr : &it->second);
}

// A write of the word at `at`: its readers learn this block's accesses so far.
void publish(Launch& L, Block& b, uint64_t at) { publish_into(L, b, L.ibFlagClock[at]); }
}  // namespace

bool completed(Block& b, const GmRecord& r) {
    if (r.pipe == P_S) return r.seq <= b.scalarDone;
    return r.seq <= b.hz.snapshot(P_S).c[r.pipe];
}

namespace {
// Adds [lo, hi) to this epoch's flag bytes, merged with the ranges it touches.
void add_flag_range(Launch& L, uint64_t lo, uint64_t hi) {
    auto it = L.flagRanges.upper_bound(lo);
    if (it != L.flagRanges.begin() && std::prev(it)->second >= lo) {
        --it;
        lo = it->first;
        hi = std::max(hi, it->second);
        it = L.flagRanges.erase(it);
    }
    while (it != L.flagRanges.end() && it->first <= hi) {
        hi = std::max(hi, it->second);
        it = L.flagRanges.erase(it);
    }
    L.flagRanges.emplace(lo, hi);
}

int32_t word_at(const uint8_t* p, uint64_t i) {
    int32_t v;
    std::memcpy(&v, p + i * 4, sizeof v);
    return v;
}

// The entry and exit of every form: PipeBarrier<PIPE_ALL>, and this block's
// streaming GM stores visible to other host threads before its flag writes.
void drain(Block& b) {
    b.hz.barrier_all();
    t_barrier(b, P_COUNT);
    std::atomic_thread_fence(std::memory_order_seq_cst);
}

uint64_t ub_workspace(const char* api, Block& b, const UbRef& ub, uint64_t bytes) {
    const uint64_t off = check_ub_operand(api, b, ub, "ubWorkspace");
    if (ub.dataLen < bytes)
        fail(api, "UB workspace too small", "ubWorkspace holds %u B; %llu B are needed", ub.dataLen,
             (unsigned long long)bytes);
    return off;
}
}  // namespace

// gmFlagsUsed is set before the flag's bytes reach GM (here, or after the caller's
// write-back of a dirty line), so that a poll on another host thread that sees them
// has taken, or retakes, the locked path and learns what they publish.
void gm_flag_write(Block& b, uint64_t lo, uint64_t hi, const void* v) {
    Launch& L = *b.launch;
    auto* gm = reinterpret_cast<uint8_t*>(lo);
    std::lock_guard<std::mutex> lk(L.mu);
    if (L.blockDim >= 2) {
        ensure_clocks(L);
        L.gmFlagsUsed = true;
        std::atomic_thread_fence(std::memory_order_seq_cst);
    }
    if (v) std::memcpy(gm, v, hi - lo);
    if (L.blockDim < 2) return;
    // What is still in flight is not covered: it counts from the next segment on.
    for (GmRecord& r : b.records)
        if (r.pub <= b.seg && !completed(b, r)) r.pub = b.seg + 1;
    for (auto it = L.gmFlags.lower_bound(lo); it != L.gmFlags.end() && it->first < hi;) it = L.gmFlags.erase(it);
    auto before = L.gmFlags.lower_bound(lo);
    if (before != L.gmFlags.begin() && std::prev(before)->second.hi > lo) L.gmFlags.erase(std::prev(before));
    Launch::GmFlag& f = L.gmFlags[lo];
    f.hi = hi;
    f.block = b.idx;
    f.bytes.assign(gm, gm + (hi - lo));
    publish_into(L, b, f.clock);
    add_flag_range(L, lo, hi);
}

void gm_flag_read(Block& b, uint64_t lo, uint64_t hi, uint8_t* out, const uint8_t* from) {
    Launch& L = *b.launch;
    if (!from) from = reinterpret_cast<const uint8_t*>(lo);
    if (!L.gmFlagsUsed.load(std::memory_order_acquire)) {
        std::memcpy(out, from, hi - lo);
        std::atomic_thread_fence(std::memory_order_seq_cst);
        // Still unset: no flag write had begun when these bytes were read.
        if (!L.gmFlagsUsed.load(std::memory_order_relaxed)) return;
    }
    std::lock_guard<std::mutex> lk(L.mu);
    std::memcpy(out, from, hi - lo);
    std::vector<uint32_t> c = L.ibClock[b.idx].back();
    bool learned = false;
    auto it = L.gmFlags.upper_bound(lo);
    if (it != L.gmFlags.begin()) --it;
    for (; it != L.gmFlags.end() && it->first < hi; ++it) {
        const Launch::GmFlag& f = it->second;
        const uint64_t a = std::max(lo, it->first), e = std::min(hi, f.hi);
        if (a >= e || f.block == b.idx || std::memcmp(out + (a - lo), f.bytes.data() + (a - it->first), e - a))
            continue;  // not a write by another block that this read sees
        for (size_t i = 0; i < c.size(); ++i)
            if (f.clock[i] > c[i]) {
                c[i] = f.clock[i];
                learned = true;
            }
    }
    if (!learned) return;
    L.ibClock[b.idx].push_back(std::move(c));
    ++b.seg;
}

void data_sync_barrier_gm(const char* api) {
    Block& b = cur(api);
    b.scalarDone = b.hz.snapshot(P_S).c[P_S];
}

void ib_flag(const char* api, bool set, const GmRef& flag, const UbRef& ubWs, int32_t blockIdx, int32_t eventID) {
    Block& b = cur(api);
    Launch& L = launch_for_sync(api, b);
    if (blockIdx < 0 || uint32_t(blockIdx) >= b.num)
        fail(api, "blockIdx out of range", "blockIdx %d is outside [0, %u)", blockIdx, b.num);
    if (eventID < 0) fail(api, "eventID out of range", "eventID %d is negative", eventID);
    check_gm(api, "the flag read of", flag, 32);
    const uint64_t ubOff = ub_workspace(api, b, ubWs, 32);
    drain(b);
    auto* word = static_cast<uint8_t*>(const_cast<void*>(flag.p));
    const int32_t want = set ? 0 : 1;
    std::unique_lock<std::mutex> lk(L.mu);
    ensure_clocks(L);
    poll(
        api, b, lk, [&] { return word_at(word, 0) == want; },
        [&] {
            return "waits for the flag of block " + std::to_string(blockIdx) + ", event " + std::to_string(eventID) +
                   " to read " + std::to_string(want) + " (it reads " + std::to_string(word_at(word, 0)) + ")";
        });
    const uint64_t at = reinterpret_cast<uint64_t>(word);
    learn(L, b, at);
    const int32_t now = set ? 1 : 0;
    std::memcpy(word, &now, sizeof now);
    publish(L, b, at);
    lk.unlock();
    std::memcpy(b.ub + ubOff, word, 32);  // the 32 B its DMA read, with the flag as written back
    ub_written(api, ubWs.p, 32);
    drain(b);
}

void determine_sync(const char* api, DetermineStep step, const GmRef& gm, const UbRef& ubWs) {
    Block& b = cur(api);
    Launch& L = launch_for_sync(api, b);
    const uint64_t n = b.num, slots = n * 8;  // int32 words: 8 per block
    check_gm(api, "the workspace of", gm, slots * 4);
    const uint64_t ubOff = ub_workspace(api, b, ubWs, slots * 4 + 32);
    auto* ws = static_cast<uint8_t*>(const_cast<void*>(gm.p));
    uint8_t* ub = b.ub + ubOff;
    const uint64_t at = reinterpret_cast<uint64_t>(ws);
    drain(b);
    std::unique_lock<std::mutex> lk(L.mu);
    ensure_clocks(L);
    // The UB words the real code writes (by Duplicate, DataCopy or SetValue).
    const auto ub_fill = [&](uint64_t word, uint64_t count, int32_t v) {
        for (uint64_t e = 0; e < count; ++e) std::memcpy(ub + (word + e) * 4, &v, 4);
        ub_written(api, ub + word * 4, count * 4);
    };
    if (step == DetermineStep::INIT) {
        if (b.idx == 0) {
            ub_fill(0, slots, 0);
            std::memset(ws, 0, slots * 4);
            publish(L, b, at);
        }
        ub_fill(slots, 1, 1);
    } else {
        if (!b.init.written(ubOff + slots * 4, ubOff + slots * 4 + 4))
            fail(api, "workspace not initialised",
                 "the round counter in ubWorkspace was never set: call InitDetermineComputeWorkspace first");
        const int32_t k = word_at(ub, slots);
        if (step == DetermineStep::WAIT) {
            const auto ready = [&] {
                for (uint64_t s = 0; s < n; ++s)
                    if (word_at(ws, s * 8) != (s < b.idx ? k : 0)) return false;
                return true;
            };
            poll(api, b, lk, ready, [&] {
                return "WaitPreBlock of round " + std::to_string(k) + " waits for the slots of the blocks before " +
                       std::to_string(b.idx) + " to read " + std::to_string(k) + " and the others 0";
            });
            std::memcpy(ub, ws, slots * 4);
            ub_written(api, ub, slots * 4);
            learn(L, b, at);
        } else {
            const bool last = b.idx + 1 == n;
            ub_fill(last ? 0 : b.idx * 8, last ? slots : 8, last ? 0 : k);
            std::memcpy(ws + (last ? 0 : b.idx * 32), ub + (last ? 0 : b.idx * 32), last ? slots * 4 : 32);
            publish(L, b, at);
            ub_fill(slots, 1, k + 1);
        }
    }
    lk.unlock();
    drain(b);
}

namespace {
constexpr uint64_t kBarrierBlocks = 50;  // BARRIER_MAX_AIV: UB blocks reserved at the end of the UB
constexpr uint64_t kBarrierLine = 512;   // CACHE_LINE_LEN: the counters' pitch

UbRef barrier_ub(Block& b) {
    return UbRef{b.ub + b.ubTotal - kBarrierBlocks * 32, uint32_t(kBarrierBlocks * 32),
                 uint8_t(AscendC::TPosition::VECIN)};
}
}  // namespace

void group_barrier_init(const char* api) {
    Block& b = cur(api);
    launch_for_sync(api, b);
    const UbRef ub = barrier_ub(b);
    fill_ub(b, b.ubTotal);  // the rest of the reserved blocks stays unset
    const int32_t one = 1;
    for (uint64_t i = 0; i < kBarrierBlocks; ++i) {
        uint8_t* p = static_cast<uint8_t*>(const_cast<void*>(ub.p)) + i * 32;
        scalar_ub(api, p, 4, true);
        std::memcpy(p, &one, 4);
    }
}

void group_barrier_poll(const char* api, const void* word, uint32_t want, bool atLeast) {
    Block& b = cur(api);
    Launch& L = launch_for_sync(api, b);
    const GmRef g{word, word, 0};
    check_gm(api, "the counter read of", g, 4);
    const auto* w = static_cast<const uint8_t*>(word);
    const auto reads = [&] { return uint32_t(word_at(w, 0)); };
    std::unique_lock<std::mutex> lk(L.mu);
    ensure_clocks(L);
    poll(
        api, b, lk, [&] { return atLeast ? reads() >= want : reads() == want; },
        [&] {
            return std::string("waits for the counter at ") + gm_describe(reinterpret_cast<uint64_t>(word)) +
                   " to read " + (atLeast ? "at least " : "") + std::to_string(want) + " (it reads " +
                   std::to_string(reads()) + ")";
        });
    const uint64_t at = reinterpret_cast<uint64_t>(word);
    learn(L, b, at);
    lk.unlock();
    // The read that succeeded, after the dcci of its line. The failed polls
    // before it are not race records: they only wait.
    dcache_on_bypass(b, api, at, at + 4, false);
    add_gm_record(b, b.hz.issue(P_S, api), at, at + 4, false);
}

void group_barrier_add(const char* api, void* counters, uint32_t num) {
    Block& b = cur(api);
    Launch& L = launch_for_sync(api, b);
    const UbRef ub = barrier_ub(b);
    const GmRef g{counters, counters, 0};
    check_gm(api, "the counter add of", g, kBarrierLine * (num - 1) + 4);
    // One 32 B block per counter; only its first int32 (the counter) is modelled:
    // the other 28 B land in the counter line's padding, which nothing reads.
    const uint64_t off = uint64_t(static_cast<const uint8_t*>(ub.p) - b.ub);
    init_read_blocks(api, b, "barrier block", off, UbBlocks{num, 32, 32, 0, 4});
    b.used = true;
    b.ctr.gmWriteBytes += uint64_t(num) * 4;
    ++b.ctr.dmaOut;
    // The UB read is an MTE3 access (ordered after the constructor's stores by
    // the S_MTE3 flag); the counter adds commute with every other add, so they
    // are race records of the atomic mode, not pipe accesses.
    const Instr in = b.hz.issue(P_MTE3, api);
    b.hz.access(api, in, Space::UB, off, off + uint64_t(num) * 32, false);
    auto* gm = static_cast<uint8_t*>(counters);
    for (uint64_t i = 0; i < num; ++i) {
        const uint64_t at = reinterpret_cast<uint64_t>(gm + i * kBarrierLine);
        dcache_on_dma(b, api, at, at + 4, false);
        add_gm_record(b, in, at, at + 4, true, b.atomic.code());
    }
    const auto* u = static_cast<const uint8_t*>(ub.p);
    std::lock_guard<std::mutex> lk(L.mu);
    ensure_clocks(L);
    for (uint64_t i = 0; i < num; ++i) {
        atomic_store(api, gm + i * kBarrierLine, u + i * 32, 4);
        publish(L, b, reinterpret_cast<uint64_t>(gm + i * kBarrierLine));
    }
}

}  // namespace ascend_sim::detail

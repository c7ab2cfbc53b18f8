// CrossCoreSetFlag / CrossCoreWaitFlag (kernel_cross_core.h) over the
// inter-core machinery of ib_sync.cpp: a wait steps aside while its counter is
// 0 and is reported when no block can raise it any more.
//
// The scheduler raises the counters of a group (mode 0: every block; mode 1:
// the two AIV of an AI Core) once each member has set the flag: each member's
// sets queue up, and the first set of every member together make one round.
// A round carries the join of its sets' published clocks to every member's
// counter; the wait that takes it learns them. It also ends after the block's
// own set has fired, so its pipes wait for the work that set waited for.
#include <algorithm>
#include <string>

#include "ascend_sim/kernel_defs.h"
#include "ascend_sim/runtime_state.h"

namespace ascend_sim::detail {

namespace {
constexpr uint32_t kFlags = 16;       // flagId 0..15 per core (its low 4 bits reach the scheduler)
constexpr size_t kCounterMax = 15;    // a 4-bit counter

void check_flag(const char* api, uint32_t flagId) {
    if (flagId >= kFlags)
        fail(api, "flagId out of range",
             "flagId %u is outside 0..15 (the hardware keeps its low 4 bits: it would be flagId %u)", flagId,
             flagId & 0xf);
}

struct Group {
    uint32_t first, size, id;
};

Group group_of(int modeId, const Block& b) {
    if (modeId == 0) return {0, b.num, 0};
    return {b.idx & ~1u, 2, b.idx / 2};
}

uint64_t group_key(int modeId, uint32_t groupId, uint32_t flagId) {
    return (uint64_t(modeId) << 40) | (uint64_t(groupId) << 8) | flagId;
}

Pipe aiv_pipe(const char* api, int pipeT) {
    switch (pipeT) {
        case PIPE_V: return P_V;
        case PIPE_MTE2: return P_MTE2;
        case PIPE_MTE3: return P_MTE3;
        case PIPE_S:
        case PIPE_ALL:
            fail(api, "pipe not allowed",
                 "pipe %s: modes 0, 1 and 2 take PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3 or PIPE_FIX",
                 pipeT == PIPE_S ? "PIPE_S" : "PIPE_ALL");
        default:
            fail(api, "not an AIV pipe",
                 "pipe_t %d: a vector core sets the flag after PIPE_V, PIPE_MTE2 or PIPE_MTE3 (PIPE_M, PIPE_MTE1 and "
                 "PIPE_FIX are the cube core's)",
                 pipeT);
    }
}

// Has the set, issued on pipe p, waited for access r? Earlier work of p itself,
// what p has waited for through a flag, and a completed scalar access.
bool covered(Block& b, const GmRecord& r, Pipe p) {
    if (r.pipe == p) return true;
    if (r.pipe == P_S) return completed(b, r);
    return r.seq <= b.hz.snapshot(p).c[r.pipe];
}

void counters_ready(Launch& L) {
    if (L.xcoreCounters.empty()) L.xcoreCounters.resize(L.blockDim);
}
}  // namespace

void cross_core_set(const char* api, int modeId, int pipeT, uint32_t flagId) {
    Block& b = cur(api);
    if (modeId == 2)
        fail(api, "mode 2 needs an AIC",
             "CrossCoreSetFlag<2> syncs the AIC of an AI Core with its AIV, and this launch has no AIC (every block "
             "is an AIV core): the wait it pairs with would never be satisfied");
    if (modeId != 0 && modeId != 1)
        fail(api, "modeId out of range",
             "modeId %d: A2 has modes 0 (every AIV), 1 (the two AIV of an AI Core) and 2 (an AIC with its AIV)",
             modeId);
    const Pipe p = aiv_pipe(api, pipeT);
    check_flag(api, flagId);
    Launch& L = launch_for_sync(api, b);
    const Group g = group_of(modeId, b);
    if (g.first + g.size > b.num)
        fail(api, "mode 1 without the other AIV",
             "block %u is sub-block 0 of AI Core %u, whose sub-block 1 (block %u) is not in this launch of %u "
             "blocks: a __mix__(1, 2) kernel on N AI Cores runs 2N AIV blocks",
             b.idx, g.id, b.idx + 1, b.num);
    // What the set does not cover yet counts from the next segment on.
    b.hz.issue(p, api);
    for (GmRecord& r : b.records)
        if (r.pub <= b.seg && !covered(b, r, p)) r.pub = b.seg + 1;
    std::lock_guard<std::mutex> lk(L.mu);
    ensure_clocks(L);
    counters_ready(L);
    // A flagId changes mode on a core only once the other mode's sets and waits are done.
    const int other = 1 - modeId;
    const Group og = group_of(other, b);
    const auto it = L.xcoreSets.find(group_key(other, og.id, flagId));
    const auto& counter = L.xcoreCounters[b.idx][flagId];
    if ((it != L.xcoreSets.end() && !it->second[b.idx - og.first].empty()) ||
        std::any_of(counter.begin(), counter.end(), [&](const auto& r) { return r.mode == other; }))
        fail(api, "flagId switches mode too early",
             "block %u sets flagId %u in mode %d while its mode-%d syncs of that flagId are not done (a set not yet "
             "matched, or a round no CrossCoreWaitFlag has taken)",
             b.idx, flagId, modeId, other);
    Launch::CrossCoreSet mine{{}, b.hz.snapshot(p), modeId};
    publish_into(L, b, mine.clock);
    auto& sets = L.xcoreSets[group_key(modeId, g.id, flagId)];
    sets.resize(g.size);
    sets[b.idx - g.first].push_back(std::move(mine));
    if (std::any_of(sets.begin(), sets.end(), [](const auto& q) { return q.empty(); })) return;
    std::vector<uint32_t> round(L.blockDim, 0);
    for (const auto& q : sets)
        for (size_t i = 0; i < round.size(); ++i) round[i] = std::max(round[i], q.front().clock[i]);
    for (uint32_t m = g.first; m < g.first + g.size; ++m) {
        auto& q = sets[m - g.first];
        auto& raised = L.xcoreCounters[m][flagId];
        if (raised.size() == kCounterMax)
            fail(api, "flag counter overflow",
                 "the counter of flagId %u on block %u would exceed 15 (4 bits): 15 mode-%d rounds are already "
                 "waiting for a CrossCoreWaitFlag to take them",
                 flagId, m, modeId);
        raised.push_back({round, q.front().pipes, modeId});
        q.pop_front();
    }
}

void cross_core_wait(const char* api, uint32_t flagId) {
    Block& b = cur(api);
    check_flag(api, flagId);
    Launch& L = launch_for_sync(api, b);
    std::unique_lock<std::mutex> lk(L.mu);
    ensure_clocks(L);
    counters_ready(L);
    auto& counter = L.xcoreCounters[b.idx][flagId];
    const auto pending = [&](int modeId) {
        const Group g = group_of(modeId, b);
        const auto it = L.xcoreSets.find(group_key(modeId, g.id, flagId));
        uint32_t set = 0;
        if (it != L.xcoreSets.end())
            for (const auto& q : it->second) set += !q.empty();
        return "mode " + std::to_string(modeId) + ": " + std::to_string(set) + " of " +
               std::to_string(std::min(g.size, b.num - g.first)) + " blocks have set it";
    };
    poll(
        api, b, lk, [&] { return !counter.empty(); },
        [&] {
            return "block " + std::to_string(b.idx) + " waits for its counter of flagId " + std::to_string(flagId) +
                   ", which stays 0 (" + pending(0) + "; " + pending(1) + ")";
        });
    const Launch::CrossCoreSet seen = std::move(counter.front());
    counter.pop_front();
    learn_clock(L, b, &seen.clock);
    lk.unlock();
    for (int q = 0; q < P_COUNT; ++q) b.hz.join(Pipe(q), seen.pipes);
}

}  // namespace ascend_sim::detail

// The per-core scalar data cache (32 KiB, 64-byte lines) as far as it matters
// for correctness: GlobalTensor::SetValue stays in the cache (dirty) until
// DataCacheCleanAndInvalid; GetValue may keep a line that MTE3 or another core
// later overwrites (stale). The simulator writes through immediately and
// reports the accesses whose result would differ on the NPU.
#include "ascend_sim/runtime_state.h"

namespace ascend_sim::detail {

namespace {
// Calls f(line) for every line of `set` within [loLine, hiLine]: O(log n + hits),
// however large the range (an MTE3 write of a 40 KB tile spans 650 lines; a
// block that gathered weight[t_i] by GetValue caches thousands).
template <class F>
void lines_in(const LineSet& set, uint64_t loLine, uint64_t hiLine, F f) {
    for (auto it = set.lower_bound(loLine); it != set.end() && *it <= hiLine; ++it) f(*it);
}

void drop_dirty(Block& b, uint64_t line) {
    if (!b.dirtyLines.erase(line)) return;
    Launch& L = *b.launch;
    std::lock_guard<std::mutex> lk(L.dirtyMu);
    L.dirtyOwner.erase(line);
    L.dirtyCount.fetch_sub(1, std::memory_order_relaxed);
}

void drop_all_dirty(Block& b) {
    std::vector<uint64_t> dirty(b.dirtyLines.begin(), b.dirtyLines.end());
    for (uint64_t l : dirty) drop_dirty(b, l);
}
}  // namespace

namespace {
// An access of GM [lo, hi) that does not go through the DCache (a DMA, or a
// scalar access bypassing it); `what` names it ("MTE2 reads").
void uncached_access(Block& b, const char* api, uint64_t lo, uint64_t hi, bool write, const char* what) {
    const uint64_t loLine = lo >> 6, hiLine = (hi - 1) >> 6;
    lines_in(b.dirtyLines, loLine, hiLine, [&](uint64_t l) {
        fail(api, write ? "write past a dirty DCache line" : "read past a dirty DCache line",
             "%s GM line %s that this block wrote with SetValue and has not cleaned (DataCacheCleanAndInvalid); %s",
             what, gm_describe(l << 6).c_str(),
             write ? "a later clean would overwrite the data written here"
                   : "on the NPU the data is still in the DCache and the read sees stale GM");
    });
    Launch& L = *b.launch;
    if (L.dirtyCount.load(std::memory_order_relaxed) > b.dirtyLines.size()) {
        std::lock_guard<std::mutex> lk(L.dirtyMu);
        for (auto it = L.dirtyOwner.lower_bound(loLine); it != L.dirtyOwner.end() && it->first <= hiLine; ++it)
            if (it->second != b.idx)
                fail(api, "GM line dirty in another core's DCache",
                     "%s GM line %s that block %u wrote with SetValue and has not cleaned (DataCacheCleanAndInvalid)",
                     what, gm_describe(it->first << 6).c_str(), it->second);
    }
    if (write) {
        std::vector<uint64_t> hit;
        lines_in(b.cachedLines, loLine, hiLine, [&](uint64_t l) { hit.push_back(l); });
        for (uint64_t l : hit) {
            b.cachedLines.erase(l);
            b.staleLines.insert(l);
        }
    }
}
}  // namespace

void dcache_on_dma(Block& b, const char* api, uint64_t lo, uint64_t hi, bool toUb) {
    uncached_access(b, api, lo, hi, !toUb, toUb ? "MTE2 reads" : "MTE3 writes");
}

void dcache_on_bypass(Block& b, const char* api, uint64_t lo, uint64_t hi, bool write) {
    uncached_access(b, api, lo, hi, write, write ? "writes (bypassing the DCache)" : "reads (bypassing the DCache)");
}

// DataCachePreload: the line holding g.p is fetched into this block's DCache,
// unless it is there already (a stale copy stays stale).
void dcache_preload(const char* api, const GmRef& g) {
    Block& b = cur(api);
    const uint64_t line = reinterpret_cast<uint64_t>(g.p) >> 6;
    if (!b.staleLines.count(line)) b.cachedLines.insert(line);
}

void dcache_on_epoch(Block& b, const std::vector<std::vector<GmRecord>>& all) {
    if (b.cachedLines.empty()) return;
    for (size_t blk = 0; blk < all.size(); ++blk) {
        if (blk == b.idx) continue;
        for (const GmRecord& r : all[blk]) {
            if (!r.write) continue;
            std::vector<uint64_t> hit;
            lines_in(b.cachedLines, r.lo >> 6, (r.hi - 1) >> 6, [&](uint64_t l) { hit.push_back(l); });
            for (uint64_t l : hit) {
                b.cachedLines.erase(l);
                b.staleLines.insert(l);
            }
        }
    }
}

void dcci(const char* api, const void* gm, bool entire) {
    Block& b = cur(api);
    if (entire) {
        drop_all_dirty(b);
        b.cachedLines.clear();
        b.staleLines.clear();
        return;
    }
    const uint64_t line = reinterpret_cast<uint64_t>(gm) >> 6;
    drop_dirty(b, line);
    b.cachedLines.erase(line);
    b.staleLines.erase(line);
}

// A kernel compiled as one operator ends with a whole-DCache DataCacheCleanAndInvalid
// the compiler adds (asc-devkit docs, SuperKernel/算子适配说明.md), so lines still
// dirty are written back, not lost.
void dcache_end(Block& b) { drop_all_dirty(b); }

}  // namespace ascend_sim::detail

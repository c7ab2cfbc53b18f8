// The per-core scalar data cache (32 KiB, 64-byte lines) as far as it matters
// for correctness: GlobalTensor::SetValue stays in the cache (dirty) until
// DataCacheCleanAndInvalid; GetValue may keep a line that MTE3 or another core
// later overwrites (stale). The simulator writes GM through immediately, keeps
// each cached line's bytes as filled, and reports the accesses whose result
// would differ on the NPU. A stale GetValue returns what the NPU returns (the
// line as cached, or GM as it was before another core's uncleaned SetValue);
// it is reported only if the kernel reaches its next SyncAll or its end without
// cleaning the line and reading it again: a kernel that polls through its DCache
// (clean, read, retry) reads stale values by design.
#include <atomic>
#include <cstring>

#include "ascend_sim/runtime_state.h"

namespace ascend_sim::detail {

// The bytes of GM line `line` inside the registered region that holds [lo, hi). A
// line copy takes only those (the rest reads 0 and is never read: accesses outside
// a region are refused), so a region smaller than a line (caller memory registered
// as GM) is never read past on the host.
LineSpan line_in_region(uint64_t line, uint64_t lo, uint64_t hi) {
    const uint64_t l0 = line << 6;
    GmHit hit;
    if (!gm_lookup(lo, hi, &hit)) return {lo, hi};
    return {std::max(l0, hit.lo), std::min(l0 + 64, hit.hi)};
}

LineSpan copy_line(uint8_t* out, uint64_t line, uint64_t lo, uint64_t hi) {
    const LineSpan r = line_in_region(line, lo, hi);
    std::memset(out, 0, 64);
    std::memcpy(out + (r.lo - (line << 6)), reinterpret_cast<const void*>(r.lo), r.hi - r.lo);
    return r;
}

namespace {
// Calls f(line) for every line of `set` within [loLine, hiLine]: O(log n + hits),
// however large the range (an MTE3 write of a 40 KB tile spans 650 lines; a
// block that gathered weight[t_i] by GetValue caches thousands).
template <class F>
void lines_in(const LineSet& set, uint64_t loLine, uint64_t hiLine, F f) {
    for (auto it = set.lower_bound(loLine); it != set.end() && *it <= hiLine; ++it) f(*it);
}

bool drop_dirty(Block& b, uint64_t line) {
    if (!b.dirtyLines.erase(line)) return false;
    Launch& L = *b.launch;
    std::lock_guard<std::mutex> lk(L.dirtyMu);
    L.dirtyOwner.erase(line);
    L.dirtyOld.erase(line);
    L.dirtyCount.fetch_sub(1, std::memory_order_relaxed);
    return true;
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

namespace {
// What GM held before another core's uncleaned SetValue of the line (naming that
// in why), or nullptr when no other core has the line dirty.
const uint8_t* foreign_dirty_old(Block& b, uint64_t line, std::array<uint8_t, 64>& old, std::string* why) {
    Launch& L = *b.launch;
    if (L.dirtyCount.load(std::memory_order_relaxed) <= b.dirtyLines.size()) return nullptr;
    std::lock_guard<std::mutex> lk(L.dirtyMu);
    auto it = L.dirtyOwner.find(line);
    if (it == L.dirtyOwner.end() || it->second == b.idx) return nullptr;
    old = L.dirtyOld[line];
    if (why)
        *why = "in a 64-byte line block " + std::to_string(it->second) +
               " wrote with SetValue and has not cleaned (DataCacheCleanAndInvalid), so it gets what GM held before";
    return old.data();
}

// Fills the line from GM (or from what GM held before another core's uncleaned
// SetValue) as a GM flag read.
std::array<uint8_t, 64>& fill(Block& b, uint64_t line, uint64_t lo, uint64_t hi, std::string* why) {
    std::array<uint8_t, 64> old;
    Block::LineCopy& lc = b.lineCopy[line];
    std::array<uint8_t, 64>& c = lc.bytes;
    const LineSpan r = line_in_region(line, lo, hi);
    const uint64_t at = r.lo - (line << 6);
    for (;;) {
        const uint8_t* from = foreign_dirty_old(b, line, old, why);
        c.fill(0);
        gm_flag_read(b, r.lo, r.hi, c.data() + at, from ? from + at : nullptr);
        if (from) break;
        // A SetValue on another host thread marks its line dirty before writing GM:
        // bytes read from GM are clean only if the line is still not dirty after.
        std::atomic_thread_fence(std::memory_order_seq_cst);
        if (!foreign_dirty_old(b, line, old, nullptr)) break;
    }
    lc.lo = r.lo;
    lc.hi = r.hi;
    b.cachedLines.insert(line);
    return c;
}

// The first stale read of a line not cleaned and read again is reported at the
// next SyncAll or kernel end (`where`).
void check_stale_reads(Block& b, const char* where) {
    if (b.staleReads.empty()) return;
    const Block::StaleRead* first = &b.staleReads.begin()->second;
    for (const auto& [line, r] : b.staleReads)
        if (r.at < first->at) first = &r;
    fail(first->op, "stale DCache line",
         "reads GM %s %s; the block reached %s without cleaning the line (DataCacheCleanAndInvalid) and reading "
         "it again, so the stale value is what it used",
         gm_describe(first->at).c_str(), first->why.c_str(), where);
}
}  // namespace

bool dcache_read(Block& b, const char* api, uint64_t lo, uint64_t hi, uint8_t* out) {
    const uint64_t line = lo >> 6, off = lo & 63;
    std::string why;
    auto it = b.lineCopy.find(line);
    const bool filled = it == b.lineCopy.end();
    if (!filled) {
        // Bytes of another region sharing the line: the NPU's fill would have read
        // them with the rest; take them now (host memory is read only inside a region).
        Block::LineCopy& lc = it->second;
        if (lo < lc.lo || hi > lc.hi) {
            const LineSpan r = line_in_region(line, lo, hi);
            std::memcpy(lc.bytes.data() + (r.lo & 63), reinterpret_cast<const void*>(r.lo), r.hi - r.lo);
            lc.lo = std::min(lc.lo, r.lo);
            lc.hi = std::max(lc.hi, r.hi);
        }
    }
    const std::array<uint8_t, 64>& c = filled ? fill(b, line, lo, hi, &why) : it->second.bytes;
    if (!filled && b.staleLines.count(line))
        why = "from a DCache line cached before it was overwritten (by this block's MTE3 or WriteGmByPassDCache, "
              "or by another block before a SyncAll)";
    else if (!filled && std::memcmp(c.data() + off, reinterpret_cast<const void*>(lo), hi - lo))
        why = "from a DCache line cached before another block wrote it";
    std::memcpy(out, c.data() + off, hi - lo);
    auto s = b.staleReads.find(line);
    if (s != b.staleReads.end() && s->second.cleaned && filled) {  // read again after a clean
        b.staleReads.erase(s);
        s = b.staleReads.end();
    }
    if (!why.empty() && s == b.staleReads.end()) b.staleReads.emplace(line, Block::StaleRead{lo, api, why});
    return filled;
}

void dcache_write(Block& b, uint64_t lo, uint64_t hi, const void* v) {
    const uint64_t line = lo >> 6;
    // A write refreshes a stale line: the model keeps no partly stale lines.
    if (b.staleLines.erase(line)) b.lineCopy.erase(line);
    std::memcpy(reinterpret_cast<void*>(lo), v, hi - lo);
    // The line as this block now holds it: GM's bytes where it had no copy yet.
    const auto [it, added] = b.lineCopy.try_emplace(line);
    Block::LineCopy& lc = it->second;
    if (added) {
        const LineSpan r = copy_line(lc.bytes.data(), line, lo, hi);
        lc.lo = r.lo;
        lc.hi = r.hi;
    } else {
        std::memcpy(lc.bytes.data() + (lo & 63), v, hi - lo);
        lc.lo = std::min(lc.lo, lo);
        lc.hi = std::max(lc.hi, hi);
    }
    b.cachedLines.insert(line);
}

// DataCachePreload: the line holding g.p is fetched into this block's DCache,
// unless it is there already (a stale copy stays stale).
void dcache_preload(const char* api, const GmRef& g) {
    Block& b = cur(api);
    const uint64_t line = reinterpret_cast<uint64_t>(g.p) >> 6;
    const uint64_t at = reinterpret_cast<uint64_t>(g.p);
    if (!b.lineCopy.count(line)) fill(b, line, at, at + 1, nullptr);
}

void dcache_on_epoch(Block& b, const std::vector<std::vector<GmRecord>>& all) {
    check_stale_reads(b, "a SyncAll");
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

namespace {
// The clean of one line. A dirty line's write-back is a scalar GM write of the
// line (recorded anew: it reaches GM only now) and a GM flag write, recorded
// before other cores' fills can see the line's new bytes (drop_dirty).
void clean_line(Block& b, const char* api, uint64_t line) {
    b.cachedLines.erase(line);
    b.staleLines.erase(line);
    b.lineCopy.erase(line);
    auto s = b.staleReads.find(line);
    if (s != b.staleReads.end()) s->second.cleaned = true;
    if (!b.dirtyLines.count(line)) return;
    add_gm_record(b, b.hz.issue(P_S, api), line << 6, (line + 1) << 6, true);
    gm_flag_write(b, line << 6, (line + 1) << 6, nullptr);
    drop_dirty(b, line);
}
}  // namespace

void dcci(const char* api, const void* gm, bool entire) {
    Block& b = cur(api);
    if (!entire) {
        b.lastDcciLine = reinterpret_cast<uint64_t>(gm) >> 6;
        return clean_line(b, api, b.lastDcciLine);
    }
    std::vector<uint64_t> lines;
    for (const auto& [line, bytes] : b.lineCopy) lines.push_back(line);
    lines.insert(lines.end(), b.dirtyLines.begin(), b.dirtyLines.end());
    for (uint64_t l : lines) clean_line(b, api, l);
}

// A kernel compiled as one operator ends with a whole-DCache DataCacheCleanAndInvalid
// the compiler adds (asc-devkit docs, SuperKernel/算子适配说明.md), so lines still
// dirty are written back, not lost.
void dcache_end(Block& b) {
    check_stale_reads(b, "the kernel end");
    drop_all_dirty(b);
}

}  // namespace ascend_sim::detail

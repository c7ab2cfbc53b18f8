// The GM registry: which host memory kernels may touch as GM. gm_alloc'd
// blocks and GmRegion-registered caller memory, keyed by start address.
//
// Caller memory may be registered several times at once: concurrent launches on
// different host threads share input buffers (the same weight, the same logits),
// and each launch registers what it uses. So GmRegion registrations may overlap
// each other and gm_alloc blocks; identical ranges share one reference-counted
// entry. An access is valid when it lies inside one registered region (any one
// of them), never when it only lies inside the union of several: the "not inside
// one GM allocation" check stays exact. gm_alloc blocks never overlap each other
// (they are distinct allocations); a GmRegion that overlaps a gm_alloc block must
// lie inside it; gm_free accepts only a live gm_alloc start.
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <shared_mutex>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "ascend_sim/runtime_state.h"

namespace ascend_sim {

namespace {
struct Region {
    uint64_t hi;  // one past the last byte
    std::string name;
    bool owned;     // from gm_alloc
    uint32_t refs;  // GmRegion registrations of exactly [lo, hi) (1 for gm_alloc)
};
using RegionMap = std::multimap<uint64_t, Region>;

std::shared_mutex g_mu;
RegionMap& regions() {
    static RegionMap r;
    return r;
}
// The longest live region: a region starting below lo - g_maxLen cannot contain lo,
// which bounds the backward scans of lookups (usually the first entry answers).
uint64_t g_maxLen = 0;
// Bumped (under g_mu) by every unregistration: a region found by a lookup stays
// valid until then, so each thread may answer repeated lookups inside the regions
// it found recently without taking g_mu (every DMA and scalar GM read looks up).
std::atomic<uint64_t> g_removals{0};
// A thread's recent regions: several, since a kernel alternates between its tensors
// (input, output, target, weight, ...) and with only the last one nearly every DMA
// missed and took g_mu. An entry counts only while g_removals still holds the value
// read with it under g_mu.
struct LookupCache {
    struct Entry {
        uint64_t lo = 0, hi = 0, removals = ~uint64_t(0);
    };
    static constexpr unsigned kEntries = 8;
    Entry entries[kEntries];
    unsigned next = 0;  // the entry to replace: round robin, so the oldest goes first

    // The cached region holding [lo, hi), or nullptr.
    const Entry* covering(uint64_t lo, uint64_t hi, uint64_t removals) const {
        for (const Entry& e : entries)
            if (lo >= e.lo && hi <= e.hi && e.removals == removals) return &e;
        return nullptr;
    }
    void add(uint64_t lo, uint64_t hi, uint64_t removals) {
        entries[next] = Entry{lo, hi, removals};
        next = (next + 1) % kEntries;
    }
};
thread_local LookupCache t_lookup;

void recompute_max_len() {
    uint64_t m = 0;
    for (const auto& kv : regions()) m = std::max(m, kv.second.hi - kv.first);
    g_maxLen = m;
}

// Calls f(iterator) for entries whose start is <= addr and which may reach addr,
// nearest start first, until f returns true. Caller holds g_mu.
template <typename F>
bool scan_down(uint64_t addr, F f) {
    auto& r = regions();
    auto it = r.upper_bound(addr);
    while (it != r.begin()) {
        --it;
        if (addr - it->first > g_maxLen) break;  // this one and every earlier one end before addr
        if (f(it)) return true;
    }
    return false;
}

void add(void* p, size_t bytes, std::string name, bool owned) {
    std::unique_lock<std::shared_mutex> lk(g_mu);
    const uint64_t lo = reinterpret_cast<uint64_t>(p);
    const uint64_t hi = lo + bytes;
    auto& r = regions();
    if (owned) {
        // Two live allocations cannot share bytes; if they do, the registry is corrupt.
        for (const auto& kv : r) {
            if (!kv.second.owned) continue;
            if (kv.first < std::max(hi, lo + 1) && lo < std::max(kv.second.hi, kv.first + 1))
                throw SimViolation("GmAlloc", -1, "GM allocations overlap",
                                   "[ascend_sim] GmAlloc: [" + detail::hex(lo) + ", +" + std::to_string(bytes) +
                                       ") overlaps the live allocation " + kv.second.name + " at " +
                                       detail::hex(kv.first));
        }
    } else {
        // Caller memory may overlap other caller memory, but it cannot reach out of a
        // gm_alloc block it overlaps: that block's neighbours are not the caller's.
        for (const auto& kv : r) {
            if (!kv.second.owned) continue;
            const bool overlap = kv.first < std::max(hi, lo + 1) && lo < std::max(kv.second.hi, kv.first + 1);
            if (overlap && !(kv.first <= lo && hi <= kv.second.hi))
                throw SimViolation("GmRegion", -1, "GM region crosses an allocation",
                                   "[ascend_sim] GmRegion: [" + detail::hex(lo) + ", +" + std::to_string(bytes) +
                                       ") overlaps the GM allocation " + kv.second.name + " [" +
                                       detail::hex(kv.first) + ", +" + std::to_string(kv.second.hi - kv.first) +
                                       ") without lying inside it");
        }
        auto range = r.equal_range(lo);
        for (auto it = range.first; it != range.second; ++it)
            if (!it->second.owned && it->second.hi == hi) {
                ++it->second.refs;
                return;
            }
    }
    r.emplace(lo, Region{hi, std::move(name), owned, 1});
    g_maxLen = std::max(g_maxLen, uint64_t(bytes));
}
}  // namespace

namespace {
// Transparent huge pages (Linux) for the 2 MiB-aligned interior of a fresh block, before
// its fill touches it: otherwise each 4 KiB costs a page fault and a zeroed page, which
// is most of a launch's system time where every large block is a new mapping (ASan).
void advise_huge_pages(void* p, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr uintptr_t kHuge = uintptr_t(2) << 20;
    const uintptr_t a = reinterpret_cast<uintptr_t>(p);
    const uintptr_t lo = (a + kHuge - 1) & ~(kHuge - 1), hi = (a + bytes) & ~(kHuge - 1);
    if (hi > lo) madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}
}  // namespace

void* gm_alloc(size_t bytes, const char* name, bool zeroed) {
    // aclrtMalloc as the Runtime API documents it: 64-byte aligned, ALIGN_UP(size, 32) + 32
    // bytes, all of them the kernel's to touch (a DMA rounded up past a ragged end stays inside).
    const size_t sz = (bytes + 31) / 32 * 32 + 32;
    void* p = std::aligned_alloc(64, (sz + 63) / 64 * 64);
    if (!p) throw std::bad_alloc();
    advise_huge_pages(p, sz);
    // Uninitialised device memory reads as 0xFF bytes (NaN, -1), as UB does: a kernel
    // or test that relies on memory it never wrote fails the same way every run.
    std::memset(p, zeroed ? 0x00 : 0xFF, sz);
    try {
        add(p, sz, name ? name : "GmAlloc", true);
    } catch (...) {
        std::free(p);
        throw;
    }
    return p;
}

void gm_free(void* p) {
    gm_retire(p);
    std::free(p);
}

void gm_retire(void* p) {
    if (!p) return;
    {
        std::unique_lock<std::shared_mutex> lk(g_mu);
        auto& r = regions();
        auto range = r.equal_range(reinterpret_cast<uint64_t>(p));
        auto it = range.first;
        while (it != range.second && !it->second.owned) ++it;
        if (it == range.second)
            throw SimViolation("GmFree", -1, "illegal free",
                               "[ascend_sim] GmFree: " + detail::hex(reinterpret_cast<uint64_t>(p)) +
                                   " was not returned by GmAlloc/gm_alloc, or was freed already");
        const uint64_t len = it->second.hi - it->first;
        r.erase(it);
        g_removals.fetch_add(1, std::memory_order_release);
        if (len >= g_maxLen) recompute_max_len();
    }
}

GmRegion::GmRegion(void* p, size_t bytes, std::string name) : p_(p), bytes_(bytes) {
    add(p, bytes, std::move(name), false);
}

GmRegion::~GmRegion() {
    std::unique_lock<std::shared_mutex> lk(g_mu);
    auto& r = regions();
    const uint64_t lo = reinterpret_cast<uint64_t>(p_);
    auto range = r.equal_range(lo);
    g_removals.fetch_add(1, std::memory_order_release);
    for (auto it = range.first; it != range.second; ++it)
        if (!it->second.owned && it->second.hi == lo + bytes_) {
            if (--it->second.refs == 0) {
                r.erase(it);
                if (bytes_ >= g_maxLen) recompute_max_len();
            }
            return;
        }
}

namespace detail {

bool gm_lookup(uint64_t lo, uint64_t hi, GmHit* hit) {
    LookupCache& c = t_lookup;
    if (const LookupCache::Entry* e = c.covering(lo, hi, g_removals.load(std::memory_order_acquire))) {
        if (hit) *hit = {e->lo, e->hi};
        return true;
    }
    std::shared_lock<std::shared_mutex> lk(g_mu);
    bool first = true;
    const bool found = scan_down(lo, [&](RegionMap::iterator it) {
        if (hit && first) *hit = {it->first, it->second.hi};  // the nearest region, also on a miss
        first = false;
        if (hi <= it->second.hi) {
            if (hit) *hit = {it->first, it->second.hi};
            c.add(it->first, it->second.hi, g_removals.load(std::memory_order_relaxed));
            return true;
        }
        return false;
    });
    return found;
}

namespace {
// The region that starts nearest below addr and holds it (one past its end counts,
// so that the end of a range is described relative to its region): its name and
// start; false outside every region.
bool region_of(uint64_t addr, std::string& name, uint64_t& start) {
    return scan_down(addr, [&](RegionMap::iterator it) {
        if (addr > it->second.hi) return false;
        name = it->second.name;
        start = it->first;
        return true;
    });
}
}  // namespace

std::string gm_describe(uint64_t addr) {
    std::shared_lock<std::shared_mutex> lk(g_mu);
    std::string name;
    uint64_t start;
    return region_of(addr, name, start) ? name + "+" + hex(addr - start) : hex(addr);
}

std::string gm_describe_range(uint64_t lo, uint64_t hi) {
    // Both ends relative to lo's region, also where hi runs past it (an overrun of
    // weight by 4 bytes reads "weight+0x7d00, weight+0x7d04").
    std::shared_lock<std::shared_mutex> lk(g_mu);
    std::string name;
    uint64_t start;
    if (!region_of(lo, name, start)) return hex(lo) + ", " + hex(hi);
    return name + "+" + hex(lo - start) + ", " + name + "+" + hex(hi - start);
}

}  // namespace detail
}  // namespace ascend_sim

// The GM registry: which host memory kernels may touch as GM. gm_alloc'd
// blocks and GmRegion-registered caller memory, keyed by start address.
#include <cstdlib>
#include <cstring>
#include <map>
#include <shared_mutex>

#include "ascend_sim/runtime_state.h"

namespace ascend_sim {

namespace {
struct Region {
    uint64_t bytes;
    std::string name;
    bool owned;  // from gm_alloc
};
std::shared_mutex g_mu;
std::map<uint64_t, Region>& regions() {
    static std::map<uint64_t, Region> r;
    return r;
}

void add(void* p, size_t bytes, std::string name, bool owned) {
    std::unique_lock<std::shared_mutex> lk(g_mu);
    const uint64_t lo = reinterpret_cast<uint64_t>(p);
    auto& r = regions();
    auto it = r.upper_bound(lo);
    const bool overlapNext = it != r.end() && it->first < lo + (bytes ? bytes : 1);
    bool overlapPrev = false;
    if (it != r.begin()) {
        auto pr = std::prev(it);
        overlapPrev = pr->first + pr->second.bytes > lo;
    }
    if (overlapNext || overlapPrev)
        throw SimViolation("GmRegion", -1, "GM regions overlap",
                           "[ascend_sim] GmRegion: [" + detail::hex(lo) + ", +" + std::to_string(bytes) +
                               ") overlaps a registered GM region");
    r[lo] = Region{uint64_t(bytes), std::move(name), owned};
}
}  // namespace

void* gm_alloc(size_t bytes, const char* name) {
    // aclrtMalloc semantics: 64-byte aligned; round up to 32 (+32 as CANN pads).
    const size_t sz = (bytes + 31) / 32 * 32 + 32;
    void* p = std::aligned_alloc(64, (sz + 63) / 64 * 64);
    if (!p) throw std::bad_alloc();
    std::memset(p, 0, sz);
    add(p, bytes, name ? name : "GmAlloc", true);
    return p;
}

void gm_free(void* p) {
    if (!p) return;
    {
        std::unique_lock<std::shared_mutex> lk(g_mu);
        auto it = regions().find(reinterpret_cast<uint64_t>(p));
        if (it == regions().end() || !it->second.owned)
            throw SimViolation("GmFree", -1, "illegal free",
                               "[ascend_sim] GmFree: " + detail::hex(reinterpret_cast<uint64_t>(p)) +
                                   " was not returned by GmAlloc/gm_alloc, or was freed already");
        regions().erase(it);
    }
    std::free(p);
}

GmRegion::GmRegion(void* p, size_t bytes, std::string name) : p_(p), bytes_(bytes) {
    add(p, bytes, std::move(name), false);
}

GmRegion::~GmRegion() {
    std::unique_lock<std::shared_mutex> lk(g_mu);
    auto it = regions().find(reinterpret_cast<uint64_t>(p_));
    if (it != regions().end() && !it->second.owned) regions().erase(it);
}

namespace detail {

bool gm_lookup(uint64_t lo, uint64_t hi, GmHit* hit) {
    std::shared_lock<std::shared_mutex> lk(g_mu);
    auto& r = regions();
    auto it = r.upper_bound(lo);
    if (it == r.begin()) return false;
    --it;
    const uint64_t end = it->first + it->second.bytes;
    if (hit) *hit = {it->first, end};
    return lo >= it->first && hi <= end && lo < end + (hi == lo ? 1 : 0);
}

std::string gm_describe(uint64_t addr) {
    std::shared_lock<std::shared_mutex> lk(g_mu);
    auto& r = regions();
    auto it = r.upper_bound(addr);
    if (it != r.begin()) {
        --it;
        if (addr <= it->first + it->second.bytes) return it->second.name + "+" + hex(addr - it->first);
    }
    return hex(addr);
}

}  // namespace detail
}  // namespace ascend_sim

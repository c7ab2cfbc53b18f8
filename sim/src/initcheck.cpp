// initcheck, after msSanitizer's initcheck: every UB byte is
// undefined from the TPipe's InitBuffer until something writes it (DMA into
// UB, a vector instruction's dst, SetValue, the scalar store of ReduceSum...);
// a read of an undefined byte (vector src, GetValue, DMA UB->GM source) is a
// violation. Bytes stay defined until the TPipe is reset or destroyed, whoever
// allocated the buffer since: msSanitizer tracks bytes, not allocations, so
// AllocTensor does not make a buffer undefined again.
//
// The state is a set of disjoint, coalesced intervals of written bytes
// (O(log n) per API call, never per element).
#include <cstdio>
#include "ascend_sim/runtime_state.h"
#include "ub_operand.h"

namespace ascend_sim::detail {

uint64_t InitShadow::first_unwritten(uint64_t lo, uint64_t hi) {
    if (hi <= lo) return hi;
    auto it = m_.upper_bound(lo);
    if (it == m_.begin()) return lo;
    --it;
    if (it->second <= lo) return lo;
    remember(it->first, it->second);
    // Coalesced: the byte at it->second is unwritten.
    return it->second >= hi ? hi : it->second;
}

bool InitShadow::none_written(uint64_t lo, uint64_t hi) const {
    auto it = m_.upper_bound(lo);
    if (it != m_.begin() && std::prev(it)->second > lo) return false;
    return it == m_.end() || it->first >= hi;
}

void InitShadow::mark_slow(uint64_t lo, uint64_t hi) {
    if (hi <= lo) return;
    auto it = m_.upper_bound(lo);
    if (it != m_.begin()) {
        auto prev = std::prev(it);
        if (prev->second >= lo) {  // overlaps or touches [lo, hi)
            if (prev->second >= hi) {
                remember(prev->first, prev->second);
                return;
            }
            lo = prev->first;
            it = prev;
        }
    }
    while (it != m_.end() && it->first <= hi) {
        if (it->second > hi) hi = it->second;
        it = m_.erase(it);
    }
    m_.emplace_hint(it, lo, hi);
    remember(lo, hi);
}

void InitShadow::unmark(uint64_t lo, uint64_t hi) {
    if (hi <= lo) return;
    forget();
    auto it = m_.upper_bound(lo);
    if (it != m_.begin()) {
        auto prev = std::prev(it);
        if (prev->second > lo) {
            const uint64_t end = prev->second;
            if (prev->first == lo) m_.erase(prev);
            else prev->second = lo;
            if (end > hi) {
                m_.emplace_hint(it, hi, end);
                return;
            }
        }
    }
    while (it != m_.end() && it->first < hi) {
        const uint64_t end = it->second;
        it = m_.erase(it);
        if (end > hi) {
            m_.emplace_hint(it, hi, end);
            return;
        }
    }
}

void init_report(const char* api, Block& b, const char* role, uint64_t lo, uint64_t hi, uint64_t first) {
    if (b.advInternal) return;  // an advanced API's own reads (adv/adv_internal.h); it checked the caller's
    const std::string site = std::string("uninitialised read|") + api + "|" + (role ? role : "");
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "uninitialised read: %s%sUB [%s, %s) (%llu B) was never written since InitBuffer (first "
                  "unwritten byte at %s)%s",
                  role ? role : "", role ? " " : "", hex(lo).c_str(), hex(hi).c_str(), (unsigned long long)(hi - lo),
                  hex(first).c_str(), ub_owner(b, lo).c_str());
    // Neither the NPU nor the real implementation refuses such a read (the lanes often end
    // up discarded): a warning, once per API and operand, unless ASCEND_XENT_INITCHECK=error.
    if (b.launch && !b.launch->initcheckError) {
        warn_once_lazy(site, [&] {
            return api + std::string(" (block ") + std::to_string(b.idx) + "): " + buf +
                   " (the NPU reads whatever the bytes hold; ASCEND_XENT_INITCHECK=error stops here)" + site_text(api);
        });
        return;
    }
    report_or_throw(b.launch, site, [&] { return violation(api, "uninitialised read", buf); });
}

namespace {
bool contiguous(const UbBlocks& k) { return k.count == 1 || (k.lo == 0 && k.hi == k.pitch); }
}  // namespace

void init_read_blocks(const char* api, Block& b, const char* role, uint64_t base, const UbBlocks& k) {
    if (!b.initcheck || k.count == 0 || k.hi <= k.lo) return;
    const uint64_t lo = base + k.lo, hi = base + (k.count - 1) * k.pitch + k.hi;
    if (b.init.written(lo, hi)) return;  // the hull: exact when contiguous, and the usual case
    // Some byte of the hull is unwritten: find the first block that reads one
    // (a strided read whose gaps are unwritten costs one lookup per block).
    for (uint64_t i = 0; i < k.count; ++i) {
        const uint64_t lo = base + i * k.pitch + k.lo, hi = base + i * k.pitch + k.hi;
        if (k.wholeBlocks && hi - lo >= 32) {
            // The last 32 B block may end in a tail never written after a written
            // head: the copy's granularity, not a read of the kernel's (msSanitizer
            // reports these "dirty tails"; the bytes reach GM as the 0xFF they hold).
            const uint64_t last = hi - 32, u = b.init.first_unwritten(lo, hi);
            if (u > last && b.init.none_written(u, hi)) continue;
        }
        init_read(api, b, role, lo, hi);
    }
}

void init_write_blocks(Block& b, uint64_t base, const UbBlocks& k) {
    if (!b.initcheck || k.count == 0) return;
    if (k.lo == 0 && k.hi == k.span) {  // every byte of each block defined
        if (contiguous(k) || k.span == k.pitch) {
            b.init.mark(base, base + (k.count - 1) * k.pitch + k.span);
            return;
        }
        if (b.init.written(base, base + (k.count - 1) * k.pitch + k.span)) return;
        for (uint64_t i = 0; i < k.count; ++i) b.init.mark(base + i * k.pitch, base + i * k.pitch + k.span);
        return;
    }
    // Each block: undefined bytes around the defined part (DataCopyPad pads without isPad).
    for (uint64_t i = 0; i < k.count; ++i) {
        const uint64_t s = base + i * k.pitch;
        b.init.unmark(s, s + k.span);
        b.init.mark(s + k.lo, s + k.hi);
    }
}

void ub_written(const char* api, const void* p, uint64_t bytes) {
    Block& b = cur(api);
    if (!b.initcheck) return;
    const uint64_t off = uint64_t(static_cast<const uint8_t*>(p) - b.ub);
    b.init.mark(off, off + bytes);
}

void adv_read(const char* api, const UbRef& t, uint64_t bytes, const char* role) {
    Block& b = cur(api);
    const uint64_t off = check_ub_operand(api, b, t, role, 1);
    init_read(api, b, role, off, off + bytes);
}

void gather_read(const char* api, const UbRef& src, const uint32_t* offsets, uint32_t base, uint32_t count,
                 uint32_t elemSize) {
    Block& b = cur(api);
    if (!b.initcheck || count == 0) return;
    const uint64_t off = uint64_t(static_cast<const uint8_t*>(src.p) - b.ub);
    if (b.init.written(off, off + src.dataLen)) return;
    // Offsets were validated by the gather loop (aligned, inside src).
    for (uint32_t i = 0; i < count; ++i) {
        const uint64_t lo = off + base + offsets[i];
        init_read(api, b, "src", lo, lo + elemSize);
    }
}

}  // namespace ascend_sim::detail

// The per-call work of the data APIs: operand checks for vector instructions,
// scalar UB/GM accesses and DMA transfers, each followed by the pipe-hazard
// bookkeeping and the counters. All O(1) or O(log n) per call.
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "ascend_sim/kernel_defs.h"
#include "ascend_sim/runtime_state.h"
#include "timing_trace.h"
#include "ub_operand.h"

namespace ascend_sim::detail {

namespace {
using AscendC::TPosition;

bool ub_position(uint8_t pos) {
    return TPosition(pos) == TPosition::VECIN || TPosition(pos) == TPosition::VECOUT ||
           TPosition(pos) == TPosition::VECCALC;
}

// An access past its tensor's end in memory that exists (ub_operand.h): reported at
// the launch's past-tensor level, once per site when a warning.
void past_tensor(const char* api, Block* b, const std::string& site, const char* detail, const char* why) {
    const int level = b && b->launch ? b->launch->pastTensor : 2;
    if (level == 0) return;
    if (level == 1) {
        warn_once_lazy(site, [&] {
            return api + std::string(" (block ") + std::to_string(b->idx) + "): " + detail + " (" + why +
                   "; ASCEND_XENT_PAST_TENSOR=error stops here)" + site_text(api);
        });
        return;
    }
    report_or_throw(b ? b->launch : nullptr, site, [&] { return violation(api, "past the tensor", detail); });
}

// A vector operand's access of `bytes` from UB offset `off` (its tensor t's start) that
// runs past the tensor's end: a stop past the end of UB, else reported at the
// launch's past-tensor level.
void vec_past_tensor(const char* api, Block& b, const UbRef& t, const char* role, uint64_t off, uint64_t bytes,
                     bool write, const char* why) {
    const char* verb = write ? "writes" : "reads";
    if (off + bytes > b.ubTotal)
        fail(api, write ? "write outside UB" : "read outside UB", "%s %s UB [%s, %s) (%llu B), past the end of the UB (%s)",
             role, verb, hex(off).c_str(), hex(off + bytes).c_str(), (unsigned long long)bytes, hex(b.ubTotal).c_str());
    if (b.advInternal) return;  // an advanced API's own whole repeats (adv/adv_internal.h)
    const char* what = write ? "write past the tensor" : "read past the tensor";
    char buf[512];
    std::snprintf(buf, sizeof buf, "%s: %s %s UB [%s, %s) (%llu B), %llu B past the end of its tensor (%u B)%s", what,
                  role, verb, hex(off).c_str(), hex(off + bytes).c_str(), (unsigned long long)bytes,
                  (unsigned long long)(bytes - t.dataLen), t.dataLen, ub_owner(b, off + t.dataLen).c_str());
    past_tensor(api, &b, std::string(what) + "|" + api + "|" + role, buf, why);
}
}  // namespace

void check_gm(const char* api, const char* dir, const GmRef& g, uint64_t span) {
    const uint64_t lo = reinterpret_cast<uint64_t>(g.p), hi = lo + span;
    if (!gm_lookup(lo, hi, nullptr))
        fail(api, "GM access outside any allocation",
             "%s [%s) (%llu B) is not inside one GM allocation (GmAlloc/gm_alloc/GmRegion)", dir,
             gm_describe_range(lo, hi).c_str(), (unsigned long long)span);
    const uint64_t ori = reinterpret_cast<uint64_t>(g.ori);
    if (!g.oriBytes || (lo >= ori && hi <= ori + g.oriBytes)) return;
    // SetGlobalBuffer's size bounds nothing in the real implementation (GetValue reads
    // oriAddress_[offset], the CPU twin's DataCopy check passes no GM size): inside its
    // allocation the NPU makes the access.
    char buf[512];
    std::snprintf(buf, sizeof buf, "%s [%s) (%llu B) is outside the GlobalTensor's SetGlobalBuffer range [%s) (%llu B)",
                  dir, gm_describe_range(lo, hi).c_str(), (unsigned long long)span,
                  gm_describe_range(ori, ori + g.oriBytes).c_str(), (unsigned long long)g.oriBytes);
    past_tensor(api, tls_block, std::string("past the GlobalTensor|") + api + "|" + dir, buf,
                "it lies in the same GM allocation, and the NPU accesses it");
}

void adv_internal_enter(const char* api) { ++cur(api).advInternal; }

void adv_internal_leave() noexcept {
    if (tls_block && tls_block->advInternal) --tls_block->advInternal;
}

uint64_t check_ub_operand(const char* api, Block& b, const UbRef& t, const char* role, uint32_t align) {
    if (!ub_position(t.pos))
        fail(api, "operand not in UB",
             "%s is at %s, not a UB position (VECIN, VECOUT or VECCALC); was the LocalTensor initialised?", role,
             pos_name(t.pos));
    const auto* p = static_cast<const uint8_t*>(t.p);
    if (p < b.ub || p + t.dataLen > b.ub + b.ubTotal)
        fail(api, "operand outside this block's UB", "%s does not lie in this block's UB", role);
    const uint64_t off = uint64_t(p - b.ub);
    if (off % align != 0)
        fail(api, "UB address not aligned", "%s starts at UB %s, not %u-byte aligned", role, hex(off).c_str(), align);
    return off;
}

uint64_t vec_read_in_tensor(const char* api, Block& b, const UbRef& t, const char* role, uint64_t off, uint64_t bytes) {
    if (bytes <= t.dataLen) return bytes;
    // The NPU reads the bytes wherever they lie in UB (a vector instruction reads whole
    // repeats: A2's Compare reads 256 B per repeat whatever its mask); only the lanes
    // computed from them are wrong, and kernels often discard them.
    vec_past_tensor(api, b, t, role, off, bytes, false,
                    "the bytes lie in UB and the NPU reads whatever they hold; the lanes computed from them are the "
                    "kernel's to discard");
    return t.dataLen;
}

void vec_write_past_tensor(const char* api, Block& b, const UbRef& t, const char* role, uint64_t off, uint64_t bytes) {
    if (bytes <= t.dataLen) return;
    // Neither the device nor the NPU-side debug checks bound a dst by its tensor
    // (dav_c220 BrcbImpl and the count forms' impls take the address alone); the bytes
    // land in whatever UB follows, which a kernel may rewrite before reading it.
    vec_past_tensor(api, b, t, role, off, bytes, true,
                    "the bytes lie in UB and the NPU writes them; what they overwrite is the kernel's to rewrite");
}

uint64_t ub_offset(const char* api, const void* p) {
    Block& b = cur(api);
    return uint64_t(static_cast<const uint8_t*>(p) - b.ub);
}

uint64_t ub_total_bytes() {
    Block* b = tls_block;
    return b ? b->ubTotal : 192 * 1024;
}

void vec_check_operand(const char* api, const VecArg& a) {
    Block& b = cur(api);
    check_ub_operand(api, b, a.t, a.role, a.align);
    if (a.bytes > a.t.dataLen)
        fail(api, "count beyond tensor size", "%s needs %llu B but the tensor holds %u B (%u elements of %u B)",
             a.role, (unsigned long long)a.bytes, a.t.dataLen, a.t.dataLen / a.elemSize, a.elemSize);
}

bool vec_instr(const char* api, VecOp op, int64_t count, uint32_t widestElem, const VecArg* args, int n,
               bool allowFullOverlap) {
    Block& b = cur(api);
    if (count < 0) fail(api, "negative count", "count %lld is negative", (long long)count);
    uint64_t off[8], bytes[8];  // bytes: what the checks below see of each operand (a source within its tensor)
    // A dst written past its tensor: asc-devkit asserts count <= dst.GetSize() only in
    // APIs A2 lacks (tensor-shift ShiftLeft/ShiftRight, Prelu, Mull, AbsSub, ExpSub,
    // MulsCast, Truncate: kernel_operator_vec_binary_intf_impl.h and its kin); the count
    // forms A2 has pass the sizes to CPU-debug checks whose code is not public, and the
    // docs bound count by the UB only. So inside UB it is reported at the past-tensor
    // level and the bytes are written; past the UB's end it stops.
    for (int i = 0; i < n; ++i) {
        off[i] = check_ub_operand(api, b, args[i].t, args[i].role, args[i].align);
        if (args[i].write) vec_write_past_tensor(api, b, args[i].t, args[i].role, off[i], args[i].bytes);
    }
    for (int i = 0; i < n; ++i)
        bytes[i] = args[i].write ? args[i].bytes : vec_read_in_tensor(api, b, args[i].t, args[i].role, off[i], args[i].bytes);
    // 通用地址重叠约束: within a 256 B repeat dst/src overlap 100% or not at all;
    // across repeats no later repeat may read what an earlier one wrote, so a dst
    // at least one repeat before its src (same element size) is legal.
    for (int w = 0; w < n; ++w) {
        if (!args[w].write) continue;
        for (int r = 0; r < n; ++r) {
            if (args[r].write) continue;
            const uint64_t wl = off[w], wh = wl + bytes[w], rl = off[r], rh = rl + bytes[r];
            if (wl >= rh || rl >= wh || !bytes[w] || !bytes[r]) continue;
            // Element for element from the same start: the source's whole extent counts,
            // also where it runs past its tensor (Exp(t, t, count) past t's end).
            const bool full = wl == rl && bytes[w] <= args[r].bytes;
            const bool behind = args[w].elemSize == args[r].elemSize && wl + 256 <= rl;
            // CheckCastOverlappingHigh (kernel_utils_constants.h): a widening Cast may read its
            // src from the upper part of its dst, from AlignUp(dst + count * sizeof(src), 32) on.
            const bool castHigh = op == VecOp::Cast && args[r].elemSize < args[w].elemSize &&
                                  rl >= (wl + uint64_t(count) * args[r].elemSize + 31) / 32 * 32;
            if ((full || behind || castHigh) && allowFullOverlap) continue;
            fail(api, full ? "dst aliases src" : "partial overlap",
                 "%s UB [%s, %s) and %s UB [%s, %s) overlap %s%s%s", args[w].role, hex(wl).c_str(), hex(wh).c_str(),
                 args[r].role, hex(rl).c_str(), hex(rh).c_str(),
                 full ? "(this API forbids any aliasing)" : "partially (the hardware allows 100% overlap, none, or a dst at least one 256 B repeat before its src)",
                 ub_owner(b, wl).c_str(), ub_owner(b, rl).c_str());
        }
    }
    // dav_c220's count forms run in Counter mode and leave Normal mode with a
    // full mask; Compare/CompareScalar and Transpose leave the register alone, Gather sets it itself.
    if (op != VecOp::Compare && op != VecOp::CompareScalar && op != VecOp::Gather && op != VecOp::Transpose) {
        b.vecMask.hi = b.vecMask.lo = ~0ull;
        b.vecMask.counter = false;
    }
    if (count == 0) return false;  // a NOP on A2/A3
    b.used = true;
    const uint64_t repeats = (uint64_t(count) * widestElem + 255) / 256;
    ++b.ctr.vectorInstructions;
    b.ctr.vectorRepeats += repeats;
    b.repeatsByOp[size_t(op)] += repeats;
    if (b.initcheck)
        for (int i = 0; i < n; ++i)
            if (!args[i].write && args[i].initcheck) init_read(api, b, args[i].role, off[i], off[i] + bytes[i]);
    const Instr in = b.hz.issue(P_V, api);
    if (b.trace) {
        VecOperand ops[8];
        for (int i = 0; i < n; ++i)
            ops[i] = VecOperand{off[i], uint32_t(256 * args[i].elemSize / widestElem), 1, args[i].write};
        t_vec(b, api, op, repeats, widestElem, ops, n);
    }
    // A lone write to the range the operand before it reads (Muls(x, x, ...), Axpy's
    // dst) shares one pass with that read, after the other reads: the same checks in
    // the same order.
    const int last = n - 1;
    int writes = 0;
    for (int i = 0; i < n; ++i) writes += args[i].write ? 1 : 0;
    const bool inPlace = n >= 2 && writes == 1 && args[last].write && !args[last - 1].write && off[last - 1] == off[last] &&
                         bytes[last - 1] == bytes[last];
    for (int i = 0; i < n; ++i)
        if (!args[i].write && !(inPlace && i == last - 1))
            b.hz.access(api, in, Space::UB, off[i], off[i] + bytes[i], false);
    for (int i = 0; i < n; ++i)
        if (args[i].write) {
            if (inPlace && i == last) b.hz.access_rw(api, in, Space::UB, off[i], off[i] + bytes[i]);
            else b.hz.access(api, in, Space::UB, off[i], off[i] + bytes[i], true);
            if (b.initcheck) b.init.mark(off[i], off[i] + bytes[i]);
        }
    return true;
}

void vec_blocks(const char* api, VecOp op, const void* const* blocks, const uint8_t* lo, uint32_t bytes,
                const bool* write, size_t n, uint64_t repeats) {
    Block& b = cur(api);
    for (size_t i = 0; i < n; ++i) {
        const auto* p = static_cast<const uint8_t*>(blocks[i]);
        if (p < b.ub || p + 32 > b.ub + b.ubTotal)
            fail(api, "operand outside this block's UB", "%s address %zu does not lie in this block's UB",
                 write[i] ? "a dst" : "a src", i);
        if (uint64_t(p - b.ub) % 32 != 0)
            fail(api, "UB address not aligned", "%s address %zu is at UB %s, not 32-byte aligned",
                 write[i] ? "a dst" : "a src", i, hex(uint64_t(p - b.ub)).c_str());
    }
    if (n == 0) return;
    b.used = true;
    ++b.ctr.vectorInstructions;
    b.ctr.vectorRepeats += repeats;
    b.repeatsByOp[size_t(op)] += repeats;
    const auto off = [&](size_t i) { return uint64_t(static_cast<const uint8_t*>(blocks[i]) - b.ub) + lo[i]; };
    if (b.initcheck)
        for (size_t i = 0; i < n; ++i)
            if (!write[i]) init_read(api, b, "src", off(i), off(i) + bytes);
    const Instr in = b.hz.issue(P_V, api);
    t_vec(b, api, op, repeats, 4, nullptr, 0);
    for (size_t i = 0; i < n; ++i)
        if (!write[i]) b.hz.access(api, in, Space::UB, off(i), off(i) + bytes, false);
    for (size_t i = 0; i < n; ++i)
        if (write[i]) {
            b.hz.access(api, in, Space::UB, off(i), off(i) + bytes, true);
            if (b.initcheck) b.init.mark(off(i), off(i) + bytes);
        }
}

void reduce_scalar_store(const char* api, const void* dst, uint32_t bytes) {
    // dav_c220 ReduceSum: wait V (V_S), the scalar unit stores dst[0], then
    // S_V and S_MTE3 so later vector and MTE3 work sees it.
    Block& b = cur(api);
    b.hz.join(P_S, b.hz.snapshot(P_V));
    t_join(b, P_S, P_V);
    t_scalar(b, false);
    const Instr in = b.hz.issue(P_S, api);
    const uint64_t off = uint64_t(static_cast<const uint8_t*>(dst) - b.ub);
    b.hz.access(api, in, Space::UB, off, off + bytes, true);
    if (b.initcheck) b.init.mark(off, off + bytes);
    const Clock s = b.hz.snapshot(P_S);
    b.hz.join(P_V, s);
    b.hz.join(P_MTE3, s);
    t_join(b, P_V, P_S);
    t_join(b, P_MTE3, P_S);
}

void scalar_ub(const char* api, const void* p, uint32_t bytes, bool write) {
    Block& b = cur(api);
    const auto* q = static_cast<const uint8_t*>(p);
    if (q < b.ub || q + bytes > b.ub + b.ubTotal)
        fail(api, "operand outside this block's UB", "the LocalTensor does not lie in this block's UB");
    write ? ++b.ctr.scalarUbWrites : ++b.ctr.scalarUbReads;
    t_scalar(b, false);
    const uint64_t off = uint64_t(q - b.ub);
    if (!write) init_read(api, b, nullptr, off, off + bytes);
    const Instr in = b.hz.issue(P_S, api);
    b.hz.access(api, in, Space::UB, off, off + bytes, write);
    if (write && b.initcheck) b.init.mark(off, off + bytes);
}

namespace {
// A poll (a flag read again): the block steps aside for the others. Polls that
// read the same value with nothing else done while every other block has ended
// or waits in SyncAll can never see it change: reported, as IBWait's wait is.
void poll_step(Block& b, const char* api, uint64_t at, const void* v, uint32_t bytes) {
    Launch& L = *b.launch;
    if (!L.fiberMode) return;  // a lone block polls alone too: nothing else can write its flag
    uint64_t value = 0;
    std::memcpy(&value, v, std::min<uint32_t>(bytes, sizeof value));
    const bool same = at == b.pollAt && value == b.pollValue && b.records.size() == b.pollRecords;
    b.pollAt = at;
    b.pollValue = value;
    b.pollRecords = b.records.size();
    poll_yield(b);
    bool alone;
    {
        std::lock_guard<std::mutex> lk(L.mu);
        alone = L.ended + L.arrived + 1 == L.blockDim;
    }
    b.pollSame = same && alone ? b.pollSame + 1 : 0;
    constexpr uint32_t kHopeless = 1000;  // polls, so that a block that just ended is not mistaken
    if (b.pollSame >= kHopeless)
        fail(api, "inter-core wait never satisfied",
             "polls GM %s, which keeps reading %llu; every other block has ended or waits in SyncAll, so nothing "
             "can change it: the NPU would hang",
             gm_describe(at).c_str(), (unsigned long long)value);
}
}  // namespace

void scalar_gm(const char* api, const GmRef& g, uint32_t bytes, bool write, void* value) {
    Block& b = cur(api);
    check_gm(api, write ? "scalar write of" : "scalar read of", g, bytes);
    write ? ++b.ctr.scalarGmWrites : ++b.ctr.scalarGmReads;
    t_scalar(b, true);
    const uint64_t lo = reinterpret_cast<uint64_t>(g.p), hi = lo + bytes;
    const uint64_t line = lo >> 6;
    Launch& L = *b.launch;
    const Instr in = b.hz.issue(P_S, api);
    bool poll = false;
    uint8_t v[8];
    if (write) {
        if (L.dirtyCount.load(std::memory_order_relaxed) > b.dirtyLines.size()) {
            std::lock_guard<std::mutex> lk(L.dirtyMu);
            auto it = L.dirtyOwner.find(line);
            if (it != L.dirtyOwner.end() && it->second != b.idx)
                fail(api, "GM line dirty in another core's DCache",
                     "writes GM %s, in a 64-byte line block %u wrote with SetValue and has not cleaned "
                     "(DataCacheCleanAndInvalid); scalar accesses of different cores must be 64 B apart",
                     gm_describe(lo).c_str(), it->second);
        }
        if (b.dirtyLines.insert(line).second) {
            std::lock_guard<std::mutex> lk(L.dirtyMu);
            L.dirtyOwner[line] = b.idx;
            copy_line(L.dirtyOld[line].data(), line, lo, hi);
            L.dirtyCount.fetch_add(1, std::memory_order_relaxed);
        }
        dcache_write(b, lo, hi, value);
        add_gm_record(b, in, line << 6, (line + 1) << 6, true);  // a clean writes the whole line back
    } else {
        const bool filled = dcache_read(b, api, lo, hi, v);
        if (value) std::memcpy(value, v, bytes);
        // A clean, then a read of the line: the polling idiom; let the writer run.
        poll = filled && line == b.lastDcciLine;
        if (poll) b.lastDcciLine = UINT64_MAX;
        // One race record per distinct scalar read range and epoch: a gather such as
        // weight[t_i] repeats a few addresses thousands of times, and identical read
        // records are redundant for the race check.
        if (b.scalarReadsSeen.insert(lo * 16 + bytes).second) add_gm_record(b, in, lo, hi, false);
    }
    b.hz.access(api, in, Space::GM, lo, hi, write);
    if (poll) poll_step(b, api, lo, v, bytes);
}

// ReadGmByPassDCache / WriteGmByPassDCache: a scalar access of GM itself (ld_dev /
// st_dev), which neither fills nor cleans a DCache line. Both are GM flag accesses
// (ib_sync.cpp); a read of the address the last one read is a poll: the writer runs.
void scalar_gm_bypass(const char* api, const GmRef& g, uint32_t bytes, bool write, void* value) {
    Block& b = cur(api);
    check_gm(api, write ? "scalar write of" : "scalar read of", g, bytes);
    write ? ++b.ctr.scalarGmWrites : ++b.ctr.scalarGmReads;
    t_scalar(b, true);
    const uint64_t lo = reinterpret_cast<uint64_t>(g.p), hi = lo + bytes;
    const Instr in = b.hz.issue(P_S, api);
    dcache_on_bypass(b, api, lo, hi, write);
    bool poll = false;
    if (write) {
        add_gm_record(b, in, lo, hi, true);
        gm_flag_write(b, lo, hi, value);
    } else {
        gm_flag_read(b, lo, hi, static_cast<uint8_t*>(value), nullptr);
        add_gm_record(b, in, lo, hi, false);
        poll = lo == b.lastBypassRead;
        b.lastBypassRead = lo;
    }
    b.hz.access(api, in, Space::GM, lo, hi, write);
    if (poll) poll_step(b, api, lo, value, bytes);
}

namespace {
// The GM bytes a DMA touches: `count` rows of `len` bytes, `pitch` apart. A
// strided copy (DataCopyParams gaps, DataCopyPad strides) leaves the bytes
// between its rows alone, which another core may own (the rows of two cores'
// column tiles interleave), so the race check, the DCache rules and the hazard
// map see each row, not the hull. A gapless copy is one row.
struct GmRows {
    uint64_t lo, len, pitch, count;
    template <class F>
    void each(F f) const {
        for (uint64_t i = 0, at = lo; i < count; ++i, at += pitch) f(at, at + len);
    }
};

// dma() gets the hull [lo, lo + gmSpan) and the payload of blocks.count equal
// blocks; the GM block length and pitch follow from them exactly.
GmRows gm_rows(uint64_t lo, uint64_t gmSpan, uint64_t payload, uint64_t count) {
    const uint64_t len = count ? payload / count : 0;
    if (count <= 1 || len == 0 || gmSpan == count * len) return GmRows{lo, gmSpan, gmSpan, 1};
    return GmRows{lo, len, (gmSpan - len) / (count - 1), count};
}

// The bytes a UB->GM DMA leaves in GM when they repeat every 8 B, by GM address:
// byte a % 8 of *fill is the byte written at a (GmRecord::fill). Fewer than 8 B
// written: a fill only of one repeated byte.
bool dma_fill(const UbRef& ub, const UbBlocks& blocks, uint64_t gmLo, uint64_t gmSpan, uint64_t payload,
              uint64_t* fill) {
    const uint64_t n = blocks.count, len = n ? payload / n : 0;
    if (!len) return false;
    const uint64_t gmPitch = n > 1 ? (gmSpan - len) / (n - 1) : 0;
    uint8_t pat[8];
    uint32_t seen = 0;  // bit r: pat[r] is known
    for (uint64_t i = 0; i < n; ++i) {
        const auto* s = static_cast<const uint8_t*>(ub.p) + i * blocks.pitch + blocks.lo;
        if (len > 8 && std::memcmp(s, s + 8, len - 8) != 0) return false;  // not 8-periodic
        const uint64_t at = gmLo + i * gmPitch;
        for (uint64_t k = 0; k < len && k < 8; ++k) {
            const uint32_t r = uint32_t((at + k) & 7);
            if (seen >> r & 1) {
                if (pat[r] != s[k]) return false;
            } else {
                pat[r] = s[k];
                seen |= 1u << r;
            }
        }
    }
    if (seen != 0xFF) {
        const int r0 = __builtin_ctz(seen);
        for (int r = 0; r < 8; ++r)
            if (seen >> r & 1 && pat[r] != pat[r0]) return false;
        std::memset(pat, pat[r0], 8);
    }
    std::memcpy(fill, pat, 8);
    return true;
}
}  // namespace

void dma(const char* api, bool toUb, const GmRef& gm, uint64_t gmSpan, const UbRef& ub, uint64_t ubSpan,
         uint64_t payload, const UbBlocks& blocks) {
    Block& b = cur(api);
    const uint64_t off = check_ub_operand(api, b, ub, toUb ? "the UB destination" : "the UB source");
    check_gm(api, toUb ? "GM->UB read of" : "UB->GM write of", gm, gmSpan);
    if (!toUb) init_read_blocks(api, b, "source", off, blocks);
    b.used = true;
    if (toUb) {
        b.ctr.gmReadBytes += payload;
        ++b.ctr.dmaIn;
    } else {
        b.ctr.gmWriteBytes += payload;
        ++b.ctr.dmaOut;
    }
    const GmRows rows = gm_rows(reinterpret_cast<uint64_t>(gm.p), gmSpan, payload, blocks.count);
    const Instr in = b.hz.issue(toUb ? P_MTE2 : P_MTE3, api);
    t_dma(b, api, toUb, rows.lo, rows.len, rows.pitch, rows.count, payload, gm.cacheMode);
    const uint8_t atomic = toUb ? 0 : b.atomic.code();
    uint64_t fill;
    const bool filled = !toUb && !atomic && dma_fill(ub, blocks, rows.lo, gmSpan, payload, &fill);
    rows.each([&](uint64_t lo, uint64_t hi) {
        dcache_on_dma(b, api, lo, hi, toUb);
        add_gm_record(b, in, lo, hi, !toUb, atomic, filled ? &fill : nullptr);
    });
    if (toUb) {
        rows.each([&](uint64_t lo, uint64_t hi) { b.hz.access(api, in, Space::GM, lo, hi, false); });
        b.hz.access(api, in, Space::UB, off, off + ubSpan, true);
        init_write_blocks(b, off, blocks);
    } else {
        b.hz.access(api, in, Space::UB, off, off + ubSpan, false);
        rows.each([&](uint64_t lo, uint64_t hi) { b.hz.access(api, in, Space::GM, lo, hi, true); });
    }
}

void set_pad_register(const char* api, uint64_t bits) {
    Block& b = cur(api);
    b.padRegSet = true;
    b.padReg = bits;
}

bool pad_register(const char* api, uint64_t* bits) {
    const Block& b = cur(api);
    *bits = b.padReg;
    return b.padRegSet;
}

void* user_workspace(const char* api, void* ws) {
    Block& b = cur(api);
    if (!ws) fail(api, "null workspace", "the workspace pointer is null");
    const uint64_t sys = b.launch->prof.libApiWorkspaceBytes;
    const uint64_t lo = reinterpret_cast<uint64_t>(ws);
    if (!gm_lookup(lo, lo + sys, nullptr))
        fail(api, "workspace smaller than the system workspace",
             "the workspace at %s is not a GM allocation of at least the %llu B system workspace "
             "(GetLibApiWorkSpaceSize) that precedes the user workspace",
             gm_describe(lo).c_str(), (unsigned long long)sys);
    return static_cast<uint8_t*>(ws) + sys;
}

// dav_c220 SetSysWorkspace: the CPU twin asserts a non-null pointer; the NPU
// keeps the first address it is given.
void set_sys_workspace(void* ws) {
    Block& b = cur("SetSysWorkspace");
    if (!ws) fail("SetSysWorkspace", "null workspace", "the workspace pointer is null");
    if (!b.sysWorkspace) b.sysWorkspace = ws;
}
void* sys_workspace() { return cur("GetSysWorkSpacePtr").sysWorkspace; }

}  // namespace ascend_sim::detail

// The high-dimension vector forms: the mask register (SetVectorMask,
// SetMaskCount/SetMaskNorm) and the per-call work of a repeated instruction
// (which elements the mask selects, the bytes each operand's strides put them
// at, and the bounds, overlap, initcheck and hazard checks on exactly those
// bytes). O(active runs) per call: at most 8 blocks x repeats per operand.
#include <algorithm>
#include <cstring>
#include <vector>

#include "ascend_sim/runtime_state.h"
#include "timing_trace.h"
#include "ub_operand.h"

namespace ascend_sim::detail {

void vec_set_mask(const char* api, uint64_t hi, uint64_t lo) {
    Block& b = cur(api);
    b.vecMask.hi = hi;
    b.vecMask.lo = lo;
}

void vec_set_mask_mode(const char* api, bool counter) { cur(api).vecMask.counter = counter; }

VecMaskReg vec_mask(const char* api) { return cur(api).vecMask; }

void vec_set_deqscale(const char* api, uint64_t value) {
    Block& b = cur(api);
    b.deqScale = value;
    b.deqScaleSet = true;
}

uint64_t vec_deqscale(const char* api) {
    Block& b = cur(api);
    if (!b.deqScaleSet)
        warn_once(std::string(api) + "/deqscale/" + (b.launch ? b.launch->name : std::string()),
                  std::string(api) + " (block " + std::to_string(b.idx) +
                      "): Cast from int32_t to half scales by the DEQSCALE register, which this block never set "
                      "(SetDeqScale(half)); taken as 0");
    return b.deqScaleSet ? b.deqScale : 0;
}

void init_soc_state(const char* api) {
    Block& b = cur(api);
    b.atomic.op = AtomicOp::NONE;
    b.vecMask.counter = false;
    b.vecMask.hi = b.vecMask.lo = ~uint64_t(0);
}

void vec_set_cmpmask(const char* api, const uint64_t bits[2], bool defined) {
    VecMaskReg& m = cur(api).vecMask;
    m.cmp[0] = bits[0];
    m.cmp[1] = bits[1];
    m.cmpDefined = defined;
}

void vec_set_acc(const char* api, uint64_t bits, uint32_t bytes) {
    VecMaskReg& m = cur(api).vecMask;
    m.acc = bits;
    m.accBytes = bytes;
}

uint32_t vec_acc(const char* api, uint64_t* bits) {
    const VecMaskReg& m = cur(api).vecMask;
    *bits = m.acc;
    return m.accBytes;
}

void vec_cmpmask(const char* api, uint64_t bits[2]) {
    const Block& b = cur(api);
    if (b.initcheck && !b.vecMask.cmpDefined)
        fail(api, "uninitialised read",
             "uninitialised read: CMPMASK holds no value the kernel set (SetCmpMask or a Compare into the register "
             "sets it; a Select with a selMask leaves its own internal value)");
    bits[0] = b.vecMask.cmp[0];
    bits[1] = b.vecMask.cmp[1];
}

void vec_cmpmask_io(const char* api, const UbRef& t, bool store) {
    Block& b = cur(api);
    const char* role = store ? "dst" : "src";
    const uint64_t off = check_ub_operand(api, b, t, role, 16);
    if (t.dataLen < 16)
        fail(api, "tensor smaller than CMPMASK", "%s holds %u B; CMPMASK is 16 B", role, t.dataLen);
    b.used = true;
    ++b.ctr.vectorInstructions;
    ++b.ctr.vectorRepeats;
    if (!store && b.initcheck) init_read(api, b, role, off, off + 16);
    const Instr in = b.hz.issue(P_V, api);
    t_vec(b, api, VecOp::Copy, 1, 4, nullptr, 0);
    b.hz.access(api, in, Space::UB, off, off + 16, store);
    void* p = const_cast<void*>(t.p);
    if (store) {
        std::memcpy(p, b.vecMask.cmp, 16);
        if (b.initcheck) b.vecMask.cmpDefined ? b.init.mark(off, off + 16) : b.init.unmark(off, off + 16);
    } else {
        std::memcpy(b.vecMask.cmp, p, 16);
        b.vecMask.cmpDefined = true;
    }
}

namespace {

using Interval = std::pair<uint64_t, uint64_t>;  // [lo, hi) bytes from the tensor's start

constexpr int kMaxArgs = 5;  // MrgSort: four queues and dst

struct Scratch {
    std::vector<RepRun> runs, pattern;
    std::vector<Interval> iv[kMaxArgs];
    // the last instruction, for vec_repeat_packed_write: its issue and its sources
    Instr instr;
    uint64_t off[kMaxArgs];
    int n = 0;
};
thread_local Scratch tls;

// Runs of set bits of one repeat's mask, cut at every `split` elements (a block boundary of the widest operand).
void mask_pattern(const VecMaskReg& m, uint32_t perRepeat, uint32_t split, std::vector<RepRun>& out) {
    out.clear();
    auto bit = [&](uint32_t j) { return ((j < 64 ? m.lo >> j : m.hi >> (j - 64)) & 1u) != 0; };
    for (uint32_t j = 0; j < perRepeat;) {
        if (!bit(j)) {
            ++j;
            continue;
        }
        const uint32_t first = j, end = (j / split + 1) * split;
        while (j < end && j < perRepeat && bit(j)) ++j;
        out.push_back({0, first, j - first});
    }
}

void full_pattern(uint32_t len, uint32_t split, std::vector<RepRun>& out) {
    out.clear();
    for (uint32_t j = 0; j < len; j += split) out.push_back({0, j, std::min(split, len - j)});
}

// The operand's bytes in run order (adjacent runs coalesced), checked against the
// tensor's size: a source read past its end (inside UB) is reported by
// vec_read_in_tensor and its bytes past the end left out; a dst written past its end
// (inside UB) is reported by vec_write_past_tensor and keeps all its bytes, which the
// write fills.
void footprint(const char* api, Block& b, const RepArg& a, uint64_t off, const std::vector<RepRun>& runs,
               std::vector<Interval>& out) {
    out.clear();
    uint64_t end = 0;  // of the bytes touched
    for (size_t i = 0; i < runs.size(); ++i) {
        const RepRun& u = runs[i];
        if (a.repBytes && i && runs[i - 1].repeat == u.repeat) continue;  // one chunk per repeat
        const uint64_t lo = a.repBytes ? uint64_t(u.repeat) * a.repStride * a.repUnit : rep_offset(a, u.repeat, u.first);
        uint64_t hi = lo + (a.repBytes ? a.repBytes : uint64_t(u.len) * a.elemSize);
        end = std::max(end, hi);
        if (!out.empty() && lo >= out.back().first && hi <= out.back().second) continue;  // a repeat stride of 0
        if (!a.write && hi > a.t.dataLen) {
            hi = a.t.dataLen;
            if (lo >= hi) continue;
        }
        if (!out.empty() && out.back().second == lo) out.back().second = hi;
        else out.push_back({lo, hi});
    }
    if (a.write) vec_write_past_tensor(api, b, a.t, a.role, off, end);
    else vec_read_in_tensor(api, b, a.t, a.role, off, end);
}

// Sorted, disjoint, coalesced.
void normalise(std::vector<Interval>& v) {
    if (!std::is_sorted(v.begin(), v.end())) std::sort(v.begin(), v.end());
    size_t k = 0;
    for (size_t i = 0; i < v.size(); ++i) {
        if (k && v[i].first <= v[k - 1].second) v[k - 1].second = std::max(v[k - 1].second, v[i].second);
        else v[k++] = v[i];
    }
    v.resize(k);
}

bool intersect(const std::vector<Interval>& a, uint64_t aBase, const std::vector<Interval>& b, uint64_t bBase) {
    for (size_t i = 0, j = 0; i < a.size() && j < b.size();) {
        const uint64_t al = aBase + a[i].first, ah = aBase + a[i].second;
        const uint64_t bl = bBase + b[j].first, bh = bBase + b[j].second;
        if (al < bh && bl < ah) return true;
        ah <= bh ? ++i : ++j;
    }
    return false;
}

// 通用地址重叠约束: within a repeat dst and src overlap 100% or not at all, and
// no repeat reads what an earlier one wrote. Same start, element size and
// strides is the 100% case when no two active elements share a byte (the
// footprint is as large as the elements it holds): then every byte is read and
// written by one element of one repeat, however the repeats interleave.
bool same_elements(const RepArg& w, uint64_t wOff, const RepArg& r, uint64_t rOff,
                   const std::vector<Interval>& footprint, uint64_t activeBytes) {
    if (wOff != rOff || w.elemSize != r.elemSize || w.blkStride != r.blkStride || w.repStride != r.repStride)
        return false;
    uint64_t covered = 0;
    for (const Interval& v : footprint) covered += v.second - v.first;
    return covered == activeBytes;
}

// A reduction reads a whole repeat before it writes the repeat's result, so
// its dst may lie in the source bytes of its own or earlier repeats, never in
// those of a later one (the hull of the later repeats' source bytes is checked).
bool output_reads_ahead(const RepArg& w, uint64_t wOff, const RepArg& r, uint64_t rOff,
                        const std::vector<RepRun>& runs) {
    uint64_t lo = UINT64_MAX, hi = 0;  // hull of the source bytes of the repeats after the current one
    for (size_t i = runs.size(); i-- > 0;) {
        const RepRun& u = runs[i];
        if (i + 1 == runs.size() || runs[i + 1].repeat != u.repeat) {  // last run of repeat u.repeat
            const uint64_t dl = wOff + uint64_t(u.repeat) * w.repStride * w.repUnit, dh = dl + w.repBytes;
            if (dl < hi && lo < dh) return true;
        }
        if (i == 0 || runs[i - 1].repeat != u.repeat) {  // first run: repeat u.repeat joins the hull
            for (size_t k = i; k < runs.size() && runs[k].repeat == u.repeat; ++k) {
                const uint64_t l = rOff + rep_offset(r, runs[k].repeat, runs[k].first);
                lo = std::min(lo, l);
                hi = std::max(hi, l + uint64_t(runs[k].len) * r.elemSize);
            }
        }
    }
    return false;
}

}  // namespace

const RepRun* vec_repeat(const char* api, VecOp op, const RepArg* args, int n, const RepShape& shape, size_t* nRuns) {
    const uint32_t perRepeat = shape.perRepeat;
    Block& b = cur(api);
    Scratch& s = tls;
    *nRuns = 0;
    uint64_t off[kMaxArgs];
    uint32_t widest = 1;
    for (int i = 0; i < n; ++i) {
        off[i] = check_ub_operand(api, b, args[i].t, args[i].role, args[i].align);
        widest = std::max(widest, args[i].elemSize);
    }
    bool contiguous = shape.elementwise;
    for (int i = 0; i < n; ++i) contiguous = contiguous && !args[i].repBytes && args[i].blkStride == 1;
    const uint32_t split = contiguous ? perRepeat : 32 / widest;
    const VecMaskReg m = shape.ignoreMask ? VecMaskReg{} : b.vecMask;
    uint32_t repeats = shape.repeatTimes, tail = 0;
    if (m.counter && m.lo > b.ubTotal / widest)
        fail(api, "counter-mode count too large",
             "the mask register counts %llu elements (Counter mode), more than UB holds", (unsigned long long)m.lo);
    if (m.counter && shape.count == CountMode::RepeatBlocks) {
        // Copy.md: ceil(count * sizeof(T) / 32) whole blocks per repeat, more than a
        // repeat's 8 when the count asks for them (its [18, 64] -> [18, 8] example: 18 blocks)
        const uint64_t blocks = m.lo / split + (m.lo % split != 0);
        full_pattern(uint32_t(blocks * split), split, s.pattern);
    } else if (m.counter && shape.count == CountMode::Repeat) {
        full_pattern(uint32_t(m.lo), split, s.pattern);
    } else if (m.counter) {  // the count decides the repeats; repeatTimes is ignored
        repeats = uint32_t(m.lo / perRepeat);
        tail = uint32_t(m.lo % perRepeat);
        full_pattern(perRepeat, split, s.pattern);
    } else {
        mask_pattern(m, perRepeat, split, s.pattern);
    }
    s.runs.clear();
    for (uint32_t r = 0; r < repeats; ++r)
        for (RepRun u : s.pattern) s.runs.push_back({r, u.first, u.len});
    if (tail) {
        full_pattern(tail, split, s.pattern);
        for (RepRun u : s.pattern) s.runs.push_back({repeats, u.first, u.len});
        ++repeats;
    }
    if (shape.significant) {  // the elements past it are read, their results discarded: not modelled
        size_t k = 0;
        for (RepRun u : s.runs) {
            const uint64_t at = uint64_t(u.repeat) * perRepeat + u.first;
            if (at >= shape.significant) continue;
            u.len = uint32_t(std::min<uint64_t>(u.len, shape.significant - at));
            s.runs[k++] = u;
        }
        s.runs.resize(k);
    }
    if (s.runs.empty()) return nullptr;  // repeatTimes 0 or an empty mask: nothing is computed
    uint32_t lastActive = 0;
    uint64_t activeElems = 0;
    for (const RepRun& u : s.runs) {
        lastActive = std::max(lastActive, u.first + u.len - 1);
        activeElems += u.len;
    }
    for (int i = 0; i < n; ++i) {
        // 高维切分.md: a dst block stride of 0 is undefined (the blocks of a repeat would collide).
        if (args[i].write && !args[i].repBytes && args[i].blkStride == 0 && lastActive >= 32 / args[i].elemSize)
            fail(api, "dst block stride 0", "%s has blkStride 0 over more than one block of a repeat (undefined)",
                 args[i].role);
        footprint(api, b, args[i], off[i], s.runs, s.iv[i]);
        normalise(s.iv[i]);
    }
    for (int w = 0; w < n; ++w) {
        if (!args[w].write) continue;
        for (int r = 0; r < n; ++r) {
            if (args[r].write || !intersect(s.iv[w], off[w], s.iv[r], off[r])) continue;
            if (args[w].repBytes ? !output_reads_ahead(args[w], off[w], args[r], off[r], s.runs)
                                 : same_elements(args[w], off[w], args[r], off[r], s.iv[w], activeElems * args[w].elemSize))
                continue;
            if (args[r].trailsDst && off[w] == off[r] && args[w].blkStride == args[r].blkStride &&
                (args[w].repStride == 0 || args[r].repStride == 0))
                continue;
            fail(api, "partial overlap",
                 "%s (UB %s, blkStride %u, repStride %u) and %s (UB %s, blkStride %u, repStride %u) overlap other "
                 "than element for element within a repeat, or a repeat would read what an earlier one wrote",
                 args[w].role, hex(off[w]).c_str(), args[w].blkStride, args[w].repStride, args[r].role,
                 hex(off[r]).c_str(), args[r].blkStride, args[r].repStride);
        }
    }
    b.used = true;
    ++b.ctr.vectorInstructions;
    b.ctr.vectorRepeats += repeats;
    b.repeatsByOp[size_t(op)] += repeats;
    if (b.initcheck)
        for (int i = 0; i < n; ++i)
            if (!args[i].write && args[i].initcheck)
                for (const Interval& v : s.iv[i]) init_read(api, b, args[i].role, off[i] + v.first, off[i] + v.second);
    const Instr in = b.hz.issue(P_V, api);
    if (b.trace) {
        VecOperand ops[8];
        const uint32_t widest = 256 / std::max<uint32_t>(shape.perRepeat, 1);
        for (int i = 0; i < n; ++i)
            ops[i] = VecOperand{off[i], args[i].repBytes ? args[i].repBytes : std::min<uint32_t>(256, shape.perRepeat * args[i].elemSize),
                                args[i].repBytes ? 1 : std::max<uint32_t>(args[i].blkStride, 1), args[i].write};
        t_vec(b, api, op, repeats, widest, ops, n);
    }
    s.instr = in;
    s.n = n;
    for (int i = 0; i < n; ++i) s.off[i] = off[i];
    for (int i = 0; i < n; ++i)
        if (!args[i].write)
            for (const Interval& v : s.iv[i]) b.hz.access(api, in, Space::UB, off[i] + v.first, off[i] + v.second, false);
    for (int i = 0; i < n; ++i)
        if (args[i].write)
            for (const Interval& v : s.iv[i]) {
                b.hz.access(api, in, Space::UB, off[i] + v.first, off[i] + v.second, true);
                if (b.initcheck) b.init.mark(off[i] + v.first, off[i] + v.second);
            }
    *nRuns = s.runs.size();
    return s.runs.data();
}

void vec_set_vms4(const char* api, const uint16_t counts[4], bool defined) {
    VecMaskReg& m = cur(api).vecMask;
    std::memcpy(m.vms4, counts, sizeof m.vms4);
    m.vms4Defined = defined;
    m.vms4Seq = tls.instr.seq;
    m.vms4Serial = tls.instr.serial;
}

void vec_vms4(const char* api, uint16_t counts[4]) {
    Block& b = cur(api);
    const VecMaskReg& m = b.vecMask;
    if (!m.vms4Defined)
        fail(api, "VMS4_SR undefined",
             "VMS4_SR holds no counts: only a MrgSort with ifExhaustedSuspension = true sets them");
    if (b.hz.auto_sync()) {  // the V_S the compiler inserts
        b.hz.join(P_S, b.hz.snapshot(P_V));
        t_join(b, P_S, P_V);
    }
    const Instr in = b.hz.issue(P_S, api);
    if (b.hz.snapshot(P_S).c[P_V] < m.vms4Seq)
        fail("pipe hazard", "RAW on a register",
             "RAW on VMS4_SR: PIPE_S %s (#%u) reads the register written by PIPE_V MrgSort (#%u) with no V_S flag, "
             "PipeBarrier<PIPE_ALL> or queue handshake in between (--cce-auto-sync=off; with it on the compiler "
             "inserts this sync)",
             api, in.serial, m.vms4Serial);
    std::memcpy(counts, m.vms4, sizeof m.vms4);
}

void vec_repeat_packed_write(const char* api, const UbRef& t, const char* role, uint64_t bytes, int compacts) {
    Block& b = cur(api);
    Scratch& s = tls;
    const uint64_t off = check_ub_operand(api, b, t, role);
    if (bytes > t.dataLen)
        fail(api, "packed result beyond tensor size", "%s receives %llu B but the tensor holds %u B", role,
             (unsigned long long)bytes, t.dataLen);
    if (!bytes) return;
    const std::vector<Interval> w{{0, bytes}};
    for (int i = 0; i < s.n; ++i)
        if (!(i == compacts && off == s.off[i]) && intersect(w, off, s.iv[i], s.off[i]))
            fail(api, "partial overlap", "%s (UB %s, %llu B) overlaps a source of the instruction", role,
                 hex(off).c_str(), (unsigned long long)bytes);
    b.hz.access(api, s.instr, Space::UB, off, off + bytes, true);
    if (b.initcheck) b.init.mark(off, off + bytes);
}

}  // namespace ascend_sim::detail

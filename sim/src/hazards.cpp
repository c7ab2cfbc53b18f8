// Pipe hazard detection (issue item 5), after msSanitizer's racecheck model:
// one vector clock per pipe; every instruction ticks its pipe; each byte range
// remembers its last write and last read per pipe. An access by pipe P to a
// range last touched by pipe Q != P is ordered only if P's clock covers Q's
// access (through WaitFlag<Q_P>, a queue handshake or PipeBarrier<PIPE_ALL>).
// Within one pipe (not S), a later instruction touching bytes an earlier one
// wrote (or writing bytes it read) needs PipeBarrier<pipe> in between.
// A scalar read is complete before the in-order scalar unit issues anything
// later, so it is checked (RAW) but not recorded: no rule ever looks at it.
#include "ascend_sim/runtime_state.h"

namespace ascend_sim::detail {

RangeMap::Map::iterator RangeMap::locate(uint64_t at, int& used, uint64_t& segEnd) {
    // The segment holding `at`: that of the nearest finger at or below it (or
    // the one after that), else a tree walk.
    used = -1;
    for (int i = 0; i < kFingers; ++i)
        if (finger_[i] != m_.end() && fingerKey_[i] <= at && (used < 0 || fingerKey_[i] > fingerKey_[used])) used = i;
    if (used >= 0) {
        segEnd = fingerEnd_[used];
        if (at < segEnd) return finger_[used];
        if (segEnd != UINT64_MAX) {
            auto nx = std::next(finger_[used]);
            segEnd = key_of(std::next(nx));
            if (at < segEnd) return nx;
        }
    }
    auto it = m_.upper_bound(at);
    segEnd = key_of(it);
    --it;  // key 0 always exists
    if (used < 0) {
        used = nextFinger_;
        nextFinger_ = (nextFinger_ + 1) % kFingers;
    }
    return it;
}

RangeMap::Map::iterator RangeMap::find(uint64_t at) {
    int used;
    uint64_t segEnd;
    auto it = locate(at, used, segEnd);
    set_finger(used, it, segEnd);
    return it;
}

RangeMap::Map::iterator RangeMap::split(uint64_t at) {
    int used;
    uint64_t segEnd;
    auto it = locate(at, used, segEnd);
    if (it->first != at) {
        // [key, segEnd) becomes [key, at) and [at, segEnd).
        for (int i = 0; i < kFingers; ++i)
            if (finger_[i] == it) fingerEnd_[i] = at;
        it = m_.emplace_hint(std::next(it), at, it->second);
    }
    set_finger(used, it, segEnd);
    return it;
}

std::pair<RangeMap::Map::iterator, RangeMap::Map::iterator> RangeMap::range(uint64_t lo, uint64_t hi) {
    auto first = split(lo);
    auto last = split(hi);  // std::map insertion keeps `first` valid
    return {first, last};
}

Instr HazardTracker::issue(Pipe p, const char* op) {
    // Issue edge: S dispatches every instruction, so what S has learned through
    // WaitFlag<X_S> orders later instructions of other pipes. S's own scalar
    // stores are not covered (a SetValue read by V needs S_V).
    if (p != P_S) {
        for (int q = 1; q < P_COUNT; ++q)
            if (clk_[P_S].c[q] > clk_[p].c[q]) clk_[p].c[q] = clk_[P_S].c[q];
        if (clk_[P_S].c[p] > selfDone_[p]) selfDone_[p] = clk_[P_S].c[p];
    }
    const uint64_t seq = ++clk_[p].c[p];
    return Instr{p, seq, ++serial_, op};
}

void HazardTracker::barrier_all() {
    Clock all;
    for (int p = 0; p < P_COUNT; ++p) all.join(clk_[p]);
    for (int p = 0; p < P_COUNT; ++p) {
        clk_[p] = all;
        selfDone_[p] = clk_[p].c[p];
    }
}

namespace {
const char* sync_hint(int from, int to) {
    static const char* names[P_COUNT] = {"S", "V", "MTE2", "MTE3"};
    static thread_local std::string s;
    s = std::string(names[from]) + "_" + names[to];
    return s.c_str();
}

[[noreturn]] void report(const char* api, const char* kind, Space sp, uint64_t lo, uint64_t hi, const Instr& in,
                         const AccessRec& prev, bool prevWrite, bool intra) {
    std::string where;
    if (sp == Space::UB) where = "UB [" + hex(lo) + ", " + hex(hi) + ")";
    else where = "GM [" + gm_describe(lo) + ", " + gm_describe(hi) + ")";
    const bool curWrite = std::string(kind) != "RAW";
    std::string msg = std::string(kind) + " on " + where + ": " + pipe_name(in.pipe) + " " + in.op + " (#" +
                      std::to_string(in.serial) + ") " + (curWrite ? "writes" : "reads") + " bytes " +
                      (prevWrite ? "written" : "read") + " by " + pipe_name(prev.pipe) + " " + prev.op + " (#" +
                      std::to_string(prev.serial) + ") with ";
    if (intra)
        msg += std::string("no PipeBarrier<") + pipe_name(in.pipe) + "> in between";
    else
        msg += std::string("no ") + sync_hint(prev.pipe, in.pipe) +
               " flag, PipeBarrier<PIPE_ALL> or queue handshake in between";
    const int64_t b = block_idx_or_none();
    std::string what = "[ascend_sim] pipe hazard";
    if (b >= 0) what += " (block " + std::to_string(b) + ")";
    what += ": " + msg;
    throw SimViolation(api, b, std::string("pipe hazard ") + kind, what);
}
}  // namespace

void HazardTracker::check(const char* api, const Instr& in, Space sp, RangeMap& rm, RangeMap::Map::iterator first,
                          uint64_t lo, uint64_t hi, bool write, bool readsOverwritten) {
    const Pipe p = in.pipe;
    const Clock& mine = clk_[p];
    // Inter-pipe hazards are reported before intra-pipe ones (the likelier bug).
    struct Pending {
        const char* kind = nullptr;
        uint64_t lo = 0, hi = 0;
        const AccessRec* prev = nullptr;
        bool prevWrite = false;
    } intra;
    auto note_intra = [&](const char* kind, uint64_t l, uint64_t h, const AccessRec& r, bool w) {
        if (!intra.kind) intra = Pending{kind, l, h, &r, w};
    };
    // [first, ...) are the segments overlapping [lo, hi); when the range map was
    // split at lo and hi they lie inside it, else their ends are clipped to it.
    const auto end = rm.end();
    for (auto it = first, nx = first; it != end && it->first < hi; it = nx) {
        const Cell& c = it->second;
        nx = std::next(it);
        const uint64_t segLo = it->first > lo ? it->first : lo;
        const uint64_t segHi = nx == end || nx->first > hi ? hi : nx->first;
        // RAW (read) or WAW (write) against the last write.
        if (c.write.seq) {
            const int q = c.write.pipe;
            if (q != p) {
                if (mine.c[q] < c.write.seq) report(api, write ? "WAW" : "RAW", sp, segLo, segHi, in, c.write, true, false);
            } else if (p != P_S && c.write.seq != in.seq && c.write.seq > selfDone_[p]) {
                note_intra(write ? "WAW" : "RAW", segLo, segHi, c.write, true);
            }
        }
        if (write) {
            // WAR against reads since that write. A scalar read is complete
            // before the in-order scalar unit issues anything later.
            for (int q = P_S + 1; q < P_COUNT; ++q) {
                const AccessRec& r = c.read_of(q);
                if (!r.seq) continue;
                if (q != p) {
                    if (mine.c[q] < r.seq) report(api, "WAR", sp, segLo, segHi, in, r, false, false);
                } else if (!readsOverwritten && r.seq != in.seq && r.seq > selfDone_[p]) {
                    note_intra("WAR", segLo, segHi, r, false);
                }
            }
        }
    }
    if (intra.kind) report(api, intra.kind, sp, intra.lo, intra.hi, in, *intra.prev, intra.prevWrite, true);
}

void HazardTracker::record_write(RangeMap& rm, const Instr& in, RangeMap::Map::iterator first,
                                 RangeMap::Map::iterator last) {
    // Later accesses ordered after this write are ordered after what it was
    // ordered after: older reads can be forgotten.
    rm.merge(first, last);
    Cell& c = first->second;
    c = Cell{};
    c.write = AccessRec{in.seq, in.serial, in.op, uint8_t(in.pipe)};
}

void HazardTracker::access(const char* api, const Instr& in, Space sp, uint64_t lo, uint64_t hi, bool write) {
    if (hi <= lo) return;
    RangeMap& rm = sp == Space::UB ? ub_ : gm_;
    if (!write && in.pipe == P_S) {
        // A scalar read is complete before the in-order scalar unit issues
        // anything later, so no WAR check ever looks at it: check RAW only,
        // record nothing (and leave the map unsplit).
        check(api, in, sp, rm, rm.find(lo), lo, hi, false, false);
        return;
    }
    auto [first, last] = rm.range(lo, hi);
    check(api, in, sp, rm, first, lo, hi, write, false);
    if (write) {
        record_write(rm, in, first, last);
    } else {
        const AccessRec rec{in.seq, in.serial, in.op, uint8_t(in.pipe)};
        for (auto it = first; it != last; ++it) it->second.read_of(in.pipe) = rec;
    }
}

void HazardTracker::access_rw(const char* api, const Instr& in, Space sp, uint64_t lo, uint64_t hi) {
    // Same checks, in the same order, as access(read) then access(write) of the
    // range; the read's records would be overwritten by the write, and the
    // write's WAR check skips this pipe's reads (the read just replaced them).
    if (hi <= lo) return;
    RangeMap& rm = sp == Space::UB ? ub_ : gm_;
    auto [first, last] = rm.range(lo, hi);
    check(api, in, sp, rm, first, lo, hi, false, false);
    check(api, in, sp, rm, first, lo, hi, true, true);
    record_write(rm, in, first, last);
}

}  // namespace ascend_sim::detail

// Pipe hazard detection, after msSanitizer's racecheck model:
// one vector clock per pipe; every instruction ticks its pipe; each byte range
// remembers its last write and last read per pipe. An access by pipe P to a
// range last touched by pipe Q != P is ordered only if P's clock covers Q's
// access (through WaitFlag<Q_P>, a queue handshake or PipeBarrier<PIPE_ALL>).
// Within one pipe (not S), a later instruction touching bytes an earlier one
// wrote (or writing bytes it read) needs PipeBarrier<pipe> in between.
// A scalar read is complete before the in-order scalar unit issues anything
// later, so it is checked (RAW) but not recorded: no rule ever looks at it.
// With --cce-auto-sync=on (CANN's default) the compiler inserts the syncs of
// some pairs itself; such a pair joins the clocks as the inserted flag would.
#include <algorithm>

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

RangeMap::Map::iterator RangeMap::find(uint64_t at, uint64_t& segEnd) {
    int used;
    auto it = locate(at, used, segEnd);
    set_finger(used, it, segEnd);
    return it;
}

RangeMap::Map::iterator RangeMap::isolate(Map::iterator it, uint64_t segEnd, uint64_t lo, uint64_t hi) {
    // [key, segEnd) becomes [key, lo), [lo, hi) and [hi, segEnd), the empty ones left out.
    if (hi < segEnd) {
        for (int i = 0; i < kFingers; ++i)
            if (finger_[i] == it) fingerEnd_[i] = hi;
        m_.emplace_hint(std::next(it), hi, it->second);
    }
    if (lo > it->first) {
        for (int i = 0; i < kFingers; ++i)
            if (finger_[i] == it) fingerEnd_[i] = lo;
        it = m_.emplace_hint(std::next(it), lo, it->second);
        set_finger(nextFinger_, it, hi);
        nextFinger_ = (nextFinger_ + 1) % kFingers;
    }
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

bool RangeMap::add_speckle(uint64_t lo, uint64_t hi, const Cell& c) {
    const uint64_t pg = lo >> kPageBits;
    if (!speckles_ || pg != (hi - 1) >> kPageBits) return false;
    if (pg >= pages_.size()) pages_.resize(pg + 1);
    std::vector<Speckle>& v = pages_[pg];
    if (v.size() >= kMaxPageSpeckles) return false;
    auto at = v.end();
    while (at != v.begin() && std::prev(at)->lo > lo) --at;  // usually already the end
    v.insert(at, Speckle{lo, hi, c});
    ++speckleCount_;
    return true;
}

void RangeMap::materialize_one(const Speckle& s) {
    std::vector<Speckle>& v = pages_[s.lo >> kPageBits];
    const Speckle copy = s;
    v.erase(v.begin() + (&s - v.data()));
    --speckleCount_;
    uint64_t segEnd;
    const auto it = find(copy.lo, segEnd);
    isolate(it, segEnd, copy.lo, copy.hi)->second = copy.cell;
}

RangeMap::Speckle* RangeMap::speckle_at(uint64_t at) {
    Speckle* hit = nullptr;
    for_speckles(at, at + 1, [&](Speckle& s) { hit = &s; });
    return hit;
}

void RangeMap::materialize(uint64_t lo, uint64_t hi, bool crossingOnly) {
    if (!speckleCount_) return;
    if (!crossingOnly) {
        std::vector<uint64_t> starts;
        for_speckles(lo, hi, [&](const Speckle& s) { starts.push_back(s.lo); });
        for (uint64_t at : starts) materialize_one(*speckle_at(at));
        return;
    }
    // Only the speckles holding bytes hi - 1 and lo can reach outside [lo, hi).
    if (const Speckle* s = speckle_at(hi - 1); s && s->hi > hi) materialize_one(*s);
    if (const Speckle* s = speckle_at(lo); s && s->lo < lo) materialize_one(*s);
}

void RangeMap::drop_speckles(uint64_t lo, uint64_t hi) {
    if (!speckleCount_ || hi <= lo) return;
    const uint64_t last = std::min<uint64_t>((hi - 1) >> kPageBits, pages_.size() - 1);
    for (uint64_t pg = lo >> kPageBits; pg <= last; ++pg) {
        std::vector<Speckle>& v = pages_[pg];
        const auto from = std::partition_point(v.begin(), v.end(), [&](const Speckle& s) { return s.lo < lo; });
        auto to = from;
        while (to != v.end() && to->hi <= hi) ++to;
        speckleCount_ -= size_t(to - from);
        v.erase(from, to);
    }
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
AccessRec record_of(const Instr& in) { return AccessRec{in.seq, in.serial, in.op, uint8_t(in.pipe)}; }

// Whether --cce-auto-sync=on inserts the sync an access by pipe p (a write or
// not) needs after one by pipe q. Arch 2201 (asc-devkit docs,
// 同步控制/核内同步/关键特性说明.md, table 3): V->V, and PIPE_S with V, MTE2
// and MTE3 both ways, for tensor accesses; nothing between V, MTE2 and MTE3,
// nor within MTE2 or MTE3.
bool compiler_syncs(int q, int p, Space sp, bool write) {
    if (q == p) return p == P_V;
    if (q != P_S && p != P_S) return false;
    // On GM the scalar unit writes only through GlobalTensor::SetValue, which is
    // not among the scalar APIs the compiler syncs (GetValue, operator() are).
    return sp == Space::UB || (p == P_S && !write);
}

const char* sync_hint(int from, int to) {
    static const char* names[P_COUNT] = {"S", "V", "MTE2", "MTE3"};
    static thread_local std::string s;
    s = std::string(names[from]) + "_" + names[to];
    return s.c_str();
}

SimViolation hazard_violation(const char* api, const char* kind, Space sp, uint64_t lo, uint64_t hi,
                              const Instr& in, const AccessRec& prev, bool prevWrite, bool intra,
                              bool compilerWould) {
    std::string where;
    if (sp == Space::UB) where = "UB [" + hex(lo) + ", " + hex(hi) + ")";
    else where = "GM [" + gm_describe_range(lo, hi) + ")";
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
    if (compilerWould) msg += " (--cce-auto-sync=off; with it on the compiler inserts this sync)";
    if (sp == Space::UB) msg += ub_owner(cur(api), lo);
    return violation(api, (std::string("pipe hazard ") + kind).c_str(), msg, "pipe hazard");
}

// One site per kind, space, pipe pair and the two operations.
void report(const char* api, const char* kind, Space sp, uint64_t lo, uint64_t hi, const Instr& in,
            const AccessRec& prev, bool prevWrite, bool intra, bool compilerWould) {
    const std::string site = std::string("pipe hazard|") + kind + (sp == Space::UB ? "|UB|" : "|GM|") +
                             pipe_name(prev.pipe) + "|" + prev.op + "|" + pipe_name(in.pipe) + "|" + in.op;
    report_or_throw(tls_block ? tls_block->launch : nullptr, site, [&] {
        return hazard_violation(api, kind, sp, lo, hi, in, prev, prevWrite, intra, compilerWould);
    });
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
    // A pair the compiler syncs gets its flag (or PipeBarrier<PIPE_V>) right
    // before this instruction: q's work so far completes first.
    auto unordered = [&](const char* kind, uint64_t l, uint64_t h, const AccessRec& r, bool w) {
        const bool byCompiler = compiler_syncs(r.pipe, p, sp, write);
        if (byCompiler && autoSync_) return join(p, clk_[r.pipe]);
        report(api, kind, sp, l, h, in, r, w, false, byCompiler);
    };
    auto same_pipe = [&](const char* kind, uint64_t l, uint64_t h, const AccessRec& r, bool w) {
        if (autoSync_ && compiler_syncs(p, p, sp, write)) {
            selfDone_[p] = in.seq - 1;
            return;
        }
        if (!intra.kind) intra = Pending{kind, l, h, &r, w};
    };
    auto check_cell = [&](const Cell& c, uint64_t segLo, uint64_t segHi) {
        // RAW (read) or WAW (write) against the last write.
        if (c.write.seq) {
            const int q = c.write.pipe;
            if (q != p) {
                if (mine.c[q] < c.write.seq) unordered(write ? "WAW" : "RAW", segLo, segHi, c.write, true);
            } else if (p != P_S && c.write.seq != in.seq && c.write.seq > selfDone_[p]) {
                same_pipe(write ? "WAW" : "RAW", segLo, segHi, c.write, true);
            }
        }
        if (write) {
            // WAR against reads since that write. A scalar read is complete
            // before the in-order scalar unit issues anything later.
            for (int q = P_S + 1; q < P_COUNT; ++q) {
                const AccessRec& r = c.read_of(q);
                if (!r.seq) continue;
                if (q != p) {
                    if (mine.c[q] < r.seq) unordered("WAR", segLo, segHi, r, false);
                } else if (!readsOverwritten && r.seq != in.seq && r.seq > selfDone_[p]) {
                    same_pipe("WAR", segLo, segHi, r, false);
                }
            }
        }
    };
    // [first, ...) are the segments overlapping [lo, hi); when the range map was
    // split at lo and hi they lie inside it, else their ends are clipped to it. A
    // segment's speckles are visited in address order between its own pieces, as
    // the segments a split would have made.
    const auto end = rm.end();
    for (auto it = first, nx = first; it != end && it->first < hi; it = nx) {
        nx = std::next(it);
        const uint64_t segLo = it->first > lo ? it->first : lo;
        const uint64_t segHi = nx == end || nx->first > hi ? hi : nx->first;
        uint64_t at = segLo;
        rm.for_speckles(segLo, segHi, [&](const RangeMap::Speckle& s) {
            if (s.lo > at) check_cell(it->second, at, s.lo);
            check_cell(s.cell, std::max(s.lo, segLo), std::min(s.hi, segHi));
            at = s.hi;
        });
        if (at < segHi) check_cell(it->second, at, segHi);
    }
    if (intra.kind)
        report(api, intra.kind, sp, intra.lo, intra.hi, in, *intra.prev, intra.prevWrite, true,
               compiler_syncs(p, p, sp, write));
}

void HazardTracker::record_write(RangeMap& rm, const Instr& in, RangeMap::Map::iterator first,
                                 RangeMap::Map::iterator last) {
    // Later accesses ordered after this write are ordered after what it was
    // ordered after: older reads can be forgotten.
    rm.merge(first, last);
    Cell& c = first->second;
    c = Cell{};
    c.write = record_of(in);
}

bool HazardTracker::scalar_ordered(const Cell& c, bool write) const {
    // check()'s tests for pipe S, which is exempt from the intra-pipe rule and whose
    // own reads are never recorded.
    const Clock& mine = clk_[P_S];
    if (c.write.seq && c.write.pipe != P_S && mine.c[c.write.pipe] < c.write.seq) return false;
    if (write)
        for (int q = P_S + 1; q < P_COUNT; ++q)
            if (c.read_of(q).seq && mine.c[q] < c.read_of(q).seq) return false;
    return true;
}

void HazardTracker::access(const char* api, const Instr& in, Space sp, uint64_t lo, uint64_t hi, bool write) {
    if (hi <= lo) return;
    RangeMap& rm = sp == Space::UB ? ub_ : gm_;
    if (in.pipe == P_S) {
        // Scalar accesses are a few bytes, one or two per row of a tile (a target
        // read, a fix-up's GetValue and SetValue): when the bytes lie in one segment
        // and are already ordered, the result is known without check()'s general
        // walk, and a write becomes a speckle, or its own segment when it fills one
        // (the same segments range() and record_write() would leave).
        Cell fresh;
        fresh.write = record_of(in);
        if (rm.has_speckles()) {
            RangeMap::Speckle* s = nullptr;
            int overlapping = 0;
            rm.for_speckles(lo, hi, [&](RangeMap::Speckle& x) {
                s = &x;
                ++overlapping;
            });
            if (overlapping == 1 && s->lo <= lo && hi <= s->hi && scalar_ordered(s->cell, write)) {
                if (!write) return;
                if (s->lo == lo && s->hi == hi) {
                    s->cell = fresh;
                    return;
                }
            }
            if (overlapping) rm.materialize(lo, hi, false);
        }
        uint64_t segEnd;
        const auto it = rm.find(lo, segEnd);
        if (hi <= segEnd && scalar_ordered(it->second, write)) {
            if (write && ((lo == it->first && hi == segEnd) || !rm.add_speckle(lo, hi, fresh)))
                rm.isolate(it, segEnd, lo, hi)->second = fresh;
            return;
        }
        if (!write) {
            // A scalar read is complete before the in-order scalar unit issues
            // anything later, so no WAR check ever looks at it: check RAW only,
            // record nothing (and leave the map unsplit).
            check(api, in, sp, rm, it, lo, hi, false, false);
            return;
        }
    }
    rm.materialize(lo, hi, true);
    auto [first, last] = rm.range(lo, hi);
    check(api, in, sp, rm, first, lo, hi, write, false);
    if (write) {
        record_write(rm, in, first, last);
        rm.drop_speckles(lo, hi);
    } else {
        const AccessRec rec = record_of(in);
        for (auto it = first; it != last; ++it) it->second.read_of(in.pipe) = rec;
        rm.for_speckles(lo, hi, [&](RangeMap::Speckle& s) { s.cell.read_of(in.pipe) = rec; });
    }
}

void HazardTracker::access_rw(const char* api, const Instr& in, Space sp, uint64_t lo, uint64_t hi) {
    // Same checks, in the same order, as access(read) then access(write) of the
    // range; the read's records would be overwritten by the write, and the
    // write's WAR check skips this pipe's reads (the read just replaced them).
    if (hi <= lo) return;
    RangeMap& rm = sp == Space::UB ? ub_ : gm_;
    rm.materialize(lo, hi, true);
    auto [first, last] = rm.range(lo, hi);
    check(api, in, sp, rm, first, lo, hi, false, false);
    check(api, in, sp, rm, first, lo, hi, true, true);
    record_write(rm, in, first, last);
    rm.drop_speckles(lo, hi);
}

}  // namespace ascend_sim::detail

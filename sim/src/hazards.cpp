// Pipe hazard detection (issue item 5), after msSanitizer's racecheck model:
// one vector clock per pipe; every instruction ticks its pipe; each byte range
// remembers its last write and last read per pipe. An access by pipe P to a
// range last touched by pipe Q != P is ordered only if P's clock covers Q's
// access (through WaitFlag<Q_P>, a queue handshake or PipeBarrier<PIPE_ALL>).
// Within one pipe (not S), a later instruction touching bytes an earlier one
// wrote (or writing bytes it read) needs PipeBarrier<pipe> in between.
#include "ascend_sim/runtime_state.h"

namespace ascend_sim::detail {

RangeMap::Map::iterator RangeMap::split(uint64_t at) {
    auto it = m_.upper_bound(at);
    --it;  // key 0 always exists
    if (it->first == at) return it;
    return m_.emplace_hint(std::next(it), at, it->second);
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

void HazardTracker::access(const char* api, const Instr& in, Space sp, uint64_t lo, uint64_t hi, bool write) {
    if (hi <= lo) return;
    RangeMap& rm = sp == Space::UB ? ub_ : gm_;
    auto [first, last] = rm.range(lo, hi);
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
    for (auto it = first; it != last; ++it) {
        const Cell& c = it->second;
        const uint64_t segLo = it->first, segHi = std::next(it)->first;
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
            for (int q = 0; q < P_COUNT; ++q) {
                const AccessRec& r = c.read[q];
                if (!r.seq || q == P_S) continue;
                if (q != p) {
                    if (mine.c[q] < r.seq) report(api, "WAR", sp, segLo, segHi, in, r, false, false);
                } else if (r.seq != in.seq && r.seq > selfDone_[p]) {
                    note_intra("WAR", segLo, segHi, r, false);
                }
            }
        }
    }
    if (intra.kind) report(api, intra.kind, sp, intra.lo, intra.hi, in, *intra.prev, intra.prevWrite, true);
    const AccessRec rec{in.seq, in.serial, in.op, uint8_t(p)};
    if (write) {
        // Later accesses ordered after this write are ordered after what it was
        // ordered after: older reads can be forgotten.
        auto& m = rm.map();
        m.erase(std::next(first), last);
        Cell& c = first->second;
        c = Cell{};
        c.write = rec;
    } else {
        for (auto it = first; it != last; ++it) it->second.read[p] = rec;
    }
}

}  // namespace ascend_sim::detail

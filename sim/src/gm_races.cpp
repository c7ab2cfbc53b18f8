// Inter-block GM races: within one SyncAll epoch, a write by one block and a
// read or write by another of overlapping bytes, unless an IBSet/IBWait pair
// or a GM flag orders them (the writer's access before its IBSet, the other's
// after the IBWait that saw it; ib_sync.cpp). A scalar read and a scalar write
// of a GM flag's own bytes do not race: polling a flag another block writes is
// how the flag works (two writes of it still do). Writes under the same atomic
// mode (SetAtomicAdd<float> in both blocks, say) commute and do not race each
// other; they race plain accesses and writes under another mode. Checked at
// each SyncAll and at kernel end from the recorded intervals: sort (each block
// its own, then a merge), then one sweep keeping, for each kind of access
// (read, plain write, each atomic mode), the two furthest-reaching intervals
// of distinct blocks. Two plain writes that leave the same bytes wherever both
// write (GmRecord::fill: every block's InitOutput of one output) leave the GM the
// same in either order: that pair is a warning at the launch's sameBytesRace level
// (sim.h), and a sweep that meets one checks every overlapping pair instead, so
// that it cannot hide a race of different bytes behind it.
#include <algorithm>
#include <cstring>

#include "ascend_sim/runtime_state.h"

namespace ascend_sim::detail {

void add_gm_record(Block& b, const Instr& in, uint64_t lo, uint64_t hi, bool write, uint8_t atomic,
                   const uint64_t* fill) {
    // Streaming: extend a recent record of the same kind that this range continues
    // (exact: the record becomes the union of two touching intervals). Looking a few
    // records back keeps interleaved streams (logProb in, out back, per-row inputs)
    // at one record each instead of one per DMA.
    constexpr size_t kLookBack = 4;
    const size_t n = b.records.size();
    for (size_t k = 1; k <= kLookBack && k <= n; ++k) {
        GmRecord& r = b.records[n - k];
        if (r.write == write && r.atomic == atomic && r.pipe == in.pipe && r.seg == b.seg && r.pub == b.seg &&
            r.filled == (fill != nullptr) && (!fill || r.fill == *fill) && lo >= r.lo && lo <= r.hi) {
            if (hi > r.hi) r.hi = hi;
            r.seq = in.seq;
            return;
        }
    }
    b.records.push_back(GmRecord{lo, hi, b.idx, write, atomic, in.op, b.seg, b.seg, uint8_t(in.pipe), in.seq});
    if (fill) {
        b.records.back().filled = true;
        b.records.back().fill = *fill;
    }
}

namespace {
struct Top {
    uint64_t hi = 0;
    uint32_t block = UINT32_MAX;
    const GmRecord* rec = nullptr;
};

// Kinds of access: 0 read, 1 plain write, else the atomic mode's code (< 32).
constexpr int kKinds = 32;
int kind_of(const GmRecord& r) { return r.atomic ? r.atomic : int(r.write); }
// Accesses of kinds x and y by two blocks conflict unless both read or both
// write under one atomic mode.
bool kinds_conflict(int x, int y) { return x != y || x == 1; }

std::string access_word(const GmRecord& r) {
    if (r.atomic) return "written by an " + atomic_name(r.atomic);
    return r.write ? "written" : "read";
}

void push(Top& a, Top& b, const GmRecord& r) {
    const Top t{r.hi, r.block, &r};
    if (r.block == a.block) {
        if (r.hi > a.hi) a = t;
        return;
    }
    if (r.block == b.block) {
        if (r.hi > b.hi) b = t;
        if (b.hi > a.hi) std::swap(a, b);
        return;
    }
    if (r.hi > a.hi) {
        b = a;
        a = t;
    } else if (r.hi > b.hi) {
        b = t;
    }
}

const GmRecord* conflict(const Top& a, const Top& b, const GmRecord& r) {
    const Top& o = a.block != r.block ? a : b;
    return (o.rec && o.hi > r.lo) ? o.rec : nullptr;
}

// The sweep's order: by start, then block, writes first.
bool before(const GmRecord& x, const GmRecord& y) {
    if (x.lo != y.lo) return x.lo < y.lo;
    if (x.block != y.block) return x.block < y.block;
    return kind_of(x) > kind_of(y);
}

// All blocks' records in `before` order. Each block's run is normally sorted
// already, by sort_gm_records in the block's own thread, so the serial part at
// the barrier is a pairwise merge of the runs: O(r log blocks), not a sort.
std::vector<GmRecord> merged(std::vector<std::vector<GmRecord>>& perBlock) {
    std::vector<GmRecord> all;
    std::vector<size_t> bounds{0};  // run i is [bounds[i], bounds[i + 1])
    for (auto& v : perBlock) {
        sort_gm_records(v);
        all.insert(all.end(), v.begin(), v.end());
        bounds.push_back(all.size());
    }
    while (bounds.size() > 2) {
        const size_t runs = bounds.size() - 1;
        std::vector<size_t> next{0};
        for (size_t i = 0; i + 1 < runs; i += 2) {
            std::inplace_merge(all.begin() + bounds[i], all.begin() + bounds[i + 1], all.begin() + bounds[i + 2],
                               before);
            next.push_back(bounds[i + 2]);
        }
        if (runs % 2) next.push_back(bounds[runs]);
        bounds.swap(next);
    }
    return all;
}
}  // namespace

void sort_gm_records(std::vector<GmRecord>& v) {
    if (!std::is_sorted(v.begin(), v.end(), before)) std::stable_sort(v.begin(), v.end(), before);
}

namespace {
// Two plain writes whose fills agree on every byte both write.
bool same_bytes(const GmRecord& x, const GmRecord& y) {
    if (!x.filled || !y.filled) return false;
    const uint64_t lo = std::max(x.lo, y.lo), hi = std::min(x.hi, y.hi);
    uint8_t px[8], py[8];
    std::memcpy(px, &x.fill, 8);
    std::memcpy(py, &y.fill, 8);
    for (uint64_t a = lo; a < hi && a < lo + 8; ++a)
        if (px[a & 7] != py[a & 7]) return false;
    return true;
}

void report(const char* api, const GmRecord& x, const GmRecord& y, Launch& L) {
    const GmRecord& a = x.block < y.block ? x : y;
    const GmRecord& c = x.block < y.block ? y : x;
    const bool same = same_bytes(a, c);
    if (same && L.sameBytesRace == 0) return;
    const std::string site = std::string(same ? "GM race of the same bytes|" : "GM race|") + access_word(a) + "|" +
                             a.op + "|" + access_word(c) + "|" + c.op;
    auto what = [&] {
        const uint64_t lo = std::max(a.lo, c.lo), hi = std::min(a.hi, c.hi);
        std::string w = "GM race (blocks " + std::to_string(a.block) + " and " + std::to_string(c.block) + ", " +
                        L.name + "): GM [" + gm_describe_range(lo, hi) + ") is " + access_word(a) + " by block " +
                        std::to_string(a.block) + " (" + a.op + ") and " + access_word(c) + " by block " +
                        std::to_string(c.block) + " (" + c.op + ") with no " +
                        (L.gmFlagsUsed ? "SyncAll, IBSet/IBWait pair or GM flag"
                                       : L.ibUsed ? "SyncAll or IBSet/IBWait pair" : "SyncAll") +
                        " in between";
        if (same)
            w += "; both wrote the same bytes there, so the result does not depend on their order";
        return w;
    };
    if (same && L.sameBytesRace == 1) {
        warn_once_lazy(site, [&] { return what() + " (ASCEND_XENT_SAME_BYTES_RACE=error stops here)"; });
        return;
    }
    report_or_throw(&L, site, [&] { return SimViolation(api, a.block, "inter-block GM race", "[ascend_sim] " + what()); });
}

// Did x happen before y, or y before x, through IBSet/IBWait pairs or GM flags?
bool ordered(const GmRecord& x, const GmRecord& y, const Launch& L) {
    return L.ibClock[y.block][y.seg][x.block] > x.pub || L.ibClock[x.block][x.seg][y.block] > y.pub;
}

// A scalar read and a scalar write of bytes inside one GM flag written this epoch.
bool flag_pair(const GmRecord& x, const GmRecord& y, const Launch& L) {
    if (x.pipe != P_S || y.pipe != P_S || x.write == y.write || L.flagRanges.empty()) return false;
    const uint64_t lo = std::max(x.lo, y.lo), hi = std::min(x.hi, y.hi);
    auto it = L.flagRanges.upper_bound(lo);
    return it != L.flagRanges.begin() && std::prev(it)->second >= hi;
}

// With inter-core flags in play the furthest-reaching interval of another block
// may be ordered while a shorter one is not, and a pair of writes of the same bytes
// may hide a shorter one of different bytes: every overlapping pair is checked
// (the records still live when the next one starts).
void check_every_pair(const char* api, const std::vector<GmRecord>& all, Launch& L) {
    std::vector<const GmRecord*> live;
    for (const GmRecord& r : all) {
        size_t n = 0;
        for (const GmRecord* o : live)
            if (o->hi > r.lo) live[n++] = o;
        live.resize(n);
        for (const GmRecord* o : live)
            if (o->block != r.block && kinds_conflict(kind_of(*o), kind_of(r)) && !(L.ibUsed && ordered(*o, r, L)) &&
                !flag_pair(*o, r, L))
                report(api, *o, r, L);
        live.push_back(&r);
    }
}
}  // namespace

void check_gm_races(const char* api, std::vector<std::vector<GmRecord>>& perBlock, Launch& L) {
    const std::vector<GmRecord> all = merged(perBlock);
    if (L.ibUsed) {
        check_every_pair(api, all, L);
        L.flagRanges.clear();  // the next epoch learns its own
        return;
    }
    Top top[kKinds][2];
    uint32_t seen = 0;  // bit k: top[k] holds a record
    std::vector<std::pair<const GmRecord*, const GmRecord*>> found;
    for (const GmRecord& r : all) {
        const int k = kind_of(r);
        const GmRecord* o = nullptr;
        for (uint32_t m = seen; m && !o; m &= m - 1) {
            const int j = __builtin_ctz(m);
            if (kinds_conflict(k, j)) o = conflict(top[j][0], top[j][1], r);
        }
        if (o && same_bytes(*o, r)) return check_every_pair(api, all, L);
        if (o) found.emplace_back(o, &r);
        push(top[k][0], top[k][1], r);
        seen |= 1u << k;
    }
    for (const auto& [o, r] : found) report(api, *o, *r, L);
}

}  // namespace ascend_sim::detail

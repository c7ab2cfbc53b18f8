// Inter-block GM races: within one SyncAll epoch, a write by one block and a
// read or write by another of overlapping bytes. Checked at each SyncAll and at
// kernel end from the recorded intervals: sort (each block its own, then a
// merge), then one sweep keeping, for
// writes and for reads, the two furthest-reaching intervals of distinct blocks.
#include <algorithm>

#include "ascend_sim/runtime_state.h"

namespace ascend_sim::detail {

void add_gm_record(Block& b, uint64_t lo, uint64_t hi, bool write, const char* op) {
    // Streaming: extend a recent record of the same kind that this range continues
    // (exact: the record becomes the union of two touching intervals). Looking a few
    // records back keeps interleaved streams (logProb in, out back, per-row inputs)
    // at one record each instead of one per DMA.
    constexpr size_t kLookBack = 4;
    const size_t n = b.records.size();
    for (size_t k = 1; k <= kLookBack && k <= n; ++k) {
        GmRecord& r = b.records[n - k];
        if (r.write == write && lo >= r.lo && lo <= r.hi) {
            if (hi > r.hi) r.hi = hi;
            return;
        }
    }
    b.records.push_back(GmRecord{lo, hi, b.idx, write, op});
}

namespace {
struct Top {
    uint64_t hi = 0;
    uint32_t block = UINT32_MAX;
    const GmRecord* rec = nullptr;
};

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
    return x.write > y.write;
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

void check_gm_races(const char* api, std::vector<std::vector<GmRecord>>& perBlock, Launch& L) {
    const std::vector<GmRecord> all = merged(perBlock);
    Top w1, w2, r1, r2;
    for (const GmRecord& r : all) {
        const GmRecord* o = conflict(w1, w2, r);
        if (!o && r.write) o = conflict(r1, r2, r);
        if (o) {
            const GmRecord& a = o->block < r.block ? *o : r;
            const GmRecord& c = o->block < r.block ? r : *o;
            const uint64_t lo = std::max(a.lo, c.lo), hi = std::min(a.hi, c.hi);
            const uint32_t blk = a.block;
            std::string what = "[ascend_sim] GM race (blocks " + std::to_string(a.block) + " and " +
                               std::to_string(c.block) + ", " + L.name + "): GM [" + gm_describe(lo) + ", " +
                               gm_describe(hi) + ") is " + (a.write ? "written" : "read") + " by block " +
                               std::to_string(a.block) + " (" + a.op + ") and " + (c.write ? "written" : "read") +
                               " by block " + std::to_string(c.block) + " (" + c.op +
                               ") with no SyncAll in between";
            throw SimViolation(api, blk, "inter-block GM race", what);
        }
        if (r.write) push(w1, w2, r);
        else push(r1, r2, r);
    }
}

}  // namespace ascend_sim::detail

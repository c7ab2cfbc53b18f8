// The timing model's replay: every block's recorded instructions, run together in
// simulated time (cycles of the core clock).
//
// Per block the scalar unit walks the trace in program order, spending
// scalarIssueCycles on each instruction it dispatches and the access costs of its own
// GetValue/SetValue. An instruction starts on its pipe when the scalar unit has
// issued it, the pipe has finished what came before it, and any WaitFlag queued
// before it on that pipe has seen its SetFlag. A SetFlag fires when everything
// before it on its pipe has completed (for an MTE: landed). V runs one instruction
// at a time; an MTE starts its next DMA as soon as the previous one has moved its
// bytes (DMAs pipeline), and a DMA completes readLatencyCycles after its transfer.
//
// Blocks are advanced in order of their scalar clocks, so the shared resources see
// requests in about the order they happen: HBM and L2 bandwidth are ledgers of
// 256-cycle buckets, each DMA taking what is left of each bucket up to its core's
// rate (first come, first served); the L2 is one LRU of the SoC's size in lines,
// reads allocating (unless the GlobalTensor's cache mode is CACHE_MODE_DISABLE),
// writes allocating dirty lines, dirty evictions written back to HBM; a read miss
// moves its whole line.
#include <algorithm>
#include <cmath>
#include <deque>
#include <queue>

#include "ascend_sim/runtime_state.h"
#include "timing_trace.h"

namespace ascend_sim::detail {

namespace {

constexpr double kBucket = 256;  // cycles

// A bandwidth shared by all cores, in buckets of kBucket cycles.
class Ledger {
public:
    explicit Ledger(double bytesPerCycle) : cap_(bytesPerCycle * kBucket) {}
    // Moves `bytes` from time t at most `rate` bytes per cycle; returns when done.
    double serve(double t, double bytes, double rate) {
        while (bytes > 0) {
            size_t k = size_t(t / kBucket);
            if (k < firstOpen_) {
                k = firstOpen_;
                t = std::max(t, double(k) * kBucket);
            }
            grow(k);
            const double bucketEnd = double(k + 1) * kBucket, span = bucketEnd - t;
            const double avail = cap_ - used_[k];
            if (avail <= 1e-9 || span <= 1e-9) {
                advance_open(k);
                t = bucketEnd;
                continue;
            }
            const double eff = std::min(rate, avail / span);
            const double take = std::min(bytes, eff * span);
            used_[k] += take;
            if (bytes <= eff * span) return t + bytes / eff;
            bytes -= take;
            t = bucketEnd;
        }
        return t;
    }
    // Bandwidth taken from t on by traffic no core waits for (write-backs).
    void book(double t, double bytes) { serve(t, bytes, cap_); }

private:
    void grow(size_t k) {
        if (k >= used_.size()) used_.resize(std::max(k + 1, used_.size() * 2 + 64), 0.0);
    }
    void advance_open(size_t k) {
        if (k == firstOpen_)
            while (firstOpen_ < used_.size() && cap_ - used_[firstOpen_] <= 1e-9) ++firstOpen_;
    }
    double cap_;
    std::vector<double> used_;
    size_t firstOpen_ = 0;  // every bucket before it is full
};

// The L2: lines of l2LineBytes, kept and evicted 32 at a time (a 32-line chunk, 4 KiB
// with 128 B lines, holds a bit per line): least recently used chunk first. A
// stale queue entry (a chunk touched again since) is skipped when it comes up.
class L2Cache {
public:
    L2Cache(uint64_t bytes, uint32_t line) : line_(line), capLines_(std::max<uint64_t>(1, bytes / line)) {
        rehash(1 << 16);
    }
    uint32_t line() const { return line_; }
    // An access of the lines [first, first + n) of chunk c (n <= 32, inside the chunk).
    // Returns how many hit; dirty lines evicted are counted into *writeBackLines.
    uint32_t access(uint64_t chunk, uint32_t first, uint32_t n, bool write, bool allocate, uint64_t* writeBackLines) {
        const uint32_t want = n == 32 ? ~0u : ((1u << n) - 1) << first;
        size_t i = find(chunk + 1);
        const bool known = slots_[i].key == chunk + 1;
        const uint32_t hits = known ? uint32_t(__builtin_popcount(slots_[i].present & want)) : 0;
        if (!allocate) return hits;
        if (!known) {
            if (2 * (used_ + 1) > slots_.size()) {
                rehash(slots_.size() * 2);
                i = find(chunk + 1);
            }
            slots_[i] = Slot{chunk + 1, 0, 0, 0};
            ++used_;
        }
        Slot& e = slots_[i];
        resident_ += uint64_t(__builtin_popcount(want & ~e.present));
        e.present |= want;
        if (write) e.dirty |= want;
        e.stamp = ++clock_;
        order_.emplace_back(chunk + 1, e.stamp);
        while (resident_ > capLines_) evict(writeBackLines);
        if (order_.size() > 4 * used_ + 1024) compact();
        return hits;
    }

private:
    struct Slot {
        uint64_t key = 0, stamp = 0;  // key = chunk + 1; 0: empty
        uint32_t present = 0, dirty = 0;
    };
    size_t hash(uint64_t k) const { return size_t((k * 0x9E3779B97F4A7C15ull) >> 17) & mask_; }
    size_t find(uint64_t key) const {
        size_t i = hash(key);
        while (slots_[i].key && slots_[i].key != key) i = (i + 1) & mask_;
        return i;
    }
    void rehash(size_t n) {
        std::vector<Slot> old;
        old.swap(slots_);
        slots_.assign(n, Slot{});
        mask_ = n - 1;
        for (const Slot& e : old)
            if (e.key) slots_[find(e.key)] = e;
    }
    void evict(uint64_t* writeBackLines) {
        for (;;) {
            const auto [key, stamp] = order_.front();
            order_.pop_front();
            const size_t i = find(key);
            if (slots_[i].key != key || slots_[i].stamp != stamp) continue;
            resident_ -= uint64_t(__builtin_popcount(slots_[i].present));
            *writeBackLines += uint64_t(__builtin_popcount(slots_[i].dirty));
            erase(i);
            return;
        }
    }
    void erase(size_t i) {  // backward-shift deletion keeps every probe run unbroken
        slots_[i] = Slot{};
        --used_;
        for (size_t j = (i + 1) & mask_; slots_[j].key; j = (j + 1) & mask_) {
            const size_t home = hash(slots_[j].key);
            if (((j - home) & mask_) >= ((j - i) & mask_)) {
                slots_[i] = slots_[j];
                slots_[j] = Slot{};
                i = j;
            }
        }
    }
    void compact() {
        std::deque<std::pair<uint64_t, uint64_t>> kept;
        for (const auto& e : order_) {
            const size_t i = find(e.first);
            if (slots_[i].key == e.first && slots_[i].stamp == e.second) kept.push_back(e);
        }
        order_.swap(kept);
    }
    uint32_t line_;
    uint64_t capLines_, clock_ = 0, resident_ = 0, used_ = 0;
    size_t mask_ = 0;
    std::vector<Slot> slots_;
    std::deque<std::pair<uint64_t, uint64_t>> order_;
};

struct BlockState {
    size_t pc = 0;
    double tS = 0;
    double done[P_COUNT] = {0, 0, 0, 0};  // everything issued on the pipe has completed
    double chan[P_COUNT] = {0, 0, 0, 0};  // an MTE may start its next transfer
    double busy[P_COUNT] = {0, 0, 0, 0};
    double busyEnd[P_COUNT] = {0, 0, 0, 0};
    double flag[kEvents * 8] = {};
    bool inSync = false;
    double end = 0;
    double drained() const { return std::max({tS, done[P_V], done[P_MTE2], done[P_MTE3]}); }
};

struct Replay {
    const std::vector<TimingTrace>& traces;
    const TimingParams& p;
    std::vector<TraceInterval>* iv;
    std::vector<BlockState> st;
    Ledger hbm, l2bw;
    L2Cache l2;
    LaunchTiming out;

    Replay(const std::vector<TimingTrace>& t, const TimingParams& prm, std::vector<TraceInterval>* intervals)
        : traces(t), p(prm), iv(intervals), st(t.size()),
          hbm(prm.hbmBytesPerCycle), l2bw(prm.l2BytesPerCycle), l2(prm.l2Bytes, prm.l2LineBytes) {}

    void interval(uint32_t b, Pipe pipe, double s, double e, const char* api) {
        if (iv && e > s) iv->push_back(TraceInterval{b, uint8_t(pipe), s, e, api});
    }
    void mte_busy(BlockState& s, Pipe pipe, double start, double end) {
        const double from = std::max(start, s.busyEnd[pipe]);
        if (end > from) s.busy[pipe] += end - from;
        s.busyEnd[pipe] = std::max(s.busyEnd[pipe], end);
    }
    void wait_on(BlockState& s, uint8_t pipe, double f) {
        if (pipe == P_S) {
            s.tS = std::max(s.tS, f);
        } else {
            s.done[pipe] = std::max(s.done[pipe], f);
            s.chan[pipe] = std::max(s.chan[pipe], f);
        }
    }

    double dma(uint32_t b, BlockState& s, const TOp& op) {
        const bool read = op.pipe == P_MTE2;
        const double start = std::max(s.tS, s.chan[op.pipe]);
        const double t0 = start + p.dmaIssueCycles;
        const bool allocate = op.cacheMode != 0;
        uint64_t hit = 0, miss = 0, writeBackLines = 0;
        const uint64_t L = l2.line();
        for (uint64_t r = 0, at = op.lo; r < op.count; ++r, at += op.pitch) {
            const uint64_t e = at + op.len, firstLine = at / L, endLine = (e + L - 1) / L;
            for (uint64_t l = firstLine; l < endLine;) {
                const uint64_t chunk = l / 32, upto = std::min(endLine, (chunk + 1) * 32);
                const uint32_t n = uint32_t(upto - l);
                const uint32_t hits = l2.access(chunk, uint32_t(l % 32), n, !read, allocate, &writeBackLines);
                // Bytes: whole lines, less the row's ragged ends in its first and last line.
                const uint64_t lo = std::max(at, l * L), hi = std::min(e, upto * L);
                if (read) {
                    // A hit moves its bytes; a miss brings whole lines from HBM.
                    const uint64_t bytes = hi - lo;
                    hit += n ? bytes * hits / n : 0;
                    miss += uint64_t(n - hits) * L;
                } else if (!allocate) {
                    miss += hi - lo;  // a write around the L2
                }
                l = upto;
            }
        }
        const uint64_t writeBack = writeBackLines * L;
        if (writeBack) hbm.book(t0, double(writeBack) * p.writeBackFactor);
        double end = t0;
        if (read) {
            if (miss) end = std::max(end, hbm.serve(t0, double(miss), p.coreReadBytesPerCycle));
            if (hit) end = std::max(end, l2bw.serve(t0, double(hit), p.coreL2ReadBytesPerCycle));
            out.l2HitBytes += hit;
            out.hbmReadBytes += miss;
        } else {
            end = allocate ? l2bw.serve(t0, op.work, p.coreWriteBytesPerCycle)
                           : hbm.serve(t0, double(miss), p.coreWriteBytesPerCycle);
        }
        out.hbmWriteBackBytes += writeBack;
        s.chan[op.pipe] = end;
        const double complete = end + (read ? p.readLatencyCycles : 0);
        s.done[op.pipe] = std::max(s.done[op.pipe], complete);
        mte_busy(s, Pipe(op.pipe), start, complete);
        interval(b, Pipe(op.pipe), start, complete, op.api);
        return start;
    }

    // One instruction of block b. Returns false when the block waits in SyncAll.
    bool step(uint32_t b) {
        BlockState& s = st[b];
        const TOp& op = traces[b].ops[s.pc];
        switch (op.kind) {
            case TKind::Scalar: {
                const double d = op.count * p.scalarUbCycles + op.work * p.scalarGmCycles;
                interval(b, P_S, s.tS, s.tS + d, "scalar");
                s.tS += d;
                s.busy[P_S] += d;
                break;
            }
            case TKind::Vec: {
                issue(s);
                const double start = std::max(s.tS, s.done[P_V]), d = p.vecIssueCycles + op.work;
                s.done[P_V] = start + d;
                s.busy[P_V] += d;
                interval(b, P_V, start, start + d, op.api);
                break;
            }
            case TKind::Dma:
                issue(s);
                dma(b, s, op);
                break;
            case TKind::Set:
                issue(s);
                s.flag[op.key] = op.pipe == P_S ? s.tS : s.done[op.pipe];
                break;
            case TKind::Wait:
                issue(s);
                wait_on(s, op.pipe, s.flag[op.key]);
                break;
            case TKind::Join:
                wait_on(s, op.pipe, op.src == P_S ? s.tS : s.done[op.src]);
                break;
            case TKind::Barrier:
                issue(s);
                if (op.pipe != P_V) s.chan[op.pipe] = std::max(s.chan[op.pipe], s.done[op.pipe]);
                break;
            case TKind::BarrierAll:
                issue(s);
                barrier_all(s);
                break;
            case TKind::SyncAll:
                barrier_all(s);
                ++s.pc;
                s.inSync = true;
                return false;
        }
        ++s.pc;
        return true;
    }
    // When block b's next instruction could start: the order in which blocks are
    // advanced, so that the shared ledgers and the L2 see requests in time order.
    double next_start(uint32_t b) const {
        const BlockState& s = st[b];
        if (s.pc >= traces[b].ops.size()) return s.drained();
        const TOp& op = traces[b].ops[s.pc];
        if (op.kind == TKind::Vec) return std::max(s.tS, s.done[P_V]);
        if (op.kind == TKind::Dma) return std::max(s.tS, s.chan[op.pipe]);
        return s.tS;
    }
    void issue(BlockState& s) {
        s.tS += p.scalarIssueCycles;
        s.busy[P_S] += p.scalarIssueCycles;
    }
    static void barrier_all(BlockState& s) {
        const double t = s.drained();
        s.tS = t;
        for (int q = 0; q < P_COUNT; ++q) s.chan[q] = std::max(s.chan[q], t);
    }

    void run() {
        using Item = std::pair<double, uint32_t>;
        std::priority_queue<Item, std::vector<Item>, std::greater<Item>> ready;
        const uint32_t n = uint32_t(traces.size());
        for (uint32_t b = 0; b < n; ++b) ready.push({0.0, b});
        uint32_t inSync = 0;
        while (!ready.empty() || inSync) {
            if (ready.empty()) {  // every live block is in SyncAll: release them together
                double t = 0;
                for (const BlockState& s : st)
                    if (s.inSync) t = std::max(t, s.tS);
                t += p.syncAllCycles;
                for (uint32_t b = 0; b < n; ++b)
                    if (st[b].inSync) {
                        st[b].inSync = false;
                        st[b].tS = t;
                        for (int q = 0; q < P_COUNT; ++q) st[b].chan[q] = std::max(st[b].chan[q], t);
                        ready.push({t, b});
                    }
                inSync = 0;
                continue;
            }
            const uint32_t b = ready.top().second;
            ready.pop();
            BlockState& s = st[b];
            if (s.pc >= traces[b].ops.size()) {
                s.end = s.drained();
                continue;
            }
            if (step(b)) ready.push({next_start(b), b});
            else ++inSync;
        }
    }
};

double us(double cycles, const TimingParams& p) { return cycles / p.clockHz * 1e6; }

}  // namespace

LaunchTiming replay(const std::vector<TimingTrace>& blocks, const TimingParams& p, const std::string& kernel,
                    const std::string& soc, std::vector<TraceInterval>* intervals) {
    Replay r(blocks, p, intervals);
    r.run();
    LaunchTiming& t = r.out;
    t.valid = true;
    t.kernel = kernel;
    t.soc = soc;
    t.blockDim = uint32_t(blocks.size());
    double slowest = 0;
    for (const BlockState& s : r.st) {
        BlockTiming bt;
        bt.aivTimeUs = us(s.end, p);
        bt.busy = PipeTimes{us(s.busy[P_V], p), us(s.busy[P_S], p), us(s.busy[P_MTE2], p), us(s.busy[P_MTE3], p)};
        slowest = std::max(slowest, bt.aivTimeUs);
        t.aivTimeUs += bt.aivTimeUs;
        t.busy.vec += bt.busy.vec;
        t.busy.scalar += bt.busy.scalar;
        t.busy.mte2 += bt.busy.mte2;
        t.busy.mte3 += bt.busy.mte3;
        t.blocks.push_back(bt);
    }
    const double n = std::max<double>(1, double(blocks.size()));
    t.aivTimeUs /= n;
    t.busy.vec /= n;
    t.busy.scalar /= n;
    t.busy.mte2 /= n;
    t.busy.mte3 /= n;
    t.taskDurationUs = slowest + p.launchUs + p.launchUsPerBlock * double(blocks.size());
    return t;
}

}  // namespace ascend_sim::detail

// Internal state of a launch and of a block (one simulated AIV core). Only the
// simulator's .cpp files include this; kernels see device_runtime.h.
#pragma once
#include <algorithm>
#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <cstddef>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "device_runtime.h"
#include "sim.h"

namespace ascend_sim::detail {

// ---- pipe hazards (hazards.cpp) ----

// Vector clock: c[q] = the last instruction of pipe q known to have completed.
struct Clock {
    uint64_t c[P_COUNT] = {0, 0, 0, 0};
    void join(const Clock& o) {
        for (int i = 0; i < P_COUNT; ++i) c[i] = c[i] > o.c[i] ? c[i] : o.c[i];
    }
};

struct Instr {
    Pipe pipe;
    uint64_t seq;     // the pipe's own clock component for this instruction
    uint32_t serial;  // per-block instruction number, for messages (#12)
    const char* op;
};

struct AccessRec {
    uint64_t seq = 0;  // 0 = none
    uint32_t serial = 0;
    const char* op = nullptr;
    uint8_t pipe = 0;
};
struct Cell {
    AccessRec write;
    // The last read per pipe, indexed by pipe - 1: scalar reads are never
    // recorded (see hazards.cpp), and a smaller node keeps more of the map in cache.
    AccessRec read[P_COUNT - 1];
    AccessRec& read_of(int pipe) { return read[pipe - 1]; }
    const AccessRec& read_of(int pipe) const { return read[pipe - 1]; }
};

// Fixed-size node recycling for the range maps: a block inserts and erases
// thousands of segments per launch, and the general-purpose allocator (shared
// with the other block threads) cost more than the map operations themselves.
// A pool belongs to one BlockStore, used by one block at a time: no locking.
class NodePool {
public:
    NodePool() = default;
    NodePool(const NodePool&) = delete;
    NodePool& operator=(const NodePool&) = delete;
    ~NodePool() {
        for (void* c : chunks_) ::operator delete(c);
    }
    void* take(size_t bytes) {
        if (bytes != nodeBytes_ && nodeBytes_ != 0) return ::operator new(bytes);  // not the node type
        nodeBytes_ = bytes;
        if (!free_) refill(bytes);
        FreeNode* n = free_;
        free_ = n->next;
        return n;
    }
    void give(void* p, size_t bytes) {
        if (bytes != nodeBytes_) {
            ::operator delete(p);
            return;
        }
        auto* n = static_cast<FreeNode*>(p);
        n->next = free_;
        free_ = n;
    }

private:
    struct FreeNode {
        FreeNode* next;
    };
    void refill(size_t bytes) {
        const size_t stride = (bytes + alignof(std::max_align_t) - 1) / alignof(std::max_align_t) * alignof(std::max_align_t);
        const size_t count = chunks_.empty() ? 64 : 1024;
        auto* c = static_cast<uint8_t*>(::operator new(stride * count));
        chunks_.push_back(c);
        for (size_t i = count; i-- > 0;) {
            auto* n = reinterpret_cast<FreeNode*>(c + i * stride);
            n->next = free_;
            free_ = n;
        }
    }
    FreeNode* free_ = nullptr;
    size_t nodeBytes_ = 0;
    std::vector<void*> chunks_;
};

template <class T>
struct PoolAllocator {
    using value_type = T;
    NodePool* pool;
    explicit PoolAllocator(NodePool* p) noexcept : pool(p) {}
    template <class U>
    PoolAllocator(const PoolAllocator<U>& o) noexcept : pool(o.pool) {}
    T* allocate(size_t n) { return static_cast<T*>(n == 1 ? pool->take(sizeof(T)) : ::operator new(n * sizeof(T))); }
    void deallocate(T* p, size_t n) noexcept {
        if (n == 1) pool->give(p, sizeof(T));
        else ::operator delete(p);
    }
    template <class U>
    bool operator==(const PoolAllocator<U>& o) const noexcept { return pool == o.pool; }
    template <class U>
    bool operator!=(const PoolAllocator<U>& o) const noexcept { return pool != o.pool; }
};

// Byte ranges -> last accesses, as a map of segment starts (a segment runs to
// the next key). Buffer-aligned accesses keep it small. A few "fingers"
// (iterators of recently split segments) let the usual access patterns (a
// stream of row-by-row or element-by-element accesses, interleaved with a few
// other streams) find their segment in O(1) instead of a tree walk; a finger
// is dropped when its node is erased. Each finger's segment bounds (its key
// and the next key) are kept beside it and updated by split and merge, so
// finding a segment through a finger reads no tree node.
class RangeMap {
public:
    using Map = std::map<uint64_t, Cell, std::less<uint64_t>, PoolAllocator<std::pair<const uint64_t, Cell>>>;
    // speckles: whether scalar writes may be kept as speckles (UB offsets, not GM addresses).
    RangeMap(NodePool& pool, bool speckles) : m_(Map::key_compare(), Map::allocator_type(&pool)), speckles_(speckles) {
        m_.emplace(0, Cell{});
        forget();
    }
    // Splits at lo and hi and returns the segment iterators [first, last).
    std::pair<Map::iterator, Map::iterator> range(uint64_t lo, uint64_t hi);
    // Erases the segments strictly between first and last (they become part of first).
    void merge(Map::iterator first, Map::iterator last) {
        const uint64_t lo = first->first, hi = key_of(last);
        for (int i = 0; i < kFingers; ++i) {
            if (finger_[i] == m_.end()) continue;
            if (fingerKey_[i] == lo) fingerEnd_[i] = hi;
            else if (fingerKey_[i] > lo && fingerKey_[i] < hi) drop_finger(i);
        }
        m_.erase(std::next(first), last);
    }
    Map::iterator end() { return m_.end(); }
    // The segment holding `at` (no split); segEnd gets its end.
    Map::iterator find(uint64_t at, uint64_t& segEnd);
    // Makes [lo, hi), inside the segment `it` ending at segEnd, a segment of its own
    // (what range(lo, hi) does, without looking the segment up again) and returns it.
    Map::iterator isolate(Map::iterator it, uint64_t segEnd, uint64_t lo, uint64_t hi);
    void clear() {
        m_.clear();
        m_.emplace(0, Cell{});
        forget();
        for (auto& pg : pages_) pg.clear();
        speckleCount_ = 0;
    }

    // A scalar write of a few bytes inside a segment (a fix-up's SetValue per row of a
    // tile) is kept beside the map as a speckle instead of splitting the segment in
    // three: the bytes of [lo, hi) have `cell`, the rest of the segment its own. The
    // segments and speckles together are exactly the segments splitting would make.
    // Speckles are disjoint, none crosses a segment boundary or a page, and each page
    // keeps its own sorted few (a new one lands at the end of its page's list, not
    // in front of every later speckle of the UB).
    struct Speckle {
        uint64_t lo, hi;
        Cell cell;
    };
    bool has_speckles() const { return speckleCount_ != 0; }
    // Calls f(Speckle&) for the speckles overlapping [lo, hi), in address order.
    template <class F>
    void for_speckles(uint64_t lo, uint64_t hi, F f) {
        if (!speckleCount_ || hi <= lo) return;
        const uint64_t last = std::min<uint64_t>((hi - 1) >> kPageBits, pages_.size() - 1);
        for (uint64_t pg = lo >> kPageBits; pg <= last; ++pg) {
            std::vector<Speckle>& v = pages_[pg];
            auto it = std::partition_point(v.begin(), v.end(), [&](const Speckle& s) { return s.hi <= lo; });
            for (; it != v.end() && it->lo < hi; ++it) f(*it);
        }
    }
    // A new speckle over [lo, hi), which no speckle overlaps; false where speckles are
    // not kept (GM, a write across a page, too many on the page): the caller splits.
    bool add_speckle(uint64_t lo, uint64_t hi, const Cell& c);
    // The speckles overlapping [lo, hi) become segments (all of them, or only those
    // reaching outside it).
    void materialize(uint64_t lo, uint64_t hi, bool crossingOnly);
    // Forgets the speckles inside [lo, hi) (a write of the whole range replaced them).
    void drop_speckles(uint64_t lo, uint64_t hi);

private:
    static constexpr int kFingers = 4;
    static constexpr unsigned kPageBits = 12;
    static constexpr size_t kMaxPageSpeckles = 256;
    Speckle* speckle_at(uint64_t at);  // the speckle holding byte `at`, if any
    void materialize_one(const Speckle& s);
    Map::iterator split(uint64_t at);
    Map::iterator locate(uint64_t at, int& used, uint64_t& segEnd);
    // A segment's end: the next key (UINT64_MAX past the last).
    uint64_t key_of(Map::iterator next) const { return next == m_.end() ? UINT64_MAX : next->first; }
    void set_finger(int i, Map::iterator it, uint64_t segEnd) {
        finger_[i] = it;
        fingerKey_[i] = it->first;
        fingerEnd_[i] = segEnd;
    }
    void drop_finger(int i) { finger_[i] = m_.end(); }
    void forget() {
        for (int i = 0; i < kFingers; ++i) drop_finger(i);
        nextFinger_ = 0;
    }
    Map m_;
    Map::iterator finger_[kFingers];
    // While finger_[i] != end, its segment is [fingerKey_[i], fingerEnd_[i]).
    uint64_t fingerKey_[kFingers] = {};
    uint64_t fingerEnd_[kFingers] = {};
    int nextFinger_ = 0;
    bool speckles_;
    std::vector<std::vector<Speckle>> pages_;  // pages_[lo >> kPageBits], sorted by lo
    size_t speckleCount_ = 0;
};

// ---- uninitialised UB reads (initcheck.cpp) ----

// The UB bytes written since the TPipe's InitBuffer (msSanitizer's initcheck:
// per-byte defined/undefined state, kept here as disjoint, coalesced [lo, hi)
// intervals, key lo -> hi). O(log n) per query or update. A few recently found
// intervals are cached: marks only grow intervals, so a cached one stays
// fully written until unmark/clear, and the steady state (buffers written once,
// then read and rewritten in place) costs a few compares per operand.
class InitShadow {
public:
    using Map = std::map<uint64_t, uint64_t, std::less<uint64_t>, PoolAllocator<std::pair<const uint64_t, uint64_t>>>;
    explicit InitShadow(NodePool& pool) : m_(Map::key_compare(), Map::allocator_type(&pool)) {}
    InitShadow() : own_(new NodePool), m_(Map::key_compare(), Map::allocator_type(own_.get())) {}
    // Were all bytes of [lo, hi) written?
    bool written(uint64_t lo, uint64_t hi) { return cached(lo, hi) || first_unwritten(lo, hi) == hi; }
    // The first byte of [lo, hi) never written, hi if none.
    uint64_t first_unwritten(uint64_t lo, uint64_t hi);
    // Was no byte of [lo, hi) written?
    bool none_written(uint64_t lo, uint64_t hi) const;
    // [lo, hi) now holds defined bytes.
    void mark(uint64_t lo, uint64_t hi) {
        if (!cached(lo, hi)) mark_slow(lo, hi);
    }
    // [lo, hi) now holds undefined bytes (written with garbage).
    void unmark(uint64_t lo, uint64_t hi);
    void clear() {
        m_.clear();
        forget();
    }
    size_t intervals() const { return m_.size(); }

private:
    static constexpr int kCache = 4;
    bool cached(uint64_t lo, uint64_t hi) const {
        for (int i = 0; i < kCache; ++i)
            if (lo >= cache_[i].lo && hi <= cache_[i].hi) return true;
        return false;
    }
    void remember(uint64_t lo, uint64_t hi) {
        cache_[next_] = {lo, hi};
        next_ = (next_ + 1) % kCache;
    }
    void forget() {
        for (auto& c : cache_) c = {0, 0};
    }
    void mark_slow(uint64_t lo, uint64_t hi);
    std::unique_ptr<NodePool> own_;  // without a store's pool; declared before m_: destroyed after it
    Map m_;
    struct Range {
        uint64_t lo, hi;
    };
    Range cache_[kCache] = {};  // fully written ranges (empty when lo == hi)
    int next_ = 0;
};

enum class Space : uint8_t { UB, GM };

class HazardTracker {
public:
    // ubSpeckles = false keeps every scalar store as a segment of its own (the plain
    // split map: the reference the speckles are tested against).
    HazardTracker(NodePool& ubPool, NodePool& gmPool, bool ubSpeckles = true)
        : ub_(ubPool, ubSpeckles), gm_(gmPool, false) {}
    Instr issue(Pipe p, const char* op);
    // Checks an access of [lo, hi) by instruction in against the recorded ones,
    // throws SimViolation on an unordered pair, then records it.
    void access(const char* api, const Instr& in, Space sp, uint64_t lo, uint64_t hi, bool write);
    // access(read) then access(write) of the same range, in one pass over the segments.
    void access_rw(const char* api, const Instr& in, Space sp, uint64_t lo, uint64_t hi);
    Clock snapshot(Pipe p) const { return clk_[p]; }
    // Pipe p waits for the work summarised by c (WaitFlag, DeQue, AllocTensor).
    void join(Pipe p, const Clock& c) {
        if (c.c[p] > selfDone_[p]) selfDone_[p] = c.c[p];
        clk_[p].join(c);
    }
    void barrier(Pipe p) { selfDone_[p] = clk_[p].c[p]; }
    void barrier_all();
    void reset_gm() { gm_.clear(); }
    // --cce-auto-sync=on: the pairs the compiler syncs count as ordered (hazards.cpp).
    void set_auto_sync(bool on) { autoSync_ = on; }
    bool auto_sync() const { return autoSync_; }

private:
    bool autoSync_ = true;
    Clock clk_[P_COUNT];
    // selfDone_[p]: the last instruction of pipe p known complete before p's
    // next one starts (PipeBarrier<p>, or a round trip through another pipe).
    uint64_t selfDone_[P_COUNT] = {0, 0, 0, 0};
    uint32_t serial_ = 0;
    RangeMap ub_, gm_;
    // Whether a scalar access (a write or not) of bytes whose last accesses are c is
    // ordered after them as it stands: then check() would neither report nor join.
    bool scalar_ordered(const Cell& c, bool write) const;
    void check(const char* api, const Instr& in, Space sp, RangeMap& rm, RangeMap::Map::iterator first, uint64_t lo,
               uint64_t hi, bool write, bool readsOverwritten);
    void record_write(RangeMap& rm, const Instr& in, RangeMap::Map::iterator first, RangeMap::Map::iterator last);
};

// ---- queues and buffers (queues.cpp) ----

enum class BufState : uint8_t { FREE, ALLOCATED, ENQUEUED, DEQUEUED };

struct Buffer {
    uint32_t offset = 0, len = 0;
    int32_t queue = -1;  // -1: a TBuf
    int32_t gen = 0;     // TPipe generation (Reset kills older buffers)
    int32_t pool = -1;   // the TBufPool it was carved from, -1: the TPipe's own
    int32_t poolGen = 0; // that pool's generation (its Reset kills older buffers)
    uint8_t pos = 0;
    BufState state = BufState::FREE;
    QueHop enq{};         // ENQUEUED: the handshake its EnQue set
    int8_t enqId = -1;    // ENQUEUED: the event id of that SetFlag
    int8_t freeId = -1;   // FreeTensor's SetFlag of the queue's release event, until AllocTensor waits for it
    CallSite site{nullptr, 0};  // the kernel's InitBuffer call that made it
};

// A queue's ring (kernel_tquebind_impl.h): `depth` slots shared by every EnQue and
// DeQue; a DeQue takes the head whatever positions it names.
struct Queue {
    uint8_t src = 0, dst = 0;   // TQueBind<src, dst> (a TQue<VECIN> is <GM, VECIN>)
    uint8_t freeEvent = 0;      // FreeTensor -> AllocTensor (GetQueEvt, backward)
    int32_t depth = 0;
    int32_t pipeGen = 0;
    int32_t pool = -1, poolGen = 0;  // as Buffer's
    std::vector<int32_t> bufs;  // buffer ids, in InitBuffer order
    std::vector<int32_t> ring;  // depth slots
    int32_t head = 0, tail = 0, used = 0;
    uint32_t cursor = 0;        // AllocTensor's round-robin scan starts here
};

// A TBufPool's share of UB (kernel_tbufpool_impl.h): [start, start + len), which
// its InitBuffer and nested InitBufPool calls carve from `next` on.
struct Pool {
    uint64_t start = 0, len = 0, next = 0;
    uint32_t count = 0, cap = 0;  // buffers carved / the pool's bufIDSize
    int32_t pipeGen = 0;          // the TPipe generation it was made in
    int32_t gen = 0;              // bumps on Reset: its buffers die
};

// ---- GM accesses for the inter-block race check (gm_races.cpp) ----

struct GmRecord {
    uint64_t lo, hi;
    uint32_t block;
    bool write;
    uint8_t atomic;  // a write under an atomic mode: its AtomicMode::code(), 0 for a plain access
    const char* op;
    uint32_t seg = 0;  // the block's inter-core sync segment (ib_sync.cpp)
    // The first segment whose published clock covers this access: seg, or later
    // if a GM flag was written while the access was still in flight (ib_sync.cpp).
    uint32_t pub = 0;
    uint8_t pipe = 0;  // the pipe of the access and its last instruction there,
    uint64_t seq = 0;  // for whether it has completed when a GM flag is written
    // A plain DMA write whose bytes repeat every 8 B (InitOutput, a DataCopy of a
    // Duplicate's zeros): `fill` holds, at byte a % 8, the byte it leaves at GM address a.
    bool filled = false;
    uint64_t fill = 0;
};

// ---- events ----
constexpr int kEvents = 35;  // HardEvent::MAX
struct EventSlot {
    bool set = false;
    uint32_t serial = 0;
    Clock clk;
};

struct Launch;
struct TimingTrace;

using OpRepeats = std::array<uint64_t, size_t(VecOp::COUNT)>;
// DCache line numbers, ordered for range queries on every DMA.
using LineSet = std::set<uint64_t, std::less<uint64_t>, PoolAllocator<uint64_t>>;
using SeenSet = std::unordered_set<uint64_t, std::hash<uint64_t>, std::equal_to<uint64_t>, PoolAllocator<uint64_t>>;

// The memory a block runs in, kept between launches (runtime.cpp pools the
// stores): its UB, the node pools of its maps and sets, and the capacity its
// vectors and hash buckets grew to. Constructing and destroying those per block
// per launch cost a small launch about a quarter of its time in malloc and
// free. A store keeps memory only: each launch's Block starts empty on it.
struct BlockStore {
    explicit BlockStore(size_t ubBytes);
    ~BlockStore();
    BlockStore(const BlockStore&) = delete;
    BlockStore& operator=(const BlockStore&) = delete;

    uint8_t* ub;
    size_t ubBytes;
    NodePool ubCells, gmCells, initNodes, lineNodes, seenNodes;
    // Lent to the Block (emptied) and returned with their capacity.
    std::vector<Buffer> bufs;
    std::vector<Queue> queues;
    std::vector<std::vector<int32_t>> spareInts;
    std::vector<GmRecord> records;
    SeenSet scalarReadsSeen{PoolAllocator<uint64_t>(&seenNodes)};
};

struct Block {
    explicit Block(BlockStore& s);
    ~Block();
    Block(const Block&) = delete;
    Block& operator=(const Block&) = delete;

    BlockStore& store;
    Launch* launch = nullptr;
    uint32_t idx = 0, num = 1;
    uint8_t* ub = nullptr;   // this block's UB (ubTotal bytes)
    uint64_t ubTotal = 0;    // the physical UB (TOTAL_UB_SIZE on 2201)
    uint64_t ubReserve = 0;  // TMP_UB_OFFSET: from here the APIs stage scratch on the device
    uint64_t ubInitEnd = 0;  // what InitBuffer / InitBufPool may hand out
    uint64_t ubFilled = 0;   // [0, ubFilled) has been set to 0xFF (lazily, by InitBuffer)

    // counters (the by-op map of ctr stays empty: repeatsByOp, keyed by VecOp)
    KernelCounters ctr;
    OpRepeats repeatsByOp{};
    bool used = false;

    HazardTracker hz;
    TimingTrace* trace = nullptr;  // what the timing model replays (timing_trace.h); null: timing off
    InitShadow init;         // UB bytes written since InitBuffer (cleared with the TPipe)
    bool initcheck = true;   // the launch's initcheck setting
    // Advanced-API internal sequences running (adv/adv_internal.h): their instructions'
    // initcheck and past-tensor reports are muted, this block only.
    uint32_t advInternal = 0;

    // TPipe
    int32_t livePipe = -1;
    void* livePipeObj = nullptr;  // the live TPipe (GetTPipePtr)
    int32_t pipeSerial = 0;
    int32_t pipeGen = 0;  // bumps on Reset: old queue/buffer ids die
    uint64_t ubNext = 0;
    uint32_t bufCount = 0;
    std::vector<Buffer> bufs;
    std::vector<Queue> queues;
    std::vector<Pool> pools;  // TBufPools, by id (queues.cpp)
    // Empty vectors, with the capacity the last launch's queues gave them, for
    // this launch's queues (spare_ints in queues.cpp).
    std::vector<std::vector<int32_t>> spareInts;

    // events
    EventSlot events[kEvents][8];
    uint8_t reservedIds[kEvents] = {};

    AtomicMode atomic;  // the DMA atomic mode of UB->GM copies (atomics.cpp)

    // MOV_PAD_VAL (SetPadValue, DataCopyPad with isPad)
    bool padRegSet = false;
    uint64_t padReg = 0;
    VecMaskReg vecMask;  // SetVectorMask / SetMaskCount / SetMaskNorm (vec_repeat.cpp)
    uint64_t deqScale = 0;      // DEQSCALE (SetDeqScale)
    bool deqScaleSet = false;   // whether this block set it
    int kernelType = -1;        // KERNEL_TASK_TYPE_DEFAULT's KernelMetaType; -1: not declared
    CallSite site{nullptr, 0};  // the kernel's API call in progress (violation.cpp)

    // DCache (64-byte lines)
    LineSet dirtyLines, cachedLines, staleLines;
    // The bytes each cached (or stale) line held when it was filled, as updated by
    // this block's SetValue: what GetValue returns on the NPU.
    // A line's copy and the GM bytes [lo, hi) of it taken from GM or written: a line
    // shared by two small host regions is copied one region at a time.
    struct LineCopy {
        std::array<uint8_t, 64> bytes;
        uint64_t lo = 0, hi = 0;
    };
    std::unordered_map<uint64_t, LineCopy> lineCopy;
    // Stale GetValue reads not yet followed by a clean of the line and a read
    // again, by line (dcache.cpp): reported at the next SyncAll or kernel end.
    struct StaleRead {
        uint64_t at;
        const char* op;
        std::string why;
        bool cleaned = false;
    };
    std::map<uint64_t, StaleRead> staleReads;
    uint64_t lastDcciLine = UINT64_MAX;  // the line of the last single-line clean
    uint64_t lastBypassRead = 0;         // the address of the last ReadGmByPassDCache
    // The last poll (access.cpp): its address and value, this block's record count
    // then, and how many polls in a row saw all that unchanged with no other block running.
    uint64_t pollAt = 0, pollValue = 0;
    size_t pollRecords = 0;
    uint32_t pollSame = 0;
    uint64_t scalarDone = 0;             // PIPE_S seq at the last DataSyncBarrier<ALL or DDR>

    // GM records of the current SyncAll epoch
    std::vector<GmRecord> records;
    SeenSet scalarReadsSeen;  // (address * 16 + bytes) of scalar reads recorded this epoch
    uint32_t syncAlls = 0;
    void* sysWorkspace = nullptr;
    uint32_t seg = 0;  // inter-core sync segment: bumps at each IBSet/IBWait (ib_sync.cpp)
};

// One kernel launch: shared by its block threads.
struct Launch {
    std::string name;
    SocProfile prof;
    uint32_t blockDim = 0;
    uint32_t threads = 1;
    bool fiberMode = true;  // blockDim <= vector cores: blocks are fibers, SyncAll may be used
    std::vector<TimingTrace>* traces = nullptr;  // one per block while the launch is timed (timing_trace.h)
    bool initcheck = true;
    bool initcheckError = false;  // an uninitialised read stops the launch (else a warning)
    int pastTensor = 1;           // an access past its tensor in memory that exists: 0 silent, 1 warning, 2 error
    int sameBytesRace = 1;        // an inter-block GM race of writes that agree on their bytes: the same levels
    bool autoSync = true;

    std::mutex mu;
    // Blocks as fibers on host threads (runtime.cpp): the ones ready to run, the ones
    // waiting in SyncAll (and the generation each waits to pass), how many have ended.
    std::condition_variable workCv;  // a block became runnable, or all ended
    std::deque<uint32_t> runnable;
    std::vector<uint32_t> parked;
    std::vector<uint64_t> parkGen;
    uint32_t finished = 0;

    // hard SyncAll barrier
    uint32_t arrived = 0, ended = 0;
    uint64_t generation = 0;
    bool aborted = false;
    // soft SyncAll: the GM slot value the first block of this generation counted to
    uint64_t softGen = UINT64_MAX;
    int32_t softValue = 0;
    uint32_t softFirst = 0;
    std::vector<std::vector<GmRecord>> epochRecords;  // per block, handed over at the barrier

    // Inter-core flags (ib_sync.cpp), under mu. ibClock[b][s]: what block b knows
    // in its segment s, per block: that block's segments below the value happened
    // before. ibFlagClock: the clock an IBSet left at a flag's GM address.
    bool ibUsed = false;
    std::vector<std::vector<std::vector<uint32_t>>> ibClock;
    std::map<uint64_t, std::vector<uint32_t>> ibFlagClock;
    // GM flags (ib_sync.cpp): the last flag-like write of [key, hi), by block,
    // with the bytes it left and its writer's published clock; the ranges flag
    // writes covered in this epoch (a scalar read and a scalar write of these
    // bytes do not race).
    struct GmFlag {
        uint64_t hi;
        uint32_t block;
        std::vector<uint8_t> bytes;
        std::vector<uint32_t> clock;
    };
    std::map<uint64_t, GmFlag> gmFlags;
    std::map<uint64_t, uint64_t> flagRanges;  // lo -> hi, disjoint
    std::atomic<bool> gmFlagsUsed{false};
    // Blocks waiting for a flag; each one's failed poll stamps the progress count
    // it saw (a wait no block can satisfy is reported, never spun on).
    std::vector<uint8_t> ibPolling;
    std::vector<uint64_t> ibFailedAt;
    uint32_t ibPollers = 0;
    uint64_t ibProgress = 0;
    // CrossCoreSetFlag / CrossCoreWaitFlag (cross_core.cpp), under mu: per sync
    // group and flag, each member's sets not yet matched by the others; per block
    // and flagId, the counter as its increments. Each carries a published clock
    // (a round: the join of its sets') and the pipe clock of the block's own set.
    struct CrossCoreSet {
        std::vector<uint32_t> clock;
        Clock pipes;
        int mode;
    };
    std::map<uint64_t, std::vector<std::deque<CrossCoreSet>>> xcoreSets;
    std::vector<std::array<std::deque<CrossCoreSet>, 16>> xcoreCounters;

    std::mutex atomicMu;  // UB->GM copies under an atomic mode (atomic_store)

    // DCache lines dirty in some block: line -> block
    std::mutex dirtyMu;
    std::map<uint64_t, uint32_t> dirtyOwner;
    std::map<uint64_t, std::array<uint8_t, 64>> dirtyOld;  // what GM held of each such line before the SetValue
    std::atomic<uint32_t> dirtyCount{0};

    std::mutex failMu;
    std::vector<std::pair<uint32_t, std::exception_ptr>> failures;
    std::vector<KernelCounters> perBlock;
    std::vector<OpRepeats> perBlockOps;
    std::vector<uint8_t> blockUsed;

    // Reports the launch went on after (continue_on_report): one per site, in the
    // order first seen.
    bool continueOnReport = false;
    std::mutex reportMu;
    std::map<std::string, size_t> reportSite;
    std::vector<ContinuedReport> reports;

    void record_failure(uint32_t block, std::exception_ptr e);
    void abort_all();
};

// Prints "[ascend_sim] warning: <message>" to stderr the first time the process meets
// `site`; later hits are silent. For what the real implementation does not refuse.
void warn_once(const std::string& site, const std::string& message);
// The same with the message made only at the first hit (it may name the call site,
// which walks the stack).
bool warn_first(const std::string& site);
void print_warning(const std::string& message);
template <class Make>
void warn_once_lazy(const std::string& site, Make make) {
    if (warn_first(site)) print_warning(make());
}
// " [at <file>:<line>]" of the calling block's API call in progress (device_runtime.h
// CallSite), with ", in its <API> call" when that is not api; "" outside one.
std::string site_text(const char* api);
// "; UB <lo> is in <the queue or TBuf holding it, by its InitBuffer line>", or "" (queues.cpp).
std::string ub_owner(const Block& b, uint64_t lo);

// The SimViolation fail() throws, "[ascend_sim] <api> (block N): <detail>"; a heading,
// when given, stands for the API in the message (the exception's api() stays api).
SimViolation violation(const char* api, const char* rule, const std::string& detail, const char* heading = nullptr);

// A race or uninitialised read at `site` (its rule, API and the other access's
// operation): throws make() when L stops at reports (or there is no launch), else
// counts the site and keeps make()'s violation at its first hit.
template <class Make>
void report_or_throw(Launch* L, const std::string& site, Make make) {
    if (!L || !L->continueOnReport) throw make();
    std::lock_guard<std::mutex> lk(L->reportMu);
    auto [it, fresh] = L->reportSite.emplace(site, L->reports.size());
    if (fresh) L->reports.push_back(ContinuedReport{make(), 0});
    ++L->reports[it->second].count;
}

// block_store.cpp: a store with ubBytes of UB from the process-wide free list, and back.
std::unique_ptr<BlockStore> take_store(size_t ubBytes);
void give_store(std::unique_ptr<BlockStore> s);

extern thread_local Block* tls_block;
Block& cur(const char* api);  // throws outside a kernel

// gm_registry.cpp
struct GmHit {
    uint64_t lo = 0, hi = 0;
};
bool gm_lookup(uint64_t lo, uint64_t hi, GmHit* hit);  // [lo,hi) inside one region

// gm_races.cpp: overlapping GM accesses of different blocks in one epoch.
void check_gm_races(const char* api, std::vector<std::vector<GmRecord>>& perBlock, Launch& L);
// fill: the bytes of a plain DMA write that repeat every 8 B (GmRecord::fill), or null.
void add_gm_record(Block& b, const Instr& in, uint64_t lo, uint64_t hi, bool write, uint8_t atomic = 0,
                   const uint64_t* fill = nullptr);
// Puts one block's records in the race check's order (done by each block's own
// thread, so the check at the barrier only merges).
void sort_gm_records(std::vector<GmRecord>& v);

// dcache.cpp
struct LineSpan {
    uint64_t lo, hi;
};
LineSpan line_in_region(uint64_t line, uint64_t lo, uint64_t hi);
// out[64] = GM line `line`, its bytes outside the region of [lo, hi) as 0.
LineSpan copy_line(uint8_t* out, uint64_t line, uint64_t lo, uint64_t hi);
void dcache_on_dma(Block& b, const char* api, uint64_t lo, uint64_t hi, bool toUb);
// A scalar access that bypasses the DCache: to the cache it is a DMA of the same bytes.
void dcache_on_bypass(Block& b, const char* api, uint64_t lo, uint64_t hi, bool write);
void dcache_on_epoch(Block& b, const std::vector<std::vector<GmRecord>>& all);
void dcache_end(Block& b);
// A GetValue of GM [lo, hi): copies what the NPU returns into out (the line as
// cached, or as GM held it) and notes a stale read; true if the line was filled.
bool dcache_read(Block& b, const char* api, uint64_t lo, uint64_t hi, uint8_t* out);
// A SetValue of GM [lo, hi) with the bytes at v (already checked and recorded).
void dcache_write(Block& b, uint64_t lo, uint64_t hi, const void* v);

// ib_sync.cpp: GM flags. A flag-like write of [lo, hi) (v: the bytes to store,
// nullptr if GM holds them already) publishes what this block has completed; a
// flag-like read copies [lo, hi) into out (from `from` if given, else GM) and
// learns what a write it observes published.
void gm_flag_write(Block& b, uint64_t lo, uint64_t hi, const void* v);
void gm_flag_read(Block& b, uint64_t lo, uint64_t hi, uint8_t* out, const uint8_t* from);
// The inter-core machinery the other waits share: the launch, its clocks, a
// poll (L.mu held by lk) of `ready` that reports a wait nothing can satisfy
// (`what` words it), what a wait learns (seen: a published clock, or nullptr),
// a publish into w, and whether access r has reached GM as the scalar unit knows.
Launch& launch_for_sync(const char* api, Block& b);
void ensure_clocks(Launch& L);
void poll(const char* api, Block& b, std::unique_lock<std::mutex>& lk, const std::function<bool()>& ready,
          const std::function<std::string()>& what);
void learn_clock(Launch& L, Block& b, const std::vector<uint32_t>* seen);
void publish_into(Launch& L, Block& b, std::vector<uint32_t>& w);
bool completed(Block& b, const GmRecord& r);

// initcheck.cpp: the initcheck of a UB read [lo, hi) (block offsets); role
// names the operand in the message ("src", "source", nullptr for none).
void init_report(const char* api, Block& b, const char* role, uint64_t lo, uint64_t hi, uint64_t first);
void init_read_blocks(const char* api, Block& b, const char* role, uint64_t base, const UbBlocks& k);
void init_write_blocks(Block& b, uint64_t base, const UbBlocks& k);
inline void init_read(const char* api, Block& b, const char* role, uint64_t lo, uint64_t hi) {
    if (!b.initcheck || hi <= lo || b.init.written(lo, hi)) return;
    init_report(api, b, role, lo, hi, b.init.first_unwritten(lo, hi));
}

// queues.cpp: UB bytes below `end` not yet handed out read as 0xFF from now on.
void fill_ub(Block& b, uint64_t end);

// runtime.cpp: a polling block steps aside and stays runnable (fiber mode).
void poll_yield(Block& b);

// events.cpp: kernel-end check of one block.
void events_end(Block& b);

const char* pipe_name(int p);
const char* pos_name(uint8_t tposition);
const char* event_name(uint8_t hardEvent);
// Reserves the lowest free id of the event's pool (TPipe::AllocEventID); forWhat
// names the caller in the message when the pool is exhausted.
int8_t take_event_id(const char* api, uint8_t hardEvent, const char* forWhat);
std::string hex(uint64_t v);

}  // namespace ascend_sim::detail

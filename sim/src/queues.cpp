// TPipe, TQue/TQueBind and TBuf as asc-devkit implements them for a vector core
// (impl/basic_api/kernel_tpipe_impl.h: InitBuffer, Reset, Destroy, AllocEventID;
// kernel_tquebind_impl.h: AllocBuffer, EnQue, DeQue, FreeBuffer, FreeAllEvent).
// A queue is a ring of `depth` slots shared by all its EnQue and DeQue calls:
// EnQue appends at the tail and SetFlags its handshake's event with an id from the
// TPipe's pool; DeQue takes the head, whatever positions it names, and WaitFlags the
// event of ITS positions with the id stored at EnQue, then releases the id. So a
// DeQue whose event differs from the head's EnQue waits on a flag nobody sets: the
// NPU hangs, and the simulator refuses it. FreeTensor SetFlags the queue's release
// event (GM->UB: V_MTE2, UB->GM: MTE3_V, UB->UB: MTE3_MTE2); the AllocTensor that
// hands the buffer out again WaitFlags it. The pipe ordering all of this gives is
// the hazard model's, through set_flag/wait_flag (events.cpp).
#include "ascend_sim/kernel_defs.h"
#include <cstring>

#include "ascend_sim/runtime_state.h"
#include "timing_trace.h"

namespace ascend_sim::detail {

using AscendC::TPosition;

const char* pos_name(uint8_t p) {
    switch (TPosition(p)) {
        case TPosition::GM: return "GM";
        case TPosition::VECIN: return "VECIN";
        case TPosition::VECOUT: return "VECOUT";
        case TPosition::VECCALC: return "VECCALC";
        default: return "a non-UB position";
    }
}

// UB reads as 0xFF until written (uninitialised data shows up as NaN / -1).
// Filled the first time InitBuffer, InitBufPool or an API's own UB store
// reaches the bytes, rather than all 190 KB at block start: the rest is
// unreachable, and small launches paid more for the fill than the work.
// The reserve above TMP_UB_OFFSET was filled at block start: what the APIs staged
// there stays, as it would on the device.
void fill_ub(Block& b, uint64_t end) {
    const uint64_t e = end < b.ubReserve ? end : b.ubReserve;
    if (e <= b.ubFilled) return;
    std::memset(b.ub + b.ubFilled, 0xFF, e - b.ubFilled);
    b.ubFilled = e;
}

namespace {
constexpr uint32_t kMaxBuffers = 64;  // QBUF_MAX_LEN

// A buffer or queue dies with its TPipe's generation or its pool's.
bool pool_live(const Block& b, int32_t pool, int32_t poolGen) {
    return pool < 0 || b.pools[size_t(pool)].gen == poolGen;
}
bool live(const Block& b, const Buffer& f) { return f.gen == b.pipeGen && pool_live(b, f.pool, f.poolGen); }
bool live(const Block& b, const Queue& q) { return q.pipeGen == b.pipeGen && pool_live(b, q.pool, q.poolGen); }

// "EnQue<GM, VECIN>" or "EnQue (the queue's GM -> VECIN)", with the event it stands for.
std::string hop_text(const char* call, const QueHop& h) {
    std::string s(call);
    if (h.user) s += std::string("<") + pos_name(h.src) + ", " + pos_name(h.dst) + ">";
    else s += std::string(" (the queue's own ") + pos_name(h.src) + " -> " + pos_name(h.dst) + ")";
    return s + " [HardEvent::" + event_name(h.event) + "]";
}

void need_pipe(const char* api, Block& b, int32_t pipeId) {
    if (pipeId != b.livePipe)
        fail(api, "TPipe not live", "this TPipe is not the block's live TPipe (destroyed, or a second one)");
}

Queue& queue(const char* api, Block& b, int32_t qid) {
    if (qid < 0 || size_t(qid) >= b.queues.size())
        fail(api, "queue not initialised", "the TQue has no buffers: call TPipe::InitBuffer on it first");
    Queue& q = b.queues[qid];
    if (q.pipeGen != b.pipeGen)
        fail(api, "queue used after TPipe::Reset", "the TQue's buffers were released by TPipe::Reset/Destroy; "
                                                    "call InitBuffer again");
    if (!live(b, q))
        fail(api, "queue used after TBufPool::Reset",
             "the TQue's buffers were released by its TBufPool's Reset; call InitBuffer again");
    return q;
}

Slot slot_of(Block& b, int32_t id) { return Slot{b.ub + b.bufs[id].offset, b.bufs[id].len, id}; }

Buffer& own_buffer(const char* api, Block& b, int32_t qid, int32_t bufId, const void* p) {
    if (bufId < 0 || size_t(bufId) >= b.bufs.size() || b.bufs[bufId].queue != qid ||
        !live(b, b.bufs[bufId]))
        fail(api, "tensor not from this queue",
             "the tensor at UB %s was not allocated from this queue (AllocTensor/DeQue of this TQue)",
             hex(uint64_t(static_cast<const uint8_t*>(p) - b.ub)).c_str());
    return b.bufs[bufId];
}

// Where an InitBuffer takes its bytes from: the TPipe's UB or a TBufPool's range.
struct Carve {
    uint64_t& next;     // the first byte not handed out
    uint64_t end;       // one past the last byte it may hand out
    uint32_t& count;    // buffers carved so far
    uint32_t maxCount;  // QBUF_MAX_LEN for the TPipe, bufIDSize for a pool
    int32_t pool;       // -1: the TPipe
    int32_t poolGen;
};

Carve pipe_carve(Block& b) { return Carve{b.ubNext, b.ubInitEnd, b.bufCount, kMaxBuffers, -1, 0}; }

void note_peak(Block& b) {
    if (b.ubNext > b.ctr.ubPeakBytes) b.ctr.ubPeakBytes = b.ubNext;
}

// In 64 bits: a len within 31 of 2^32 must not wrap to a 0-byte buffer.
uint64_t round32(uint32_t len) { return (uint64_t(len) + 31) / 32 * 32; }

void alloc_ub(const char* api, Block& b, const Carve& c, uint32_t num, uint32_t len, uint32_t& lenR) {
    if (num < 1 || num > kMaxBuffers) fail(api, "buffer count out of range", "num %u is outside [1, 64]", num);
    if (c.count + num > c.maxCount) {
        if (c.pool < 0)
            fail(api, "more than 64 buffers", "%u buffers after this call exceed the TPipe's 64 (QBUF_MAX_LEN)",
                 c.count + num);
        fail(api, "more buffers than the TBufPool holds",
             "%u buffers after this call exceed the pool's bufIDSize of %u (TBufPool<pos, bufIDSize>)", c.count + num,
             c.maxCount);
    }
    const uint64_t r = round32(len);
    const uint64_t end = c.next + uint64_t(num) * r;
    if (end > c.end) {
        if (c.pool < 0)
            fail(api, "UB capacity exceeded",
                 "InitBuffer total %llu B (%llu B before this call + %u x %llu B) exceeds the UB of %s: %llu B",
                 (unsigned long long)end, (unsigned long long)c.next, num, (unsigned long long)r,
                 b.launch ? b.launch->prof.name.c_str() : "?", (unsigned long long)b.ubInitEnd);
        const Pool& p = b.pools[size_t(c.pool)];
        if (p.len == 0)
            fail(api, "TBufPool used after its Reset",
                 "the TBufPool was Reset, which leaves it no UB: InitBufPool it again before InitBuffer");
        fail(api, "beyond the TBufPool",
             "InitBuffer of %u x %llu B at offset %llu of the TBufPool exceeds the pool's %llu B", num,
             (unsigned long long)r,
             (unsigned long long)(c.next - p.start), (unsigned long long)p.len);
    }
    lenR = uint32_t(r);  // within the UB here
    fill_ub(b, end);
}

// An empty vector, with capacity from an earlier launch's queue if there is one.
std::vector<int32_t> spare_ints(Block& b) {
    if (b.spareInts.empty()) return {};
    std::vector<int32_t> v = std::move(b.spareInts.back());
    b.spareInts.pop_back();
    return v;
}

int32_t push_buffer(Block& b, Carve& c, uint8_t pos, uint32_t lenR, int32_t queueId) {
    Buffer f;
    f.offset = uint32_t(c.next);
    f.len = lenR;
    f.queue = queueId;
    f.gen = b.pipeGen;
    f.pool = c.pool;
    f.poolGen = c.poolGen;
    f.pos = pos;
    f.site = b.site;
    b.bufs.push_back(f);
    c.next += lenR;
    c.count += 1;
    note_peak(b);
    return int32_t(b.bufs.size() - 1);
}

// A freed buffer's release flag, waited for (AllocTensor, FreeAllEvent, Reset).
void wait_release(const char* api, Block& b, Queue& q, Buffer& f, bool releaseId) {
    if (f.freeId < 0) return;
    wait_flag(api, q.freeEvent, f.freeId);
    if (releaseId) b.reservedIds[q.freeEvent] &= uint8_t(~(1u << f.freeId));
    f.freeId = -1;
}

// ResetPool: older queues and buffers die, every UB byte is undefined again, no
// buffer or event id is taken (a new TPipe, Reset, Destroy).
void reset_pool(Block& b) {
    ++b.pipeGen;
    b.init.clear();
    b.ubNext = 0;
    b.bufCount = 0;
    for (auto& r : b.reservedIds) r = 0;
}

// Reset and Destroy: wait for the release of every freed buffer, then free every
// buffer and event id (ResetPool). Tensors still allocated or enqueued are not
// checked, as on the NPU: an enqueued one's SetFlag stays pending.
void release_pool(const char* api, Block& b) {
    for (Queue& q : b.queues) {
        if (!live(b, q)) continue;
        for (int32_t id : q.bufs)
            if (b.bufs[id].state == BufState::FREE) wait_release(api, b, q, b.bufs[id], false);
    }
    reset_pool(b);
}
}  // namespace

int32_t tpipe_create(const char* api, void* self) {
    Block& b = cur(api);
    if (b.livePipe >= 0)
        fail(api, "more than one TPipe",
             "a second TPipe while another is live: both would hand out the same UB (Destroy the first)");
    b.livePipe = ++b.pipeSerial;
    b.livePipeObj = self;
    init_soc_state(api);  // kernel_tpipe_impl.h: the constructor's first step, as Reset's
    reset_pool(b);
    return b.livePipe;
}

void tpipe_reset(const char* api, int32_t pipeId) {
    Block& b = cur(api);
    need_pipe(api, b, pipeId);
    release_pool(api, b);
    init_soc_state(api);
}

void tpipe_destroy(const char* api, int32_t pipeId) {
    Block& b = cur(api);
    if (pipeId == b.livePipe) {
        release_pool(api, b);
        b.livePipe = -1;
        b.livePipeObj = nullptr;
    }  // a second Destroy finds nothing to wait for, as on the NPU
    b.hz.barrier_all();  // Destroy ends with pipe_barrier(PIPE_ALL)
    t_barrier(b, P_COUNT);
}

void tpipe_end(int32_t pipeId) noexcept {
    Block* b = tls_block;
    if (!b || pipeId != b->livePipe) return;  // destroyed already, or outside a kernel
    try {
        tpipe_destroy("TPipe::~TPipe", pipeId);
    } catch (...) {
        b->livePipe = -1;  // unwinding from an earlier violation: that one is reported
        b->livePipeObj = nullptr;
    }
}

void* live_tpipe() {
    Block* b = tls_block;
    return b ? b->livePipeObj : nullptr;
}

namespace {
// A queue with its ring and no buffers yet; `reserve` of them to come.
int32_t make_queue(Block& b, const Carve& c, uint8_t src, uint8_t dst, int32_t depth, uint32_t reserve) {
    Queue q;
    q.src = src;
    q.dst = dst;
    q.freeEvent = uint8_t(TPosition(src) == TPosition::GM   ? AscendC::HardEvent::V_MTE2
                          : TPosition(dst) == TPosition::GM ? AscendC::HardEvent::MTE3_V
                                                            : AscendC::HardEvent::MTE3_MTE2);
    q.depth = depth;
    q.ring = spare_ints(b);
    q.ring.assign(size_t(depth), -1);
    q.pipeGen = b.pipeGen;
    q.pool = c.pool;
    q.poolGen = c.poolGen;
    q.bufs = spare_ints(b);
    q.bufs.reserve(reserve);
    b.queues.push_back(std::move(q));
    return int32_t(b.queues.size() - 1);
}

int32_t init_queue(const char* api, Block& b, Carve c, uint8_t src, uint8_t dst, int32_t depth, uint32_t num,
                   uint32_t len) {
    if (len == 0)
        fail(api, "buffer length 0", "len is 0 bytes for the %s -> %s queue's %u buffer(s) (depth %d)", pos_name(src),
             pos_name(dst), num, depth);
    uint32_t lenR;
    alloc_ub(api, b, c, num, len, lenR);
    const int32_t qid = make_queue(b, c, src, dst, depth, num);
    const uint8_t pos = TPosition(dst) == TPosition::GM ? src : dst;  // GetPosition(src, dst)
    for (uint32_t i = 0; i < num; ++i) b.queues[size_t(qid)].bufs.push_back(push_buffer(b, c, pos, lenR, qid));
    return qid;
}

int32_t init_tbuf(const char* api, Block& b, Carve c, uint8_t pos, uint32_t len) {
    if (len == 0) fail(api, "buffer length 0", "len is 0 bytes for the TBuf at %s", pos_name(pos));
    uint32_t lenR;
    alloc_ub(api, b, c, 1, len, lenR);
    return push_buffer(b, c, pos, lenR, -1);
}

Pool& pool_of(const char* api, Block& b, int32_t id) {
    if (id < 0 || size_t(id) >= b.pools.size())
        fail(api, "TBufPool not initialised",
             "the TBufPool has no UB: call InitBufPool on it (TPipe's or a parent pool's) first");
    Pool& p = b.pools[size_t(id)];
    if (p.pipeGen != b.pipeGen)
        fail(api, "TBufPool used after TPipe::Reset", "the TBufPool's UB was released by TPipe::Reset/Destroy");
    return p;
}

Carve pool_carve(Block& b, int32_t id) {
    Pool& p = b.pools[size_t(id)];
    return Carve{p.next, p.start + p.len, p.count, p.cap, id, p.gen};
}
}  // namespace

int32_t tpipe_init_queue(const char* api, int32_t pipeId, uint8_t src, uint8_t dst, int32_t depth, uint32_t num,
                         uint32_t len) {
    Block& b = cur(api);
    need_pipe(api, b, pipeId);
    return init_queue(api, b, pipe_carve(b), src, dst, depth, num, len);
}

int32_t tpipe_init_tbuf(const char* api, int32_t pipeId, uint8_t pos, uint32_t len) {
    Block& b = cur(api);
    need_pipe(api, b, pipeId);
    return init_tbuf(api, b, pipe_carve(b), pos, len);
}

int32_t bufpool_init(const char* api, int32_t pipeId, int32_t parent, int32_t share, uint32_t len, uint32_t cap) {
    Block& b = cur(api);
    if (parent < 0) need_pipe(api, b, pipeId);
    if (len == 0) fail(api, "pool length 0", "len is 0 bytes");
    const uint64_t lenR = round32(len);
    Pool p;
    p.cap = cap;
    p.pipeGen = b.pipeGen;
    if (share >= 0) {
        // The range of the pool it shares, whatever len asks; the parent's cursor stays.
        const Pool& s = pool_of(api, b, share);
        if (lenR > s.len)
            fail(api, "pool longer than the one it shares",
                 "len %llu B (rounded to 32) exceeds the %llu B of the TBufPool it shares", (unsigned long long)lenR,
                 (unsigned long long)s.len);
        p.start = s.start;
        p.len = s.len;
    } else if (parent >= 0) {
        Pool& q = pool_of(api, b, parent);
        if (q.next + lenR > q.start + q.len)
            fail(api, "pool beyond its parent",
                 "a pool of %llu B at offset %llu of its parent exceeds the parent TBufPool's %llu B",
                 (unsigned long long)lenR, (unsigned long long)(q.next - q.start), (unsigned long long)q.len);
        p.start = q.next;
        p.len = lenR;
        q.next += lenR;
    } else {
        if (b.ubNext + lenR > b.ubInitEnd)
            fail(api, "UB capacity exceeded", "InitBufPool of %llu B after %llu B exceeds the UB of %s: %llu B",
                 (unsigned long long)lenR, (unsigned long long)b.ubNext, b.launch ? b.launch->prof.name.c_str() : "?",
                 (unsigned long long)b.ubInitEnd);
        p.start = b.ubNext;
        p.len = lenR;
        b.ubNext += lenR;
        note_peak(b);
    }
    p.next = p.start;
    fill_ub(b, p.start + p.len);
    b.pools.push_back(p);
    return int32_t(b.pools.size() - 1);
}

int32_t bufpool_init_queue(const char* api, int32_t poolId, uint8_t src, uint8_t dst, int32_t depth, uint32_t num,
                           uint32_t len) {
    Block& b = cur(api);
    pool_of(api, b, poolId);
    return init_queue(api, b, pool_carve(b, poolId), src, dst, depth, num, len);
}

int32_t bufpool_init_tbuf(const char* api, int32_t poolId, uint8_t pos, uint32_t len) {
    Block& b = cur(api);
    pool_of(api, b, poolId);
    return init_tbuf(api, b, pool_carve(b, poolId), pos, len);
}

// A user-defined pool (EXTERN_IMPL_BUFPOOL) places its buffers itself: a queue
// made empty, then each buffer at the UB address the pool gives, inside its range.
int32_t bufpool_user_queue(const char* api, int32_t poolId, uint8_t src, uint8_t dst, int32_t depth) {
    Block& b = cur(api);
    pool_of(api, b, poolId);
    return make_queue(b, pool_carve(b, poolId), src, dst, depth, 0);
}

int32_t bufpool_user_buffer(const char* api, int32_t poolId, int32_t queId, uint8_t pos, uint32_t addr,
                            uint32_t len) {
    Block& b = cur(api);
    Pool& p = pool_of(api, b, poolId);
    if (len == 0) fail(api, "buffer length 0", "len is 0 bytes");
    const uint32_t lenR = round32(len);
    if (addr % 32 != 0) fail(api, "UB address not aligned", "curPoolAddr %u is not 32-byte aligned", addr);
    if (addr < p.start || uint64_t(addr) + lenR > p.start + p.len)
        fail(api, "beyond the TBufPool",
             "a buffer of %u B at UB %u is outside the pool's range [%llu, %llu)", lenR, addr,
             (unsigned long long)p.start, (unsigned long long)(p.start + p.len));
    if (p.count + 1 > p.cap)
        fail(api, "more buffers than the TBufPool holds",
             "%u buffers after this call exceed the pool's bufIDSize of %u", p.count + 1, p.cap);
    fill_ub(b, uint64_t(addr) + lenR);
    uint64_t at = addr;
    Carve c{at, p.start + p.len, p.count, p.cap, poolId, p.gen};
    const int32_t id = push_buffer(b, c, pos, lenR, queId);
    if (queId >= 0) b.queues[size_t(queId)].bufs.push_back(id);
    return id;
}

uint32_t bufpool_cursor(const char* api, int32_t poolId) {
    Block& b = cur(api);
    return uint32_t(pool_of(api, b, poolId).next);
}

void bufpool_set_cursor(const char* api, int32_t poolId, uint32_t addr) {
    Block& b = cur(api);
    Pool& p = pool_of(api, b, poolId);
    if (addr < p.start || addr > p.start + p.len)
        fail(api, "beyond the TBufPool", "curAddr %u is outside the pool's range [%llu, %llu]", addr,
             (unsigned long long)p.start, (unsigned long long)(p.start + p.len));
    p.next = addr;
}

// Waits for the release of the pool's freed buffers (their event ids stay
// taken until the TPipe's Reset, as kernel_tbufpool_impl.h leaves them), then
// the pool has no buffers and no UB.
void bufpool_reset(const char* api, int32_t poolId) {
    Block& b = cur(api);
    Pool& p = pool_of(api, b, poolId);
    for (Queue& q : b.queues) {
        if (q.pool != poolId || !live(b, q)) continue;
        for (int32_t id : q.bufs)
            if (b.bufs[id].state == BufState::FREE) wait_release(api, b, q, b.bufs[id], false);
    }
    ++p.gen;
    p.start = p.len = p.next = 0;
    p.count = 0;
}

void bufpool_end(int32_t poolId) noexcept {
    Block* b = tls_block;
    if (!b || poolId < 0 || size_t(poolId) >= b->pools.size() || b->pools[size_t(poolId)].pipeGen != b->pipeGen) return;
    try {
        bufpool_reset("TBufPool::~TBufPool", poolId);
    } catch (...) {
        // unwinding from an earlier violation: that one is reported
    }
}

Slot pop_stack_buffer(const char* api) {
    Block& b = cur(api);
    if (b.livePipe < 0) fail(api, "no TPipe", "PopStackBuffer needs the block's live TPipe (GetTPipePtr is nullptr)");
    // The UB end less the KfcMsg the cube core's messages use (dav_c220
    // kfc_comm.h: 128 B), as GetEndAddress has it for 2201; elsewhere what
    // TMP_UB_OFFSET elsewhere (3510).
    const uint64_t end = b.launch && b.launch->prof.npuArch == 2201 ? b.ubTotal - 128 : b.ubReserve;
    if (end <= b.ubNext)
        fail(api, "no UB left", "the TPipe's buffers use %llu B, none is left below the stack end at %llu B",
             (unsigned long long)b.ubNext, (unsigned long long)end);
    fill_ub(b, end);
    return Slot{b.ub + b.ubNext, uint32_t(end - b.ubNext), -1};
}

Slot que_alloc(const char* api, int32_t qid) {
    Block& b = cur(api);
    Queue& q = queue(api, b, qid);
    const uint32_t n = uint32_t(q.bufs.size());
    for (uint32_t k = 0; k < n; ++k) {
        const uint32_t i = (q.cursor + k) % n;
        Buffer& f = b.bufs[q.bufs[i]];
        if (f.state != BufState::FREE) continue;
        q.cursor = (i + 1) % n;
        wait_release(api, b, q, f, true);
        f.state = BufState::ALLOCATED;
        return slot_of(b, q.bufs[i]);
    }
    fail(api, "no free buffer",
         "AllocTensor on a queue whose %u buffer(s) are all allocated or enqueued; the NPU would spin in AllocTensor "
         "forever (FreeTensor one first)",
         n);
}

bool que_enque(const char* api, int32_t qid, int32_t bufId, const void* p, const QueHop& hop) {
    Block& b = cur(api);
    Queue& q = queue(api, b, qid);
    Buffer& f = own_buffer(api, b, qid, bufId, p);
    if (f.state == BufState::FREE)
        fail(api, "EnQue of a freed tensor", "the tensor at UB %s is not allocated (freed already)",
             hex(f.offset).c_str());
    if (f.state == BufState::ENQUEUED)
        fail(api, "EnQue twice", "the tensor at UB %s is already enqueued", hex(f.offset).c_str());
    if (q.used >= q.depth)
        fail(api, "EnQue past depth",
             "%s of the tensor at UB %s on a queue whose ring of depth %d is full; the NPU would overwrite the "
             "oldest entry, and a DeQue would return the wrong tensor",
             hop_text("EnQue", hop).c_str(), hex(f.offset).c_str(), q.depth);
    f.enqId = take_event_id(api, hop.event, "EnQue");
    set_flag(api, hop.event, f.enqId);
    f.enq = hop;
    f.state = BufState::ENQUEUED;
    q.ring[size_t(q.tail)] = bufId;
    q.tail = (q.tail + 1) % q.depth;
    ++q.used;
    return true;
}

Slot que_deque(const char* api, int32_t qid, const QueHop& hop) {
    Block& b = cur(api);
    Queue& q = queue(api, b, qid);
    if (q.used == 0)
        fail(api, "DeQue of an empty queue",
             "%s on a queue with no tensor enqueued; the NPU would hand back a stale slot of the ring without "
             "waiting for any producer",
             hop_text("DeQue", hop).c_str());
    const int32_t id = q.ring[size_t(q.head)];
    Buffer& f = b.bufs[id];
    if (f.state != BufState::ENQUEUED)
        fail(api, "DeQue of a freed tensor", "the head of the queue, the tensor at UB %s, was freed while enqueued",
             hex(f.offset).c_str());
    if (f.enq.event != hop.event)
        fail(api, "DeQue does not match the head's EnQue",
             "%s takes the head of the queue's ring, the tensor at UB %s put there by %s with SetFlag id %d; this "
             "DeQue waits for HardEvent::%s id %d, which nothing sets: the NPU would wait forever. A queue has one "
             "ring for all its EnQue and DeQue calls: dequeue in the order of enqueue",
             hop_text("DeQue", hop).c_str(), hex(f.offset).c_str(), hop_text("EnQue", f.enq).c_str(), int(f.enqId),
             event_name(hop.event), int(f.enqId));
    wait_flag(api, hop.event, f.enqId);
    b.reservedIds[hop.event] &= uint8_t(~(1u << f.enqId));
    f.enqId = -1;
    f.state = BufState::DEQUEUED;
    q.head = (q.head + 1) % q.depth;
    --q.used;
    return slot_of(b, id);
}

// Names the live buffer holding UB offset lo by what the kernel wrote: its queue or
// TBuf and the InitBuffer call that made it.
std::string ub_owner(const Block& b, uint64_t lo) {
    for (size_t i = 0; i < b.bufs.size(); ++i) {
        const Buffer& f = b.bufs[i];
        if (!live(b, f) || lo < f.offset || lo >= uint64_t(f.offset) + f.len) continue;
        std::string what;
        if (f.queue < 0) {
            what = "the TBuf";
        } else {
            const std::vector<int32_t>& mine = b.queues[size_t(f.queue)].bufs;
            size_t k = 0;
            while (k < mine.size() && mine[k] != int32_t(i)) ++k;
            what = "buffer " + std::to_string(k + 1) + " of " + std::to_string(mine.size()) + " of the queue";
        }
        what += f.site.file ? std::string(" of InitBuffer at ") + f.site.file + ":" + std::to_string(f.site.line)
                            : std::string(" of InitBuffer #") + std::to_string(i + 1);
        return "; UB " + hex(lo) + " is in " + what + " (at +" + hex(lo - f.offset) + ")";
    }
    return std::string();
}

int32_t que_buffer_at(const char* api, int32_t qid, const void* p) {
    Block& b = cur(api);
    for (size_t i = 0; i < b.bufs.size(); ++i)
        if (b.bufs[i].queue == qid && live(b, b.bufs[i]) && b.ub + b.bufs[i].offset == p) return int32_t(i);
    fail(api, "tensor not from this queue", "the buffer handle %p is not a buffer of this queue", p);
}

void que_free(const char* api, int32_t qid, int32_t bufId, const void* p) {
    Block& b = cur(api);
    Queue& q = queue(api, b, qid);
    Buffer& f = own_buffer(api, b, qid, bufId, p);
    if (f.state == BufState::FREE)
        fail(api, "FreeTensor twice", "the tensor at UB %s is already free", hex(f.offset).c_str());
    if (f.state == BufState::ENQUEUED)
        fail(api, "FreeTensor of an enqueued tensor",
             "the tensor at UB %s is still in the queue's ring (DeQue it first): a later DeQue would return a freed "
             "buffer",
             hex(f.offset).c_str());
    f.freeId = take_event_id(api, q.freeEvent, "FreeTensor");
    set_flag(api, q.freeEvent, f.freeId);
    f.state = BufState::FREE;
}

int32_t que_idle_buffers(int32_t qid) {
    Block& b = cur("TQue::HasIdleBuffer");
    Queue& q = queue("TQue::HasIdleBuffer", b, qid);
    int32_t n = 0;
    for (int32_t id : q.bufs) n += b.bufs[id].state == BufState::FREE;
    return n;
}

int32_t que_count(int32_t qid) {
    Block& b = cur("TQue::GetTensorCountInQue");
    return queue("TQue::GetTensorCountInQue", b, qid).used;
}

void que_free_all_events(const char* api, int32_t qid) {
    Block& b = cur(api);
    Queue& q = queue(api, b, qid);
    for (int32_t id : q.bufs) {
        Buffer& f = b.bufs[id];
        if (f.state == BufState::ENQUEUED)
            fail(api, "FreeAllEvent with a tensor enqueued", "the tensor at UB %s is still enqueued",
                 hex(f.offset).c_str());
        wait_release(api, b, q, f, true);
    }
}

Slot tbuf_get(const char* api, int32_t id, uint64_t bytes, uint64_t offset, bool checkMultiple) {
    Block& b = cur(api);
    if (id < 0 || size_t(id) >= b.bufs.size() || b.bufs[id].queue != -1)
        fail(api, "TBuf not initialised", "the TBuf has no buffer: call TPipe::InitBuffer on it first");
    const Buffer& f = b.bufs[id];
    if (f.gen != b.pipeGen)
        fail(api, "TBuf used after TPipe::Reset", "the TBuf's buffer was released by TPipe::Reset/Destroy");
    if (!live(b, f))
        fail(api, "TBuf used after TBufPool::Reset", "the TBuf's buffer was released by its TBufPool's Reset");
    if (bytes == ~uint64_t(0)) return Slot{b.ub + f.offset, f.len, id};
    if (checkMultiple && bytes % 32 != 0)
        fail(api, "length not a multiple of 32 B", "len x sizeof(T) = %llu B is not a multiple of 32 B",
             (unsigned long long)bytes);
    if (offset % 32 != 0)
        fail(api, "offset not 32-byte aligned", "bufOffset %llu B is not a multiple of 32", (unsigned long long)offset);
    if (offset + bytes > f.len)
        fail(api, "beyond the buffer", "%llu B at offset %llu exceed the TBuf's %u B", (unsigned long long)bytes,
             (unsigned long long)offset, f.len);
    return Slot{b.ub + f.offset + offset, uint32_t(bytes), id};
}

}  // namespace ascend_sim::detail

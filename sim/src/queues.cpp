// TPipe, TQue and TBuf: the UB bump allocator (InitBuffer), buffer states and
// queue handshakes. A queue handshake orders the producer and consumer pipes
// of its position like the SetFlag/WaitFlag pair CANN generates:
//   VECIN   producer MTE2, consumer V     (EnQue/DeQue: MTE2->V; FreeTensor/AllocTensor: V->MTE2)
//   VECOUT  producer V,    consumer MTE3  (EnQue/DeQue: V->MTE3; FreeTensor/AllocTensor: MTE3->V)
//   VECCALC producer V,    consumer V
// A TQueBind<VECIN, VECOUT> buffer makes the round trip in one place: EnQue/DeQue
// <GM, VECIN> order MTE2->V, EnQue/DeQue<VECOUT, GM> V->MTE3, and its FreeTensor/
// AllocTensor MTE3->MTE2 (the plain EnQue/DeQue, for a copy-through without vector
// work, MTE2->MTE3).
// It never orders PIPE_S (GetValue on a DeQue'd VECIN tensor still needs MTE2_S).
#include "ascend_sim/kernel_defs.h"
#include <cstring>

#include "ascend_sim/runtime_state.h"

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

namespace {
constexpr uint32_t kMaxBuffers = 64;  // QBUF_MAX_LEN
constexpr uint32_t kMaxLivePerPos = 8;

void roles(uint8_t pos, Pipe& producer, Pipe& consumer) {
    if (TPosition(pos) == TPosition::VECIN) producer = P_MTE2, consumer = P_V;
    else if (TPosition(pos) == TPosition::VECOUT) producer = P_V, consumer = P_MTE3;
    else producer = P_V, consumer = P_V;
}

// The pipes one handshake of queue q orders.
void roles(const Queue& q, uint8_t hop, Pipe& producer, Pipe& consumer) {
    if (!q.bind) roles(q.pos, producer, consumer);
    else if (hop == kHopIn) producer = P_MTE2, consumer = P_V;
    else if (hop == kHopOut) producer = P_V, consumer = P_MTE3;
    else producer = P_MTE2, consumer = P_MTE3;
}

const char* hop_name(const Queue& q, uint8_t hop) {
    if (!q.bind) return pos_name(q.pos);
    return hop == kHopIn ? "TQueBind GM->VECIN" : hop == kHopOut ? "TQueBind VECOUT->GM" : "TQueBind";
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
    return q;
}

Slot slot_of(Block& b, int32_t id) { return Slot{b.ub + b.bufs[id].offset, b.bufs[id].len, id}; }

int32_t own_buffer(const char* api, Block& b, Queue& q, int32_t qid, int32_t bufId, const void* p) {
    if (bufId < 0 || size_t(bufId) >= b.bufs.size() || b.bufs[bufId].queue != qid || b.bufs[bufId].gen != b.pipeGen)
        fail(api, "tensor not from this queue",
             "the tensor at UB %s was not allocated from this queue (AllocTensor/DeQue of this TQue)",
             hex(uint64_t(static_cast<const uint8_t*>(p) - b.ub)).c_str());
    (void)q;
    return bufId;
}

uint32_t live_tensors(const Block& b, std::string* first) {
    uint32_t n = 0;
    for (size_t i = 0; i < b.bufs.size(); ++i) {
        const Buffer& f = b.bufs[i];
        if (f.queue < 0 || f.gen != b.pipeGen || f.state == BufState::FREE) continue;
        if (!n && first)
            *first = std::string(pos_name(f.pos)) + " buffer at UB " + hex(f.offset) + " (" + std::to_string(f.len) +
                     " B, " + (f.state == BufState::ENQUEUED ? "enqueued" : "allocated") + ")";
        ++n;
    }
    return n;
}

void alloc_ub(const char* api, Block& b, uint32_t num, uint32_t len, uint32_t& lenR) {
    if (len == 0) fail(api, "buffer length 0", "len is 0 bytes");
    if (num < 1 || num > kMaxBuffers) fail(api, "buffer count out of range", "num %u is outside [1, 64]", num);
    if (b.bufCount + num > kMaxBuffers)
        fail(api, "more than 64 buffers", "%u buffers after this call exceed the TPipe's 64 (QBUF_MAX_LEN)",
             b.bufCount + num);
    lenR = (len + 31) / 32 * 32;
    const uint64_t end = b.ubNext + uint64_t(num) * lenR;
    if (end > b.ubUsable)
        fail(api, "UB capacity exceeded",
             "InitBuffer total %llu B (%llu B before this call + %u x %u B) exceeds the UB of %s: %llu B usable",
             (unsigned long long)end, (unsigned long long)b.ubNext, num, lenR, b.launch ? b.launch->prof.name.c_str() : "?",
             (unsigned long long)b.ubUsable);
    // UB reads as 0xFF until written (uninitialised data shows up as NaN / -1).
    // Filled here, the first time InitBuffer hands bytes out, rather than all
    // 190 KB at block start: the rest is unreachable (every LocalTensor comes
    // from InitBuffer), and small launches paid more for the fill than the work.
    if (end > b.ubFilled) {
        std::memset(b.ub + b.ubFilled, 0xFF, end - b.ubFilled);
        b.ubFilled = end;
    }
}
}  // namespace

int32_t tpipe_create(const char* api) {
    Block& b = cur(api);
    if (b.livePipe >= 0)
        fail(api, "more than one TPipe", "a second TPipe while another is live; a kernel has exactly one TPipe");
    b.livePipe = ++b.pipeSerial;
    ++b.pipeGen;
    b.init.clear();
    b.ubNext = 0;
    b.bufCount = 0;
    return b.livePipe;
}

void tpipe_destroy(int32_t pipeId) noexcept {
    Block* b = tls_block;
    if (!b || pipeId != b->livePipe) return;
    std::string first;
    const uint32_t n = live_tensors(*b, &first);
    if (n && b->pipeLeak.empty())
        b->pipeLeak = std::to_string(n) + " tensor(s) still allocated when the TPipe was destroyed, first: " + first;
    b->livePipe = -1;
    ++b->pipeGen;
    b->init.clear();
    for (auto& c : b->liveByPos) c = 0;
}

void tpipe_reset(const char* api, int32_t pipeId) {
    Block& b = cur(api);
    need_pipe(api, b, pipeId);
    std::string first;
    if (uint32_t n = live_tensors(b, &first))
        fail(api, "tensors still allocated", "%u tensor(s) still allocated, first: %s", n, first.c_str());
    ++b.pipeGen;
    b.init.clear();  // every UB byte is undefined again
    b.ubNext = 0;
    b.bufCount = 0;
    for (auto& c : b.liveByPos) c = 0;
    for (auto& r : b.reservedIds) r = 0;
}

int32_t tpipe_init_queue(const char* api, int32_t pipeId, uint8_t pos, int32_t depth, uint32_t num, uint32_t len,
                         bool bind) {
    Block& b = cur(api);
    need_pipe(api, b, pipeId);
    uint32_t lenR;
    alloc_ub(api, b, num, len, lenR);
    Queue q;
    q.pos = pos;
    q.bind = bind;
    q.depth = depth;
    q.pipeGen = b.pipeGen;
    const int32_t qid = int32_t(b.queues.size());
    for (uint32_t i = 0; i < num; ++i) {
        Buffer f;
        f.offset = uint32_t(b.ubNext);
        f.len = lenR;
        f.queue = qid;
        f.gen = b.pipeGen;
        f.pos = pos;
        q.bufs.push_back(int32_t(b.bufs.size()));
        b.bufs.push_back(f);
        b.ubNext += lenR;
    }
    b.bufCount += num;
    b.queues.push_back(std::move(q));
    if (b.ubNext > b.ctr.ubPeakBytes) b.ctr.ubPeakBytes = b.ubNext;
    return qid;
}

int32_t tpipe_init_tbuf(const char* api, int32_t pipeId, uint8_t pos, uint32_t len) {
    Block& b = cur(api);
    need_pipe(api, b, pipeId);
    uint32_t lenR;
    alloc_ub(api, b, 1, len, lenR);
    Buffer f;
    f.offset = uint32_t(b.ubNext);
    f.len = lenR;
    f.queue = -1;
    f.gen = b.pipeGen;
    f.pos = pos;
    b.bufs.push_back(f);
    b.ubNext += lenR;
    b.bufCount += 1;
    if (b.ubNext > b.ctr.ubPeakBytes) b.ctr.ubPeakBytes = b.ubNext;
    return int32_t(b.bufs.size() - 1);
}

Slot que_alloc(const char* api, int32_t qid) {
    Block& b = cur(api);
    Queue& q = queue(api, b, qid);
    const uint32_t n = uint32_t(q.bufs.size());
    for (uint32_t k = 0; k < n; ++k) {
        const uint32_t i = (q.cursor + k) % n;
        Buffer& f = b.bufs[q.bufs[i]];
        if (f.state != BufState::FREE) continue;
        if (++b.liveByPos[q.pos % 32] > kMaxLivePerPos) {
            --b.liveByPos[q.pos % 32];
            fail(api, "more than 8 live tensors per position",
                 "a 9th live tensor at %s; A2/A3 allow 8 per position (the NPU would hang)", pos_name(q.pos));
        }
        q.cursor = (i + 1) % n;
        f.state = BufState::ALLOCATED;
        if (f.hasRelease) {  // the producer waits for the consumer to release the buffer
            Pipe prod, cons;
            roles(q, q.bind ? kHopIn : kHopPlain, prod, cons);
            b.hz.join(prod, f.release);
        }
        return slot_of(b, q.bufs[i]);
    }
    fail(api, "no free buffer",
         "AllocTensor on a %s queue whose %u buffer(s) are all allocated or enqueued; the NPU would hang "
         "(FreeTensor one first)",
         pos_name(q.pos), n);
}

bool que_enque(const char* api, int32_t qid, int32_t bufId, const void* p, uint8_t hop) {
    Block& b = cur(api);
    Queue& q = queue(api, b, qid);
    Buffer& f = b.bufs[own_buffer(api, b, q, qid, bufId, p)];
    if (f.state == BufState::FREE)
        fail(api, "EnQue of a freed tensor", "the tensor at UB %s is not allocated (freed already)",
             hex(f.offset).c_str());
    if (f.state == BufState::ENQUEUED)
        fail(api, "EnQue twice", "the tensor at UB %s is already enqueued", hex(f.offset).c_str());
    // A TQueBind buffer goes GM->VECIN, then VECOUT->GM, each at most once per allocation.
    if (q.bind && f.state == BufState::DEQUEUED && (hop != kHopOut || f.hop != kHopIn))
        fail(api, "EnQue out of order",
             "the tensor at UB %s was already dequeued from the %s hop; after AllocTensor a TQueBind tensor "
             "takes EnQue<GM, VECIN>, then EnQue<VECOUT, GM>",
             hex(f.offset).c_str(), hop_name(q, f.hop));
    std::deque<int32_t>& fifo = q.fifo[hop];
    if (int32_t(fifo.size()) >= q.depth)
        fail(api, "EnQue past depth", "EnQue on a %s queue already holding %zu tensor(s) (depth %d)", hop_name(q, hop),
             fifo.size(), q.depth);
    Pipe prod, cons;
    roles(q, hop, prod, cons);
    f.produced = b.hz.snapshot(prod);
    f.state = BufState::ENQUEUED;
    f.hop = hop;
    fifo.push_back(bufId);
    return true;
}

Slot que_deque(const char* api, int32_t qid, uint8_t hop) {
    Block& b = cur(api);
    Queue& q = queue(api, b, qid);
    std::deque<int32_t>& fifo = q.fifo[hop];
    if (fifo.empty())
        fail(api, "DeQue of an empty queue", "DeQue on an empty %s queue; the NPU would wait forever",
             hop_name(q, hop));
    const int32_t id = fifo.front();
    fifo.pop_front();
    Buffer& f = b.bufs[id];
    Pipe prod, cons;
    roles(q, hop, prod, cons);
    b.hz.join(cons, f.produced);
    f.state = BufState::DEQUEUED;
    return slot_of(b, id);
}

void que_free(const char* api, int32_t qid, int32_t bufId, const void* p) {
    Block& b = cur(api);
    Queue& q = queue(api, b, qid);
    Buffer& f = b.bufs[own_buffer(api, b, q, qid, bufId, p)];
    if (f.state == BufState::FREE)
        fail(api, "FreeTensor twice", "the tensor at UB %s is already free", hex(f.offset).c_str());
    if (f.state == BufState::ENQUEUED)
        fail(api, "FreeTensor of an enqueued tensor", "the tensor at UB %s is still enqueued (DeQue it first)",
             hex(f.offset).c_str());
    // The release is the last consumer's: a TQueBind tensor's that of the hop it was
    // dequeued from (MTE3 after VECOUT->GM), the allocating producer's if never enqueued.
    Pipe prod, cons;
    roles(q, f.state == BufState::DEQUEUED ? f.hop : uint8_t(kHopPlain), prod, cons);
    if (q.bind && f.state != BufState::DEQUEUED) cons = P_MTE2;
    f.release = b.hz.snapshot(cons);
    f.hasRelease = true;
    f.state = BufState::FREE;
    --b.liveByPos[q.pos % 32];
}

bool que_has_free(int32_t qid) {
    Block& b = cur("TQue::HasIdleBuffer");
    Queue& q = queue("TQue::HasIdleBuffer", b, qid);
    for (int32_t id : q.bufs)
        if (b.bufs[id].state == BufState::FREE) return true;
    return false;
}

Slot tbuf_get(const char* api, int32_t id, uint64_t bytes, uint64_t offset, bool checkMultiple) {
    Block& b = cur(api);
    if (id < 0 || size_t(id) >= b.bufs.size() || b.bufs[id].queue != -1)
        fail(api, "TBuf not initialised", "the TBuf has no buffer: call TPipe::InitBuffer on it first");
    const Buffer& f = b.bufs[id];
    if (f.gen != b.pipeGen)
        fail(api, "TBuf used after TPipe::Reset", "the TBuf's buffer was released by TPipe::Reset/Destroy");
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

void queues_end(Block& b) {
    if (!b.pipeLeak.empty()) fail("kernel end", "tensors still allocated", "%s", b.pipeLeak.c_str());
    std::string first;
    if (b.livePipe >= 0)
        if (uint32_t n = live_tensors(b, &first))
            fail("kernel end", "tensors still allocated", "%u tensor(s) still allocated, first: %s", n, first.c_str());
}

}  // namespace ascend_sim::detail

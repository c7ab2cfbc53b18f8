// TPipe, TQue, TQueBind and TBuf, as asc-devkit implements them for a vector
// core (include/basic_api/kernel_tpipe.h, impl/basic_api/kernel_tpipe_impl.h,
// kernel_tquebind_impl.h, kernel_tbuf_impl.h). The objects hold ids; buffer states,
// each queue's ring, the UB bump allocator and the event ids the queue operations
// take from the TPipe's pools live in the block's runtime (queues.cpp).
#pragma once
#include <cstdint>
#include <type_traits>

#include "device_runtime.h"
#include "kernel_defs.h"
#include "kernel_tensor.h"

namespace AscendC {

class TPipe;

// A queue's configuration, TQue<pos, depth, &config> (utils/kernel_utils_ceil_oom_que.h;
// TQue简介.md). Of its fields the vector core uses bufferNumber: InitBuffer asserts it
// is 0 or the buffer count it is given.
struct TQueConfig {
    bool nd2nz = false;
    bool nz2nd = false;
    bool scmBlockGroup = false;
    uint32_t bufferLen = 0;
    uint32_t bufferNumber = 0;
    uint32_t consumerSize = 0;
    TPosition consumer[8] = {};
    bool enableStaticEvtId = false;
    bool enableLoopQueue = false;
};

// A buffer handle as a user-defined pool passes it around (kernel_tensor_base.h);
// the simulator keeps the buffers in the block's runtime, so it is only a token.
using TBufHandle = uint8_t*;

namespace sim_queue {
constexpr bool is_ub(TPosition p) { return p == TPosition::VECIN || p == TPosition::VECOUT || p == TPosition::VECCALC; }

// GetQueEvt of kernel_event.h for the AIV positions: the event a handshake from
// src to dst sets (forward: EnQue/DeQue) or its release (FreeTensor/AllocTensor).
constexpr HardEvent que_event(TPosition src, TPosition dst, bool forward) {
    return src == TPosition::GM   ? (forward ? HardEvent::MTE2_V : HardEvent::V_MTE2)      // GM -> UB
           : dst == TPosition::GM ? (forward ? HardEvent::V_MTE3 : HardEvent::MTE3_V)      // UB -> GM
                                  : (forward ? HardEvent::MTE2_MTE3 : HardEvent::MTE3_MTE2);  // UB -> UB
}

// GetPosition of kernel_event.h: the position of every tensor of a queue.
constexpr TPosition tensor_position(TPosition src, TPosition dst) { return dst == TPosition::GM ? src : dst; }

constexpr bool user_position(TPosition p) { return p == TPosition::GM || is_ub(p); }

// TQueConfig::bufferNumber of a queue's `mask` argument (0: a plain mask, any count).
template <auto mask>
constexpr uint32_t config_buffer_number() {
    if constexpr (std::is_same_v<decltype(mask), const TQueConfig*>) return mask->bufferNumber;
    else return 0;
}

// TQueBind<src, dst, depth>: a ring of `depth` handles shared by every EnQue and
// DeQue, whatever positions they name (a DeQue takes the head), over the buffers
// TPipe::InitBuffer gives it (AllocTensor scans them round-robin for a free one).
template <TPosition src, TPosition dst, int32_t depth, bool tque>
class QueueBase {
public:
    static_assert(user_position(src) && user_position(dst) && (is_ub(src) || is_ub(dst)),
                  "the simulator models vector-core queues only: positions GM, VECIN, VECOUT, VECCALC, one of them UB");
    static_assert(depth >= 1, "the simulator does not model depth-0 queues (AllocTensor(LocalTensor&) forms)");
    static constexpr TPosition srcPosition = src;
    static constexpr TPosition dstPosition = dst;
    static constexpr int32_t kDepth = depth;

    template <class T>
    LocalTensor<T> AllocTensor(ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
        return LocalTensor<T>::from_slot(ascend_sim::detail::que_alloc(kApi[kAlloc], id_), kPos);
    }
    template <class T>
    void FreeTensor(LocalTensor<T>& tensor, ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
        ascend_sim::detail::que_free(kApi[kFree], id_, tensor.buf_id(), tensor.GetPhyAddr());
    }
    // The queue's own handshake (src -> dst).
    template <class T>
    bool EnQue(const LocalTensor<T>& tensor, ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
        return enque(tensor, que_event(src, dst, true), src, dst, false);
    }
    template <class T>
    LocalTensor<T> DeQue(ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
        return deque<T>(que_event(src, dst, true), src, dst, false);
    }
    // A handshake between positions of the kernel's choosing (TQueBind<VECIN, VECOUT>:
    // EnQue<GM, VECIN> after the copy in, EnQue<VECOUT, GM> after the vector work).
    template <TPosition srcUserPos, TPosition dstUserPos, class T>
    bool EnQue(const LocalTensor<T>& tensor, ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
        check_user<srcUserPos, dstUserPos>();
        return enque(tensor, que_event(srcUserPos, dstUserPos, true), srcUserPos, dstUserPos, true);
    }
    template <TPosition srcUserPos, TPosition dstUserPos, class T>
    LocalTensor<T> DeQue(ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
        check_user<srcUserPos, dstUserPos>();
        return deque<T>(que_event(srcUserPos, dstUserPos, true), srcUserPos, dstUserPos, true);
    }
    // The buffer-handle forms (kernel_tquebind_impl.h AllocBuffer, EnQue(TBufHandle),
    // DeQue(), FreeBuffer): the same handshakes on a buffer named by its UB address.
    TBufHandle AllocBuffer(ASCEND_SIM_SITE) { ASCEND_SIM_ENTER; return static_cast<TBufHandle>(ascend_sim::detail::que_alloc(kApi[kAlloc], id_).p); }
    bool EnQue(TBufHandle buf, ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
        return ascend_sim::detail::que_enque(
            kApi[kEnQue], id_, ascend_sim::detail::que_buffer_at(kApi[kEnQue], id_, buf), buf,
            ascend_sim::detail::QueHop{uint8_t(que_event(src, dst, true)), uint8_t(src), uint8_t(dst), false});
    }
    TBufHandle DeQue(ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
        return static_cast<TBufHandle>(
            ascend_sim::detail::que_deque(kApi[kDeQue], id_,
                                          ascend_sim::detail::QueHop{uint8_t(que_event(src, dst, true)),
                                                                     uint8_t(src), uint8_t(dst), false})
                .p);
    }
    void FreeBuffer(TBufHandle buf, ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
        ascend_sim::detail::que_free(kApi[kFree], id_, ascend_sim::detail::que_buffer_at(kApi[kFree], id_, buf), buf);
    }
    bool HasIdleBuffer() { return ascend_sim::detail::que_idle_buffers(id_) > 0; }
    bool VacantInQue() { return ascend_sim::detail::que_count(id_) < depth; }
    bool HasTensorInQue() { return ascend_sim::detail::que_count(id_) > 0; }
    int32_t GetTensorCountInQue() { return ascend_sim::detail::que_count(id_); }
    // Waits for the release of every freed buffer (what a later AllocTensor would wait for).
    void FreeAllEvent() { ascend_sim::detail::que_free_all_events(tque ? "TQue::FreeAllEvent" : "TQueBind::FreeAllEvent", id_); }

    // A user-defined pool's placement (EXTERN_IMPL_BUFPOOL, kernel_tquebind_impl.h):
    // InitStartBufHandle starts the queue's buffers, each InitBufHandle places one
    // at UB address curPoolAddr of the pool (len rounded up to 32 B).
    void InitStartBufHandle(TBufHandle, uint8_t num, uint32_t) {
        userNum_ = num;
        userPlaced_ = 0;
    }
    template <class P>
    void InitBufHandle(P* bufPool, uint32_t, TBufHandle, uint32_t curPoolAddr, uint32_t len) {
        const char* api = tque ? "TQue::InitBufHandle" : "TQueBind::InitBufHandle";
        if (userPlaced_ >= userNum_)
            ascend_sim::detail::fail(api, "more buffers than InitStartBufHandle named",
                                     "buffer %u placed after InitStartBufHandle named %u", userPlaced_ + 1u,
                                     unsigned(userNum_));
        if (userPlaced_ == 0)
            id_ = ascend_sim::detail::bufpool_user_queue(api, bufPool->sim_id(), uint8_t(src), uint8_t(dst), depth);
        ascend_sim::detail::bufpool_user_buffer(api, bufPool->sim_id(), id_, uint8_t(kPos), curPoolAddr, len);
        ++userPlaced_;
    }

    // --- simulator internals ---
    void sim_bind(int32_t id) { id_ = id; }

private:
    static constexpr TPosition kPos = tensor_position(src, dst);
    template <TPosition s, TPosition d>
    static constexpr void check_user() {
        static_assert(user_position(s) && user_position(d), "EnQue/DeQue positions: GM, VECIN, VECOUT or VECCALC");
        static_assert(!(s == TPosition::GM && d == TPosition::GM), "EnQue/DeQue positions cannot both be GM");
    }
    template <class T>
    bool enque(const LocalTensor<T>& tensor, HardEvent e, TPosition s, TPosition d, bool user) {
        return ascend_sim::detail::que_enque(kApi[kEnQue], id_, tensor.buf_id(), tensor.GetPhyAddr(),
                                             ascend_sim::detail::QueHop{uint8_t(e), uint8_t(s), uint8_t(d), user});
    }
    template <class T>
    LocalTensor<T> deque(HardEvent e, TPosition s, TPosition d, bool user) {
        return LocalTensor<T>::from_slot(
            ascend_sim::detail::que_deque(kApi[kDeQue], id_,
                                          ascend_sim::detail::QueHop{uint8_t(e), uint8_t(s), uint8_t(d), user}),
            kPos);
    }
    // The API names the violations report.
    enum { kAlloc, kFree, kEnQue, kDeQue };
    static constexpr const char* kApi[4] = {tque ? "TQue::AllocTensor" : "TQueBind::AllocTensor",
                                            tque ? "TQue::FreeTensor" : "TQueBind::FreeTensor",
                                            tque ? "TQue::EnQue" : "TQueBind::EnQue", tque ? "TQue::DeQue" : "TQueBind::DeQue"};
    int32_t id_ = -1;
    uint8_t userNum_ = 0, userPlaced_ = 0;
};
}  // namespace sim_queue

template <TPosition src, TPosition dst, int32_t depth, auto mask = 0>
class TQueBind : public sim_queue::QueueBase<src, dst, depth, false> {
public:
    static constexpr uint32_t kConfigBufferNumber = sim_queue::config_buffer_number<mask>();
};

// GetBufferLogicPos of kernel_event.h: VECIN is filled from GM, VECOUT drained to it.
template <TPosition pos, int32_t depth, auto mask = 0>
class TQue : public sim_queue::QueueBase<pos == TPosition::VECOUT ? TPosition::VECOUT : TPosition::GM,
                                         pos == TPosition::VECOUT ? TPosition::GM : pos, depth, true> {
public:
    static_assert(pos == TPosition::VECIN || pos == TPosition::VECOUT,
                  "a vector-core TQue is VECIN or VECOUT (VECCALC scratch is a TBuf<VECCALC>)");
    static constexpr uint32_t kConfigBufferNumber = sim_queue::config_buffer_number<mask>();
};

template <TPosition pos = TPosition::LCM>
class TBuf {
public:
    static_assert(pos == TPosition::VECIN || pos == TPosition::VECOUT || pos == TPosition::VECCALC,
                  "the simulator models UB buffers only: VECIN, VECOUT or VECCALC");
    TBuf() = default;

    // The whole buffer.
    template <class T>
    LocalTensor<T> Get(ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
        return LocalTensor<T>::from_slot(ascend_sim::detail::tbuf_get("TBuf::Get", id_, ~uint64_t(0), 0, false), pos);
    }
    // The first len ELEMENTS; len*sizeof(T) must fit and be a multiple of 32 B.
    template <class T>
    LocalTensor<T> Get(uint32_t len, ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
        return LocalTensor<T>::from_slot(
            ascend_sim::detail::tbuf_get("TBuf::Get", id_, ascend_sim::elem_bytes<T>(len), 0, true), pos);
    }
    // size elements starting bufOffset BYTES into the buffer (32 B aligned).
    template <class T>
    LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset) {
        return LocalTensor<T>::from_slot(ascend_sim::detail::tbuf_get("TBuf::GetWithOffset", id_,
                                                                      ascend_sim::elem_bytes<T>(size), bufOffset, false),
                                         pos);
    }

    // CANN's (kernel_tbuf_impl.h): AllocTensor is Get, the whole buffer, and
    // FreeTensor does nothing: the buffer is not released and the tensor stays valid.
    template <class T>
    LocalTensor<T> AllocTensor(ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
        return LocalTensor<T>::from_slot(ascend_sim::detail::tbuf_get("TBuf::AllocTensor", id_, ~uint64_t(0), 0, false),
                                         pos);
    }
    template <class T>
    void FreeTensor(LocalTensor<T>&, ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;}

    // A user-defined pool's placement (kernel_tbuf_impl.h): one buffer.
    void InitStartBufHandle(TBufHandle, uint8_t num, uint32_t) {
        if (num != 1)
            ascend_sim::detail::fail("TBuf::InitStartBufHandle", "TBuf num must be 1",
                                     "param num must be one for TBuf, current num is %u", unsigned(num));
    }
    template <class P>
    void InitBufHandle(P* bufPool, uint32_t, TBufHandle, uint32_t curPoolAddr, uint32_t len) {
        id_ = ascend_sim::detail::bufpool_user_buffer("TBuf::InitBufHandle", bufPool->sim_id(), -1, uint8_t(pos),
                                                      curPoolAddr, len);
    }

    void sim_bind(int32_t id) { id_ = id; }

private:
    int32_t id_ = -1;
};

// A share of the TPipe's UB that its own InitBuffer and nested InitBufPool calls
// carve up, and that Reset hands back for reuse (kernel_tbufpool_impl.h).
// bufIDSize bounds the buffers it holds (its array of buffer handles).
template <TPosition pos, uint32_t bufIDSize = 4>
class TBufPool {
public:
    static_assert(sim_queue::is_ub(pos),
                  "the simulator models vector-core pools only: TBufPool<VECIN, VECOUT or VECCALC> (an L1 pool "
                  "belongs to the cube core)");
    static constexpr TPosition poolPos = pos;
    static constexpr bool isTbufPool = true;

    TBufPool() = default;
    ~TBufPool() { ascend_sim::detail::bufpool_end(id_); }
    // A copy would Reset the same pool twice.
    TBufPool(const TBufPool&) = delete;
    TBufPool& operator=(const TBufPool&) = delete;

    template <class T>
    bool InitBuffer(T& que, uint8_t num, uint32_t len, ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
        que.sim_bind(ascend_sim::detail::bufpool_init_queue("TBufPool::InitBuffer", id_, uint8_t(T::srcPosition),
                                                            uint8_t(T::dstPosition), T::kDepth, num, len));
        return true;
    }
    template <TPosition bufPos>
    bool InitBuffer(TBuf<bufPos>& buf, uint32_t len, ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
        buf.sim_bind(ascend_sim::detail::bufpool_init_tbuf("TBufPool::InitBuffer", id_, uint8_t(bufPos), len));
        return true;
    }
    // A nested pool of len bytes from this one's free range.
    template <class T>
    bool InitBufPool(T& bufPool, uint32_t len, ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
        static_assert(T::isTbufPool, "TBufPool::InitBufPool: bufPool must be a TBufPool");
        bufPool.sim_bind(ascend_sim::detail::bufpool_init("TBufPool::InitBufPool", -1, id_, -1, len, T::kBufIDSize));
        return true;
    }
    // A nested pool over shareBuf's range (len at most shareBuf's length).
    template <class T, class U>
    bool InitBufPool(T& bufPool, uint32_t len, U& shareBuf, ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
        static_assert(T::isTbufPool && U::isTbufPool, "TBufPool::InitBufPool: bufPool and shareBuf must be TBufPools");
        bufPool.sim_bind(ascend_sim::detail::bufpool_init("TBufPool::InitBufPool", -1, id_, shareBuf.sim_id(), len,
                                                          T::kBufIDSize));
        return true;
    }
    // Waits for the release of its freed buffers; its buffers die and it has no UB
    // until an InitBufPool gives it some again.
    void Reset() { ascend_sim::detail::bufpool_reset("TBufPool::Reset", id_); }

    // --- simulator internals ---
    static constexpr uint32_t kBufIDSize = bufIDSize;
    void sim_bind(int32_t id) { id_ = id; }
    int32_t sim_id() const { return id_; }

private:
    int32_t id_ = -1;
};

namespace sim_queue {
// What EXTERN_IMPL_BUFPOOL adds to a user's pool class: its pool id, the buffer
// count it keeps itself (SetCurBufSize) and its bufIDSize handle tokens.
template <int32_t bufIDSize>
struct UserPool {
    static_assert(bufIDSize > 0, "EXTERN_IMPL_BUFPOOL: BUFID_SIZE must be positive");
    int32_t id = -1;
    uint8_t count = 0;
    uint8_t handles[bufIDSize] = {};
    TBufHandle handle(uint8_t offset) {
        if (offset >= bufIDSize)
            ascend_sim::detail::fail("GetBufHandle", "handle beyond bufIDSize",
                                     "offset %u is outside the pool's %d buffer handles (BUFID_SIZE)",
                                     unsigned(offset), int(bufIDSize));
        return handles + offset;
    }
};
}  // namespace sim_queue

// A user-defined TBufPool (kernel_tpipe.h, the 2201 form): the class places its
// buffers itself with GetBufHandle / GetCurAddr / InitStartBufHandle /
// InitBufHandle / SetCurAddr / SetCurBufSize; TPipe::InitBufPool gives it UB;
// Reset (and the destructor) waits for its freed buffers' release and leaves
// it no UB, as TBufPool::Reset.
#define EXTERN_IMPL_BUFPOOL(EXT_BUFPOOL, POSITION, BUFID_SIZE)                                                 \
public:                                                                                                        \
    static constexpr AscendC::TPosition poolPos = POSITION;                                                    \
    static constexpr int bufIDSize = BUFID_SIZE;                                                               \
    static constexpr bool isTbufPool = true;                                                                   \
    static constexpr uint32_t kBufIDSize = BUFID_SIZE;                                                         \
    static_assert(AscendC::sim_queue::is_ub(POSITION),                                                         \
                  "the simulator models vector-core pools only: VECIN, VECOUT or VECCALC");                    \
    ~EXT_BUFPOOL() { ascend_sim::detail::bufpool_end(simPool_.id); }                                           \
    void Reset() {                                                                                             \
        ascend_sim::detail::bufpool_reset(#EXT_BUFPOOL "::Reset", simPool_.id);                                \
        simPool_.count = 0;                                                                                    \
    }                                                                                                          \
    void Init() { simPool_.count = 0; }                                                                        \
    AscendC::TBufHandle GetBufHandle(uint8_t offset) { return simPool_.handle(offset); }                       \
    void SetCurAddr(uint32_t curAddr) {                                                                        \
        ascend_sim::detail::bufpool_set_cursor(#EXT_BUFPOOL "::SetCurAddr", simPool_.id, curAddr);             \
    }                                                                                                          \
    uint32_t GetCurAddr() { return ascend_sim::detail::bufpool_cursor(#EXT_BUFPOOL "::GetCurAddr", simPool_.id); } \
    void SetCurBufSize(uint8_t curBufSize) { simPool_.count = curBufSize; }                                    \
    uint8_t GetCurBufSize() { return simPool_.count; }                                                         \
    void sim_bind(int32_t id) { simPool_.id = id; }                                                            \
    int32_t sim_id() const { return simPool_.id; }                                                             \
                                                                                                               \
private:                                                                                                       \
    AscendC::sim_queue::UserPool<BUFID_SIZE> simPool_

// One live TPipe per kernel at a time: two would hand out the same UB.
class TPipe {
public:
    TPipe() : id_(ascend_sim::detail::tpipe_create("TPipe::TPipe", this)) {}
    ~TPipe() { ascend_sim::detail::tpipe_end(id_); }
    TPipe(const TPipe&) = delete;
    TPipe& operator=(const TPipe&) = delete;

    // num buffers of len bytes (rounded up to 32) for a TQue; num must be the queue's
    // TQueConfig::bufferNumber when that is set (kernel_tpipe_impl.h's assertion).
    template <class T>
    bool InitBuffer(T& que, uint8_t num, uint32_t len, ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
        if (T::kConfigBufferNumber != 0 && T::kConfigBufferNumber != num)
            ascend_sim::detail::fail("TPipe::InitBuffer", "buffer number differs from TQueConfig",
                                     "buffer number is %u, which should be the same as TQueConfig::bufferNumber(%u)",
                                     unsigned(num), unsigned(T::kConfigBufferNumber));
        que.sim_bind(ascend_sim::detail::tpipe_init_queue("TPipe::InitBuffer", id_, uint8_t(T::srcPosition),
                                                          uint8_t(T::dstPosition), T::kDepth, num, len));
        return true;
    }
    template <TPosition pos>
    bool InitBuffer(TBuf<pos>& buf, uint32_t len, ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
        buf.sim_bind(ascend_sim::detail::tpipe_init_tbuf("TPipe::InitBuffer", id_, uint8_t(pos), len));
        return true;
    }
    // A TBufPool of len bytes from the TPipe's free UB.
    template <class T>
    bool InitBufPool(T& bufPool, uint32_t len, ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
        static_assert(T::isTbufPool, "TPipe::InitBufPool: bufPool must be a TBufPool");
        bufPool.sim_bind(ascend_sim::detail::bufpool_init("TPipe::InitBufPool", id_, -1, -1, len, T::kBufIDSize));
        return true;
    }
    // A TBufPool over shareBuf's range (len at most shareBuf's length).
    template <class T, class U>
    bool InitBufPool(T& bufPool, uint32_t len, U& shareBuf, ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
        static_assert(T::isTbufPool && U::isTbufPool, "TPipe::InitBufPool: bufPool and shareBuf must be TBufPools");
        bufPool.sim_bind(
            ascend_sim::detail::bufpool_init("TPipe::InitBufPool", id_, -1, shareBuf.sim_id(), len, T::kBufIDSize));
        return true;
    }
    // Waits for the release of every freed buffer, then frees every buffer and
    // event id, so InitBuffer can run again.
    void Reset() { ascend_sim::detail::tpipe_reset("TPipe::Reset", id_); }
    // As Reset, then PipeBarrier<PIPE_ALL>; the TPipe is dead and another may be made.
    void Destroy() { ascend_sim::detail::tpipe_destroy("TPipe::Destroy", id_); }

    template <HardEvent evt>
    TEventID AllocEventID() {
        return ascend_sim::detail::alloc_event_id(uint8_t(evt));
    }
    template <HardEvent evt>
    void ReleaseEventID(TEventID id) {
        ascend_sim::detail::release_event_id(uint8_t(evt), id);
    }
    // Does not reserve the id.
    TEventID FetchEventID(HardEvent evt) { return ascend_sim::detail::fetch_event_id(uint8_t(evt)); }
    template <HardEvent evt>
    TEventID FetchEventID() {
        return ascend_sim::detail::fetch_event_id(uint8_t(evt));
    }

private:
    int32_t id_;
};

// All the UB the TPipe's InitBuffer and InitBufPool calls left free, from the end
// of their buffers to the end of UB (kernel_pop_stack_buffer.h): the temporary
// space of the advanced APIs called without a sharedTmpBuffer. Not nestable: a
// second pop hands out the same bytes.
template <class T, TPosition pos>
bool PopStackBuffer(LocalTensor<T>& popLocal) {
    static_assert(sim_queue::is_ub(pos), "PopStackBuffer: the position must be in UB (VECIN, VECOUT, VECCALC/LCM)");
    popLocal = LocalTensor<T>::from_slot(ascend_sim::detail::pop_stack_buffer("PopStackBuffer"), pos);
    return true;
}

}  // namespace AscendC

// The block's live TPipe (kernel_tpipe_impl.h keeps it in a global the constructor
// sets); nullptr before the first TPipe and after Destroy. In the global
// namespace, as kernel_common.h declares it.
inline AscendC::TPipe* GetTPipePtr() { return static_cast<AscendC::TPipe*>(ascend_sim::detail::live_tpipe()); }

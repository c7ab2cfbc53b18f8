// TPipe, TQue, TQueBind<VECIN, VECOUT> and TBuf (CANN: kernel_tpipe.h,
// kernel_tquebind_impl.h, kernel_tbuf_impl.h). The objects hold ids; the buffer states (FREE ->
// ALLOCATED -> ENQUEUED -> DEQUEUED -> FREE), the UB bump allocator and the
// queue handshakes that order pipes live in the block's runtime (queues.cpp).
#pragma once
#include <cstdint>

#include "device_runtime.h"
#include "kernel_defs.h"
#include "kernel_tensor.h"

namespace AscendC {

class TPipe;

namespace sim_queue {
// What TQue and TQueBind share: the buffer handle, AllocTensor, FreeTensor, the plain
// EnQue/DeQue and the handshake calls (hop: ascend_sim::detail::QueHop). allocPos:
// the position of a freshly allocated tensor; plainPos: that of a plain DeQue's.
template <TPosition allocPos, TPosition plainPos, bool bind>
class QueueBase {
public:
    static constexpr bool kBind = bind;
    template <class T>
    bool EnQue(const LocalTensor<T>& tensor) {
        return enque(tensor, ascend_sim::detail::kHopPlain);
    }
    template <class T>
    LocalTensor<T> DeQue() {
        return deque<T>(ascend_sim::detail::kHopPlain, plainPos);
    }
    template <class T>
    LocalTensor<T> AllocTensor() {
        return LocalTensor<T>::from_slot(ascend_sim::detail::que_alloc(kApi[kAlloc], id_), allocPos);
    }
    template <class T>
    void FreeTensor(LocalTensor<T>& tensor) {
        ascend_sim::detail::que_free(kApi[kFree], id_, tensor.buf_id(), tensor.GetPhyAddr());
    }
    bool HasIdleBuffer() { return ascend_sim::detail::que_has_free(id_); }

    // --- simulator internals ---
    void sim_bind(int32_t id) { id_ = id; }

protected:
    template <class T>
    bool enque(const LocalTensor<T>& tensor, uint8_t hop) {
        return ascend_sim::detail::que_enque(kApi[kEnQue], id_, tensor.buf_id(), tensor.GetPhyAddr(), hop);
    }
    template <class T>
    LocalTensor<T> deque(uint8_t hop, TPosition pos) {
        return LocalTensor<T>::from_slot(ascend_sim::detail::que_deque(kApi[kDeQue], id_, hop), pos);
    }

private:
    // The API names the violations report.
    enum { kAlloc, kFree, kEnQue, kDeQue };
    static constexpr const char* kApi[4] = {
        bind ? "TQueBind::AllocTensor" : "TQue::AllocTensor", bind ? "TQueBind::FreeTensor" : "TQue::FreeTensor",
        bind ? "TQueBind::EnQue" : "TQue::EnQue", bind ? "TQueBind::DeQue" : "TQue::DeQue"};
    int32_t id_ = -1;
};
}  // namespace sim_queue

template <TPosition pos, int32_t depth, auto mask = 0>
class TQue : public sim_queue::QueueBase<pos, pos, false> {
public:
    static_assert(pos == TPosition::VECIN || pos == TPosition::VECOUT || pos == TPosition::VECCALC,
                  "the simulator models AIV queues only: VECIN, VECOUT or VECCALC");
    static_assert(depth >= 0, "TQue depth must be >= 0");
    static constexpr TPosition position = pos;
    static constexpr int32_t kDepth = depth;
};

// A queue whose buffers are both VECIN and VECOUT (CANN: TQueBind<VECIN, VECOUT>):
// a tile is copied in, computed in place and copied out of the same UB buffer,
// with the handshakes named by the source and destination of each hop.
template <TPosition src, TPosition dst, int32_t depth, auto mask = 0>
class TQueBind : public sim_queue::QueueBase<src, dst, true> {
public:
    // The plain EnQue/DeQue: a copy-through with no vector work (MTE2->MTE3).
    using sim_queue::QueueBase<src, dst, true>::EnQue;
    using sim_queue::QueueBase<src, dst, true>::DeQue;
    static_assert(src == TPosition::VECIN && dst == TPosition::VECOUT,
                  "the simulator models TQueBind<VECIN, VECOUT> only (VECIN/VECOUT buffer reuse)");
    static_assert(depth >= 1, "TQueBind depth must be >= 1");
    static constexpr TPosition position = src;
    static constexpr int32_t kDepth = depth;

    // EnQue<GM, VECIN> after the copy in (MTE2->V), EnQue<VECOUT, GM> after the
    // vector work (V->MTE3); DeQue with the same positions on the other side.
    template <TPosition srcUserPos, TPosition dstUserPos, class T>
    bool EnQue(const LocalTensor<T>& tensor) {
        return this->enque(tensor, hop<srcUserPos, dstUserPos>());
    }
    template <TPosition srcUserPos, TPosition dstUserPos, class T>
    LocalTensor<T> DeQue() {
        return this->template deque<T>(hop<srcUserPos, dstUserPos>(), srcUserPos == TPosition::GM ? src : dst);
    }

private:
    template <TPosition s, TPosition d>
    static constexpr uint8_t hop() {
        static_assert((s == TPosition::GM && d == TPosition::VECIN) || (s == TPosition::VECOUT && d == TPosition::GM),
                      "TQueBind EnQue/DeQue positions: <GM, VECIN> or <VECOUT, GM> only (CANN: GM->VECIN/VECOUT->GM)");
        return s == TPosition::GM ? ascend_sim::detail::kHopIn : ascend_sim::detail::kHopOut;
    }
};

template <TPosition pos = TPosition::LCM>
class TBuf {
public:
    static_assert(pos == TPosition::VECIN || pos == TPosition::VECOUT || pos == TPosition::VECCALC,
                  "the simulator models UB buffers only: VECIN, VECOUT or VECCALC");
    TBuf() = default;

    // The whole buffer.
    template <class T>
    LocalTensor<T> Get() {
        return LocalTensor<T>::from_slot(ascend_sim::detail::tbuf_get("TBuf::Get", id_, ~uint64_t(0), 0, false), pos);
    }
    // The first len ELEMENTS; len*sizeof(T) must fit and be a multiple of 32 B.
    template <class T>
    LocalTensor<T> Get(uint32_t len) {
        return LocalTensor<T>::from_slot(
            ascend_sim::detail::tbuf_get("TBuf::Get", id_, uint64_t(len) * sizeof(T), 0, true), pos);
    }
    // size elements starting bufOffset BYTES into the buffer (32 B aligned).
    template <class T>
    LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset) {
        return LocalTensor<T>::from_slot(ascend_sim::detail::tbuf_get("TBuf::GetWithOffset", id_,
                                                                      uint64_t(size) * sizeof(T), bufOffset, false),
                                         pos);
    }

    void sim_bind(int32_t id) { id_ = id; }

private:
    int32_t id_ = -1;
};

// One per kernel (a second live TPipe in a block is a violation).
class TPipe {
public:
    TPipe() : id_(ascend_sim::detail::tpipe_create("TPipe::TPipe")) {}
    ~TPipe() { ascend_sim::detail::tpipe_destroy(id_); }
    TPipe(const TPipe&) = delete;
    TPipe& operator=(const TPipe&) = delete;

    // num buffers of len bytes (rounded up to 32) for a TQue.
    template <class T>
    bool InitBuffer(T& que, uint8_t num, uint32_t len) {
        que.sim_bind(ascend_sim::detail::tpipe_init_queue("TPipe::InitBuffer", id_, uint8_t(T::position), T::kDepth,
                                                          num, len, T::kBind));
        return true;
    }
    template <TPosition pos>
    bool InitBuffer(TBuf<pos>& buf, uint32_t len) {
        buf.sim_bind(ascend_sim::detail::tpipe_init_tbuf("TPipe::InitBuffer", id_, uint8_t(pos), len));
        return true;
    }
    // Frees every buffer and event id, so InitBuffer can run again.
    void Reset() { ascend_sim::detail::tpipe_reset("TPipe::Reset", id_); }
    void Destroy() { ascend_sim::detail::tpipe_reset("TPipe::Destroy", id_); }

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

}  // namespace AscendC

// SetFlag/WaitFlag, PipeBarrier and event ids: the synccheck rules (unpaired
// set, wait without set, set twice, ids 0..7, AIV-legal pipe pairs, V_V as a
// PIPE_V barrier) and the
// clock joins the hazard model needs.
#include "ascend_sim/kernel_defs.h"
#include "ascend_sim/runtime_state.h"
#include "timing_trace.h"

namespace ascend_sim::detail {

using AscendC::HardEvent;

const char* event_name(uint8_t e) {
    static const char* n[] = {"MTE2_MTE1", "MTE1_MTE2", "MTE1_M",   "M_MTE1",    "MTE2_V",    "V_MTE2",   "MTE3_V",
                              "V_MTE3",    "M_V",       "V_M",      "V_V",       "MTE3_MTE1", "MTE1_MTE3", "MTE1_V",
                              "MTE2_M",    "M_MTE2",    "V_MTE1",   "M_FIX",     "FIX_M",     "MTE3_MTE2", "MTE2_MTE3",
                              "S_V",       "V_S",       "S_MTE2",   "MTE2_S",    "S_MTE3",    "MTE3_S",   "MTE2_FIX",
                              "FIX_MTE2",  "FIX_S",     "M_S",      "FIX_MTE3",  "MTE1_FIX",  "FIX_MTE1", "FIX_FIX"};
    static_assert(sizeof(n) / sizeof(n[0]) == kEvents, "HardEvent names");
    return e < kEvents ? n[e] : "MAX";
}

namespace {

// The (src, dst) pipes of an event legal on AIV, else false.
bool aiv_pipes(uint8_t e, Pipe& src, Pipe& dst) {
    switch (HardEvent(e)) {
        case HardEvent::S_V: src = P_S, dst = P_V; return true;
        case HardEvent::V_S: src = P_V, dst = P_S; return true;
        case HardEvent::S_MTE2: src = P_S, dst = P_MTE2; return true;
        case HardEvent::MTE2_S: src = P_MTE2, dst = P_S; return true;
        case HardEvent::S_MTE3: src = P_S, dst = P_MTE3; return true;
        case HardEvent::MTE3_S: src = P_MTE3, dst = P_S; return true;
        case HardEvent::V_MTE2: src = P_V, dst = P_MTE2; return true;
        case HardEvent::MTE2_V: src = P_MTE2, dst = P_V; return true;
        case HardEvent::V_MTE3: src = P_V, dst = P_MTE3; return true;
        case HardEvent::MTE3_V: src = P_MTE3, dst = P_V; return true;
        case HardEvent::MTE2_MTE3: src = P_MTE2, dst = P_MTE3; return true;
        case HardEvent::MTE3_MTE2: src = P_MTE3, dst = P_MTE2; return true;
        default: return false;
    }
}

void check_id(const char* api, uint8_t e, int32_t id) {
    if (id < 0 || id > 7) fail(api, "event id out of range", "event id %d of HardEvent::%s is outside 0..7", id, event_name(e));
}

void check_event(const char* api, uint8_t e, int32_t id, Pipe& src, Pipe& dst) {
    if (!aiv_pipes(e, src, dst))
        fail(api, "event not legal on AIV",
             "HardEvent::%s is not a legal pair on a vector core (legal: S<->V, S<->MTE2, S<->MTE3, V<->MTE2, "
             "V<->MTE3, MTE2<->MTE3)",
             event_name(e));
    check_id(api, e, id);
}
}  // namespace

// V_V is no flag on dav_c220 (kernel_event.h SetFlagImpl/WaitFlagImpl): SetFlag
// is PipeBarrier<PIPE_V>, WaitFlag does nothing; the id is still range-checked.
void set_flag(const char* api, uint8_t e, int32_t id) {
    Block& b = cur(api);
    if (HardEvent(e) == HardEvent::V_V) {
        check_id(api, e, id);
        b.hz.barrier(P_V);
        t_barrier(b, P_V);
        return;
    }
    Pipe src, dst;
    check_event(api, e, id, src, dst);
    EventSlot& s = b.events[e][id];
    if (s.set)
        fail(api, "event set twice",
             "SetFlag<HardEvent::%s>(%d) while the same event is still set (by instruction #%u) with no WaitFlag in "
             "between; undefined on the NPU",
             event_name(e), id, s.serial);
    const Instr in = b.hz.issue(src, "SetFlag");
    s.set = true;
    s.serial = in.serial;
    s.clk = b.hz.snapshot(src);
    t_flag(b, true, src, uint16_t(e * 8 + id));
}

void wait_flag(const char* api, uint8_t e, int32_t id) {
    Block& b = cur(api);
    if (HardEvent(e) == HardEvent::V_V) return check_id(api, e, id);
    Pipe src, dst;
    check_event(api, e, id, src, dst);
    EventSlot& s = b.events[e][id];
    if (!s.set)
        fail(api, "WaitFlag without SetFlag",
             "WaitFlag<HardEvent::%s>(%d) with no pending SetFlag; the NPU would wait forever", event_name(e), id);
    b.hz.join(dst, s.clk);
    t_flag(b, false, dst, uint16_t(e * 8 + id));
    s.set = false;
}

void pipe_barrier(const char* api, int pipeT) {
    Block& b = cur(api);
    switch (pipeT) {
        case PIPE_V: b.hz.barrier(P_V); t_barrier(b, P_V); break;
        case PIPE_MTE2: b.hz.barrier(P_MTE2); t_barrier(b, P_MTE2); break;
        case PIPE_MTE3: b.hz.barrier(P_MTE3); t_barrier(b, P_MTE3); break;
        case PIPE_ALL: b.hz.barrier_all(); t_barrier(b, P_COUNT); break;
        case PIPE_S: fail(api, "PipeBarrier<PIPE_S>", "PipeBarrier<PIPE_S> is not allowed");
        default: fail(api, "not an AIV pipe", "PipeBarrier on pipe_t %d: a vector core has PIPE_V, PIPE_MTE2, PIPE_MTE3 and PIPE_ALL", pipeT);
    }
}

int8_t fetch_event_id(uint8_t e) {
    Block& b = cur("TPipe::FetchEventID");
    for (int i = 0; i < 8; ++i)
        if (!(b.reservedIds[e] & (1u << i))) return int8_t(i);
    fail("TPipe::FetchEventID", "no free event id", "all 8 ids of HardEvent::%s are reserved", event_name(e));
}

int8_t take_event_id(const char* api, uint8_t e, const char* forWhat) {
    Block& b = cur(api);
    for (int i = 0; i < 8; ++i)
        if (!(b.reservedIds[e] & (1u << i))) {
            b.reservedIds[e] |= uint8_t(1u << i);
            return int8_t(i);
        }
    fail(api, "no free event id",
         "%s needs an id of HardEvent::%s and all 8 (QUE_MAX_EVENT) are held: by enqueued tensors, by freed tensors "
         "not yet reallocated, and by AllocEventID",
         forWhat, event_name(e));
}

int8_t alloc_event_id(uint8_t e) { return take_event_id("TPipe::AllocEventID", e, "AllocEventID"); }

void release_event_id(uint8_t e, int8_t id) {
    Block& b = cur("TPipe::ReleaseEventID");
    if (id < 0 || id > 7 || !(b.reservedIds[e] & (1u << id)))
        fail("TPipe::ReleaseEventID", "event id not allocated", "event id %d of HardEvent::%s was not allocated",
             int(id), event_name(e));
    b.reservedIds[e] &= uint8_t(~(1u << id));
}

void events_end(Block& b) {
    for (int e = 0; e < kEvents; ++e)
        for (int id = 0; id < 8; ++id)
            if (b.events[e][id].set)
                fail("kernel end", "unpaired SetFlag",
                     "SetFlag<HardEvent::%s>(%d) (instruction #%u) has no WaitFlag at kernel end; the imbalance "
                     "would leak into the next kernel",
                     event_name(uint8_t(e)), id, b.events[e][id].serial);
}

}  // namespace ascend_sim::detail

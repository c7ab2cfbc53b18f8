// TPipe::Reset and TPipe::Destroy as impl/basic_api/kernel_tpipe_impl.h has them:
// both wait for the release flags of freed queue buffers and return every buffer
// and event id to the pools; Destroy then drains every pipe (pipe_barrier(PIPE_ALL))
// and ends the TPipe, so a new one may be made. Neither checks for live tensors.
#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "xtest.h"

using namespace AscendC;
using ascend_sim::run_kernel;
using sim_test::global;
using sim_test::Gm;

namespace {
constexpr int32_t kN = 64;  // floats

void one(const std::function<void()>& body) { run_kernel("tpipe", 1, body); }

// The vector unit writes a TBuf of the first pipe; after `end`, a second InitBuffer
// gets the same UB and MTE2 copies into it.
std::function<void()> reuse_after(float* x, bool destroy) {
    return [=] {
        auto* first = new TPipe;
        TBuf<TPosition::VECCALC> a;
        first->InitBuffer(a, kN * sizeof(float));
        Duplicate(a.Get<float>(), 1.0f, kN);
        if (destroy) {
            first->Destroy();
            TPipe second;
            TBuf<TPosition::VECIN> b;
            second.InitBuffer(b, kN * sizeof(float));
            DataCopy(b.Get<float>(), global(x, kN), kN);
        } else {
            first->Reset();
            TBuf<TPosition::VECIN> b;
            first->InitBuffer(b, kN * sizeof(float));
            DataCopy(b.Get<float>(), global(x, kN), kN);
        }
        delete first;
    };
}
}  // namespace

// Destroy's PIPE_ALL barrier orders the old vector write before the new copy in;
// Reset has no barrier, so the same reuse is a WAW on UB.
XTEST(destroy_drains_the_pipes_reset_does_not) {
    Gm<float> x(kN, "x");
    one(reuse_after(x.p, true));
    XCHECK_THROWS_WITH(one(reuse_after(x.p, false)), "WAW on UB", "PIPE_MTE2 DataCopy", "written by PIPE_V Duplicate");
}

// The release flag FreeTensor set is waited for by Reset/Destroy (and ~TPipe), so no
// SetFlag is left pending at kernel end; a live tensor is not an error.
XTEST(reset_and_destroy_wait_for_released_buffers) {
    for (int mode = 0; mode < 3; ++mode)
        one([mode] {
            TPipe pipe;
            TQue<TPosition::VECIN, 1> q;
            pipe.InitBuffer(q, 2, 256);
            auto t = q.AllocTensor<float>();
            q.FreeTensor(t);
            (void)q.AllocTensor<float>();  // still allocated at Reset/Destroy
            if (mode == 0) pipe.Reset();
            if (mode == 1) pipe.Destroy();
        });
}

// After Reset the event pools are empty again: the ids an enqueued tensor held are
// handed out anew while its flag is still set, which the flag check reports.
XTEST(reset_with_a_tensor_enqueued_leaves_its_flag_set) {
    XCHECK_THROWS_WITH(one([] {
                           TPipe pipe;
                           TQue<TPosition::VECIN, 1> q;
                           pipe.InitBuffer(q, 1, 256);
                           q.EnQue(q.AllocTensor<float>());
                           pipe.Reset();
                           pipe.InitBuffer(q, 1, 256);
                           q.EnQue(q.AllocTensor<float>());
                       }),
                       "TQue::EnQue", "SetFlag<HardEvent::MTE2_V>(0) while the same event is still set");
}

XTEST(a_new_tpipe_after_destroy) {
    one([] {
        TPipe a;
        TBuf<TPosition::VECCALC> t;
        a.InitBuffer(t, 256);
        a.Destroy();
        a.Destroy();  // a second Destroy waits for nothing
        TPipe b;
        b.InitBuffer(t, 256);
        Duplicate(t.Get<float>(), 0.0f, kN);
        XCHECK_THROWS_WITH(a.InitBuffer(t, 256), "TPipe::InitBuffer", "not the block's live TPipe");
    });
    XCHECK_THROWS_WITH(one([] {
                           TPipe a;
                           TPipe b;
                       }),
                       "TPipe::TPipe (block 0)", "a second TPipe while another is live");
}

XTEST(get_tpipe_ptr_is_the_live_tpipe) {
    one([] {
        XCHECK(GetTPipePtr() == nullptr);
        TPipe pipe;
        XCHECK(GetTPipePtr() == &pipe);
        const TEventID id = GetTPipePtr()->AllocEventID<HardEvent::V_S>();
        GetTPipePtr()->ReleaseEventID<HardEvent::V_S>(id);
        pipe.Destroy();
        XCHECK(GetTPipePtr() == nullptr);
    });
}

// The constructor and Reset run InitSocState (kernel_tpipe_impl.h): an atomic add
// set before either is off after it, so the copy out overwrites GM; counter mask
// mode and a partial mask set before either are back to normal mode, full mask.
XTEST(tpipe_and_reset_run_init_soc_state) {
    for (int viaReset = 0; viaReset < 2; ++viaReset) {
        Gm<float> y(kN, "y");
        for (int32_t i = 0; i < kN; ++i) y.p[i] = 5.0f;
        one([&y, viaReset] {
            TPipe* pipe = viaReset ? new TPipe : nullptr;
            SetAtomicAdd<float>();
            SetMaskCount();
            SetVectorMask<float>(0, 1);
            if (viaReset) pipe->Reset();
            else pipe = new TPipe;
            TBuf<TPosition::VECCALC> t;
            pipe->InitBuffer(t, kN * sizeof(float));
            LocalTensor<float> v = t.Get<float>();
            // Under the mask register: 64 floats per repeat with the full mask in normal mode.
            Duplicate<float, false>(v, 2.0f, MASK_PLACEHOLDER, 1, 1, 8);
            sim_test::sync<HardEvent::V_MTE3>();
            DataCopy(global(y.p, kN), v, kN);
            delete pipe;
        });
        for (int32_t i = 0; i < kN; ++i) XCHECK_EQ(y.p[i], 2.0f);
    }
}

// A length within 31 bytes of 2^32 rounds up past the UB, not around to 0 bytes.
XTEST(a_length_near_4_gib_exceeds_the_ub) {
    for (uint32_t len : {0xFFFFFFFFu, 0xFFFFFFE1u}) {
        XCHECK_THROWS_WITH(one([=] {
                               TPipe pipe;
                               TQue<TPosition::VECIN, 1> q;
                               pipe.InitBuffer(q, 2, len);
                           }),
                           "TPipe::InitBuffer (block 0)", "exceeds the UB of", "2 x 4294967296 B");
        XCHECK_THROWS_WITH(one([=] {
                               TPipe pipe;
                               TBuf<TPosition::VECCALC> b;
                               pipe.InitBuffer(b, len);
                           }),
                           "exceeds the UB of", "1 x 4294967296 B");
    }
}

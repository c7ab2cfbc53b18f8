// TQueBind<VECIN, VECOUT>: a tile copied in, computed in place and copied out of one
// buffer. As in asc-devkit's kernel_tquebind_impl.h, the queue has ONE ring for all
// its EnQue/DeQue calls: DeQue takes the head and waits for the event of the
// positions IT names (GM->VECIN: MTE2_V, VECOUT->GM: V_MTE3, plain: MTE2_MTE3) with
// the id stored at EnQue; FreeTensor -> AllocTensor is MTE3_MTE2. A DeQue that does
// not match the head's EnQue would wait forever on the NPU and is refused; a kernel
// that skips a handshake is reported as the hazard it leaves.
#include <cmath>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "xtest.h"

using namespace AscendC;
using ascend_sim::run_kernel;
using sim_test::global;
using sim_test::Gm;

namespace {
constexpr int32_t kTile = 256;  // floats per tile
using BindQ = TQueBind<TPosition::VECIN, TPosition::VECOUT, 2>;

void one(const std::function<void()>& body) { run_kernel("tquebind", 1, body); }

// y = 2 * x over `tiles` tiles through `bufs` buffers, copying tile i+1 in while
// tile i is computed. ringOrder: the calls in the ring's order (EnQue in(i+1),
// EnQue out(i), DeQue in(i+1), DeQue out(i)); otherwise tile i's copy out is
// dequeued while tile i+1's input is the head.
std::function<void()> doubling(float* x, float* y, int32_t tiles, uint8_t bufs, bool ringOrder) {
    return [=] {
        TPipe pipe;
        BindQ q;
        pipe.InitBuffer(q, bufs, kTile * sizeof(float));
        auto gx = global(x, uint64_t(tiles) * kTile), gy = global(y, uint64_t(tiles) * kTile);
        auto copyIn = [&](int32_t i) {
            auto t = q.AllocTensor<float>();
            DataCopy(t, gx[uint64_t(i) * kTile], kTile);
            q.EnQue<TPosition::GM, TPosition::VECIN, float>(t);
        };
        auto copyOut = [&](int32_t i) {
            auto o = q.DeQue<TPosition::VECOUT, TPosition::GM, float>();
            DataCopy(gy[uint64_t(i) * kTile], o, kTile);
            q.FreeTensor(o);
        };
        copyIn(0);
        LocalTensor<float> t = q.DeQue<TPosition::GM, TPosition::VECIN, float>();
        for (int32_t i = 0; i < tiles; ++i) {
            const bool more = i + 1 < tiles;
            if (more) copyIn(i + 1);
            Muls(t, t, 2.0f, kTile);
            q.EnQue<TPosition::VECOUT, TPosition::GM, float>(t);
            if (ringOrder) {
                if (more) t = q.DeQue<TPosition::GM, TPosition::VECIN, float>();
                copyOut(i);
            } else {
                copyOut(i);
                if (more) t = q.DeQue<TPosition::GM, TPosition::VECIN, float>();
            }
        }
    };
}
}  // namespace

XTEST(pipelined_round_trip_in_ring_order) {
    for (uint8_t bufs : {uint8_t(2), uint8_t(3)}) {
        const int32_t tiles = 7;
        Gm<float> x(tiles * kTile, "x"), y(tiles * kTile, "y");
        for (int32_t i = 0; i < tiles * kTile; ++i) x.p[i] = float(i % 97) - 40.0f;
        one(doubling(x.p, y.p, tiles, bufs, true));
        for (int32_t i = 0; i < tiles * kTile; ++i) XCHECK_EQ(y.p[i], 2.0f * x.p[i]);
    }
}

// The order of a kernel that kept one FIFO per hop in mind: the copy-out DeQue
// finds tile i+1's input at the head and would wait on a V_MTE3 flag whose id
// was set as MTE2_V.
XTEST(a_dequeue_out_of_ring_order_would_hang_and_is_refused) {
    const int32_t tiles = 3;
    Gm<float> x(tiles * kTile, "x"), y(tiles * kTile, "y");
    XCHECK_THROWS_WITH(one(doubling(x.p, y.p, tiles, 3, false)), "TQueBind::DeQue (block 0)",
                       "takes the head of the queue's ring", "DeQue<VECOUT, GM> [HardEvent::V_MTE3]",
                       "put there by EnQue<GM, VECIN> [HardEvent::MTE2_V]", "the NPU would wait forever");
}

// One tile through one buffer: copy in, Muls in place, copy out, with or without
// each hop's EnQue/DeQue pair.
std::function<void()> one_tile(float* x, float* y, bool inHop, bool outHop) {
    return [=] {
        TPipe pipe;
        BindQ q;
        pipe.InitBuffer(q, 1, kTile * sizeof(float));
        auto t = q.AllocTensor<float>();
        DataCopy(t, global(x, kTile), kTile);
        if (inHop) {
            q.EnQue<TPosition::GM, TPosition::VECIN, float>(t);
            t = q.DeQue<TPosition::GM, TPosition::VECIN, float>();
        }
        Muls(t, t, 2.0f, kTile);
        if (outHop) {
            q.EnQue<TPosition::VECOUT, TPosition::GM, float>(t);
            t = q.DeQue<TPosition::VECOUT, TPosition::GM, float>();
        }
        DataCopy(global(y, kTile), t, kTile);
        q.FreeTensor(t);
    };
}

XTEST(copy_out_without_the_vecout_hop_is_a_raw_hazard) {
    Gm<float> x(kTile, "x"), y(kTile, "y");
    for (int i = 0; i < kTile; ++i) x.p[i] = 1.0f;
    XCHECK_THROWS_WITH(one(one_tile(x.p, y.p, true, false)), "RAW on UB", "PIPE_MTE3 DataCopy",
                       "written by PIPE_V Muls", "no V_MTE3 flag");
    one(one_tile(x.p, y.p, true, true));
    XCHECK_EQ(y.p[0], 2.0f);
}

XTEST(the_gm_vecin_hop_orders_mte2_before_v) {
    Gm<float> x(kTile, "x"), y(kTile, "y");
    for (int i = 0; i < kTile; ++i) x.p[i] = 1.0f;
    XCHECK_THROWS_WITH(one(one_tile(x.p, y.p, false, true)), "RAW on UB", "PIPE_V Muls",
                       "written by PIPE_MTE2 DataCopy", "no MTE2_V flag");
}

// The next copy in may overwrite a buffer only after its copy out read it: the
// FreeTensor -> AllocTensor handshake orders MTE3 (and, through the hops, V) before
// MTE2; reusing the tensor without it is reported (first the WAW against the vector write).
XTEST(reuse_needs_free_then_alloc) {
    Gm<float> x(2 * kTile, "x"), y(2 * kTile, "y");
    auto kernel = [&](bool realloc) {
        return [&, realloc] {
            TPipe pipe;
            BindQ q;
            pipe.InitBuffer(q, 1, kTile * sizeof(float));
            auto gx = global(x.p, 2 * kTile), gy = global(y.p, 2 * kTile);
            auto t = q.AllocTensor<float>();
            for (int32_t i = 0; i < 2; ++i) {
                DataCopy(t, gx[uint64_t(i) * kTile], kTile);
                q.EnQue<TPosition::GM, TPosition::VECIN, float>(t);
                t = q.DeQue<TPosition::GM, TPosition::VECIN, float>();
                Muls(t, t, 2.0f, kTile);
                q.EnQue<TPosition::VECOUT, TPosition::GM, float>(t);
                t = q.DeQue<TPosition::VECOUT, TPosition::GM, float>();
                DataCopy(gy[uint64_t(i) * kTile], t, kTile);
                if (realloc || i == 1) {
                    q.FreeTensor(t);
                    if (i == 0) t = q.AllocTensor<float>();
                }
            }
        };
    };
    for (int i = 0; i < 2 * kTile; ++i) x.p[i] = 1.0f;
    XCHECK_THROWS_WITH(one(kernel(false)), "WAW on UB", "PIPE_MTE2 DataCopy", "written by PIPE_V Muls");
    one(kernel(true));
}

// A pipe with a TQueBind of `bufs` buffers; in() allocates, fills and enqueues GM->VECIN.
struct BindPipe {
    TPipe pipe;
    BindQ q;
    explicit BindPipe(uint8_t bufs) { pipe.InitBuffer(q, bufs, kTile * sizeof(float)); }
    LocalTensor<float> in() {
        auto t = q.AllocTensor<float>();
        Duplicate(t, 0.0f, kTile);
        q.EnQue<TPosition::GM, TPosition::VECIN, float>(t);
        return t;
    }
};

XTEST(ring_depth_and_empty_dequeue) {
    // A VECOUT->GM DeQue with a GM->VECIN tensor at the head.
    XCHECK_THROWS_WITH(one([] {
                           BindPipe b(1);
                           b.in();
                           (void)b.q.DeQue<TPosition::VECOUT, TPosition::GM, float>();
                       }),
                       "TQueBind::DeQue", "takes the head of the queue's ring");
    // Depth 2 counts every enqueued tensor, whichever hop: a third EnQue before any DeQue.
    XCHECK_THROWS_WITH(one([] {
                           BindPipe b(3);
                           for (int i = 0; i < 3; ++i) b.in();
                       }),
                       "TQueBind::EnQue", "ring of depth 2 is full");
    XCHECK_THROWS_WITH(one([] {
                           BindPipe b(1);
                           (void)b.q.DeQue<TPosition::GM, TPosition::VECIN, float>();
                       }),
                       "TQueBind::DeQue", "no tensor enqueued");
}

// A buffer may go through the GM->VECIN hop twice (the real queue checks only that
// it is allocated or dequeued); each DeQue releases its event id, so a long run of
// hops never exhausts the 8 ids of MTE2_V.
XTEST(event_ids_are_released_at_dequeue) {
    one([] {
        BindPipe b(1);
        auto t = b.in();
        for (int i = 0; i < 20; ++i) {
            t = b.q.DeQue<TPosition::GM, TPosition::VECIN, float>();
            b.q.EnQue<TPosition::GM, TPosition::VECIN, float>(t);
        }
        t = b.q.DeQue<TPosition::GM, TPosition::VECIN, float>();
        b.q.FreeTensor(t);
    });
}

XTEST(plain_enque_dequeue_is_a_copy_through_mte2_to_mte3) {
    Gm<float> x(kTile, "x"), y(kTile, "y");
    for (int i = 0; i < kTile; ++i) x.p[i] = float(i);
    auto kernel = [&](bool hop) {
        return [&, hop] {
            TPipe pipe;
            BindQ q;
            pipe.InitBuffer(q, 1, kTile * sizeof(float));
            auto t = q.AllocTensor<float>();
            DataCopy(t, global(x.p, kTile), kTile);
            if (hop) {
                q.EnQue(t);
                t = q.DeQue<float>();
            }
            DataCopy(global(y.p, kTile), t, kTile);
            q.FreeTensor(t);
        };
    };
    XCHECK_THROWS_WITH(one(kernel(false)), "RAW on UB", "PIPE_MTE3 DataCopy", "written by PIPE_MTE2 DataCopy",
                       "no MTE2_MTE3 flag");
    one(kernel(true));
    for (int i = 0; i < kTile; ++i) XCHECK_EQ(y.p[i], float(i));
}

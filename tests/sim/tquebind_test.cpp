// TQueBind<VECIN, VECOUT>: a tile copied in, computed in place and copied out of one
// buffer. The handshakes of each hop order exactly the pipes CANN's flags order
// (GM->VECIN: MTE2->V, VECOUT->GM: V->MTE3, FreeTensor->AllocTensor: MTE3->MTE2);
// a kernel that skips one is reported, and the buffer's state machine refuses
// out-of-order calls.
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

// y = 2 * x over `tiles` tiles through `bufs` buffers, the kernel's pipeline:
// copy in tile i+1, compute tile i, copy out tile i.
std::function<void()> doubling(float* x, float* y, int32_t tiles, uint8_t bufs) {
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
        copyIn(0);
        for (int32_t i = 0; i < tiles; ++i) {
            if (i + 1 < tiles) copyIn(i + 1);
            auto t = q.DeQue<TPosition::GM, TPosition::VECIN, float>();
            Muls(t, t, 2.0f, kTile);
            q.EnQue<TPosition::VECOUT, TPosition::GM, float>(t);
            auto o = q.DeQue<TPosition::VECOUT, TPosition::GM, float>();
            DataCopy(gy[uint64_t(i) * kTile], o, kTile);
            q.FreeTensor(o);
        }
    };
}
}  // namespace

XTEST(round_trip_through_one_buffer_per_tile) {
    for (uint8_t bufs : {uint8_t(2), uint8_t(3)}) {
        const int32_t tiles = 7;
        Gm<float> x(tiles * kTile, "x"), y(tiles * kTile, "y");
        for (int32_t i = 0; i < tiles * kTile; ++i) x.p[i] = float(i % 97) - 40.0f;
        one(doubling(x.p, y.p, tiles, bufs));
        for (int32_t i = 0; i < tiles * kTile; ++i) XCHECK_EQ(y.p[i], 2.0f * x.p[i]);
    }
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

XTEST(hops_out_of_order_are_refused) {
    // GM->VECIN again after the tensor went through it.
    XCHECK_THROWS_WITH(one([] {
                           BindPipe b(1);
                           b.in();
                           auto t = b.q.DeQue<TPosition::GM, TPosition::VECIN, float>();
                           b.q.EnQue<TPosition::GM, TPosition::VECIN, float>(t);
                       }),
                       "TQueBind::EnQue", "already dequeued from the TQueBind GM->VECIN hop");
    // A VECOUT->GM DeQue with nothing enqueued on that hop (the tensor waits on GM->VECIN).
    XCHECK_THROWS_WITH(one([] {
                           BindPipe b(1);
                           b.in();
                           (void)b.q.DeQue<TPosition::VECOUT, TPosition::GM, float>();
                       }),
                       "TQueBind::DeQue", "DeQue on an empty TQueBind VECOUT->GM queue");
    // Depth 2 on the GM->VECIN hop: a third EnQue before any DeQue.
    XCHECK_THROWS_WITH(one([] {
                           BindPipe b(3);
                           for (int i = 0; i < 3; ++i) b.in();
                       }),
                       "EnQue on a TQueBind GM->VECIN queue already holding 2 tensor(s) (depth 2)");
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

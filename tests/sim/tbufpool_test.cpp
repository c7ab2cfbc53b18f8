// TBufPool as kernel_tbufpool_impl.h has it: a pool takes its UB from the TPipe
// (TPipe::InitBufPool) or from a parent pool, or shares another pool's range;
// InitBuffer carves TQue/TBuf buffers from it; Reset waits for the release of
// its freed buffers and leaves it empty, so a pool sharing its range can reuse
// the bytes. The queues inside keep the TPipe's events.
#include <vector>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "xtest.h"

using namespace AscendC;
using ascend_sim::run_kernel;
using sim_test::global;
using sim_test::Gm;

namespace {
constexpr int32_t kN = 256;  // floats per buffer
constexpr uint32_t kBytes = kN * sizeof(float);

void one(const std::function<void()>& body) { run_kernel("tbufpool", 1, body); }

// z = op(x, y) through one VECIN pair and one VECOUT queue.
template <class Op>
void add_through(TQue<TPosition::VECIN, 1>& a, TQue<TPosition::VECIN, 1>& b, TQue<TPosition::VECOUT, 1>& c,
                 const GlobalTensor<float>& x, const GlobalTensor<float>& y, const GlobalTensor<float>& z, Op op) {
    auto ta = a.AllocTensor<float>();
    auto tb = b.AllocTensor<float>();
    DataCopy(ta, x, kN);
    DataCopy(tb, y, kN);
    a.EnQue(ta);
    b.EnQue(tb);
    ta = a.DeQue<float>();
    tb = b.DeQue<float>();
    auto tc = c.AllocTensor<float>();
    op(tc, ta, tb);
    c.EnQue(tc);
    a.FreeTensor(ta);
    b.FreeTensor(tb);
    tc = c.DeQue<float>();
    DataCopy(z, tc, kN);
    c.FreeTensor(tc);
}

// The UB address of the buffer a queue of one buffer hands out.
template <class Q>
uint64_t addr_of(Q& q) {
    auto t = q.template AllocTensor<float>();
    const uint64_t a = reinterpret_cast<uintptr_t>(t.GetPhyAddr());
    q.FreeTensor(t);
    return a;
}

const auto add = [](auto& d, auto& s0, auto& s1) { Add(d, s0, s1, kN); };
const auto mul = [](auto& d, auto& s0, auto& s1) { Mul(d, s0, s1, kN); };

struct Io {
    Gm<float> x{kN, "x"}, y{kN, "y"}, z0{kN, "z0"}, z1{kN, "z1"};
    Io() {
        for (int32_t i = 0; i < kN; ++i) {
            x.p[i] = float(i);
            y.p[i] = 0.5f * float(i % 7);
        }
    }
    void check() const {
        for (int32_t i = 0; i < kN; ++i) {
            XCHECK_EQ(z0.p[i], x.p[i] + y.p[i]);
            XCHECK_EQ(z1.p[i], x.p[i] * y.p[i]);
        }
    }
};
}  // namespace

// z0 = x + y through three queues of p1, then, after p1's Reset, z1 = x * y
// through three of p2, which shares p1's range: p2's first buffer is p1's, whose
// address is returned.
uint64_t two_rounds(TBufPool<TPosition::VECCALC>& p1, TBufPool<TPosition::VECCALC>& p2, const Io& io) {
    TQue<TPosition::VECIN, 1> a, b, a2, b2;
    TQue<TPosition::VECOUT, 1> c, c2;
    p1.InitBuffer(a, 1, kBytes);
    p1.InitBuffer(b, 1, kBytes);
    p1.InitBuffer(c, 1, kBytes);
    add_through(a, b, c, global(io.x.p, kN), global(io.y.p, kN), global(io.z0.p, kN), add);
    const uint64_t first = addr_of(a);
    p1.Reset();
    p2.InitBuffer(a2, 1, kBytes);
    p2.InitBuffer(b2, 1, kBytes);
    p2.InitBuffer(c2, 1, kBytes);
    XCHECK_EQ(addr_of(a2), first);
    add_through(a2, b2, c2, global(io.x.p, kN), global(io.y.p, kN), global(io.z1.p, kN), mul);
    p2.Reset();
    return first;
}

// Two pools of the TPipe over one range.
XTEST(a_shared_range_is_reused_after_reset) {
    for (int autoSync : {1, 0}) {
        sim_test::AutoSync mode(autoSync);
        Io io;
        one([&] {
            TPipe pipe;
            TBufPool<TPosition::VECCALC> p1, p2;
            pipe.InitBufPool(p1, kBytes * 3);
            pipe.InitBufPool(p2, kBytes * 3, p1);
            two_rounds(p1, p2, io);
        });
        io.check();
    }
}

// A pool nested in another takes the parent's next bytes; one sharing it starts
// where it starts; the TPipe's own InitBuffer continues after the outer pool.
XTEST(nested_pools_subdivide_their_parent) {
    for (int autoSync : {1, 0}) {
        sim_test::AutoSync mode(autoSync);
        Io io;
        one([&] {
            TPipe pipe;
            TBufPool<TPosition::VECCALC> p0, p1, p2;
            TQue<TPosition::VECIN, 1> big;
            TBuf<TPosition::VECCALC> after;
            pipe.InitBufPool(p0, kBytes * 5);
            pipe.InitBuffer(after, kBytes);
            p0.InitBufPool(p1, kBytes * 3);
            p0.InitBuffer(big, 1, kBytes * 2);
            p0.InitBufPool(p2, kBytes * 3, p1);
            const uint64_t base = two_rounds(p1, p2, io);
            XCHECK_EQ(addr_of(big), base + 3 * kBytes);
            XCHECK_EQ(uint64_t(reinterpret_cast<uintptr_t>(after.Get<float>().GetPhyAddr())), base + 5 * kBytes);
            p0.Reset();
            pipe.Reset();
        });
        io.check();
    }
}

// The accounting kernel_tbufpool_impl.h asserts, and the use of what a Reset released.
XTEST(pool_limits_are_checked) {
    const auto fails = [](const std::function<void(TPipe&, TBufPool<TPosition::VECCALC>&)>& body) {
        return [body] {
            TPipe pipe;
            TBufPool<TPosition::VECCALC> pool;
            pipe.InitBufPool(pool, kBytes * 2);
            body(pipe, pool);
        };
    };
    XCHECK_THROWS_WITH(one(fails([](TPipe&, TBufPool<TPosition::VECCALC>& pool) {
                           TQue<TPosition::VECIN, 1> q;
                           pool.InitBuffer(q, 3, kBytes);
                       })),
                       "TBufPool::InitBuffer", "3 x 1024 B at offset 0 of the TBufPool exceeds the pool's 2048 B");
    XCHECK_THROWS_WITH(one(fails([](TPipe&, TBufPool<TPosition::VECCALC>& pool) {
                           TBufPool<TPosition::VECCALC> inner;
                           TBuf<TPosition::VECCALC> t;
                           pool.InitBuffer(t, 32);
                           pool.InitBufPool(inner, kBytes * 2);
                       })),
                       "TBufPool::InitBufPool", "a pool of 2048 B at offset 32 of its parent exceeds");
    XCHECK_THROWS_WITH(one(fails([](TPipe& pipe, TBufPool<TPosition::VECCALC>& pool) {
                           TBufPool<TPosition::VECCALC> other;
                           pipe.InitBufPool(other, kBytes * 3, pool);
                       })),
                       "TPipe::InitBufPool", "len 3072 B (rounded to 32) exceeds the 2048 B of the TBufPool it shares");
    XCHECK_THROWS_WITH(one(fails([](TPipe&, TBufPool<TPosition::VECCALC>& pool) {
                           TBuf<TPosition::VECCALC> t[5];
                           for (auto& x : t) pool.InitBuffer(x, 32);
                       })),
                       "TBufPool::InitBuffer", "5 buffers after this call exceed the pool's bufIDSize of 4");
    XCHECK_THROWS_WITH(one(fails([](TPipe&, TBufPool<TPosition::VECCALC>& pool) {
                           TQue<TPosition::VECIN, 1> q;
                           pool.InitBuffer(q, 1, kBytes);
                           pool.Reset();
                           (void)q.AllocTensor<float>();
                       })),
                       "TQue::AllocTensor", "released by its TBufPool's Reset");
    XCHECK_THROWS_WITH(one(fails([](TPipe&, TBufPool<TPosition::VECCALC>& pool) {
                           TBuf<TPosition::VECCALC> t;
                           pool.Reset();
                           pool.InitBuffer(t, 32);
                       })),
                       "TBufPool::InitBuffer", "the TBufPool was Reset, which leaves it no UB");
    XCHECK_THROWS_WITH(one(fails([](TPipe& pipe, TBufPool<TPosition::VECCALC>& pool) {
                           TBuf<TPosition::VECCALC> t;
                           pipe.Reset();
                           pool.InitBuffer(t, 32);
                       })),
                       "TBufPool::InitBuffer", "the TBufPool's UB was released by TPipe::Reset");
    XCHECK_THROWS_WITH(one([] {
                           TPipe pipe;
                           TBufPool<TPosition::VECCALC> pool;
                           pipe.InitBufPool(pool, 1u << 20);
                       }),
                       "TPipe::InitBufPool", "InitBufPool of 1048576 B after 0 B exceeds the UB");
    XCHECK_THROWS_WITH(one([] {
                           TBufPool<TPosition::VECCALC> pool;
                           TBuf<TPosition::VECCALC> t;
                           TPipe pipe;
                           pool.InitBuffer(t, 32);
                       }),
                       "TBufPool::InitBuffer", "the TBufPool has no UB: call InitBufPool on it");
}

// Reset waits for the release flag FreeTensor set, as the TPipe's Reset does: the
// next user of the bytes (a pool sharing them) is ordered after the old reader.
// Without the Reset nothing orders the copy in after the vector read.
XTEST(reset_orders_the_next_user_of_the_range) {
    const auto body = [](bool reset) {
        return [reset] {
            TPipe pipe;
            TBufPool<TPosition::VECCALC> p1, p2;
            TQue<TPosition::VECIN, 1> a, a2;
            pipe.InitBufPool(p1, kBytes);
            pipe.InitBufPool(p2, kBytes, p1);
            p1.InitBuffer(a, 1, kBytes);
            auto t = a.AllocTensor<float>();
            Duplicate(t, 1.0f, kN);
            a.FreeTensor(t);
            if (reset) p1.Reset();
            p2.InitBuffer(a2, 1, kBytes);
            Gm<float> x(kN, "x");
            DataCopy(a2.AllocTensor<float>(), global(x.p, kN), kN);
        };
    };
    sim_test::AutoSync off(0);
    one(body(true));
    XCHECK_THROWS_WITH(one(body(false)), "WAW on UB", "PIPE_MTE2 DataCopy", "written by PIPE_V Duplicate");
}

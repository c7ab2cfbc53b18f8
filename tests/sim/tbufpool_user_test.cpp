// A user-defined TBufPool (EXTERN_IMPL_BUFPOOL, kernel_tpipe.h): the class
// places its buffers itself; values and placements checked here.
#include <cstdint>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "xtest.h"

using namespace AscendC;
using ascend_sim::run_kernel;
using sim_test::global;
using sim_test::Gm;

namespace {
constexpr uint32_t kN = 256;  // halves per buffer (512 B)

// Buffers placed `gap` bytes apart: the pool's cursor moves past each and the gap.
class GapPool {
public:
    GapPool() { Init(); }
    uint32_t gap = 0;
    template <class T>
    bool InitBuffer(T& que, uint8_t num, uint32_t len) {
        auto ptr = GetBufHandle(GetCurBufSize());
        const uint32_t at = GetCurAddr();
        que.InitStartBufHandle(ptr, num, len);
        for (uint32_t i = 0; i < num; ++i) que.InitBufHandle(this, i, ptr, at + i * (len + gap), len);
        SetCurAddr(at + num * (len + gap));
        SetCurBufSize(GetCurBufSize() + num);
        return true;
    }
    template <TPosition bufPos>
    bool InitBuffer(TBuf<bufPos>& buf, uint32_t len) {
        auto ptr = GetBufHandle(GetCurBufSize());
        const uint32_t at = GetCurAddr();
        buf.InitStartBufHandle(ptr, 1, len);
        buf.InitBufHandle(this, 0, ptr, at, len);
        SetCurAddr(at + len + gap);
        SetCurBufSize(GetCurBufSize() + 1);
        return true;
    }
    EXTERN_IMPL_BUFPOOL(GapPool, TPosition::VECCALC, 4);
};
}  // namespace

XTEST(a_user_pool_places_buffers_where_it_says) {
    Gm<half> x(kN, "x"), y(kN, "y"), z(kN, "z");
    for (uint32_t i = 0; i < kN; ++i) {
        x.p[i] = half(float(i % 17));
        y.p[i] = half(float(i % 5) * 0.5f);
    }
    uint64_t offX = 0, offY = 0, offZ = 0, first = 0;
    run_kernel("user_pool", 1, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> before;
        pipe.InitBuffer(before, 1024);  // the pool starts after it
        GapPool pool;
        pool.gap = 512;
        pipe.InitBufPool(pool, 8192);
        first = pool.GetCurAddr();
        TQue<TPosition::VECIN, 1> qx;
        TBuf<TPosition::VECCALC> by;
        TQue<TPosition::VECOUT, 1> qz;
        pool.InitBuffer(qx, 1, kN * sizeof(half));
        pool.InitBuffer(by, kN * sizeof(half));
        pool.InitBuffer(qz, 1, kN * sizeof(half));
        const uint8_t* ub = reinterpret_cast<const uint8_t*>(before.Get<half>().GetPhyAddr());
        auto tx = qx.AllocTensor<half>();
        auto ty = by.Get<half>();
        DataCopy(tx, global(x.p, kN), kN);
        DataCopy(ty, global(y.p, kN), kN);
        qx.EnQue(tx);
        tx = qx.DeQue<half>();
        auto tz = qz.AllocTensor<half>();
        Add(tz, tx, ty, kN);
        offX = uint64_t(reinterpret_cast<const uint8_t*>(tx.GetPhyAddr()) - ub);
        offY = uint64_t(reinterpret_cast<const uint8_t*>(ty.GetPhyAddr()) - ub);
        offZ = uint64_t(reinterpret_cast<const uint8_t*>(tz.GetPhyAddr()) - ub);
        qz.EnQue(tz);
        qx.FreeTensor(tx);
        tz = qz.DeQue<half>();
        DataCopy(global(z.p, kN), tz, kN);
        qz.FreeTensor(tz);
        pool.Reset();
    });
    XCHECK_EQ(first, uint64_t(1024));
    XCHECK_EQ(offX, uint64_t(1024));
    XCHECK_EQ(offY, uint64_t(1024 + 512 + 512));
    XCHECK_EQ(offZ, uint64_t(1024 + 2 * (512 + 512)));
    for (uint32_t i = 0; i < kN; ++i) XCHECK_EQ(float(z.p[i]), float(i % 17) + float(i % 5) * 0.5f);
}

XTEST(a_user_pool_refuses_what_the_pool_cannot_hold) {
    const auto run = [](auto body) {
        run_kernel("user_pool_bad", 1, [&] {
            TPipe pipe;
            GapPool pool;
            pipe.InitBufPool(pool, 2048);
            body(pool);
        });
    };
    // 3 x (512 + 512) B from the start: the third buffer ends past the 2048 B pool.
    XCHECK_THROWS_WITH(run([](GapPool& p) {
                           p.gap = 512;
                           TQue<TPosition::VECIN, 3> q;
                           p.InitBuffer(q, 3, 512);
                       }),
                       "TQue::InitBufHandle", "outside the pool's range");
    XCHECK_THROWS_WITH(run([](GapPool& p) { p.GetBufHandle(4); }), "GetBufHandle", "outside the pool's 4 buffer handles");
    XCHECK_THROWS_WITH(run([](GapPool& p) {
                           TQue<TPosition::VECIN, 1> q;
                           auto h = p.GetBufHandle(0);
                           q.InitStartBufHandle(h, 1, 512);
                           q.InitBufHandle(&p, 0, h, p.GetCurAddr(), 512);
                           q.InitBufHandle(&p, 1, h, p.GetCurAddr() + 512, 512);
                       }),
                       "TQue::InitBufHandle", "after InitStartBufHandle named 1");
    // Reset leaves the pool no UB, as TBufPool::Reset.
    XCHECK_THROWS_WITH(run([](GapPool& p) {
                           p.Reset();
                           TBuf<TPosition::VECCALC> b;
                           p.InitBuffer(b, 512);
                       }),
                       "TBuf::InitBufHandle", "outside the pool's range [0, 0)");
}

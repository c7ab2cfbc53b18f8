// GlobalTensor::SetL2CacheHint on 2201: the hint is recorded and the copies read
// and write the same bytes as without it (the DISABLE alias maps the same GM).
#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "xtest.h"

using namespace AscendC;
using ascend_sim::run_kernel;
using sim_test::global;
using sim_test::Gm;

XTEST(hinted_tensors_copy_as_before) {
    constexpr int32_t n = 64;
    for (int autoSync : {1, 0}) {
        sim_test::AutoSync mode(autoSync);
        Gm<float> x(n, "x"), z(n, "z");
        for (int32_t i = 0; i < n; ++i) x.p[i] = float(3 * i);
        run_kernel("l2_hint", 1, [&] {
            auto gx = global(x.p, n);
            auto gz = global(z.p, n);
            XCHECK(gx.sim_cache_mode() == CacheMode::CACHE_MODE_NORMAL);
            gx.SetL2CacheHint(CacheMode::CACHE_MODE_DISABLE);
            gz.SetL2CacheHint<CacheRwMode::WRITE>(CacheMode::CACHE_MODE_LAST);
            XCHECK(gx.sim_cache_mode() == CacheMode::CACHE_MODE_DISABLE);
            XCHECK(gx[8].sim_cache_mode() == CacheMode::CACHE_MODE_DISABLE);
            XCHECK(gz.ReinterpretCast<int32_t>().sim_cache_mode() == CacheMode::CACHE_MODE_LAST);
            XCHECK(gx.GetPhyAddr() == x.p);
            TPipe pipe;
            TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> q;
            pipe.InitBuffer(q, 1, n * sizeof(float));
            auto t = q.AllocTensor<float>();
            DataCopy(t, gx, n);
            q.EnQue(t);
            t = q.DeQue<float>();
            DataCopy(gz, t, n);
            q.FreeTensor(t);
        });
        for (int32_t i = 0; i < n; ++i) XCHECK_EQ(z.p[i], float(3 * i));
    }
}

// The hint is no licence to skip the GM checks: past the end is still reported.
XTEST(hinted_tensors_are_bounds_checked) {
    Gm<float> x(8, "x");
    XCHECK_THROWS_WITH(run_kernel("l2_hint_oob", 1,
                                  [&] {
                                      auto gx = global(x.p, 8);
                                      gx.SetL2CacheHint(CacheMode::CACHE_MODE_DISABLE);
                                      sim_test::Calc c(256);
                                      DataCopy(c.get<float>(), gx, 64);
                                  }),
                       "DataCopy", "is not inside one GM allocation");
}

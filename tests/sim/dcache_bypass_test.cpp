// ReadGmByPassDCache / WriteGmByPassDCache (ld_dev / st_dev: GM itself, no DCache
// line filled or cleaned), DataCachePreload (a line fetched into the DCache),
// DataSyncBarrier and the UB form of DataCacheCleanAndInvalid.
#include <cstring>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "xtest.h"

using namespace AscendC;
using ascend_sim::run_kernel;
using sim_test::Gm;

XTEST(bypass_write_and_read_reach_gm) {
    Gm<int32_t> g(16, "g");
    for (int k = 0; k < 16; ++k) g.p[k] = 10 * k;
    int32_t seen = 0;
    run_kernel("bypass_rw", 1, [&] {
        WriteGmByPassDCache<int32_t>(g.p + 3, -5);
        DataSyncBarrier<MemDsbT::DDR>();
        seen = ReadGmByPassDCache<int32_t>(g.p + 7);
        WriteGmByPassDCache<uint8_t>(reinterpret_cast<uint8_t*>(g.p + 8), uint8_t(0xAB));
    });
    XCHECK_EQ(g.p[3], -5);
    XCHECK_EQ(seen, 70);
    XCHECK_EQ(g.p[8] & 0xFF, 0xAB);
    XCHECK_EQ(g.p[9], 90);
}

XTEST(bypass_write_needs_no_clean_at_kernel_end) {
    Gm<int64_t> g(8, "g");
    run_kernel("bypass_no_clean", 1, [&] { WriteGmByPassDCache<int64_t>(g.p, int64_t(1) << 40); });
    XCHECK_EQ(g.p[0], int64_t(1) << 40);
}

XTEST(bypass_access_of_a_dirty_line_is_reported) {
    Gm<int32_t> g(16, "g");
    XCHECK_THROWS_WITH(run_kernel("bypass_read_dirty", 1,
                                  [&] {
                                      auto t = sim_test::global(g.p, 16);
                                      t.SetValue(0, 1);
                                      (void)ReadGmByPassDCache<int32_t>(g.p + 4);
                                  }),
                       "ReadGmByPassDCache (block 0)", "reads (bypassing the DCache) GM line g+0x0000",
                       "the read sees stale GM");
    XCHECK_THROWS_WITH(run_kernel("bypass_write_dirty", 1,
                                  [&] {
                                      auto t = sim_test::global(g.p, 16);
                                      t.SetValue(0, 1);
                                      WriteGmByPassDCache<int32_t>(g.p + 4, 2);
                                  }),
                       "WriteGmByPassDCache (block 0)", "writes (bypassing the DCache) GM line g+0x0000",
                       "a later clean would overwrite");
}

XTEST(bypass_write_leaves_a_cached_line_stale) {
    Gm<int32_t> g(16, "g");
    std::memset(g.p, 0, 64);
    XCHECK_THROWS_WITH(run_kernel("bypass_stale", 1,
                                  [&] {
                                      auto t = sim_test::global(g.p, 16);
                                      (void)t.GetValue(0);
                                      WriteGmByPassDCache<int32_t>(g.p + 1, 2);
                                      (void)t.GetValue(1);
                                  }),
                       "GlobalTensor::GetValue (block 0)",
                       "cached before it was overwritten (by this block's MTE3 or WriteGmByPassDCache");
}

XTEST(data_cache_preload_caches_the_line) {
    Gm<uint64_t> g(8, "g");
    std::memset(g.p, 0, 64);
    auto kernel = [&](bool preload) {
        run_kernel("preload", 1, [&] {
            auto t = sim_test::global(g.p, 8);
            if (preload) DataCachePreload(t, int64_t(8));
            sim_test::Calc c(64);
            auto u = c.get<uint64_t>();
            sim_test::fill(u, 8, [](uint32_t k) { return k; });
            sim_test::sync<HardEvent::S_MTE3>();
            DataCopy(t, u, 8);  // MTE3 overwrites the line
            sim_test::sync<HardEvent::MTE3_S>();
            (void)t.GetValue(2);
        });
    };
    kernel(false);  // not cached: GetValue reads GM
    XCHECK_THROWS_WITH(kernel(true), "GlobalTensor::GetValue (block 0)", "cached before it was overwritten");
}

XTEST(bypass_accesses_of_two_blocks_race_without_sync_all) {
    Gm<int32_t> g(16, "g");
    std::memset(g.p, 0, 64);
    XCHECK_THROWS_WITH(run_kernel("bypass_race", 2,
                                  [&] {
                                      if (GetBlockIdx() == 0) WriteGmByPassDCache<int32_t>(g.p, 1);
                                      else (void)ReadGmByPassDCache<int32_t>(g.p);
                                  }),
                       "GM race (blocks 0 and 1", "written by block 0 (WriteGmByPassDCache)",
                       "read by block 1 (ReadGmByPassDCache)");
}

XTEST(ub_data_cache_clean_and_invalid_is_accepted) {
    run_kernel("dcci_ub", 1, [] {
        sim_test::Calc c(64);
        DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_UB>(c.get<float>());
        DataSyncBarrier<MemDsbT::ALL>();
    });
}

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

// A bypass read and write of one word by two blocks are a GM flag and its poll
// (ib_sync.cpp), not a race; two writes of it, or a DMA of it, still race.
XTEST(bypass_writes_of_two_blocks_race_without_sync_all) {
    Gm<int32_t> g(16, "g");
    std::memset(g.p, 0, 64);
    run_kernel("bypass_flag", 2, [&] {
        if (GetBlockIdx() == 0) WriteGmByPassDCache<int32_t>(g.p, 1);
        else (void)ReadGmByPassDCache<int32_t>(g.p);
    });
    XCHECK_THROWS_WITH(run_kernel("bypass_race", 2, [&] { WriteGmByPassDCache<int32_t>(g.p, 1); }),
                       "GM race (blocks 0 and 1", "written by block 0 (WriteGmByPassDCache)",
                       "written by block 1 (WriteGmByPassDCache)");
    XCHECK_THROWS_WITH(run_kernel("bypass_dma_race", 2,
                                  [&] {
                                      sim_test::Calc c(64);
                                      if (GetBlockIdx() == 0) WriteGmByPassDCache<int32_t>(g.p, 1);
                                      else DataCopy(c.get<int32_t>(), sim_test::global(g.p, 16), 16);
                                  }),
                       "GM race (blocks 0 and 1", "written by block 0 (WriteGmByPassDCache)",
                       "read by block 1 (DataCopy)");
}

// Block 1 caches the flag's line, waits (bypassing the DCache) until block 0 has
// raised the flag, and reads it through the DCache: stale, the cached 0 (what
// the NPU returns). Cleaning the line and reading again is the retry that makes
// the stale read harmless; a kernel that ends on the stale value is reported.
XTEST(a_stale_get_value_read_again_after_a_clean_is_not_reported) {
    Gm<int32_t> g(32, "flag");  // the flag, and 64 B on a word block 1 raises once it has cached the flag
    const auto kernel = [&](bool retry, int32_t* seen) {
        const auto f = sim_test::global(g.p, 16);
        if (GetBlockIdx() == 0) {
            while (ReadGmByPassDCache<int32_t>(g.p + 16) != 1) {
            }
            WriteGmByPassDCache<int32_t>(g.p, 1);
            return;
        }
        (void)f.GetValue(0);  // caches the line: 0
        WriteGmByPassDCache<int32_t>(g.p + 16, 1);
        while (ReadGmByPassDCache<int32_t>(g.p) != 1) {
        }
        seen[0] = f.GetValue(0);
        if (!retry) return;
        DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(f);
        seen[1] = f.GetValue(0);
    };
    for (uint32_t threads : {1u, 2u}) {
        ascend_sim::set_threads(threads);
        int32_t seen[2] = {-1, -1};
        std::memset(g.p, 0, 32 * sizeof(int32_t));
        run_kernel("retry", 2, [&] { kernel(true, seen); });
        XCHECK_EQ(seen[0], 0);
        XCHECK_EQ(seen[1], 1);
        std::memset(g.p, 0, 32 * sizeof(int32_t));
        XCHECK_THROWS_WITH(run_kernel("no_retry", 2, [&] { kernel(false, seen); }),
                           "GlobalTensor::GetValue (block 1)", "reads GM flag+0x0000 from a DCache line cached before "
                           "another block wrote it", "reached the kernel end without cleaning the line");
    }
    ascend_sim::set_threads(0);
}

// Block 1 reads a line block 0 holds dirty (SetValue, not yet cleaned): it gets
// GM as it was, 0; it cleans and reads again until block 0's clean has written
// the 1 back (the poll of asc-devkit's gm_by_dcache example).
XTEST(a_get_value_of_a_line_dirty_in_another_block_gets_gm_as_it_was) {
    Gm<int32_t> g(48, "g");  // flag, ready and go: 64 B apart
    std::memset(g.p, 0, 48 * sizeof(int32_t));
    int32_t first = -1;
    run_kernel("dirty_poll", 2, [&] {
        const auto f = sim_test::global(g.p, 16);
        if (GetBlockIdx() == 0) {
            f.SetValue(0, 1);
            WriteGmByPassDCache<int32_t>(g.p + 16, 1);  // ready: the line is dirty now
            while (ReadGmByPassDCache<int32_t>(g.p + 32) != 1) {
            }
            DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(f);
            return;
        }
        while (ReadGmByPassDCache<int32_t>(g.p + 16) != 1) {
        }
        first = f.GetValue(0);
        WriteGmByPassDCache<int32_t>(g.p + 32, 1);  // go
        do {
            DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(f);
        } while (f.GetValue(0) != 1);
    });
    XCHECK_EQ(first, 0);
}

XTEST(ub_data_cache_clean_and_invalid_is_accepted) {
    run_kernel("dcci_ub", 1, [] {
        sim_test::Calc c(64);
        DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_UB>(c.get<float>());
        DataSyncBarrier<MemDsbT::ALL>();
    });
}

// Two small host regions in one 64-byte line (caller memory is registered as it
// lies): reading the second after the line was filled for the first is no stale
// read, and each read sees its own region's bytes.
XTEST(two_regions_in_one_dcache_line) {
    alignas(64) float host[16];
    for (int i = 0; i < 16; ++i) host[i] = float(i) + 0.5f;
    ascend_sim::GmRegion a(host, 32, "a"), b(host + 8, 32, "b");
    float got[2] = {0, 0};
    run_kernel("two_regions", 2, [&] {
        GlobalTensor<float> ga, gb;
        ga.SetGlobalBuffer(host, 8);
        gb.SetGlobalBuffer(host + 8, 8);
        if (GetBlockIdx() == 0) {
            got[0] = ga.GetValue(1);
            got[1] = gb.GetValue(2);
        }
    });
    XCHECK_EQ(got[0], 1.5f);
    XCHECK_EQ(got[1], 10.5f);
}

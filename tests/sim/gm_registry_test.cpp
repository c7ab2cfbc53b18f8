// The GM registry with overlapping registrations of caller memory:
// GmRegions may repeat and overlap (concurrent launches sharing a buffer), an
// access must still lie inside one registered region, a GmRegion may not reach
// out of a gm_alloc block, and gm_free keeps its double/foreign-free checks.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "xtest.h"

using namespace AscendC;
using ascend_sim::GmRegion;
using ascend_sim::run_kernel;

namespace {

// Reads `count` floats at p (GM->UB) in one block; the GlobalTensor has no size,
// so only the registry bounds the access.
void read_gm(float* p, uint32_t count) {
    run_kernel("read", 1, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> b;
        pipe.InitBuffer(b, (count * 4 + 31) / 32 * 32);
        GlobalTensor<float> g;
        g.SetGlobalBuffer(p);
        DataCopy(b.Get<float>(), g, count);
    });
}

// Reads each (address, float count) in turn (GM->UB) in one block, so one host
// thread looks all of them up; counts are multiples of 8 (32 B).
void read_gm_each(std::initializer_list<std::pair<float*, uint32_t>> reads) {
    uint32_t most = 0;
    for (const auto& r : reads) most = std::max(most, r.second);
    run_kernel("read_each", 1, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> b;
        pipe.InitBuffer(b, most * 4);
        for (const auto& r : reads) {
            GlobalTensor<float> g;
            g.SetGlobalBuffer(r.first);
            DataCopy(b.Get<float>(), g, r.second);
            PipeBarrier<PIPE_MTE2>();  // the next copy overwrites the same UB bytes
        }
    });
}

// Sums `count` floats at p into *sum (a GM float of its own region), one block.
void sum_gm(float* p, uint32_t count, float* sum) {
    run_kernel("sum", 1, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> b, t, w;
        pipe.InitBuffer(b, (count * 4 + 31) / 32 * 32);
        pipe.InitBuffer(t, 32);
        pipe.InitBuffer(w, (count * 4 + 31) / 32 * 32);
        GlobalTensor<float> g, s;
        g.SetGlobalBuffer(p, count);
        s.SetGlobalBuffer(sum, 8);
        auto x = b.Get<float>();
        DataCopy(x, g, count);
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
        auto r = t.Get<float>();
        ReduceSum(r, x, w.Get<float>(), int32_t(count));
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        DataCopyPad(s, r, DataCopyExtParams{1, 4, 0, 0, 0});  // r[0] only: ReduceSum wrote nothing else
    });
}

}  // namespace

XTEST(repeated_registrations_are_reference_counted) {
    alignas(64) static float host[256];
    {
        GmRegion a(host, sizeof host, "a");
        {
            GmRegion b(host, sizeof host, "b");  // the same range again: accepted
            read_gm(host, 256);
        }
        read_gm(host, 256);  // still registered by a
    }
    XCHECK_THROWS_WITH(read_gm(host, 256), "DataCopy (block 0)", "not inside one GM allocation");
}

XTEST(overlapping_registrations_each_cover_their_own_range) {
    alignas(64) static float host[512];
    GmRegion whole(host, 256 * sizeof(float), "whole");       // [0, 256)
    GmRegion tail(host + 128, 384 * sizeof(float), "tail");  // [128, 512): overlaps whole
    read_gm(host, 256);                                        // inside whole
    read_gm(host + 128, 384);                                  // inside tail
    read_gm(host + 200, 256);                                  // inside tail, starts inside whole
    XCHECK_THROWS_WITH(read_gm(host + 64, 384), "not inside one GM allocation");  // only inside the union
}

XTEST(adjacent_regions_do_not_merge) {
    alignas(64) static float host[128];
    GmRegion lo(host, 64 * sizeof(float), "lo");
    GmRegion hi(host + 64, 64 * sizeof(float), "hi");
    read_gm(host, 64);
    read_gm(host + 64, 64);
    XCHECK_THROWS_WITH(read_gm(host + 56, 16), "[lo+0x00e0", "not inside one GM allocation");
}

XTEST(nested_region_inside_a_long_one_below_it) {
    // A short region starting inside a long one: accesses past the short one's end
    // but inside the long one are found by scanning below the nearest start.
    std::vector<float> host(4096);
    GmRegion big(host.data(), host.size() * sizeof(float), "big");
    GmRegion small(host.data() + 1000, 8 * sizeof(float), "small");
    read_gm(host.data() + 1000, 8);
    read_gm(host.data() + 1000, 64);  // only big holds it
    read_gm(host.data() + 1024, 3072);
    XCHECK_THROWS_WITH(read_gm(host.data() + 4088, 16), "not inside one GM allocation");
}

XTEST(caller_region_must_not_reach_out_of_a_gm_alloc_block) {
    float* p = static_cast<float*>(ascend_sim::gm_alloc(256 * sizeof(float), "dev"));
    {
        GmRegion inside(p + 8, 64 * sizeof(float), "inside");  // inside the block: accepted
        read_gm(p + 8, 64);
    }
    XCHECK_THROWS_WITH(GmRegion(p + 128, 256 * sizeof(float), "past"), "GmRegion", "overlaps the GM allocation dev",
                       "without lying inside it");
    XCHECK_THROWS_WITH(GmRegion(p - 16, 512 * sizeof(float), "around"), "GmRegion", "overlaps the GM allocation dev");
    read_gm(p, 256);  // the failed registrations left nothing behind
    XCHECK_THROWS_WITH(read_gm(p + 128, 256), "not inside one GM allocation");
    ascend_sim::gm_free(p);
}

XTEST(gm_free_rules_hold_with_regions_at_the_same_address) {
    float* p = static_cast<float*>(ascend_sim::gm_alloc(64 * sizeof(float), "dev"));
    {
        GmRegion same(p, 64 * sizeof(float), "same");
        XCHECK_THROWS_WITH(ascend_sim::gm_free(p + 1), "GmFree", "not returned by GmAlloc");
    }
    ascend_sim::gm_free(p);
    XCHECK_THROWS_WITH(ascend_sim::gm_free(p), "GmFree", "freed already");
    alignas(64) static float host[64];
    GmRegion r(host, sizeof host, "host");
    XCHECK_THROWS_WITH(ascend_sim::gm_free(host), "GmFree", "not returned by GmAlloc");
}

XTEST(lookup_cache_forgets_a_region_registered_again_smaller) {
    // Each host thread caches the regions its lookups found. Once a region is gone,
    // an access inside it must be checked against what is registered now, here a
    // smaller region at the same address, even while other regions were found after it.
    alignas(64) static float host[1024];
    alignas(64) static float others[3][64];
    GmRegion o0(others[0], sizeof others[0], "o0"), o1(others[1], sizeof others[1], "o1"),
        o2(others[2], sizeof others[2], "o2");
    {
        GmRegion big(host, sizeof host, "big");
        read_gm_each({{host, 1024}, {others[0], 64}, {others[1], 64}, {others[2], 64}, {host, 1024}});
    }
    GmRegion small(host, 64 * sizeof(float), "small");
    XCHECK_THROWS_WITH(read_gm_each({{others[0], 64}, {others[1], 64}, {host, 1024}}), "[small+0x0000",
                       "not inside one GM allocation");
    read_gm_each({{others[2], 64}, {host, 64}});
    XCHECK_THROWS_WITH(read_gm_each({{host, 72}}), "not inside one GM allocation");
}

XTEST(lookup_cache_forgets_a_freed_allocation) {
    float* p = static_cast<float*>(ascend_sim::gm_alloc(256 * sizeof(float), "dev"));
    alignas(64) static float other[64];
    GmRegion o(other, sizeof other, "other");
    read_gm_each({{p, 256}, {other, 64}, {p + 64, 128}});
    ascend_sim::gm_free(p);
    // The check fails before any byte of the freed block is read.
    XCHECK_THROWS_WITH(read_gm_each({{other, 64}, {p, 256}}), "not inside one GM allocation");
}

XTEST(lookup_cache_with_more_regions_than_entries) {
    // More regions than a thread caches, visited round robin twice: every lookup
    // still answers exactly (an access across two adjacent regions stays refused).
    alignas(64) static float host[12][64];
    std::vector<std::unique_ptr<GmRegion>> regions;
    for (int i = 0; i < 12; ++i)
        regions.push_back(std::make_unique<GmRegion>(host[i], sizeof host[i], "r" + std::to_string(i)));
    read_gm_each({{host[0], 64}, {host[1], 64}, {host[2], 64}, {host[3], 64}, {host[4], 64}, {host[5], 64},
                  {host[6], 64}, {host[7], 64}, {host[8], 64}, {host[9], 64}, {host[10], 64}, {host[11], 64},
                  {host[0], 64}, {host[1], 64}, {host[2], 64}, {host[3], 64}, {host[4], 64}, {host[5], 64},
                  {host[6], 64}, {host[7], 64}, {host[8], 64}, {host[9], 64}, {host[10], 64}, {host[11], 64}});
    XCHECK_THROWS_WITH(read_gm_each({{host[10], 64}, {host[11], 64}, {host[10] + 32, 64}}), "[r10+0x0080",
                       "not inside one GM allocation");
}

XTEST(concurrent_launches_sharing_a_buffer) {
    // Each thread registers the shared input (and its own output) around every launch,
    // as op_host does for caller memory; none waits for another, all get the same sum.
    std::vector<float> in(1024);
    for (size_t i = 0; i < in.size(); ++i) in[i] = float(i % 7) * 0.25f;
    const int kThreads = 4, kReps = 25;
    std::vector<std::vector<float>> sums(kThreads, std::vector<float>(16, -1.0f));
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int k = 0; k < kThreads; ++k)
        threads.emplace_back([&, k] {
            for (int rep = 0; rep < kReps; ++rep) {
                try {
                    GmRegion shared(in.data(), in.size() * sizeof(float), "in");
                    GmRegion part(in.data() + 512, 512 * sizeof(float), "in_tail");  // overlapping view
                    float* s = sums[size_t(k)].data();
                    GmRegion out(s, 8 * sizeof(float), "sum");
                    sum_gm(in.data(), 1024, s);
                } catch (const std::exception&) {
                    ++failures;
                }
            }
        });
    for (auto& t : threads) t.join();
    XCHECK_EQ(failures.load(), 0);
    float expect = 0;
    for (float v : in) expect += v;
    for (int k = 0; k < kThreads; ++k) XCHECK_NEAR(sums[size_t(k)][0], expect, 1e-3);
    XCHECK_THROWS_WITH(read_gm(in.data(), 1024), "not inside one GM allocation");  // all released
}

// An inter-block GM race of two plain writes that leave the same bytes (every block
// runs InitOutput over the whole output, then SyncAll: asc-devkit's InitOutput has no
// per-block split) is a warning: the GM holds the same bytes in either order. Writes
// of different bytes still stop, also when a pair of the same bytes overlaps them, and
// ASCEND_XENT_SAME_BYTES_RACE=error (set_same_bytes_race(2)) makes the warning a stop.
#include <cstdint>
#include <functional>
#include <string>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "xtest.h"

using namespace AscendC;
using ascend_sim::run_kernel;
using sim_test::Calc;
using sim_test::fill_for_mte3;
using sim_test::global;
using sim_test::Gm;

namespace {
constexpr uint32_t kBlocks = 4, kN = 1000;  // 4000 B: InitOutput's DataCopyPad tail is not 32 B aligned

// The level for one scope, back to the environment's/default after it.
struct SameBytesRace {
    explicit SameBytesRace(int mode) { ascend_sim::set_same_bytes_race(mode); }
    ~SameBytesRace() { ascend_sim::set_same_bytes_race(-1); }
    SameBytesRace(const SameBytesRace&) = delete;
    SameBytesRace& operator=(const SameBytesRace&) = delete;
};

// Every block zeroes the whole output with `init` value, SyncAll, then writes
// out[i] = i + 1 over its own quarter.
std::function<void()> init_then_slices(float* out, float init) {
    return [out, init] {
        const auto g = global(out, kN);
        Calc c(kN * sizeof(float));
        InitOutput<float>(g, kN, init);
        SyncAll();
        auto t = c.get<float>();
        const uint32_t per = kN / kBlocks, lo = uint32_t(GetBlockIdx()) * per;
        for (uint32_t i = 0; i < per; ++i) t.SetValue(i, float(lo + i + 1));
        sim_test::sync<HardEvent::S_MTE3>();
        DataCopyPad(g[lo], t, DataCopyExtParams(1, per * sizeof(float), 0, 0, 0));
    };
}
}  // namespace

XTEST(init_output_by_every_block_warns_and_completes) {
    Gm<float> out(kN, "out");
    const std::string err =
        sim_test::captured(stderr, [&] { run_kernel("init_all", kBlocks, init_then_slices(out.p, 0.0f)); });
    XCHECK(err.find("warning: GM race (blocks 0 and 1, init_all)") != std::string::npos);
    XCHECK(err.find("written by block 0 (DataCopyPad) and written by block 1 (DataCopyPad)") != std::string::npos);
    XCHECK(err.find("both wrote the same bytes there, so the result does not depend on their order") !=
           std::string::npos);
    XCHECK(err.find("ASCEND_XENT_SAME_BYTES_RACE=error stops here") != std::string::npos);
    for (uint32_t i = 0; i < kN; ++i) XCHECK_EQ(out.p[i], float(i + 1));
}

XTEST(same_non_zero_fill_by_every_block_is_not_a_stop) {
    Gm<float> out(kN, "out");
    const SameBytesRace off(0);  // silent
    const std::string err =
        sim_test::captured(stderr, [&] { run_kernel("init_all", kBlocks, init_then_slices(out.p, 1.5f)); });
    XCHECK(err.find("GM race") == std::string::npos);
    for (uint32_t i = 0; i < kN; ++i) XCHECK_EQ(out.p[i], float(i + 1));
}

XTEST(same_bytes_race_at_error_level_stops) {
    Gm<float> out(kN, "out");
    const SameBytesRace error(2);
    XCHECK_THROWS_WITH(run_kernel("init_all", kBlocks, init_then_slices(out.p, 0.0f)), "GM race (blocks 0 and 1",
                       "both wrote the same bytes there");
}

// Block b fills the whole output with b + 1: different bytes, a race whichever the order.
XTEST(different_bytes_by_every_block_still_stop) {
    Gm<float> out(kN, "out");
    XCHECK_THROWS_WITH(run_kernel("racy", kBlocks,
                                  [&] {
                                      Calc c(32);  // InitOutput stages in the UB a live TPipe leaves free
                                      InitOutput<float>(global(out.p, kN), kN, float(GetBlockIdx() + 1));
                                      SyncAll();
                                  }),
                       "GM race (blocks 0 and 1, racy)", "written by block 0 (DataCopyPad) and written by block 1");
}

// Block 0 writes zeros over 256 floats, then ones over its first 64; block 1 writes
// zeros over the 256. The two zero fills agree, but block 1's zeros may land after
// block 0's ones or before them: a race of different bytes behind the same-bytes pair.
XTEST(same_bytes_pair_does_not_hide_a_race_of_different_bytes) {
    Gm<float> out(256, "out");
    XCHECK_THROWS_WITH(run_kernel("racy", 2,
                                  [&] {
                                      Calc c(1024);
                                      auto t = c.get<float>();
                                      const auto g = global(out.p, 256);
                                      fill_for_mte3(t, 0.0f, 256);
                                      DataCopy(g, t, 256);
                                      if (GetBlockIdx() == 0) {
                                          sim_test::sync<HardEvent::MTE3_V>();
                                          fill_for_mte3(t, 1.0f, 64);
                                          DataCopy(g, t, 64);
                                      }
                                  }),
                       "GM race (blocks 0 and 1, racy): GM [out+0x0000, out+0x0100)",
                       "written by block 0 (DataCopy) and written by block 1 (DataCopy)");
}

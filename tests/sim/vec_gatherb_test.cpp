// Gatherb (Gatherb(ISASI).md): repeat r copies the 32 B blocks of src at byte
// offsets offset[8r .. 8r + 7] to dst blocks (r x dstRepStride + j x dstBlkStride).
#include <cstdint>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "vec_test_util.h"
#include "xtest.h"

using namespace AscendC;
using vec_test::one;
using sim_test::fill;
using sim_test::sync;

XTEST(gatherb_blocks_with_strides) {
    one([] {
        sim_test::Calc c(16384);
        auto s = c.get<uint16_t>(), d = c.get<uint16_t>()[2048];
        auto off = c.get<uint32_t>()[3072];
        s.SetSize(1024);  // src must not reach dst
        fill(s, 1024, [](uint32_t i) { return uint16_t(i); });  // 64 blocks of 16
        fill(off, 16, [](uint32_t i) { return ((i * 5 + 3) % 64) * 32u; });
        fill(d, 1024, [](uint32_t) { return uint16_t(0xFFFF); });
        sync<HardEvent::S_V>();
        Gatherb(d, s, off, 2, GatherRepeatParams(2, 20));  // blocks 2 apart, repeats 20 blocks apart
        sync<HardEvent::V_S>();
        for (uint32_t r = 0; r < 2; ++r)
            for (uint32_t j = 0; j < 8; ++j) {
                const uint32_t blk = ((r * 8 + j) * 5 + 3) % 64;
                for (uint32_t k = 0; k < 16; ++k) XCHECK_EQ(int(d.GetValue((r * 20 + j * 2) * 16 + k)), int(blk * 16 + k));
                for (uint32_t k = 0; k < 16; ++k) XCHECK_EQ(int(d.GetValue((r * 20 + j * 2 + 1) * 16 + k)), 0xFFFF);
            }
    });
}

XTEST(gatherb_block_stride_zero_counts_as_one) {
    one([] {
        sim_test::Calc c(8192);
        auto s = c.get<uint32_t>(), d = c.get<uint32_t>()[512];
        auto off = c.get<uint32_t>()[1024];
        s.SetSize(512);
        fill(s, 512, [](uint32_t i) { return i; });
        fill(off, 8, [](uint32_t i) { return (7 - i) * 32u; });
        sync<HardEvent::S_V>();
        Gatherb(d, s, off, 1, GatherRepeatParams(0, 8));
        sync<HardEvent::V_S>();
        for (uint32_t j = 0; j < 8; ++j)
            for (uint32_t k = 0; k < 8; ++k) XCHECK_EQ(d.GetValue(j * 8 + k), (7 - j) * 8 + k);
    });
}

XTEST(gatherb_checks) {
    auto k = [](uint32_t badOffset, bool writeSrc) {
        return [=] {
            sim_test::Calc c(8192);
            auto s = c.get<uint32_t>(), d = c.get<uint32_t>()[512];
            auto off = c.get<uint32_t>()[1024];
            s.SetSize(256);
            if (writeSrc) fill(s, 256, [](uint32_t i) { return i; });
            else fill(s, 8, [](uint32_t i) { return i; });
            fill(off, 8, [=](uint32_t i) { return i == 3 ? badOffset : i * 32u; });
            sync<HardEvent::S_V>();
            Gatherb(d, s, off, 1, GatherRepeatParams(1, 8));
        };
    };
    XCHECK_THROWS_WITH(one(k(48, true)),
                       "Gatherb (block 0): repeat 0: offset[3] = 48 B is not a 32-byte aligned block inside src's 1024 B");
    XCHECK_THROWS_WITH(one(k(1024, true)), "offset[3] = 1024 B is not a 32-byte aligned block inside src's 1024 B");
    XCHECK_THROWS_WITH(one(k(96, false)), "Gatherb (block 0): uninitialised read: src UB [0x0020, 0x0040)");
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(8192);
                           auto s = c.get<uint32_t>();
                           auto off = c.get<uint32_t>()[1024];
                           Gatherb(s[64], s, off, 1, GatherRepeatParams(1, 8));
                       }),
                       "Gatherb (block 0): dst and src overlap");
}

XTEST(gatherb_missing_sync_in_strict_mode) {
    auto k = [] {
        sim_test::Calc c(8192);
        auto s = c.get<uint32_t>(), d = c.get<uint32_t>()[512];
        auto off = c.get<uint32_t>()[1024];
        s.SetSize(256);
        Duplicate(s, 5u, 256);
        fill(off, 8, [](uint32_t i) { return i * 32u; });
        sync<HardEvent::S_V>();
        Gatherb(d, s, off, 1, GatherRepeatParams(1, 8));
        sync<HardEvent::V_S>();
        XCHECK_EQ(d.GetValue(9), 5u);
    };
    vec_test::clean_with_auto_sync(k);
    const sim_test::AutoSync strict(0);
    XCHECK_THROWS_WITH(one(k), "pipe hazard (block 0): RAW on UB", "PIPE_V Gatherb", "written by PIPE_V Duplicate");
}

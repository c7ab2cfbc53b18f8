// Transpose, the 16 x 16 two-byte form (Transpose.md: dst = src.T), also in place.
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

XTEST(transpose_16x16_and_in_place) {
    one([] {
        sim_test::Calc c(4096);
        auto s = c.get<int16_t>(), d = c.get<int16_t>()[256];
        auto h = c.get<half>()[512];
        fill(s, 256, [](uint32_t i) { return int16_t(i * 3 + 1); });
        fill(h, 256, [](uint32_t i) { return float(i) / 4; });
        sync<HardEvent::S_V>();
        Transpose(d, s);
        Transpose(h, h);
        sync<HardEvent::V_S>();
        for (uint32_t r = 0; r < 16; ++r)
            for (uint32_t k = 0; k < 16; ++k) {
                XCHECK_EQ(int(d.GetValue(r * 16 + k)), int((k * 16 + r) * 3 + 1));
                XCHECK_EQ(float(h.GetValue(r * 16 + k)), float(k * 16 + r) / 4);
            }
    });
}

XTEST(transpose_leaves_the_mask_register) {
    one([] {
        sim_test::Calc c(4096);
        auto s = c.get<uint16_t>(), d = c.get<uint16_t>()[256], e = c.get<uint16_t>()[512];
        Duplicate(s, uint16_t(7), 256);
        Duplicate(e, uint16_t(0), 128);
        PipeBarrier<PIPE_V>();
        SetVectorMask<uint16_t>(0, 0xF);
        Transpose(d, s);
        PipeBarrier<PIPE_V>();
        Copy<uint16_t, false>(e, d, MASK_PLACEHOLDER, 1, {1, 1, 8, 8});  // under the register: 4 elements
        sync<HardEvent::V_S>();
        XCHECK_EQ(int(e.GetValue(3)), 7);
        XCHECK_EQ(int(e.GetValue(4)), 0);
    });
}

XTEST(transpose_checks) {
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(4096);
                           auto s = c.get<half>();
                           Duplicate(s, half(1.0f), 512);
                           PipeBarrier<PIPE_V>();
                           Transpose(s[16], s);
                       }),
                       "Transpose (block 0): dst and src overlap other than as the same 512 B");
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(4096);
                           auto s = c.get<half>(), d = c.get<half>()[256];
                           Duplicate(s, half(1.0f), 128);
                           PipeBarrier<PIPE_V>();
                           Transpose(d, s);  // rows 8..15 never written
                       }),
                       "Transpose (block 0): uninitialised read: src UB [0x0000, 0x0200)",
                       "first unwritten byte at 0x0100");
    {
        // 512 B read from a 256 B src: in UB, a warning; as an error here
        const sim_test::PastTensor error(2);
        XCHECK_THROWS_WITH(one([] {
                               sim_test::Calc c(4096);
                               auto s = c.get<half>(), d = c.get<half>()[256];
                               Duplicate(s, half(1.0f), 256);
                               PipeBarrier<PIPE_V>();
                               s.SetSize(128);
                               Transpose(d, s);
                           }),
                           "Transpose (block 0): read past the tensor: src reads UB [0x0000, 0x0200) (512 B), 256 B "
                           "past the end of its tensor (256 B)");
    }
    const sim_test::AutoSync strict(0);
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(4096);
                           auto s = c.get<half>(), d = c.get<half>()[256];
                           Duplicate(s, half(1.0f), 256);
                           Transpose(d, s);
                       }),
                       "pipe hazard (block 0): RAW on UB [0x0000, 0x0200)", "PIPE_V Transpose",
                       "written by PIPE_V Duplicate");
}

// The fused binary ops (AddRelu, SubRelu, FusedMulAdd, FusedMulAddRelu,
// MulAddDst) against their formulas in AddRelu.md, SubRelu.md, FusedMulAdd.md
// and MulAddDst.md, each step rounded on the host in the element type; the
// kernels sync every pair themselves, so they pass with auto-sync on and off.
#include <cmath>
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

namespace {

float relu(float x) { return x > 0 ? x : 0.0f; }
float rnd(float x) { return float(half(x)); }  // one rounding to half
}  // namespace

XTEST(add_relu_and_sub_relu_count_forms) {
    one([] {
        sim_test::Calc c(8192);
        auto a = c.get<float>(), b = c.get<float>()[256], o = c.get<float>()[512], s = c.get<float>()[768];
        fill(a, 200, [](uint32_t i) { return float(i) / 3 - 30; });
        fill(b, 200, [](uint32_t i) { return 20.0f - float(i % 17) * 1.5f; });
        sync<HardEvent::S_V>();
        AddRelu(o, a, b, 200);
        SubRelu(s, a, b, 200);
        sync<HardEvent::V_S>();
        for (uint32_t i = 0; i < 200; ++i) {
            const float x = float(i) / 3 - 30, y = 20.0f - float(i % 17) * 1.5f;
            XCHECK_EQ(o.GetValue(i), relu(x + y));
            XCHECK_EQ(s.GetValue(i), relu(x - y));
        }
    });
    one([] {  // int16_t and half
        sim_test::Calc c(8192);
        auto a = c.get<int16_t>(), b = c.get<int16_t>()[256], o = c.get<int16_t>()[512];
        auto h = c.get<half>()[1024], g = c.get<half>()[1280], r = c.get<half>()[1536];
        fill(a, 160, [](uint32_t i) { return int16_t(int(i) * 7 - 500); });
        fill(b, 160, [](uint32_t i) { return int16_t(300 - int(i)); });
        fill(h, 160, [](uint32_t i) { return float(i) * 0.37f - 20; });
        fill(g, 160, [](uint32_t i) { return 11.3f - float(i % 9); });
        sync<HardEvent::S_V>();
        SubRelu(o, a, b, 160);
        AddRelu(r, h, g, 160);
        sync<HardEvent::V_S>();
        for (uint32_t i = 0; i < 160; ++i) {
            const int d = (int(i) * 7 - 500) - (300 - int(i));
            XCHECK_EQ(int(o.GetValue(i)), d > 0 ? d : 0);
            XCHECK_EQ(float(r.GetValue(i)), relu(rnd(float(h.GetValue(i)) + float(g.GetValue(i)))));
        }
    });
}

XTEST(sub_relu_high_dim_mask_and_strides) {
    // half, the first 100 elements of 2 repeats; src0 rows 10 blocks apart, src1 read twice (repStride 0).
    one([] {
        sim_test::Calc c(16384);
        auto a = c.get<half>(), b = c.get<half>()[1024], o = c.get<half>()[2048];
        fill(a, 320, [](uint32_t i) { return float(i % 50); });
        fill(b, 128, [](uint32_t i) { return float(i % 30) + 0.5f; });
        fill(o, 256, [](uint32_t) { return -7.0f; });
        sync<HardEvent::S_V>();
        SubRelu(o, a, b, 100, 2, {1, 1, 1, 8, 10, 0});
        sync<HardEvent::V_S>();
        for (uint32_t r = 0; r < 2; ++r)
            for (uint32_t j = 0; j < 128; ++j) {
                const float want =
                    j < 100 ? relu(rnd(float((r * 160 + j) % 50) - (float(j % 30) + 0.5f))) : -7.0f;
                XCHECK_EQ(float(o.GetValue(r * 128 + j)), want);
            }
    });
}

XTEST(fused_mul_add_count_and_bit_mask) {
    one([] {
        sim_test::Calc c(8192);
        auto a = c.get<float>(), b = c.get<float>()[256], d = c.get<float>()[512], e = c.get<float>()[768];
        fill(a, 128, [](uint32_t i) { return 1.0f + float(i) / 7; });
        fill(b, 128, [](uint32_t i) { return float(i % 5) - 2.0f; });
        fill(d, 128, [](uint32_t i) { return 0.5f - float(i) / 11; });
        fill(e, 128, [](uint32_t i) { return 0.5f - float(i) / 11; });
        sync<HardEvent::S_V>();
        FusedMulAdd(d, a, b, 100);
        uint64_t odd[2] = {0xAAAAAAAAAAAAAAAAull, 0};
        FusedMulAddRelu(e, a, b, odd, 2, {1, 1, 1, 8, 8, 8});
        sync<HardEvent::V_S>();
        for (uint32_t i = 0; i < 128; ++i) {
            const float x = 1.0f + float(i) / 7, y = float(i % 5) - 2.0f, z = 0.5f - float(i) / 11;
            volatile float p = x * z;  // rounded to float before the add
            XCHECK_EQ(d.GetValue(i), i < 100 ? float(p + y) : z);
            XCHECK_EQ(e.GetValue(i), i % 2 ? relu(float(p + y)) : z);
        }
    });
}

XTEST(fused_mul_add_relu_half_count) {
    one([] {
        sim_test::Calc c(4096);
        auto a = c.get<half>(), b = c.get<half>()[256], d = c.get<half>()[512];
        fill(a, 256, [](uint32_t i) { return float(i % 19) * 0.3f - 2; });
        fill(b, 256, [](uint32_t i) { return float(i % 7) - 3.1f; });
        fill(d, 256, [](uint32_t i) { return float(i % 11) * 0.7f; });
        sync<HardEvent::S_V>();
        auto e = c.get<half>()[768];
        fill(e, 128, [](uint32_t i) { return float(i % 11) * 0.7f; });
        sync<HardEvent::S_V>();
        FusedMulAddRelu(d, a, b, 256);
        MulAddRelu(e, a, b, 128, 1, {1, 1, 1, 8, 8, 8});  // the 9.x name
        sync<HardEvent::V_S>();
        for (uint32_t i = 0; i < 256; ++i) {
            const float x = float(half(float(i % 19) * 0.3f - 2)), y = float(half(float(i % 7) - 3.1f));
            const float z = float(half(float(i % 11) * 0.7f));
            XCHECK_EQ(float(d.GetValue(i)), relu(rnd(rnd(x * z) + y)));
            if (i < 128) XCHECK_EQ(float(e.GetValue(i)), relu(rnd(rnd(x * z) + y)));
        }
    });
}

XTEST(mul_add_dst_float_from_half_both_forms) {
    one([] {
        sim_test::Calc c(16384);
        auto a = c.get<half>(), b = c.get<half>()[512];
        auto d = c.get<float>()[512], e = c.get<float>()[1024];
        fill(a, 256, [](uint32_t i) { return float(i) * 0.01f + 1; });
        fill(b, 256, [](uint32_t i) { return 3.0f - float(i % 13) * 0.25f; });
        fill(d, 256, [](uint32_t i) { return float(i) / 9; });
        fill(e, 256, [](uint32_t i) { return float(i) / 9; });
        sync<HardEvent::S_V>();
        MulAddDst(d, a, b, 150);
        // 64 elements a repeat: the half sources advance 4 blocks, the float dst 8.
        MulAddDst(e, a, b, 64, 3, {1, 1, 1, 8, 4, 4});
        sync<HardEvent::V_S>();
        for (uint32_t i = 0; i < 256; ++i) {
            const float x = float(half(float(i) * 0.01f + 1)), y = float(half(3.0f - float(i % 13) * 0.25f));
            volatile float p = x * y;
            XCHECK_EQ(d.GetValue(i), i < 150 ? float(p + float(i) / 9) : float(i) / 9);
            XCHECK_EQ(e.GetValue(i), i < 192 ? float(p + float(i) / 9) : float(i) / 9);
        }
    });
    one([] {  // (half, half)
        sim_test::Calc c(4096);
        auto a = c.get<half>(), b = c.get<half>()[256], d = c.get<half>()[512];
        fill(a, 128, [](uint32_t i) { return float(i) * 0.1f; });
        fill(b, 128, [](uint32_t i) { return 1.7f; });
        fill(d, 128, [](uint32_t i) { return 100.0f + float(i); });
        sync<HardEvent::S_V>();
        MulAddDst(d, a, b, 128);
        sync<HardEvent::V_S>();
        for (uint32_t i = 0; i < 128; ++i)
            XCHECK_EQ(float(d.GetValue(i)), rnd(rnd(float(half(float(i) * 0.1f)) * float(half(1.7f))) + 100.0f + float(i)));
    });
}

XTEST(fused_checks_bounds_initcheck_overlap) {
    {  // past the tensor inside UB: a warning unless ASCEND_XENT_PAST_TENSOR=error
        const sim_test::PastTensor error(2);
        XCHECK_THROWS_WITH(one([] {
                               sim_test::Calc c(4096);
                               auto a = c.get<float>(), b = c.get<float>()[256], d = c.get<float>()[512];
                               d.SetSize(128);
                               Duplicate(a, 1.0f, 512);
                               PipeBarrier<PIPE_V>();
                               AddRelu(d, a, b, 64, 3, {1, 1, 1, 8, 8, 8});
                           }),
                           "AddRelu (block 0): write past the tensor: dst writes UB [0x0800, 0x0b00) (768 B), 256 B past the "
                           "end of its tensor (512 B)");
    }
    // FusedMulAdd reads dst: a dst never written is an uninitialised read.
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(4096);
                           auto a = c.get<float>(), b = c.get<float>()[256], d = c.get<float>()[512];
                           Duplicate(a, 1.0f, 512);
                           PipeBarrier<PIPE_V>();
                           FusedMulAdd(d, a, b, 64);
                       }),
                       "FusedMulAdd (block 0): uninitialised read: dst UB [0x0800, 0x0900)");
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(4096);
                           auto a = c.get<float>(), b = c.get<float>()[256];
                           Duplicate(a, 1.0f, 512);
                           PipeBarrier<PIPE_V>();
                           FusedMulAdd(a[8], a, b, 64);
                       }),
                       "FusedMulAdd (block 0): dst UB [0x0020, 0x0120) and src0 UB [0x0000, 0x0100) overlap partially");
}

XTEST(fused_missing_barrier_in_strict_mode) {
    auto k = [] {
        sim_test::Calc c(4096);
        auto a = c.get<float>(), b = c.get<float>()[256], d = c.get<float>()[512], e = c.get<float>()[768];
        Duplicate(a, 2.0f, 256);
        Duplicate(b, 3.0f, 256);
        Duplicate(d, 1.0f, 256);
        PipeBarrier<PIPE_V>();
        FusedMulAdd(d, a, b, 256);
        Muls(e, d, 2.0f, 256);  // reads FusedMulAdd's dst with no barrier
        sync<HardEvent::V_S>();
        XCHECK_EQ(e.GetValue(5), 10.0f);
    };
    vec_test::clean_with_auto_sync(k);
    const sim_test::AutoSync strict(0);
    XCHECK_THROWS_WITH(one(k), "pipe hazard (block 0): RAW on UB [0x0800, 0x0c00)", "PIPE_V Muls",
                       "written by PIPE_V FusedMulAdd", "no PipeBarrier<PIPE_V>");
}

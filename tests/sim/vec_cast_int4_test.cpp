// int4b_t: the LocalTensor view (sizes in nibbles, byte offsets half of them,
// element 2i in the low nibble), and Cast half <-> int4b_t against the formula:
// round by the mode (NONE and RINT to nearest even), saturate to [-8, 7], pack
// two to a byte; back to half exactly. The high-dimension form with the
// example's strides and a sparse one, the count form, a mask that leaves bytes
// alone; refused: masks and counts that split a byte, round modes outside the
// A2 table, a dst too small, unwritten int4b_t bytes, odd offsets and sizes.
#include <cmath>
#include <cstdint>
#include <functional>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "xtest.h"

using namespace AscendC;

namespace {
void one(const std::function<void()>& body) { ascend_sim::run_kernel("vec_cast_int4", 1, body); }

float input(uint32_t i) {
    static const float v[] = {0.5f, -0.5f, 1.5f, 2.5f, -2.5f, 3.25f, -3.75f, 6.5f, 7.5f, -7.5f, -8.5f, 9.0f,
                              -20.0f, 100.0f, 4.0f, -1.0f, 0.0f, 5.75f, -6.25f, 2.0f};
    return v[i % 20] + ((i / 20) % 2 ? 0.25f : 0.0f);
}
int ref_int4(float x, RoundMode m) {
    const double r = m == RoundMode::CAST_FLOOR   ? std::floor(x)
                     : m == RoundMode::CAST_CEIL  ? std::ceil(x)
                     : m == RoundMode::CAST_TRUNC ? std::trunc(x)
                     : m == RoundMode::CAST_ROUND ? std::round(x)
                                                  : std::nearbyint(x);
    return r < -8 ? -8 : r > 7 ? 7 : int(r);
}
uint8_t ref_byte(uint32_t pair, RoundMode m) {
    return uint8_t((ref_int4(input(2 * pair), m) & 0xF) | ((ref_int4(input(2 * pair + 1), m) & 0xF) << 4));
}
}  // namespace

XTEST(int4_local_tensor_view) {
    one([] {
        sim_test::Calc c(1024);
        auto bytes = c.get<int8_t>();
        bytes.SetSize(64);
        auto q = bytes.ReinterpretCast<int4b_t>();
        XCHECK_EQ(q.GetSize(), 128u);
        XCHECK_EQ(q[64].GetSize(), 64u);
        XCHECK_EQ(reinterpret_cast<uintptr_t>(q[64].GetPhyAddr()) - reinterpret_cast<uintptr_t>(q.GetPhyAddr()),
                  uintptr_t(32));
        XCHECK_EQ(reinterpret_cast<uintptr_t>(q.GetPhyAddr(10)) - reinterpret_cast<uintptr_t>(q.GetPhyAddr()),
                  uintptr_t(5));
        XCHECK_EQ(q.ReinterpretCast<uint8_t>().GetSize(), 64u);
        for (uint32_t i = 0; i < 64; ++i) bytes.SetValue(i, int8_t(0));
        q.SetValue(0, int4b_t(5));
        q.SetValue(1, int4b_t(-3));
        q.SetValue(3, int4b_t(-8));
        XCHECK_EQ(int(uint8_t(bytes.GetValue(0))), 0xD5);
        XCHECK_EQ(int(uint8_t(bytes.GetValue(1))), 0x80);
        XCHECK_EQ(int(q.GetValue(1)), -3);
        XCHECK_EQ(int(q.GetValue(2)), 0);
        XCHECK_EQ(int(q.GetValue(3)), -8);
        q.SetValue(0, int4b_t(7));  // the other nibble kept
        XCHECK_EQ(int(uint8_t(bytes.GetValue(0))), 0xD7);
        q.SetSize(20);
        XCHECK_EQ(q.GetSize(), 20u);
        XCHECK_EQ(q.ReinterpretCast<uint8_t>().GetSize(), 10u);
    });
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(1024);
                           auto q = c.get<int4b_t>();
                           q.SetSize(64);
                           (void)q.GetValue(64);
                       }),
                       "LocalTensor::GetValue (block 0): index 64 (byte 32) is outside the tensor's 32 B (64 int4b_t "
                       "elements, 2 a byte)");
    XCHECK_THROWS_WITH(one([] { (void)sim_test::Calc(1024).get<int4b_t>()[3]; }),
                       "offset 3 of an int4b_t tensor is odd; a view must start on a byte (even offset)");
    XCHECK_THROWS_WITH(one([] { sim_test::Calc(1024).get<int4b_t>().SetSize(7); }),
                       "size 7 of an int4b_t tensor is odd; it must fill whole bytes");
    // SetValue rewrites its byte: that byte must have been written
    XCHECK_THROWS_WITH(one([] { sim_test::Calc(1024).get<int4b_t>().SetValue(1, int4b_t(1)); }),
                       "LocalTensor::SetValue", "uninitialised read");
}

XTEST(int4_cast_from_half_modes) {
    for (RoundMode m : {RoundMode::CAST_NONE, RoundMode::CAST_RINT, RoundMode::CAST_FLOOR, RoundMode::CAST_CEIL,
                        RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC})
        one([m] {
            sim_test::Calc c(4096);
            auto x = c.get<half>();
            auto y = c.get<int8_t>()[2048];
            x.SetSize(512), y.SetSize(256);
            sim_test::fill(x, 512, input);
            sim_test::sync<HardEvent::S_V>();
            // the example's form: 128 lanes a repeat, dst 64 B (2 blocks) a repeat
            Cast<int4b_t, half>(y.ReinterpretCast<int4b_t>(), x, m, 128, 4, {1, 1, 2, 8});
            sim_test::sync<HardEvent::V_S>();
            for (uint32_t p = 0; p < 256; ++p) XCHECK_EQ(int(uint8_t(y.GetValue(p))), int(ref_byte(p, m)));
        });
}

XTEST(int4_cast_strides_mask_and_count_form) {
    one([] {
        sim_test::Calc c(8192);
        auto x = c.get<half>();
        auto y = c.get<uint8_t>()[4096];
        sim_test::fill(x, 1024, input);
        sim_test::fill(y, 256, [](uint32_t) { return 0xAA; });
        sim_test::sync<HardEvent::S_V>();
        // 64 lanes of each of 2 repeats; dst repeats 4 blocks apart, src repeats 16 blocks (256 halves) apart
        Cast<int4b_t, half>(y.ReinterpretCast<int4b_t>(), x, RoundMode::CAST_FLOOR, 64, 2, {1, 1, 4, 16});
        sim_test::sync<HardEvent::V_S>();
        for (uint32_t r = 0; r < 2; ++r)
            for (uint32_t b = 0; b < 64; ++b) {
                const uint32_t at = r * 128 + b;
                const int want = b < 32 ? ref_byte(r * 128 + b, RoundMode::CAST_FLOOR) : 0xAA;  // lanes 64.. off
                XCHECK_EQ(int(y.GetValue(at)), want);
            }
        // the count form: Counter mode over 200 lanes, 100 bytes
        sim_test::sync<HardEvent::S_V>();
        Cast(y[512 - 256].ReinterpretCast<int4b_t>(), x, RoundMode::CAST_TRUNC, 200);
        sim_test::sync<HardEvent::V_S>();
        for (uint32_t p = 0; p < 100; ++p)
            XCHECK_EQ(int(y.GetValue(256 + p)), int(ref_byte(p, RoundMode::CAST_TRUNC)));
    });
}

XTEST(int4_cast_to_half) {
    one([] {
        sim_test::Calc c(8192);
        auto q = c.get<uint8_t>();
        auto h = c.get<half>()[1024];
        sim_test::fill(q, 256, [](uint32_t i) { return uint8_t(i * 37 + 11); });
        sim_test::sync<HardEvent::S_V>();
        auto nib = [&](uint32_t k) {
            const uint8_t b = uint8_t((k / 2) * 37 + 11);
            const int v = (k % 2 ? b >> 4 : b) & 0xF;
            return v >= 8 ? v - 16 : v;
        };
        // high-dimension, src 64 B a repeat
        Cast<half, int4b_t>(h, q.ReinterpretCast<int4b_t>(), RoundMode::CAST_NONE, 128, 3, {1, 1, 8, 2});
        sim_test::sync<HardEvent::V_S>();
        for (uint32_t k = 0; k < 384; ++k) XCHECK_EQ(float(h.GetValue(k)), float(nib(k)));
        sim_test::sync<HardEvent::S_V>();
        Cast(h[512], q.ReinterpretCast<int4b_t>(), RoundMode::CAST_NONE, 512);
        sim_test::sync<HardEvent::V_S>();
        for (uint32_t k = 0; k < 512; ++k) XCHECK_EQ(float(h.GetValue(512 + k)), float(nib(k)));
    });
}

XTEST(int4_cast_refusals) {
    auto run = [](const std::function<void(LocalTensor<half>, LocalTensor<int4b_t>)>& f) {
        return [f] {
            sim_test::Calc c(8192);
            auto x = c.get<half>();
            auto y = c.get<int4b_t>()[8192];
            Duplicate(x, half(1), 1024);
            Duplicate(y.ReinterpretCast<int16_t>(), int16_t(0), 512);
            PipeBarrier<PIPE_V>();
            f(x, y);
        };
    };
    using H = LocalTensor<half>;
    using Q = LocalTensor<int4b_t>;
    XCHECK_THROWS_WITH(one(run([](H x, Q y) { Cast<int4b_t, half>(y, x, RoundMode::CAST_RINT, 63, 1, {1, 1, 2, 8}); })),
                       "Cast (block 0): mask bits 62 and 63 differ");
    XCHECK_THROWS_WITH(one(run([](H x, Q y) { Cast(y, x, RoundMode::CAST_RINT, 201); })),
                       "the Counter-mode count 201 is odd");
    XCHECK_THROWS_WITH(one(run([](H x, Q y) { Cast(y, x, RoundMode::CAST_ODD, 128); })),
                       "RoundMode 6 is not allowed for Cast from half to int4b_t");
    XCHECK_THROWS_WITH(one(run([](H x, Q y) { Cast(x, y, RoundMode::CAST_RINT, 128); })),
                       "RoundMode 1 is not allowed for Cast from int4b_t to half");
    // 256 lanes need 128 B of int4b_t; the view holds 64
    {  // past the tensor inside UB: a warning unless ASCEND_XENT_PAST_TENSOR=error
        const sim_test::PastTensor error(2);
        XCHECK_THROWS_WITH(one(run([](H x, Q y) {
                               y.SetSize(128);
                               Cast(y, x, RoundMode::CAST_RINT, 256);
                           })),
                           "Cast (block 0): write past the tensor: dst writes UB", "past the end of its tensor (64 B)");
    }
    // the packed bytes read must have been written
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(8192);
                           auto h = c.get<half>();
                           auto q = c.get<int4b_t>()[8192];
                           Cast(h, q, RoundMode::CAST_NONE, 256);
                       }),
                       "Cast (block 0): uninitialised read: src");
}

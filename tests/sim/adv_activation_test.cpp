// The activation APIs built from basic ops (Sigmoid, Silu, Swish, Gelu,
// FasterGelu, FasterGeluV2, SwiGLU), against float64 references of the
// formulas on their pages, in both auto-sync modes (strict mode shows the
// APIs' own barriers order their steps); their tmp-size helpers against the
// sizes GetXxxMaxMinTmpSize documents; undersized and overlapping
// sharedTmpBuffers reported. Tolerances: float relative 1e-5 (a few ulp over
// 4-16 steps), half 4e-3 (each step rounds to 11 bits), plus 1e-6 absolute;
// half Gelu computed in half 2e-2 (its exp argument, up to 40 at |x| = 6, is
// rounded to 11 bits before the exp).
#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "tiling/tiling_api.h"
#include "xtest.h"

using namespace AscendC;
using sim_test::fill;
using sim_test::sync;

namespace {
void one(const std::function<void()>& body) { ascend_sim::run_kernel("adv_activation", 1, body); }

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double gelu_tanh(double x) { return x * sigmoid(1.5957691216057308 * (x + 0.044715 * x * x * x)); }
double faster_gelu(double x) { return x * sigmoid(1.702 * x); }
double faster_gelu_v2(double x) {
    const double c = std::fmin(std::fabs(0.7071 * x), 1.769) - 1.769;
    return x * ((x > 0 ? 1 : -1) * (-0.1444 * c * c + 0.5) + 0.5);
}

template <class T>
double tol(double ref, double halfRel = 4e-3) {
    return (sizeof(T) == 2 ? halfRel : 1e-5) * std::fabs(ref) + 1e-6;
}

// x[i] spread over [-6, 6), never 0.
float input(uint32_t i) { return float(int(i % 97) - 48) / 8.0f + 0.0625f; }

// Runs api(dst, src, tmp) on n inputs with a tmp of tmpBytes, in both sync
// modes, and compares dst with ref.
template <class T, class Api>
void check_unary(uint32_t n, uint32_t tmpBytes, Api api, double (*ref)(double), double halfRel = 4e-3) {
    for (int autoSync : {1, 0}) {
        const sim_test::AutoSync mode(autoSync);
        one([&] {
            sim_test::Calc c(3 * 8192);
            auto src = c.get<T>(), dst = c.get<T>()[8192 / sizeof(T)];
            auto tmp = c.get<uint8_t>()[2 * 8192];
            tmp.SetSize(tmpBytes);
            fill(src, n, input);
            sync<HardEvent::S_V>();
            api(dst, src, tmp, n);
            sync<HardEvent::V_S>();
            for (uint32_t i = 0; i < n; ++i) {
                const double x = double(float(src.GetValue(i))), r = ref(x);
                XCHECK_NEAR(double(float(dst.GetValue(i))), r, tol<T>(r, halfRel));
            }
        });
    }
}
}  // namespace

XTEST(sigmoid_float_and_half_over_several_tmp_chunks) {
    // 256 B of tmp: 64 floats or 128 halves a chunk; 300 elements end in a tail.
    auto f = [](auto& d, auto& s, auto& t, uint32_t n) { Sigmoid(d, s, t, n); };
    check_unary<float>(300, 256, f, sigmoid);
    check_unary<half>(300, 256, f, sigmoid);
}

XTEST(sigmoid_fills_the_tmp_buffer_with_ones) {
    // The 1s of the division are written into sharedTmpBuffer by the vector unit.
    one([] {
        sim_test::Calc c(4096);
        auto src = c.get<float>(), dst = c.get<float>()[256];
        auto tmp = c.get<uint8_t>()[2048];
        tmp.SetSize(512);
        fill(src, 100, input);
        sync<HardEvent::S_V>();
        Sigmoid(dst, src, tmp, 100);
        sync<HardEvent::V_S>();
        const auto ones = tmp.ReinterpretCast<float>();
        for (uint32_t i = 0; i < 100; ++i) XCHECK_EQ(ones.GetValue(i), 1.0f);
    });
}

XTEST(silu_and_swish) {
    auto silu = [](auto& d, auto& s, auto&, uint32_t n) { Silu(d, s, n); };
    check_unary<float>(300, 0, silu, [](double x) { return x * sigmoid(x); });
    check_unary<half>(300, 0, silu, [](double x) { return x * sigmoid(x); });
    auto swish = [](auto& d, auto& s, auto&, uint32_t n) {
        using T = std::decay_t<decltype(d.GetValue(0))>;
        Swish(d, s, n, T(1.5f));
    };
    check_unary<float>(300, 0, swish, [](double x) { return x * sigmoid(1.5 * x); });
    check_unary<half>(300, 0, swish, [](double x) { return x * sigmoid(1.5 * x); });
}

XTEST(gelu_variants) {
    // 768 B (the minimum): Gelu's two float slices hold 96 elements, half's 192.
    auto gelu = [](auto& d, auto& s, auto& t, uint32_t n) { Gelu(d, s, t, n); };
    check_unary<float>(300, 768, gelu, gelu_tanh);
    check_unary<half>(300, 768, gelu, gelu_tanh, 2e-2);
    auto precise = [](auto& d, auto& s, auto& t, uint32_t n) {
        using T = std::decay_t<decltype(d.GetValue(0))>;
        Gelu<T, true, true>(d, s, t, n);
    };
    check_unary<half>(300, 1024, precise, gelu_tanh);
    auto faster = [](auto& d, auto& s, auto& t, uint32_t n) { FasterGelu(d, s, t, n); };
    check_unary<float>(300, 768, faster, faster_gelu);
    check_unary<half>(300, 768, faster, faster_gelu);
    auto v2 = [](auto& d, auto& s, auto& t, uint32_t n) { FasterGeluV2(d, s, t, n); };
    check_unary<float>(300, 768, v2, faster_gelu_v2);
    auto v2precise = [](auto& d, auto& s, auto& t, uint32_t n) {
        using T = std::decay_t<decltype(d.GetValue(0))>;
        FasterGeluV2<T, true, false>(d, s, t, n);
    };
    check_unary<half>(300, 768, v2precise, faster_gelu_v2);
}

XTEST(swiglu_float_and_half) {
    auto run = [](auto zero, uint32_t n, uint32_t tmpBytes) {
        using T = decltype(zero);
        for (int autoSync : {1, 0}) {
            const sim_test::AutoSync mode(autoSync);
            one([&] {
                sim_test::Calc c(4 * 8192);
                auto a = c.get<T>(), b = c.get<T>()[8192 / sizeof(T)], dst = c.get<T>()[2 * 8192 / sizeof(T)];
                auto tmp = c.get<uint8_t>()[3 * 8192];
                tmp.SetSize(tmpBytes);
                a.SetSize(n), b.SetSize(n);
                fill(a, n, [](uint32_t i) { return input(i + 5) / 2; });
                fill(b, n, input);
                sync<HardEvent::S_V>();
                SwiGLU(dst, a, b, 0.75f, tmp, n);
                sync<HardEvent::V_S>();
                for (uint32_t i = 0; i < n; ++i) {
                    const double x0 = float(a.GetValue(i)), x1 = float(b.GetValue(i));
                    const double r = x0 * x1 * sigmoid(0.75 * x1);
                    XCHECK_NEAR(double(float(dst.GetValue(i))), r, tol<T>(r));
                }
            });
        }
    };
    run(float(0), 300, 0);
    run(half(0), 300, 1536);  // the minimum: three float slices of 128
    run(half(0), 100, 4096);  // one chunk with a tail slice
}

XTEST(undersized_tmp_buffer_is_reported) {
    auto sigmoid128 = [] {
        sim_test::Calc c(4096);
        auto src = c.get<float>(), dst = c.get<float>()[256];
        auto tmp = c.get<uint8_t>()[2048];
        tmp.SetSize(128);
        Duplicate(src, 0.5f, 64);
        PipeBarrier<PIPE_V>();
        Sigmoid(dst, src, tmp, 64);
    };
    XCHECK_THROWS_WITH(one(sigmoid128), "Sigmoid (block 0): sharedTmpBuffer holds 128 B, less than the 256 B minimum "
                                        "GetSigmoidMaxMinTmpSize gives");
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(4096);
                           auto src = c.get<half>(), dst = c.get<half>()[512];
                           auto tmp = c.get<uint8_t>()[2048];
                           tmp.SetSize(512);
                           Gelu(dst, src, tmp, 64);
                       }),
                       "Gelu (block 0): sharedTmpBuffer holds 512 B, less than the 768 B minimum GetGeluMaxMinTmpSize");
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(8192);
                           auto a = c.get<half>(), b = c.get<half>()[512], dst = c.get<half>()[1024];
                           auto tmp = c.get<uint8_t>()[4096];
                           tmp.SetSize(1024);
                           a.SetSize(64), b.SetSize(64);
                           SwiGLU(dst, a, b, 1.0f, tmp, 64);
                       }),
                       "SwiGLU (block 0): sharedTmpBuffer holds 1024 B, less than the 1536 B minimum");
}

XTEST(tmp_overlapping_an_operand_is_reported) {
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(4096);
                           auto src = c.get<float>(), dst = c.get<float>()[256];
                           auto tmp = c.get<uint8_t>()[1024 + 256];  // inside dst
                           tmp.SetSize(1024);
                           Gelu(dst, src, tmp, 256);
                       }),
                       "Gelu (block 0): sharedTmpBuffer [1280, +1024 B) and dstLocal [1024, +1024 B) overlap");
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(4096);
                           auto src = c.get<float>();
                           Silu(src[8], src, 64);
                       }),
                       "Silu (block 0): srcLocal", "overlap; the API does not allow it");
}

XTEST(count_beyond_the_tensor_is_reported) {
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(4096);
                           auto src = c.get<float>(), dst = c.get<float>()[512];
                           src.SetSize(64);
                           Swish(dst, src, 65, 1.0f);
                       }),
                       "Swish (block 0): calCount 65 is larger than srcLocal's size 64");
}

XTEST(tmp_size_helpers) {
    uint32_t mx = 0, mn = 0;
    GetSigmoidMaxMinTmpSize(TensorShape({4, 100}), 4, false, mx, mn);
    XCHECK_EQ(mn, 256u), XCHECK_EQ(mx, 1600u);
    GetSigmoidMaxMinTmpSize(TensorShape({16}), 2, false, mx, mn);
    XCHECK_EQ(mx, 256u);
    GetGeluMaxMinTmpSize(TensorShape({1000}), 2, mx, mn);
    XCHECK_EQ(mn, 768u), XCHECK_EQ(mx, 12000u);
    XCHECK_EQ(GetGeluMinTmpSize(TensorShape({8}), 4), 768u);
    GetSwiGLUMaxMinTmpSize(TensorShape({1000}), 2, mx, mn, false);
    XCHECK_EQ(mn, 1536u), XCHECK_EQ(mx, 12000u);
    GetSwiGLUMaxMinTmpSize(TensorShape({1000}), 4, mx, mn, false);
    XCHECK_EQ(mn, 0u), XCHECK_EQ(mx, 0u);
    GetSiluTmpSize(TensorShape({1000}), 4, false, mx, mn);
    XCHECK_EQ(mx + mn, 0u);
    XCHECK_THROWS_WITH(GetGeluMaxTmpSize(TensorShape({8}), 1), "GetGeluMaxTmpSize: typeSize 1 is neither 2");
}

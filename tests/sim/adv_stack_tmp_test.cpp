// The advanced APIs' forms without sharedTmpBuffer whose own test files cover
// only the sharedTmpBuffer forms: Sigmoid, Gelu, FasterGelu, FasterGeluV2,
// SwiGLU, Sum, SimpleSoftMax and DropOut take their tmp from the UB the TPipe
// left free (PopStackBuffer) and compute what their formulas give, in float64
// here: sigmoid 1 / (1 + e^-x); gelu x / (1 + e^(-1.5957691 (x + 0.044715 x^3)))
// (Gelu.md); FasterGelu x / (1 + e^(-1.702 |x|)) e^(0.851 (x - |x|)) (FasterGelu.md);
// FasterGeluV2 x (sgn(x) (-0.1444 (min(|0.7071 x|, 1.769) - 1.769)^2 + 0.5) + 0.5)
// (FasterGeluV2.md); swiglu a * b / (1 + e^-b); the row sum; exp(x - max) / sum;
// src * mask / keepProb.
// Tolerances: 1e-5 relative plus 1e-6 for the float chains of a few ops
// (FasterGeluV2 2e-5 absolute: its constants rounded to float); the sums exact
// (small integers).
#include <cmath>
#include <cstdint>
#include <functional>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "xtest.h"

using namespace AscendC;

namespace {
void one(const std::function<void()>& body) { ascend_sim::run_kernel("adv_stack_tmp", 1, body); }

float x_at(uint32_t i) { return float(int(i * 29 % 97) - 48) / 16.0f; }
double tol(double ref) { return 1e-5 * std::fabs(ref) + 1e-6; }

// Runs api(dst, src) on n floats of x_at and checks each against ref(x).
template <class Api, class Ref>
void check_unary(uint32_t n, Api api, Ref ref, double absTol = 0) {
    one([&] {
        sim_test::Calc c(2 * n * 4);
        auto src = c.get<float>(), dst = c.get<float>()[n];
        src.SetSize(n), dst.SetSize(n);
        sim_test::fill(src, n, x_at);
        sim_test::sync<HardEvent::S_V>();
        api(dst, src);
        sim_test::sync<HardEvent::V_S>();
        for (uint32_t i = 0; i < n; ++i) {
            const double r = ref(double(x_at(i)));
            XCHECK_NEAR(double(dst.GetValue(i)), r, absTol ? absTol : tol(r));
        }
    });
}
}  // namespace

XTEST(activations_without_tmp) {
    using L = LocalTensor<float>;
    check_unary(
        1000, [](L& d, L& s) { Sigmoid(d, s, 1000u); }, [](double x) { return 1 / (1 + std::exp(-x)); });
    check_unary(
        512, [](L& d, L& s) { Sigmoid(d, s); }, [](double x) { return 1 / (1 + std::exp(-x)); });
    check_unary(
        800, [](L& d, L& s) { Gelu(d, s, 800u); },
        [](double x) { return x / (1 + std::exp(-1.5957691216057308 * (x + 0.044715 * x * x * x))); });
    check_unary(
        800, [](L& d, L& s) { FasterGelu(d, s, 800u); },
        [](double x) { return x / (1 + std::exp(-1.702 * std::fabs(x))) * std::exp(0.851 * (x - std::fabs(x))); });
    check_unary(
        800, [](L& d, L& s) { FasterGeluV2(d, s, 800u); },
        [](double x) {
            const double t = std::fmin(std::fabs(0.7071 * x), 1.769) - 1.769;
            const double sgn = (x + 1e-12) / std::fabs(x + 1e-12);
            return x * (sgn * (-0.1444 * t * t + 0.5) + 0.5);
        },
        2e-5);
}

XTEST(swiglu_without_tmp) {
    constexpr uint32_t n = 600;
    one([&] {
        sim_test::Calc c(3 * n * 4);
        auto a = c.get<float>(), b = c.get<float>()[n], dst = c.get<float>()[2 * n];
        a.SetSize(n), b.SetSize(n), dst.SetSize(n);
        sim_test::fill(a, n, x_at);
        sim_test::fill(b, n, [](uint32_t i) { return x_at(i + 7); });
        sim_test::sync<HardEvent::S_V>();
        SwiGLU(dst, a, b, 1.0f, n);
        sim_test::sync<HardEvent::V_S>();
        for (uint32_t i = 0; i < n; ++i) {
            const double x = x_at(i), y = x_at(i + 7), r = x * y / (1 + std::exp(-y));
            XCHECK_NEAR(double(dst.GetValue(i)), r, tol(r));
        }
    });
}

XTEST(sum_without_tmp) {
    one([] {
        sim_test::Calc c(8192);
        auto src = c.get<float>(), dst = c.get<float>()[1024];
        src.SetSize(3 * 200), dst.SetSize(8);
        sim_test::fill(src, 600, [](uint32_t i) { return float(i % 200 < 190 ? (i * 7) % 11 : 1000); });
        sim_test::sync<HardEvent::S_V>();
        Sum(dst, src, SumParams{3, 200, 190});
        sim_test::sync<HardEvent::V_S>();
        for (uint32_t r = 0; r < 3; ++r) {
            double s = 0;
            for (uint32_t j = 0; j < 190; ++j) s += double(((r * 200 + j) * 7) % 11);
            XCHECK_EQ(double(dst.GetValue(r)), s);
        }
    });
}

XTEST(simple_softmax_without_tmp) {
    constexpr uint32_t m = 6, k = 64;
    one([] {
        sim_test::Calc c(4 * m * k * 2 + 2 * m * 16 * 4);
        auto bytes = c.get<uint8_t>();
        auto src = bytes.ReinterpretCast<half>(), dst = bytes[m * k * 2].ReinterpretCast<half>();
        auto sum = bytes[2 * m * k * 2].ReinterpretCast<float>(), max = bytes[2 * m * k * 2 + m * 32].ReinterpretCast<float>();
        src.SetSize(m * k), dst.SetSize(m * k), sum.SetSize(m * 8), max.SetSize(m * 8);
        for (uint32_t i = 0; i < m * k; ++i) src.SetValue(i, half(x_at(i)));
        for (uint32_t r = 0; r < m; ++r)
            for (uint32_t j = 0; j < 8; ++j) max.SetValue(r * 8 + j, 3.0f), sum.SetValue(r * 8 + j, 50.0f);
        SoftMaxTiling tiling;
        sim_test::sync<HardEvent::S_V>();
        SimpleSoftMax<half>(dst, sum, max, src, tiling, {m, k, m, k});
        sim_test::sync<HardEvent::V_S>();
        for (uint32_t i = 0; i < m * k; ++i) {
            const double r = std::exp(double(float(half(x_at(i)))) - 3.0) / 50.0;
            XCHECK_NEAR(double(float(dst.GetValue(i))), r, 1e-3 * r + 6e-8);
        }
    });
}

XTEST(dropout_without_tmp) {
    constexpr uint32_t rows = 2, n = 64;
    one([] {
        sim_test::Calc c(4096);
        auto src = c.get<float>(), dst = c.get<float>()[rows * n];
        auto mask = c.get<uint8_t>()[2 * rows * n * 4];
        src.SetSize(rows * n), dst.SetSize(rows * n), mask.SetSize(rows * n);
        sim_test::fill(src, rows * n, x_at);
        for (uint32_t i = 0; i < rows * n; ++i) mask.SetValue(i, uint8_t(i % 3 != 0));
        sim_test::sync<HardEvent::S_V>();
        DropOut(dst, src, mask, 0.5f, DropOutShapeInfo{rows, n, n});
        sim_test::sync<HardEvent::V_S>();
        for (uint32_t i = 0; i < rows * n; ++i)
            XCHECK_NEAR(double(dst.GetValue(i)), i % 3 != 0 ? double(x_at(i)) / 0.5 : 0.0, 1e-6);
    });
}

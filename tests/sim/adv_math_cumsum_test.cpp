// CumSum along the first axis against running column sums computed here,
// float and half (through the tmp), with and without the last row, with
// and without sharedTmpBuffer; GetCumSumMaxMinTmpSize against
// cumsum_tiling_impl.cpp; an unaligned row and a small tmp reported.
#include <cstdint>
#include <functional>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "tiling/tiling_api.h"
#include "xtest.h"

using namespace AscendC;
using sim_test::sync;

namespace {
constexpr CumSumConfig kFirstAxisLastRow = {false, false, true};
constexpr CumSumConfig kFirstAxis = {false, false, false};

void one(const std::function<void()>& body) { ascend_sim::run_kernel("adv_math_cumsum", 1, body); }

float value(uint32_t i) { return float(int(i * 13 % 17) - 8) / 4.0f; }  // exact in half and float

template <class T, const CumSumConfig& config>
void check(uint32_t rows, uint32_t inner, bool withTmp) {
    one([&] {
        sim_test::Calc c(64 * 1024);
        auto src = c.get<T>(), dst = c.get<T>()[8192 / sizeof(T)], last = c.get<T>()[16384 / sizeof(T)];
        auto tmp = c.get<uint8_t>()[32768];
        const uint32_t n = rows * inner;
        src.SetSize(n), dst.SetSize(n), last.SetSize(inner), tmp.SetSize(n * 4);
        for (uint32_t i = 0; i < n; ++i) src.SetValue(i, T(value(i)));
        sync<HardEvent::S_V>();
        if (withTmp) CumSum<T, config>(dst, last, src, tmp, {rows, inner});
        else CumSum<T, config>(dst, last, src, CumSumInfo{rows, inner});
        sync<HardEvent::V_S>();
        for (uint32_t k = 0; k < inner; ++k) {
            float sum = 0;
            for (uint32_t r = 0; r < rows; ++r) {
                sum += value(r * inner + k);
                XCHECK_EQ(float(dst.GetValue(r * inner + k)), sum);
            }
            if (config.outputLastRow) XCHECK_EQ(float(last.GetValue(k)), sum);
        }
    });
}
}  // namespace

XTEST(cumsum_first_axis) {
    check<float, kFirstAxisLastRow>(9, 24, false);
    check<float, kFirstAxis>(1, 8, true);
    check<half, kFirstAxisLastRow>(7, 32, true);
    check<half, kFirstAxisLastRow>(5, 48, false);
}

XTEST(cumsum_tmp_sizes_and_checks) {
    uint32_t mx = 0, mn = 0;
    GetCumSumMaxMinTmpSize(TensorShape({32, 160}), 4, false, false, mx, mn);
    XCHECK_EQ(mx + mn, 0u);
    GetCumSumMaxMinTmpSize(TensorShape({32, 160}), 2, false, false, mx, mn);
    XCHECK_EQ(mn, 32u * 160 * 4), XCHECK_EQ(mx, mn);
    GetCumSumMaxMinTmpSize(TensorShape({32, 160}), 4, true, false, mx, mn);
    XCHECK_EQ(mn, 16u * 160 * 4 * 2), XCHECK_EQ(mx, 32u * 160 * 4 * 2);
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(8192);
                           auto t = c.get<float>();
                           auto tmp = c.get<uint8_t>()[4096];
                           CumSum<float, kFirstAxis>(t, t, t, tmp, {2, 12});
                       }),
                       "CumSum (block 0): cumSumInfo.inner 12 x 4 B is not a multiple of 32 B");
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(8192);
                           auto s = c.get<half>(), d = c.get<half>()[1024];
                           auto tmp = c.get<uint8_t>()[4096];
                           tmp.SetSize(1000);
                           CumSum<half, kFirstAxis>(d, d, s, tmp, {16, 16});
                       }),
                       "CumSum (block 0): sharedTmpBuffer holds 1000 B, less than the 1024 B");
}

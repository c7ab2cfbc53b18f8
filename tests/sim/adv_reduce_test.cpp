// Sum (each row's first n elements) against a float64 sum, in both auto-sync
// modes: one repeat a row, two and three levels of partial sums, half and
// float; GetSumMaxMinTmpSize against sum_tiling.cpp's sizes; an undersized
// tmp buffer and bad SumParams reported.
// Tolerances: each level adds up to 64 (float) or 128 (half) partials in the
// vector unit's order: float relative 1e-5, half 5e-3 (both the rounding of
// the sums and of the result), with the magnitude of the row's absolute sum.
#include <cmath>
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
void one(const std::function<void()>& body) { ascend_sim::run_kernel("adv_reduce", 1, body); }

float input(uint32_t i) { return float(int(i % 23) - 11) / 16.0f; }

template <class T>
void check_sum(uint32_t outter, uint32_t n, uint32_t tmpBytes) {
    const uint32_t inner = (n * sizeof(T) + 31) / 32 * 32 / sizeof(T);
    for (int autoSync : {1, 0}) {
        const sim_test::AutoSync mode(autoSync);
        one([&] {
            sim_test::Calc c(outter * inner * sizeof(T) + 1024 + tmpBytes);
            auto src = c.get<T>(), dst = c.get<T>()[outter * inner];
            auto tmp = c.get<uint8_t>()[outter * inner * sizeof(T) + 1024];
            src.SetSize(outter * inner), dst.SetSize(1024 / sizeof(T)), tmp.SetSize(tmpBytes);
            for (uint32_t i = 0; i < outter * inner; ++i) src.SetValue(i, T(input(i)));
            sync<HardEvent::S_V>();
            Sum(dst, src, tmp, SumParams{outter, inner, n});
            sync<HardEvent::V_S>();
            for (uint32_t r = 0; r < outter; ++r) {
                double ref = 0, mag = 0;
                for (uint32_t j = 0; j < n; ++j) ref += input(r * inner + j), mag += std::fabs(input(r * inner + j));
                XCHECK_NEAR(double(float(dst.GetValue(r))), ref, (sizeof(T) == 2 ? 5e-3 : 1e-5) * mag + 1e-9);
            }
        });
    }
}
}  // namespace

XTEST(sum_over_one_and_several_levels) {
    check_sum<float>(3, 40, 0);          // one repeat a row, no tmp
    check_sum<half>(2, 3, 0);            // Sum.md's 2 x 3 half example
    check_sum<float>(4, 1000, 64);       // 16 partials, then the result
    check_sum<half>(2, 5000, 96);        // 40 partials
    check_sum<float>(1, 8192, 512);      // 128 partials, 2, then the result
}

XTEST(sum_tmp_size_and_bad_arguments) {
    uint32_t mx = 0, mn = 0;
    GetSumMaxMinTmpSize(1000, 4, false, mx, mn);
    XCHECK_EQ(mn, 64u), XCHECK_EQ(mx, 64u);  // 16 partials: two blocks
    GetSumMaxMinTmpSize(3, 2, false, mx, mn);
    XCHECK_EQ(mn, 32u);
    GetSumMaxMinTmpSize(8192, 4, false, mx, mn);
    XCHECK_EQ(mn, 512u);
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(8192);
                           auto src = c.get<float>(), dst = c.get<float>()[1024];
                           auto tmp = c.get<uint8_t>()[4608];
                           src.SetSize(1000), tmp.SetSize(32);
                           Sum(dst, src, tmp, SumParams{1, 1000, 1000});
                       }),
                       "Sum (block 0): sharedTmpBuffer holds 32 B, less than the 64 B minimum "
                       "GetSumMaxMinTmpSize gives");
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(4096);
                           auto src = c.get<float>(), dst = c.get<float>()[512];
                           Sum(dst, src, c.get<uint8_t>()[3072], SumParams{1, 12, 10});
                       }),
                       "Sum (block 0): inner 12 must be whole 32 B blocks");
}

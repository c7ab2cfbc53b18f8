// Arange against first + diff * i in float64, for each dtype A2 supports and
// for counts that take each of its paths (scalar only; block copies; repeat
// copies with and without a tail), in both auto-sync modes (strict mode shows
// its own barriers and flags order its steps). Integers are exact. float: the
// element i * k + j is built by adding diff * k steps one at a time, each
// rounding once, so the error grows with i: 2e-6 relative per step taken. half:
// each step rounds to 11 bits, 2e-3 relative per step.
#include <cmath>
#include <cstdint>
#include <functional>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "tiling/tiling_api.h"
#include "xtest.h"

using namespace AscendC;

namespace {
void one(const std::function<void()>& body) { ascend_sim::run_kernel("adv_index", 1, body); }

template <class T>
void check_arange(int32_t count, double first, double diff) {
    constexpr int32_t perBlock = 32 / sizeof(T), perRepeat = 256 / sizeof(T);
    for (int autoSync : {1, 0}) {
        const sim_test::AutoSync mode(autoSync);
        one([&] {
            sim_test::Calc c(16384);
            auto dst = c.get<T>();
            Arange<T>(dst, T(first), T(diff), count);
            sim_test::sync<HardEvent::V_S>();
            for (int32_t i = 0; i < count; ++i) {
                const double ref = double(float(T(first))) + double(float(T(diff))) * i;
                // Steps taken to reach i: the block copies, then the repeat copies.
                const int32_t steps = i < perRepeat ? i / perBlock : 7 + i / perRepeat;
                const double rel = std::is_integral_v<T> ? 0 : (sizeof(T) == 2 ? 2e-3 : 2e-6) * (steps + 1);
                XCHECK_NEAR(double(float(dst.GetValue(uint32_t(i)))), ref, rel * std::fabs(ref) + 1e-6);
            }
        });
    }
}
}  // namespace

XTEST(arange_each_dtype_and_path) {
    for (int32_t n : {5, 8, 20, 64, 300}) {
        check_arange<float>(n, -3.5, 0.25);
        check_arange<int32_t>(n, -7, 3);
    }
    for (int32_t n : {16, 100, 128, 1000}) {
        check_arange<half>(n, 1.0, 0.5);
        check_arange<int16_t>(n, 10, 2);
    }
    check_arange<float>(4000, 0, 1);  // 62 repeat copies and a tail of 32
}

XTEST(arange_tail_keeps_its_block_mask) {
    // The tail copy's mask is rounded up to a whole block, as A2's is: 70
    // elements write 72.
    one([] {
        sim_test::Calc c(4096);
        auto dst = c.get<float>();
        dst.SetSize(72);
        Arange<float>(dst, 0.0f, 1.0f, 70);
        sim_test::sync<HardEvent::V_S>();
        XCHECK_EQ(dst.GetValue(71), 71.0f);
    });
}

XTEST(arange_rejects_what_its_check_does) {
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(1024);
                           Arange<float>(c.get<float>(), 0.0f, 1.0f, 0);
                       }),
                       "Arange (block 0): count 0 must be greater than 0");
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(1024);
                           Arange<float>(c.get<float>(), 0.0f, -1.0f, 16);
                       }),
                       "diffValue -1.000000 must be greater than or equal to 0");
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(1024);
                           auto dst = c.get<half>();
                           dst.SetSize(64);
                           Arange<half>(dst, half(0), half(1), 65);
                       }),
                       "calCount 65 is larger than dstLocal's size 64");
}

XTEST(arange_needs_no_tmp) {
    uint32_t maxV = 1, minV = 1;
    GetArangeMaxMinTmpSize(maxV, minV);
    XCHECK_EQ(maxV, 0u);
    XCHECK_EQ(minV, 0u);
}

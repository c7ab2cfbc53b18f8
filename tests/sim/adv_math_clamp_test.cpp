// ClampMin/ClampMax against std::max/std::min, half and float, with and
// without sharedTmpBuffer, their tmp-size helper against clamp_tiling_impl.cpp
// and the overlap check; Frac's forms without calCount or sharedTmpBuffer
// against x - trunc(x).
#include <algorithm>
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
void one(const std::function<void()>& body) { ascend_sim::run_kernel("adv_math_clamp", 1, body); }

float input(uint32_t i) { return float(int(i % 97) - 48) / 8.0f; }

template <class T>
void check_clamp(bool min, bool withTmp, uint32_t n, float bound) {
    one([&] {
        sim_test::Calc c(3 * 4096);
        auto src = c.get<T>(), dst = c.get<T>()[4096 / sizeof(T)];
        auto tmp = c.get<uint8_t>()[2 * 4096];
        for (uint32_t i = 0; i < n; ++i) src.SetValue(i, T(input(i)));
        sync<HardEvent::S_V>();
        if (min && withTmp) ClampMin(dst, src, tmp, T(bound), n);
        if (min && !withTmp) ClampMin(dst, src, T(bound), n);
        if (!min && withTmp) ClampMax(dst, src, tmp, T(bound), n);
        if (!min && !withTmp) ClampMax(dst, src, T(bound), n);
        sync<HardEvent::V_S>();
        for (uint32_t i = 0; i < n; ++i)
            XCHECK_EQ(float(dst.GetValue(i)), min ? std::max(input(i), bound) : std::min(input(i), bound));
    });
}
}  // namespace

XTEST(clamp_min_and_max) {
    check_clamp<float>(true, true, 300, 1.5f);
    check_clamp<float>(false, false, 300, -2.0f);
    check_clamp<half>(true, false, 200, -0.25f);
    check_clamp<half>(false, true, 200, 3.0f);
}

XTEST(clamp_tmp_sizes_and_overlap) {
    uint32_t mx = 0, mn = 0;
    GetClampMaxMinTmpSize(TensorShape({256}), 4, false, mx, mn);
    XCHECK_EQ(mn, 64u), XCHECK_EQ(mx, 256u);
    GetClampMaxMinTmpSize(TensorShape({16}), 2, false, mx, mn);
    XCHECK_EQ(mn, 128u), XCHECK_EQ(mx, 128u);
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(4096);
                           auto src = c.get<float>();
                           ClampMin(src[64], src, c.get<uint8_t>()[128], 0.0f, 64);
                       }),
                       "ClampMin (block 0): sharedTmpBuffer", "overlap; the API does not allow it");
}

XTEST(frac_without_count_or_tmp) {
    for (int form = 0; form < 3; ++form)
        one([&] {
            sim_test::Calc c(2 * 4096);
            auto src = c.get<half>(), dst = c.get<half>()[2048];
            src.SetSize(300), dst.SetSize(300);
            for (uint32_t i = 0; i < 300; ++i) src.SetValue(i, half(input(i)));
            sync<HardEvent::S_V>();
            if (form == 0) Frac(dst, src);  // the stack buffer: the UB after the TPipe's 8 KiB
            if (form == 1) Frac(dst, src, 300u);
            if (form == 2) {
                LocalTensor<uint8_t> stack;
                PopStackBuffer<uint8_t, TPosition::LCM>(stack);
                Frac(dst, src, stack);
            }
            sync<HardEvent::V_S>();
            for (uint32_t i = 0; i < 300; ++i)
                XCHECK_EQ(float(dst.GetValue(i)), input(i) - std::trunc(input(i)));
        });
}

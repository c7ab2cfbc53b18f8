// Ceil and Trunc against std::ceil / std::trunc, Frac against x - trunc(x)
// (exact: for these inputs, multiples of 1/8, every result is one T holds),
// half and float, over several tmp chunks with a tail, in
// both auto-sync modes; their tmp-size helpers against ceil/trunc_tiling_impl.cpp;
// an undersized tmp buffer and src overlapping dst reported.
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
void one(const std::function<void()>& body) { ascend_sim::run_kernel("adv_math", 1, body); }

// x[i] over [-6, 6) in steps of 1/8: integers, halves and negatives included.
float input(uint32_t i) { return float(int(i % 97) - 48) / 8.0f; }

template <class T, class Api>
void check_round(uint32_t n, uint32_t tmpBytes, Api api, double (*ref)(double)) {
    for (int autoSync : {1, 0}) {
        const sim_test::AutoSync mode(autoSync);
        one([&] {
            sim_test::Calc c(3 * 4096);
            auto src = c.get<T>(), dst = c.get<T>()[4096 / sizeof(T)];
            auto tmp = c.get<uint8_t>()[2 * 4096];
            tmp.SetSize(tmpBytes);
            for (uint32_t i = 0; i < n; ++i) src.SetValue(i, T(input(i)));
            sync<HardEvent::S_V>();
            api(dst, src, tmp, n);
            sync<HardEvent::V_S>();
            for (uint32_t i = 0; i < n; ++i) XCHECK_EQ(double(float(dst.GetValue(i))), ref(double(input(i))));
        });
    }
}
}  // namespace

XTEST(ceil_trunc_and_frac_over_chunks) {
    auto ceil = [](auto& d, auto& s, auto& t, uint32_t n) { Ceil(d, s, t, n); };
    auto trunc = [](auto& d, auto& s, auto& t, uint32_t n) { Trunc(d, s, t, n); };
    double (*c)(double) = std::ceil;
    double (*t)(double) = std::trunc;
    check_round<float>(300, 256, ceil, c);  // 64 a chunk, a tail of 44
    check_round<half>(300, 512, ceil, c);   // 128 a chunk (widened into 512 B), a tail of 44
    check_round<float>(300, 1024, trunc, t);
    check_round<half>(100, 512, trunc, t);
    auto frac = [](auto& d, auto& s, auto& tm, uint32_t n) { Frac(d, s, tm, n); };
    double (*f)(double) = [](double x) { return x - std::trunc(x); };
    check_round<float>(300, 0, frac, f);    // one pass, no tmp
    check_round<half>(300, 1024, frac, f);  // two float slices of 128, a tail of 44
}

XTEST(rounding_tmp_sizes_and_bad_operands) {
    uint32_t mx = 0, mn = 0;
    GetCeilMaxMinTmpSize(TensorShape({1000}), 2, false, mx, mn);
    XCHECK_EQ(mn, 512u), XCHECK_EQ(mx, 4000u);
    GetTruncMaxMinTmpSize(TensorShape({16}), 4, false, mx, mn);
    XCHECK_EQ(mn, 256u), XCHECK_EQ(mx, 256u);
    GetCeilTmpBufferFactorSize(2, mx, mn);
    XCHECK_EQ(mx, 2u), XCHECK_EQ(mn, 0u);
    GetFracMaxMinTmpSize(TensorShape({1000}), 2, false, mx, mn);
    XCHECK_EQ(mn, 1024u), XCHECK_EQ(mx, 8000u);
    GetFracMaxMinTmpSize(TensorShape({1000}), 4, false, mx, mn);
    XCHECK_EQ(mn + mx, 0u);
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(4096);
                           auto src = c.get<half>(), dst = c.get<half>()[512];
                           auto tmp = c.get<uint8_t>()[2048];
                           tmp.SetSize(256);
                           Ceil(dst, src, tmp, 64);
                       }),
                       "Ceil (block 0): sharedTmpBuffer holds 256 B, less than the 512 B minimum "
                       "GetCeilMaxMinTmpSize gives");
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(4096);
                           auto src = c.get<float>();
                           Ceil(src, src, c.get<uint8_t>()[2048], 64);
                       }),
                       "Ceil (block 0): srcTensor", "overlap; the API does not allow it");
}

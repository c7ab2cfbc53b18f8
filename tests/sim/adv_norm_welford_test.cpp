// WelfordUpdate against mean' = mean + (x - mean) nRec and
// M2' = M2 + (x - mean)(x - mean') over the first abComputeLength, in float64,
// for float (with and without isReuseSource) and half x, in one chunk and in
// several (a tmp of one repeat a buffer), with isInplace copying the rest of the
// row from the 32 B block it starts in; WelfordFinalize against the weighted
// fold Mean = rRec sum(w mean), Var = rRec sum(M2 + w (mean - Mean)^2) with
// counts, with equal weights (abRec / rnLength) and with head / tail counts,
// over one and several chunks; the tmp sizes and the parameter checks.
// Tolerances: 1e-5 relative (float chunks of products and partial sums).
#include <cmath>
#include <cstdint>
#include <functional>
#include <type_traits>
#include <vector>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "tiling/tiling_api.h"
#include "xtest.h"

using namespace AscendC;

namespace {
void one(const std::function<void()>& body) { ascend_sim::run_kernel("adv_welford", 1, body); }

float x_at(uint32_t i) { return float(int(i * 37 % 101) - 50) / 8.0f; }
float mean_at(uint32_t i) { return float(int(i * 13 % 29) - 14) / 4.0f; }
float var_at(uint32_t i) { return float(i * 7 % 31) / 2.0f; }

constexpr uint32_t region = 20480;
constexpr float sentinel = -777.0f;

bool near(double got, double want) { return std::fabs(got - want) <= 1e-5 * std::fabs(want) + 1e-5; }

template <class T, bool reuse = false, bool inplace = false>
void check_update(uint32_t ab, uint32_t abCompute, uint32_t tmpBytes) {
    static constexpr WelfordUpdateConfig cfg = {inplace};
    const float nRec = 1.0f / 3.0f;
    one([&] {
        sim_test::Calc c(8 * region);
        auto at = [&](uint32_t r) { return c.get<float>()[r * region / 4]; };
        auto x = c.get<T>()[0], inMean = at(1), inVar = at(2), outMean = at(3), outVar = at(4);
        auto tmp = c.get<uint8_t>()[5 * region];
        tmp.SetSize(tmpBytes);
        x.SetSize(ab), inMean.SetSize(ab), inVar.SetSize(ab), outMean.SetSize(ab), outVar.SetSize(ab);
        sim_test::fill(x, ab, x_at);
        sim_test::fill(inMean, ab, mean_at);
        sim_test::fill(inVar, ab, var_at);
        sim_test::fill(outMean, ab, [](uint32_t) { return sentinel; });
        sim_test::fill(outVar, ab, [](uint32_t) { return sentinel; });
        std::vector<double> xs(ab);
        for (uint32_t i = 0; i < ab; ++i) xs[i] = double(float(x.GetValue(i)));
        sim_test::sync<HardEvent::S_V>();
        WelfordUpdate<T, float, reuse, cfg>(outMean, outVar, inMean, inVar, x, tmp, {1, ab, abCompute, nRec});
        sim_test::sync<HardEvent::V_S>();
        const uint32_t kept = ab - (ab - abCompute + 7) / 8 * 8;
        for (uint32_t i = 0; i < ab; ++i) {
            const double m = mean_at(i), v = var_at(i), m1 = m + (xs[i] - m) * double(nRec);
            if (i < abCompute) {
                XCHECK(near(outMean.GetValue(i), m1));
                XCHECK(near(outVar.GetValue(i), v + (xs[i] - m) * (xs[i] - m1)));
            } else if (inplace && i >= kept) {
                XCHECK(outMean.GetValue(i) == float(m) && outVar.GetValue(i) == float(v));
            } else {
                XCHECK(outMean.GetValue(i) == sentinel && outVar.GetValue(i) == sentinel);
            }
        }
    });
}

struct Finalize {
    uint32_t ab, head, headLen, tail, tailLen, rn;
    bool counts;
    uint32_t tmpBytes;
};

void check_finalize(const Finalize& k) {
    std::vector<double> w(k.ab);
    for (uint32_t i = 0; i < k.ab; ++i)
        w[i] = k.counts ? double(1 + i % 5) : k.tailLen == 0 ? double(k.rn) : i < k.headLen ? k.head : k.tail;
    double total = 0;
    for (double x : w) total += x;
    // rRec = 1 / the element count; rn x ab of it without counts, as the check wants.
    const float rRec = k.counts || k.tailLen ? float(1.0 / total) : float(1.0 / (double(k.rn) * k.ab));
    WelfordFinalizePara p{k.rn, k.ab, k.head, k.headLen, k.tail, k.tailLen, float(1.0 / k.ab), rRec};
    one([&] {
        sim_test::Calc c(8 * region);
        auto at = [&](uint32_t r) { return c.get<float>()[r * region / 4]; };
        auto inMean = at(0), inVar = at(1), outMean = at(2), outVar = at(3);
        auto cnt = c.get<int32_t>()[4 * region / 4];
        auto tmp = c.get<uint8_t>()[5 * region];
        tmp.SetSize(k.tmpBytes), inMean.SetSize(k.ab), inVar.SetSize(k.ab), cnt.SetSize(k.ab);
        outMean.SetSize(8), outVar.SetSize(8);
        sim_test::fill(inMean, k.ab, mean_at);
        sim_test::fill(inVar, k.ab, var_at);
        sim_test::fill(cnt, k.ab, [](uint32_t i) { return int32_t(1 + i % 5); });
        sim_test::sync<HardEvent::S_V>();
        if (k.counts) WelfordFinalize<false>(outMean, outVar, inMean, inVar, cnt, tmp, p);
        else WelfordFinalize<false>(outMean, outVar, inMean, inVar, tmp, p);
        sim_test::sync<HardEvent::V_S>();
        double mean = 0, var = 0;
        // Equal weights without a tail take the mean with abRec, as there.
        for (uint32_t i = 0; i < k.ab; ++i)
            mean += mean_at(i) * (k.counts || k.tailLen ? w[i] * double(rRec) : 1.0 / k.ab);
        for (uint32_t i = 0; i < k.ab; ++i) var += (var_at(i) + w[i] * std::pow(mean_at(i) - mean, 2)) * double(rRec);
        XCHECK(near(outMean.GetValue(0), mean));
        XCHECK(near(outVar.GetValue(0), var));
        for (uint32_t i = 1; i < 8; ++i) XCHECK(outMean.GetValue(i) == 0.0f && outVar.GetValue(i) == 0.0f);
    });
}
}  // namespace

XTEST(welford_update_float) {
    check_update<float>(64, 35, 512);
    check_update<float, false, true>(64, 35, 512);
    check_update<float>(256, 200, 512);           // four chunks of 64, the last partial
    check_update<float, true>(256, 256, 256);     // reusing x, one buffer
    check_update<float, false, true>(320, 301, 2048);
}

XTEST(welford_update_half) {
    check_update<half>(64, 40, 768);
    check_update<half, false, true>(160, 130, 768);
}

XTEST(welford_update_without_tmp) {
    one([] {
        sim_test::Calc c(4 * 256);
        auto f = c.get<float>();
        auto x = f[0], m = f[64], v = f[128], om = f[192];
        x.SetSize(64), m.SetSize(64), v.SetSize(64), om.SetSize(32);
        auto ov = om[32];
        ov.SetSize(32);
        Duplicate(f, 1.0f, 256);
        WelfordUpdate<float, float>(om, ov, m, v, x, {1, 32, 32, 0.5f});
        sim_test::sync<HardEvent::V_S>();
        XCHECK(om.GetValue(0) == 1.0f && ov.GetValue(0) == 1.0f);
    });
}

XTEST(welford_finalize) {
    check_finalize({8, 1, 8, 0, 0, 1, true, 1024});    // the example's shape: counts
    check_finalize({64, 1, 64, 0, 0, 4, false, 1024}); // equal weights
    check_finalize({64, 5, 32, 3, 32, 4, false, 1024}); // head x 32 + tail x 32 = rn x ab
    // Chunks of 64 (a 1 KiB tmp) over 200 partial rows and over 4160 (a 64-slot fold).
    check_finalize({200, 1, 200, 0, 0, 1, true, 1024});
    check_finalize({200, 3, 100, 1, 100, 2, false, 1024});
    check_finalize({4160, 1, 4160, 0, 0, 2, false, 1024});
    check_finalize({200, 1, 200, 0, 0, 1, true, 2048});
}

XTEST(welford_tmp_sizes) {
    uint32_t mx = 0, mn = 0;
    GetWelfordUpdateMaxMinTmpSize(TensorShape({1, 64}), 4, 4, false, true, mx, mn);
    XCHECK(mn == 512 && mx == 512);
    GetWelfordUpdateMaxMinTmpSize(TensorShape({1, 200}), 2, 4, false, false, mx, mn);
    XCHECK(mn == 768 && mx == 4 * 768);
    GetWelfordUpdateMaxMinTmpSize(TensorShape({1, 128}), 4, 4, true, false, mx, mn);
    XCHECK(mn == 256 && mx == 512);
    GetWelfordFinalizeMaxMinTmpSize(TensorShape({64}), 4, false, mx, mn);
    XCHECK(mn == 1024 && mx == 1024);
    GetWelfordFinalizeMaxMinTmpSize(TensorShape({200}), 4, false, mx, mn);
    XCHECK(mn == 1024 && mx == (128 + 400) * 4);
    XCHECK_THROWS_WITH(GetWelfordUpdateMaxMinTmpSize(TensorShape({64}), 4, 4, false, false, mx, mn),
                       "GetWelfordUpdateMaxMinTmpSize: srcShape has 1 dims; it must be 2");
    XCHECK_THROWS_WITH(GetWelfordFinalizeMaxMinTmpSize(TensorShape({60}), 4, false, mx, mn),
                       "GetWelfordFinalizeMaxMinTmpSize: abLength 60 must be a positive multiple of 8");
}

XTEST(welford_kernel_checks) {
    auto update = [](WelfordUpdateParam p, uint32_t tmpBytes) {
        one([&] {
            sim_test::Calc c(8 * region);
            auto f = c.get<float>();
            auto tmp = c.get<uint8_t>()[6 * region];
            tmp.SetSize(tmpBytes);
            WelfordUpdate<float, float>(f[0], f[1024], f[2048], f[3072], f[4096], tmp, p);
        });
    };
    XCHECK_THROWS_WITH(update({2, 64, 64, 0.5f}, 512), "WelfordUpdate (block 0): para.rnLength is 2; it must be 1");
    XCHECK_THROWS_WITH(update({1, 60, 60, 0.5f}, 512),
                       "WelfordUpdate (block 0): para.abLength 60 must be a multiple of 32 / sizeof(T) = 8");
    XCHECK_THROWS_WITH(update({1, 64, 65, 0.5f}, 512),
                       "WelfordUpdate (block 0): para.abComputeLength 65 must be in (0, para.abLength 64]");
    XCHECK_THROWS_WITH(update({1, 64, 64, 0.5f}, 256),
                       "WelfordUpdate (block 0): sharedTmpBuffer holds 256 B, less than the 512 B minimum");
    auto finalize = [](WelfordFinalizePara p, uint32_t tmpBytes) {
        one([&] {
            sim_test::Calc c(8 * region);
            auto f = c.get<float>();
            auto tmp = c.get<uint8_t>()[6 * region];
            tmp.SetSize(tmpBytes);
            WelfordFinalize<false>(f[0], f[64], f[1024], f[2048], tmp, p);
        });
    };
    XCHECK_THROWS_WITH(finalize({1, 64, 1, 32, 0, 0, 1.0f / 64, 1.0f / 64}, 1024),
                       "WelfordFinalize (block 0): para.headCountLength 32 + para.tailCountLength 0 must equal "
                       "para.abLength 64");
    XCHECK_THROWS_WITH(finalize({1, 64, 1, 64, 0, 0, 0.5f, 1.0f / 64}, 1024),
                       "WelfordFinalize (block 0): para.abRec 0.5 must be 1 / para.abLength (64)");
    XCHECK_THROWS_WITH(finalize({1, 64, 1, 64, 0, 0, 1.0f / 64, 1.0f}, 1024),
                       "WelfordFinalize (block 0): para.rRec 1 must be 1 / (para.rnLength 1 x para.abLength 64)");
    XCHECK_THROWS_WITH(finalize({1, 64, 1, 32, 0, 32, 1.0f / 64, 1.0f / 64}, 1024),
                       "WelfordFinalize (block 0): para.tailCountLength 32 must be 0 when para.tailCount is 0");
    XCHECK_THROWS_WITH(finalize({1, 64, 1, 64, 0, 0, 1.0f / 64, 1.0f / 64}, 512),
                       "WelfordFinalize (block 0): sharedTmpBuffer holds 512 B; it must hold at least 1024 B");
}


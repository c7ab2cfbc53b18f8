// LayerNorm against y = (x - mean) / sqrt(var + epsilon) gamma + beta with the
// mean and (biased) variance of each row in float64: the older form over
// [B, S, H] (mean and variance out; float with and without isReuseSource and
// half; rounds and a tail round; a zero-padded H over originH), the rstd form
// over [A, R] rows padded to 32 B (mean and rstd out; float / float,
// half / half and half / float gamma and beta; rounds and a tail; the padding
// zeroed in place), and Normalize with given mean and variance (all four
// gamma / beta configs), and LayerNormGrad / LayerNormGradBeta against
// pdX = x1 r + pdVar 2 / H (x - mean) + pdMean / H, resForGamma = (x - mean) r,
// pdGamma, pdBeta the column sums of dy resForGamma and dy (x1 = dy gamma,
// r = (var + eps)^-0.5, pdVar, pdMean their row sums), with the tilings and
// tmp sizes their host functions give; the kernel's and the host's checks.
// Tolerances: float 2e-5 relative (partial sums, Sqrt and Div); half 4e-3;
// gradients plus 1e-4 (float) / 2e-2 (half) absolute for their cancelling sums.
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

static_assert(std::is_same_v<::LayerNormTiling, AscendC::tiling::LayerNormTiling>);

namespace {
void one(const std::function<void()>& body) { ascend_sim::run_kernel("adv_layernorm", 1, body); }

float x_at(uint32_t i) { return float(int(i * 37 % 101) - 50) / 16.0f; }
float gamma_at(uint32_t j) { return 0.5f + float(j % 7) / 8.0f; }
float beta_at(uint32_t j) { return float(int(j % 5) - 2) / 4.0f; }

constexpr uint32_t region = 16384;

double tol(size_t typeSize, double v) { return (typeSize == 2 ? 4e-3 : 2e-5) * std::fabs(v) + (typeSize == 2 ? 4e-3 : 1e-5); }

struct Stats {
    std::vector<double> mean, var;
};
// Row statistics of rows of `stride`, over their first `len`.
Stats stats(const std::vector<double>& x, uint32_t rows, uint32_t stride, uint32_t len) {
    Stats s{std::vector<double>(rows), std::vector<double>(rows)};
    for (uint32_t r = 0; r < rows; ++r) {
        for (uint32_t j = 0; j < len; ++j) s.mean[r] += x[r * stride + j];
        s.mean[r] /= len;
        for (uint32_t j = 0; j < len; ++j) s.var[r] += std::pow(x[r * stride + j] - s.mean[r], 2);
        s.var[r] /= len;
    }
    return s;
}

struct OldCase {
    uint32_t b, s, h, oh, stackBytes;
};

template <class T, bool reuse = false>
void check_old(const OldCase& k, bool stack = false) {
    tiling::LayerNormTiling t;
    GetLayerNormNDTilingInfo(TensorShape({k.b, k.s, k.h, k.oh}), k.stackBytes, sizeof(T), reuse, t);
    XCHECK(t.oneTmpSize > 0);
    const uint32_t n = k.b * k.s * k.h, rows = k.b * k.s;
    const float eps = 1e-5f;
    for (int autoSync : {1, 0}) {
        const sim_test::AutoSync mode(autoSync);
        tiling::LayerNormTiling live = t;
        one([&] {
            sim_test::Calc c(8 * region);
            auto at = [&](uint32_t r) { return c.get<T>()[r * region / sizeof(T)]; };
            auto src = at(0), dst = at(1), gamma = at(2), beta = at(3), mean = at(4), var = at(5);
            auto tmp = c.get<uint8_t>()[6 * region];
            tmp.SetSize(k.stackBytes);
            src.SetSize(n), dst.SetSize(n), gamma.SetSize(k.h), beta.SetSize(k.h), mean.SetSize(rows);
            var.SetSize(rows);
            // The padding past originH is zero, as the API wants it.
            sim_test::fill(src, n, [&](uint32_t i) { return i % k.h < k.oh ? x_at(i) : 0.0f; });
            sim_test::fill(gamma, k.h, gamma_at);
            sim_test::fill(beta, k.h, beta_at);
            std::vector<double> x(n);
            for (uint32_t i = 0; i < n; ++i) x[i] = double(float(src.GetValue(i)));
            sim_test::sync<HardEvent::S_V>();
            if (stack) LayerNorm<T, reuse>(dst, mean, var, src, gamma, beta, T(eps), live);
            else LayerNorm<T, reuse>(dst, mean, var, src, gamma, beta, tmp, T(eps), live);
            sim_test::sync<HardEvent::V_S>();
            Stats st = stats(x, rows, k.h, k.oh);
            // As there, the variance sums (x - mean)^2 over the zero padding too.
            for (uint32_t r = 0; r < rows; ++r) st.var[r] += (k.h - k.oh) * st.mean[r] * st.mean[r] / k.oh;
            for (uint32_t r = 0; r < rows; ++r) {
                XCHECK_NEAR(double(float(mean.GetValue(r))), st.mean[r], tol(sizeof(T), st.mean[r]));
                XCHECK_NEAR(double(float(var.GetValue(r))), st.var[r], tol(sizeof(T), st.var[r]));
                const double rstd = 1 / std::sqrt(st.var[r] + double(float(T(eps))));
                for (uint32_t j = 0; j < k.oh; ++j) {
                    const double y = (x[r * k.h + j] - st.mean[r]) * rstd * double(float(T(gamma_at(j)))) +
                                     double(float(T(beta_at(j))));
                    XCHECK_NEAR(double(float(dst.GetValue(r * k.h + j))), y, tol(sizeof(T), y));
                }
            }
        });
    }
}

struct RstdCase {
    uint32_t a, r, stackBytes;  // stackBytes 0: the minimum GetLayerNormMaxMinTmpSize gives
};

template <class U, class T>
void check_rstd(const RstdCase& k, bool stack = false) {
    const uint32_t rwp = (k.r + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T)), n = k.a * rwp;
    uint32_t mx = 0, mn = 0;
    GetLayerNormMaxMinTmpSize(TensorShape({k.a, k.r}), sizeof(T), false, true, false, mx, mn);
    const uint32_t bytes = k.stackBytes ? k.stackBytes : mn;
    tiling::LayerNormSeparateTiling t;
    GetLayerNormNDTilingInfo(TensorShape({k.a, k.r}), bytes, sizeof(T), false, true, t);
    XCHECK(t.oneTmpSize > 0);
    const float eps = 1e-4f;
    one([&] {
        sim_test::Calc c(8 * region);
        auto src = c.get<T>()[0], dst = c.get<T>()[region / sizeof(T)];
        auto gamma = c.get<U>()[2 * region / sizeof(U)], beta = c.get<U>()[2 * region / sizeof(U) + 1024];
        auto mean = c.get<float>()[3 * region / 4], rstd = c.get<float>()[3 * region / 4 + 1024];
        auto tmp = c.get<uint8_t>()[4 * region];
        tmp.SetSize(bytes), src.SetSize(n), dst.SetSize(n), gamma.SetSize(rwp), beta.SetSize(rwp);
        mean.SetSize(k.a), rstd.SetSize(k.a);
        // The padding holds garbage: the API zeroes it in x.
        sim_test::fill(src, n, [&](uint32_t i) { return i % rwp < k.r ? x_at(i) : 99.0f; });
        sim_test::fill(gamma, rwp, gamma_at);
        sim_test::fill(beta, rwp, beta_at);
        std::vector<double> x(n);
        for (uint32_t i = 0; i < n; ++i) x[i] = double(float(src.GetValue(i)));
        sim_test::sync<HardEvent::S_V>();
        const LayerNormPara p{k.a, k.r, rwp};
        if (stack) LayerNorm<U, T>(dst, mean, rstd, src, gamma, beta, eps, p, t);
        else LayerNorm<U, T>(dst, mean, rstd, src, gamma, beta, eps, tmp, p, t);
        sim_test::sync<HardEvent::V_S>();
        const Stats st = stats(x, k.a, rwp, k.r);
        for (uint32_t r = 0; r < k.a; ++r) {
            const double want = 1 / std::sqrt(st.var[r] + double(eps));
            XCHECK_NEAR(double(mean.GetValue(r)), st.mean[r], tol(4, st.mean[r]));
            XCHECK_NEAR(double(rstd.GetValue(r)), want, tol(4, want));
            for (uint32_t j = 0; j < rwp; ++j) {
                if (j >= k.r) {
                    XCHECK(float(src.GetValue(r * rwp + j)) == 0.0f);
                    continue;
                }
                const double y = (x[r * rwp + j] - st.mean[r]) * want * double(float(U(gamma_at(j)))) +
                                 double(float(U(beta_at(j))));
                XCHECK_NEAR(double(float(dst.GetValue(r * rwp + j))), y, tol(sizeof(T), y));
            }
        }
    });
}

template <const NormalizeConfig& cfg>
void check_normalize(uint32_t a, uint32_t r, uint32_t tmpBytes) {
    const uint32_t n = a * r;
    const float eps = 1e-5f;
    one([&] {
        sim_test::Calc c(8 * region);
        auto f = c.get<float>();
        auto src = f[0], dst = f[region / 4], gamma = f[2 * region / 4], beta = f[2 * region / 4 + 1024];
        auto mean = f[3 * region / 4], var = f[3 * region / 4 + 1024], rstd = f[3 * region / 4 + 2048];
        auto tmp = c.get<uint8_t>()[4 * region];
        tmp.SetSize(tmpBytes), src.SetSize(n), dst.SetSize(n), gamma.SetSize(r), beta.SetSize(r);
        mean.SetSize(a), var.SetSize(a), rstd.SetSize(a);
        sim_test::fill(src, n, x_at);
        sim_test::fill(gamma, r, gamma_at);
        sim_test::fill(beta, r, beta_at);
        sim_test::fill(mean, a, [](uint32_t i) { return float(i % 3) - 1.0f; });
        sim_test::fill(var, a, [](uint32_t i) { return 0.5f + float(i % 4); });
        sim_test::sync<HardEvent::S_V>();
        Normalize<float, float, false, cfg>(dst, rstd, mean, var, src, gamma, beta, tmp, eps, {a, r, r});
        sim_test::sync<HardEvent::V_S>();
        for (uint32_t i = 0; i < a; ++i) {
            const double m = float(i % 3) - 1.0f, rs = 1 / std::sqrt(0.5 + (i % 4) + double(eps));
            XCHECK_NEAR(double(rstd.GetValue(i)), rs, tol(4, rs));
            for (uint32_t j = 0; j < r; ++j) {
                const double y = (double(x_at(i * r + j)) - m) * rs * (cfg.isNoGamma ? 1.0 : double(gamma_at(j))) +
                                 (cfg.isNoBeta ? 0.0 : double(beta_at(j)));
                XCHECK_NEAR(double(dst.GetValue(i * r + j)), y, tol(4, y));
            }
        }
    });
}
}  // namespace

XTEST(layernorm_float_rounds_and_tail) {
    check_old<float>({1, 8, 64, 64, 4096});   // 5 rows a round: one round and a tail of 3
    check_old<float>({2, 3, 32, 32, 1 << 14}); // all rows in one round
    check_old<float>({1, 4, 96, 80, 3 * 96 * 4}); // a row a round; H padded past originH
}

XTEST(layernorm_float_reuse_source_and_without_tmp) {
    check_old<float, true>({1, 8, 64, 64, 2 * 64 * 4 * 3});
    check_old<float>({1, 8, 64, 64, 4096}, true);
}

XTEST(layernorm_half) {
    check_old<half>({1, 8, 64, 64, 64 + 3 * 64 * 4 * 3});
    check_old<half>({2, 2, 128, 112, 1 << 13});
}

XTEST(layernorm_rstd_float) {
    check_rstd<float, float>({32, 32, 0});       // the example's shape: a row a round
    check_rstd<float, float>({5, 30, 0});        // rows padded to 32
    check_rstd<float, float>({12, 40, 4096});    // rounds of 12 rows at most, then a tail
    check_rstd<float, float>({9, 100, 2000});    // 2 rows a round, tail 1
    check_rstd<float, float>({16, 64, 0}, true); // without sharedTmpBuffer
}

XTEST(layernorm_rstd_half) {
    check_rstd<half, half>({8, 48, 0});
    check_rstd<float, half>({8, 40, 0});
    check_rstd<float, half>({6, 64, 3000});
}

XTEST(normalize_configs) {
    check_normalize<NLCFG_NORM>(10, 32, 1024);  // 4 rows a round, tail 2
    check_normalize<NLCFG_NOBETA>(3, 64, 4096);
    check_normalize<NLCFG_NOGAMMA>(3, 64, 4096);
    check_normalize<NLCFG_NOOPT>(3, 64, 512);
}

XTEST(layernorm_tmp_sizes_and_tiling) {
    uint32_t mx = 0, mn = 0;
    GetLayerNormMaxMinTmpSize(TensorShape({32, 32}), 4, false, true, false, mx, mn);
    XCHECK(mn == 384 && mx == 8576);
    GetNormalizeMaxMinTmpSize(TensorShape({32, 32}), 4, 4, false, true, false, mx, mn);
    XCHECK(mn == 256 && mx == 8448);
    GetNormalizeMaxMinTmpSize(TensorShape({3, 20}), 2, 2, false, true, false, mx, mn);
    XCHECK(mn == 4 * 128 && mx == 2 * 128 + 2 * 8 * 32 * 4);
    tiling::LayerNormSeparateTiling t;
    GetLayerNormNDTilingInfo(TensorShape({32, 32}), 384, 4, false, true, t);
    XCHECK(t.tmpBufSize == 96 && t.varianceTmpTensorSize == 32 && t.oneTmpSize == 32 && t.loopRound == 32);
    XCHECK(t.firstTmpStartPos == 32 && t.secondTmpStartPos == 64 && t.aCurLength == 1 && t.inputTailSize == 0);
    GetLayerNormMaxMinTmpSize(TensorShape({2, 4, 64, 64}), 4, false, mx, mn);
    XCHECK(mn == 3 * 256 + 2 * 32 && mx == 3 * 2048 + 2 * 32);
    GetLayerNormMaxMinTmpSize(TensorShape({2, 4, 64, 64}), 4, true, mx, mn);
    XCHECK(mn == 2 * 256 + 2 * 32);
    tiling::LayerNormTiling o;
    GetLayerNormNDTilingInfo(TensorShape({1, 8, 64, 64}), 4096, 4, false, o);
    XCHECK(o.oneTmpSize == 320 && o.loopRound == 1 && o.inputTailSize == 192 && o.meanVarTailPos == 5);
    GetLayerNormNDTilingInfo(TensorShape({1, 8, 64, 64}), 100, 4, false, o);
    XCHECK(o.oneTmpSize == 0);  // no row fits: left zero
    XCHECK_THROWS_WITH(GetLayerNormMaxMinTmpSize(TensorShape({8, 64}), 4, false, mx, mn),
                       "GetLayerNormMaxMinTmpSize: srcShape has 2 dims; it must be [B, S, storageH, originH]");
    XCHECK_THROWS_WITH(GetLayerNormMaxMinTmpSize(TensorShape({8, 64}), 4, false, true, true, mx, mn),
                       "GetLayerNormMaxMinTmpSize: isOnlyOutput must be false");
    XCHECK_THROWS_WITH(GetNormalizeMaxMinTmpSize(TensorShape({8, 64}), 4, 4, false, false, false, mx, mn),
                       "GetNormalizeMaxMinTmpSize: isComputeRstd must be true");
    XCHECK_THROWS_WITH(GetLayerNormNDTilingInfo(TensorShape({8, 64}), 4096, 8, false, true, t),
                       "GetLayerNormNDTilingInfo: typeSize must be 2 or 4");
}

XTEST(layernorm_kernel_checks) {
    tiling::LayerNormTiling t;
    GetLayerNormNDTilingInfo(TensorShape({1, 4, 64, 64}), 4096, 4, false, t);
    auto old = [&](uint32_t gammaSize, uint32_t tmpBytes) {
        one([&] {
            sim_test::Calc c(8 * region);
            auto f = c.get<float>();
            auto gamma = f[region], beta = f[region + 1024];
            auto tmp = c.get<uint8_t>()[6 * region];
            gamma.SetSize(gammaSize), beta.SetSize(64), tmp.SetSize(tmpBytes);
            tiling::LayerNormTiling live = t;
            LayerNorm<float>(f[0], f[2048], f[2304], f[512], gamma, beta, tmp, 1e-5f, live);
        });
    };
    XCHECK_THROWS_WITH(old(60, 4096), "LayerNorm (block 0): gamma holds 240 B; it must be 32 B aligned");
    XCHECK_THROWS_WITH(old(64, 2048),
                       "LayerNorm (block 0): sharedTmpBuffer holds 512 floats, less than the tiling's tmpBufSize 1024");
    tiling::LayerNormSeparateTiling s;
    GetLayerNormNDTilingInfo(TensorShape({4, 32}), 1024, 4, false, true, s);
    auto rstd = [&](LayerNormPara p, uint32_t tmpBytes) {
        one([&] {
            sim_test::Calc c(8 * region);
            auto f = c.get<float>();
            auto tmp = c.get<uint8_t>()[6 * region];
            tmp.SetSize(tmpBytes);
            LayerNorm<float, float>(f[0], f[2048], f[2304], f[512], f[1024], f[1536], 1e-5f, tmp, p, s);
        });
    };
    XCHECK_THROWS_WITH(rstd({4, 30, 30}, 1024),
                       "LayerNorm (block 0): para.rLengthWithPadding 30 must be 32 B aligned");
    XCHECK_THROWS_WITH(rstd({4, 32, 32}, 128),
                       "LayerNorm (block 0): sharedTmpBuffer holds 32 floats; it must hold more than "
                       "para.rLengthWithPadding 32");
    XCHECK_THROWS_WITH(rstd({4, 32, 32}, 512),
                       "LayerNorm (block 0): sharedTmpBuffer holds 128 floats, less than the tiling's tmpBufSize 256");
    XCHECK_THROWS_WITH(
        one([&] {
            sim_test::Calc c(8 * region);
            auto f = c.get<float>();
            Normalize<float, float, true>(f[0], f[2048], f[2304], f[2560], f[512], f[1024], f[1536],
                                          c.get<uint8_t>()[6 * region], 1e-5f, {4, 32, 32});
        }),
        "Normalize (block 0): isReuseSource must be false");
}

namespace {
float dy_at(uint32_t i) { return float(int(i * 29 % 53) - 26) / 8.0f; }

struct GradCase {
    uint32_t b, s, h, gradBytes, betaBytes;
};

// LayerNormGrad then LayerNormGradBeta on x with its own mean and variance.
template <class T, bool reuse = false>
void check_grad(const GradCase& k) {
    tiling::LayerNormGradTiling g;
    tiling::LayerNormGradBetaTiling gb;
    GetLayerNormGradNDTilingInfo(TensorShape({k.b, k.s, k.h, k.h}), k.gradBytes, sizeof(T), reuse, g);
    GetLayerNormGradBetaNDTilingInfo(TensorShape({k.b, k.s, k.h, k.h}), k.betaBytes, sizeof(T), reuse, gb);
    const uint32_t n = k.b * k.s * k.h, rows = k.b * k.s;
    const float eps = 1e-4f;
    one([&] {
        sim_test::Calc c(11 * region);
        auto at = [&](uint32_t r) { return c.get<T>()[r * region / sizeof(T)]; };
        auto x = at(0), dy = at(1), pdX = at(2), res = at(3), gamma = at(4), mean = at(5), var = at(6);
        auto pdGamma = at(7), pdBeta = gamma[1024 / sizeof(T)];
        auto tmp = c.get<uint8_t>()[8 * region];
        tmp.SetSize(k.gradBytes > k.betaBytes ? k.gradBytes : k.betaBytes);
        x.SetSize(n), dy.SetSize(n), pdX.SetSize(n), res.SetSize(n), gamma.SetSize(k.h), mean.SetSize(rows);
        var.SetSize(rows), pdGamma.SetSize(k.h), pdBeta.SetSize(k.h);
        sim_test::fill(x, n, x_at);
        sim_test::fill(dy, n, dy_at);
        sim_test::fill(gamma, k.h, gamma_at);
        std::vector<double> xs(n), dys(n);
        for (uint32_t i = 0; i < n; ++i) xs[i] = double(float(x.GetValue(i))), dys[i] = double(float(dy.GetValue(i)));
        Stats st = stats(xs, rows, k.h, k.h);
        for (uint32_t r = 0; r < rows; ++r) mean.SetValue(r, T(float(st.mean[r]))), var.SetValue(r, T(float(st.var[r])));
        for (uint32_t r = 0; r < rows; ++r) st.mean[r] = double(float(mean.GetValue(r))), st.var[r] = double(float(var.GetValue(r)));
        sim_test::sync<HardEvent::S_V>();
        LayerNormGrad<T, reuse>(pdX, res, dy, x, var, mean, gamma, tmp, T(eps), g);
        sim_test::sync<HardEvent::V_S>();
        std::vector<double> resWant(n);
        const double h = k.h, e = double(float(T(eps)));
        for (uint32_t r = 0; r < rows; ++r) {
            const double rs = 1 / std::sqrt(st.var[r] + e);
            double pdVar = 0, pdMean = 0, sumX2 = 0;
            for (uint32_t j = 0; j < k.h; ++j) {
                const double x1 = dys[r * k.h + j] * double(float(T(gamma_at(j)))), x2 = xs[r * k.h + j] - st.mean[r];
                pdVar += -0.5 * x1 * x2 * rs * rs * rs;
                pdMean += -x1 * rs;
                sumX2 += -2 * x2;
            }
            pdMean += pdVar / h * sumX2;
            for (uint32_t j = 0; j < k.h; ++j) {
                const uint32_t i = r * k.h + j;
                const double x1 = dys[i] * double(float(T(gamma_at(j)))), x2 = xs[i] - st.mean[r];
                const double want = x1 * rs + pdVar * 2 / h * x2 + pdMean / h;
                resWant[i] = x2 * rs;
                XCHECK_NEAR(double(float(pdX.GetValue(i))), want, tol(sizeof(T), want) + (sizeof(T) == 2 ? 2e-2 : 1e-4));
                XCHECK_NEAR(double(float(res.GetValue(i))), resWant[i], tol(sizeof(T), resWant[i]));
            }
        }
        // The beta step on this resForGamma and the original dy.
        sim_test::fill(dy, n, dy_at);
        sim_test::sync<HardEvent::S_V>();
        LayerNormGradBeta<T, reuse>(pdGamma, pdBeta, res, dy, tmp, gb);
        sim_test::sync<HardEvent::V_S>();
        for (uint32_t j = 0; j < k.h; ++j) {
            double wg = 0, wb = 0;
            for (uint32_t r = 0; r < rows; ++r) {
                wg += dys[r * k.h + j] * double(float(T(float(resWant[r * k.h + j]))));
                wb += dys[r * k.h + j];
            }
            XCHECK_NEAR(double(float(pdGamma.GetValue(j))), wg, tol(sizeof(T), wg) + (sizeof(T) == 2 ? 2e-2 : 1e-4));
            XCHECK_NEAR(double(float(pdBeta.GetValue(j))), wb, tol(sizeof(T), wb));
        }
    });
}
}  // namespace

XTEST(layernorm_grad_float) {
    check_grad<float>({2, 10, 64, 6 * 8 * 64 * 4, 6 * 64 * 4});  // rounds of 8 rows, a tail of 4; beta 6 rows a round
    check_grad<float>({1, 8, 32, 1 << 14, 1 << 12});               // one round
    check_grad<float, true>({1, 12, 64, 4 * 8 * 64 * 4, 1 << 14}); // reusing dy and x
}

XTEST(layernorm_grad_half) {
    check_grad<half>({1, 20, 32, 9 * 16 * 32 * 4, (2 * 32 + 2 * 5 * 32) * 4});
}

XTEST(layernorm_grad_tmp_sizes_and_checks) {
    uint32_t mx = 0, mn = 0;
    GetLayerNormGradMaxMinTmpSize(TensorShape({2, 4, 32, 32}), 4, false, mx, mn);
    XCHECK(mx == 6 * 1024 * 4 && mn == 6 * 256 * 4);
    GetLayerNormGradMaxMinTmpSize(TensorShape({1, 2, 32, 32}), 2, false, mx, mn);
    XCHECK(mx == 9 * 1024 * 2 && mn == 9 * 64 * 2);
    GetLayerNormGradBetaMaxMinTmpSize(TensorShape({2, 4, 32, 32}), 2, false, mx, mn);
    XCHECK(mx == 4 * 256 * 4 && mn == 4 * 32 * 4);
    tiling::LayerNormGradTiling g;
    GetLayerNormGradNDTilingInfo(TensorShape({1, 20, 64, 64}), 6 * 5 * 64 * 4, 4, false, g);
    XCHECK(g.nohCalSize == 8 && g.oneCalSize == 512 && g.loopNum == 2 && g.nohTailSize == 4);  // 5 rows rounded to 8
    XCHECK_THROWS_WITH(GetLayerNormGradNDTilingInfo(TensorShape({1, 20, 64}), 4096, 4, false, g),
                       "GetLayerNormGradNDTilingInfo: srcShape has 3 dims; it must be [B, S, storageH, originH]");
    tiling::LayerNormGradBetaTiling b;
    XCHECK_THROWS_WITH(GetLayerNormGradBetaNDTilingInfo(TensorShape({1, 20, 64, 64}), 256, 4, false, b),
                       "GetLayerNormGradBetaNDTilingInfo: stackBufferSize must hold 2 x H floats");
    GetLayerNormGradNDTilingInfo(TensorShape({1, 8, 32, 32}), 1 << 13, 4, false, g);
    auto grad = [&](uint32_t tmpBytes) {
        one([&] {
            sim_test::Calc c(8 * region);
            auto f = c.get<float>();
            auto tmp = c.get<uint8_t>()[4 * region];
            tmp.SetSize(tmpBytes);
            LayerNormGrad<float>(f[0], f[256], f[512], f[768], f[1024], f[1032], f[1040], tmp, 1e-4f, g);
        });
    };
    // Rows rounded up to 8 a round can outgrow the tmp the tiling was given: refused.
    tiling::LayerNormGradTiling over;
    GetLayerNormGradNDTilingInfo(TensorShape({1, 8, 32, 32}), 6 * 5 * 32 * 4, 4, false, over);
    XCHECK(over.oneCalSize == 256);
    XCHECK_THROWS_WITH(one([&] {
        sim_test::Calc c(8 * region);
        auto f = c.get<float>();
        auto tmp = c.get<uint8_t>()[4 * region];
        tmp.SetSize(6 * 5 * 32 * 4);
        Duplicate(f, 1.0f, 2048);
        LayerNormGrad<float>(f[0], f[256], f[512], f[768], f[1024], f[1032], f[1040], tmp, 1e-4f, over);
    }), "LayerNormGrad (block 0): the tiling's slices end at 1536 floats, beyond sharedTmpBuffer's 960");
    XCHECK_THROWS_WITH(grad(4096),
                       "LayerNormGrad (block 0): sharedTmpBuffer holds 4096 B, less than the tiling's stackBufferSize "
                       "8192");
    XCHECK_THROWS_WITH(
        one([&] {
            sim_test::Calc c(8 * region);
            auto h = c.get<half>();
            tiling::LayerNormGradBetaTiling b;
            GetLayerNormGradBetaNDTilingInfo(TensorShape({1, 8, 32, 32}), 4096, 2, false, b);
            LayerNormGradBeta<half, true>(h[0], h[32], h[64], h[512], c.get<uint8_t>()[4 * region], b);
        }),
        "LayerNormGradBeta (block 0): isReuseSource must be false for half");
}

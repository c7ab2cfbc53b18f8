// DeepNorm against y = (X1 - mean) / sqrt(var + epsilon) * gamma + beta with
// X1 = alpha x + gx, mean and (biased) var over the original row length, in
// float64, for float (with and without isReuseSrc) and half, with the tiling
// GetDeepNormTilingInfo computes: rounds of several rows and a tail round
// (which rewrites the tiling's current lengths), padded rows, the basic block
// by rows; its Brcb broadcast's in-place Adds reported as an overlap; the tmp
// sizes, and the kernel's and the host's parameter checks. Tolerances: float
// 2e-5 relative (sums of partial sums, Sqrt and Div); half 4e-3 (computed in
// float, inputs and outputs rounded to 11 bits).
#include <cmath>
#include <cstdint>
#include <functional>
#include <type_traits>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "tiling/tiling_api.h"
#include "xtest.h"

using namespace AscendC;

static_assert(std::is_same_v<::DeepNormTiling, AscendC::tiling::DeepNormTiling>);

namespace {
void one(const std::function<void()>& body) { ascend_sim::run_kernel("adv_deepnorm", 1, body); }

float x_at(uint32_t i) { return float(int(i * 37 % 101) - 50) / 16.0f; }
float gx_at(uint32_t i) { return float(int(i * 13 % 29) - 14) / 8.0f; }
float gamma_at(uint32_t j) { return 0.5f + float(j % 7) / 8.0f; }
float beta_at(uint32_t j) { return float(int(j % 5) - 2) / 4.0f; }

constexpr uint32_t region = 16384;

struct Case {
    uint32_t b, s, h, oh, stackBytes;
};

template <class T, bool reuse = false, bool basic = false>
void check_deepnorm(const Case& k, bool stack = false) {
    tiling::DeepNormTiling t;
    XCHECK(GetDeepNormTilingInfo(TensorShape({k.b, k.s, k.h}), TensorShape({k.b, k.s, k.oh}), k.stackBytes,
                                 sizeof(T), reuse, basic, t));
    const uint32_t n = k.b * k.s * k.h, rows = k.b * k.s;
    const float alpha = 0.75f, eps = 1e-5f;
    for (int autoSync : {1, 0}) {
        const sim_test::AutoSync mode(autoSync);
        tiling::DeepNormTiling live = t;
        one([&] {
            sim_test::Calc c(8 * region);
            auto at = [&](uint32_t r) { return c.get<T>()[r * region / sizeof(T)]; };
            auto src = at(0), gx = at(1), dst = at(2), gamma = at(3), beta = at(4), mean = at(5), var = at(6);
            auto tmp = c.get<uint8_t>()[7 * region];
            tmp.SetSize(k.stackBytes);
            src.SetSize(n), gx.SetSize(n), dst.SetSize(n), gamma.SetSize(k.h), beta.SetSize(k.h);
            mean.SetSize(rows), var.SetSize(rows);
            sim_test::fill(src, n, x_at);
            sim_test::fill(gx, n, gx_at);
            sim_test::fill(gamma, k.h, gamma_at);
            sim_test::fill(beta, k.h, beta_at);
            // The reference is taken before a reused source is overwritten.
            std::vector<double> x1(n);
            for (uint32_t i = 0; i < n; ++i)
                x1[i] = double(float(T(alpha))) * double(float(src.GetValue(i))) + double(float(gx.GetValue(i)));
            sim_test::sync<HardEvent::S_V>();
            if (stack)
                DeepNorm<T, reuse, basic>(dst, mean, var, src, gx, beta, gamma, T(alpha), T(eps), live);
            else
                DeepNorm<T, reuse, basic>(dst, mean, var, src, gx, beta, gamma, tmp, T(alpha), T(eps), live);
            sim_test::sync<HardEvent::V_S>();
            const double rel = sizeof(T) == 2 ? 4e-3 : 2e-5;
            for (uint32_t r = 0; r < rows; ++r) {
                double m = 0, v = 0;
                for (uint32_t j = 0; j < k.oh; ++j) m += x1[r * k.h + j];
                m /= k.oh;
                for (uint32_t j = 0; j < k.oh; ++j) v += std::pow(x1[r * k.h + j] - m, 2);
                v /= k.oh;
                XCHECK_NEAR(double(float(mean.GetValue(r))), m, rel * std::fabs(m) + 1e-4);
                XCHECK_NEAR(double(float(var.GetValue(r))), v, rel * std::fabs(v) + 1e-4);
                const double rstd = 1 / std::sqrt(v + double(float(T(eps))));
                for (uint32_t j = 0; j < k.oh; ++j) {
                    const double ref =
                        (x1[r * k.h + j] - m) * rstd * float(gamma.GetValue(j)) + float(beta.GetValue(j));
                    XCHECK_NEAR(double(float(dst.GetValue(r * k.h + j))), ref, rel * std::fabs(ref) + 2e-4);
                }
            }
        });
        // A tail round leaves its lengths in the caller's tiling.
        XCHECK_EQ(live.bshCurLength, t.inputTailSize ? t.inputTailSize : t.bshCurLength);
    }
}
}  // namespace

XTEST(deepnorm_float_rounds_and_tail) {
    // 960 B: two rows of 40 a round, 5 rows are 2 rounds and a tail of 1; rows padded to 40 from 36.
    check_deepnorm<float>({1, 5, 40, 36, 960});
    check_deepnorm<float>({2, 3, 64, 64, 8192});  // all rows in one round
}

XTEST(deepnorm_float_reuse_source_and_without_tmp) {
    check_deepnorm<float, true>({2, 4, 64, 64, 2048});
    check_deepnorm<float>({2, 3, 72, 70, 4096}, true);
}

XTEST(deepnorm_half) {
    // half keeps mean / variance in fp32 slices: 2 x 8 floats before the three row slices.
    check_deepnorm<half>({1, 5, 32, 30, (16 + 3 * 64) * 4});
    check_deepnorm<half>({2, 4, 64, 64, 8192}, true);
}

XTEST(deepnorm_basic_block_by_rows) {
    // A one-row tmp: the strip-wise row sums, the per-row scalar ops.
    uint32_t maxV = 0, minV = 0;
    XCHECK(GetDeepNormMaxMinTmpSize(TensorShape({1, 8, 128}), 4, false, true, maxV, minV));
    check_deepnorm<float, false, true>({1, 8, 128, 128, minV});
}

XTEST(deepnorm_basic_block_brcb_broadcast_overlaps) {
    // 16 rows of 64 in one round take the Brcb broadcast, whose Adds copies each
    // row's block 0 (block stride 0) over the row in place: a partial overlap
    // within a repeat, which the address-overlap rules of 通用说明和约束.md do not allow.
    auto brcb = [] { check_deepnorm<float, false, true>({2, 8, 64, 64, 16384}); };
    XCHECK_THROWS_WITH(brcb(), "Adds (block 0): dst", "overlap other than element for element within a repeat");
}

XTEST(deepnorm_tmp_sizes_and_host_checks) {
    uint32_t maxV = 0, minV = 0;
    XCHECK(GetDeepNormMaxMinTmpSize(TensorShape({2, 3, 64}), 4, false, false, maxV, minV));
    XCHECK_EQ(minV, 3u * 256 + 2 * 32);
    XCHECK_EQ(maxV, 3u * 6 * 256 + 2 * 32);
    XCHECK(GetDeepNormMaxMinTmpSize(TensorShape({2, 3, 64}), 4, true, false, maxV, minV));
    XCHECK_EQ(minV, 2u * 256 + 2 * 32);
    XCHECK(GetDeepNormMaxMinTmpSize(TensorShape({2, 3, 64}), 2, true, false, maxV, minV));
    XCHECK_EQ(minV, 3u * 256 + 2 * 32);
    tiling::DeepNormTiling t;
    XCHECK(!GetDeepNormTilingInfo(TensorShape({2, 3, 64}), TensorShape({2, 3, 64}), 100, 4, false, false, t));
    XCHECK_THROWS_WITH(GetDeepNormMaxMinTmpSize(TensorShape({2, 3, 12}), 4, false, false, maxV, minV),
                       "GetDeepNormMaxMinTmpSize", "the last axis H must be 32 B aligned");
    XCHECK_THROWS_WITH(GetDeepNormMaxMinTmpSize(TensorShape({1, 3, 64}), 4, false, true, maxV, minV),
                       "GetDeepNormMaxMinTmpSize", "with isBasicBlock, H must be a multiple of 64 and B x S of 8");
    XCHECK_THROWS_WITH(
        GetDeepNormTilingInfo(TensorShape({2, 3, 64}), TensorShape({2, 3, 72}), 4096, 4, false, false, t),
        "GetDeepNormTilingInfo", "originH 72 must be in (0, H] for H 64");
    optiling::DeepNormTiling o;
    XCHECK(GetDeepNormTilingInfo(TensorShape({1, 5, 40}), TensorShape({1, 5, 36}), 960, 4, false, false, o));
    XCHECK_EQ(o.get_loopRound(), 2u);
    XCHECK_EQ(o.get_meanVarTailSize(), 1u);
    XCHECK_EQ(o.GetDataSize(), sizeof(tiling::DeepNormTiling));
}

XTEST(deepnorm_kernel_checks) {
    tiling::DeepNormTiling t;
    XCHECK(GetDeepNormTilingInfo(TensorShape({1, 4, 64}), TensorShape({1, 4, 64}), 4096, 4, false, false, t));
    auto run = [&](uint32_t gammaSize, uint32_t tmpBytes, bool halfReuse) {
        one([&] {
            sim_test::Calc c(8 * region);
            if (halfReuse) {
                auto h = c.get<half>(), gb = h[768];
                gb.SetSize(64);
                auto tmp = c.get<uint8_t>()[7 * region];
                tiling::DeepNormTiling th;
                XCHECK(GetDeepNormTilingInfo(TensorShape({1, 4, 64}), TensorShape({1, 4, 64}), 4096, 2, false, false,
                                             th));
                DeepNorm<half, true>(h[0], h[4096], h[4224], h[256], h[512], gb, gb, tmp, half(1), half(1e-5f),
                                     th);
                return;
            }
            auto f = c.get<float>();
            auto gamma = f[3 * region / 4], beta = f[region];
            auto tmp = c.get<uint8_t>()[7 * region];
            gamma.SetSize(gammaSize), beta.SetSize(64);
            tmp.SetSize(tmpBytes);
            DeepNorm<float>(f[0], f[5 * region / 4], f[6 * region / 4], f[region / 4], f[2 * region / 4], beta,
                            gamma, tmp, 1.0f, 1e-5f, t);
        });
    };
    XCHECK_THROWS_WITH(run(60, 4096, false), "DeepNorm (block 0): gammaLocal holds 240 B; it must be 32 B aligned");
    XCHECK_THROWS_WITH(run(64, 2048, false),
                       "DeepNorm (block 0): sharedTmpBuffer holds 512 floats, less than the tiling's tmpBufSize 1024");
    XCHECK_THROWS_WITH(run(64, 4096, true), "DeepNorm (block 0): isReuseSrc must be false for half");
}

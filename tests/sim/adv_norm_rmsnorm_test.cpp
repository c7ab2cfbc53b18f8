// RmsNorm against x / sqrt(mean(x^2) + epsilon) * gamma in float64 over the
// original row length, for float and half, on the shapes that take each of its
// dav_c220 paths (H = 64, H < 64, H > 64 by rows and by 64-column strips, the
// basic block, a tail chunk), with the tiling GetRmsNormTilingInfo
// computes, in both auto-sync modes; the tmp-size helper and a sharedTmpBuffer
// smaller than the tiling's reported; the basic-block Brcb broadcast's
// in-place Adds reported as an overlap. Tolerances: float 2e-5 relative (the
// row sum's partial sums, Ln and Exp each a few ulp); half 2e-3 (computed in
// float, one rounding to 11 bits at the end).
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

// Kernels name the tiling struct at file scope, as CANN's kernel_tiling.h has it.
static_assert(std::is_same_v<::RmsNormTiling, AscendC::tiling::RmsNormTiling>);

namespace {
void one(const std::function<void()>& body) { ascend_sim::run_kernel("adv_rmsnorm", 1, body); }

float input(uint32_t i) { return float(int(i * 37 % 101) - 50) / 16.0f; }
float gamma_at(uint32_t j) { return 0.5f + float(j % 7) / 8.0f; }

// stack: the form without sharedTmpBuffer (its tmp the UB the TPipe left free).
template <class T, bool basic = false>
void check_rmsnorm(uint32_t b, uint32_t s, uint32_t h, uint32_t oh, uint32_t stackBytes, bool stack = false) {
    tiling::RmsNormTiling t;
    XCHECK(GetRmsNormTilingInfo(TensorShape({b, s, h}), TensorShape({b, s, oh}), stackBytes, sizeof(T), t, basic));
    const uint32_t n = b * s * h;
    const float eps = 1e-5f;
    for (int autoSync : {1, 0}) {
        const sim_test::AutoSync mode(autoSync);
        one([&] {
            sim_test::Calc c(6 * 16384);
            auto src = c.get<T>(), dst = c.get<T>()[16384 / sizeof(T)], gamma = c.get<T>()[2 * 16384 / sizeof(T)];
            auto tmp = c.get<uint8_t>()[3 * 16384];
            tmp.SetSize(stackBytes);
            src.SetSize(n), dst.SetSize(n), gamma.SetSize(h);
            sim_test::fill(src, n, input);
            sim_test::fill(gamma, h, gamma_at);
            sim_test::sync<HardEvent::S_V>();
            if (stack)
                RmsNorm<T, basic>(dst, src, gamma, T(eps), t);
            else
                RmsNorm<T, basic>(dst, src, gamma, tmp, T(eps), t);
            sim_test::sync<HardEvent::V_S>();
            const double rel = sizeof(T) == 2 ? 2e-3 : 2e-5;
            for (uint32_t r = 0; r < b * s; ++r) {
                double sq = 0;
                for (uint32_t j = 0; j < oh; ++j) sq += std::pow(double(float(src.GetValue(r * h + j))), 2);
                const double inv = 1 / std::sqrt(sq / oh + double(float(T(eps))));
                for (uint32_t j = 0; j < oh; ++j) {
                    const double ref = double(float(src.GetValue(r * h + j))) * inv * float(gamma.GetValue(j));
                    XCHECK_NEAR(double(float(dst.GetValue(r * h + j))), ref, rel * std::fabs(ref) + 1e-5);
                }
            }
        });
    }
}
}  // namespace

XTEST(rmsnorm_float_row_lengths) {
    check_rmsnorm<float>(2, 3, 64, 64, 8192);   // one Mul for all rows' gamma
    check_rmsnorm<float>(1, 4, 24, 20, 4096);   // gamma in Normal mode, a repeat a row; padded rows
    check_rmsnorm<float>(2, 5, 160, 150, 16384);  // gamma by 64-column strips and a Normal-mode tail
    check_rmsnorm<float>(1, 2, 320, 320, 8192);   // gamma by rows
}

XTEST(rmsnorm_without_tmp) {
    check_rmsnorm<float>(2, 5, 160, 150, 16384, true);  // a tiling made for 16 KiB of the free UB
    check_rmsnorm<half>(2, 3, 64, 64, 8192, true);
}

XTEST(rmsnorm_tail_chunk_and_half) {
    // 2 KiB holds 3 rows of 128 floats with their sums: 7 rows are 2 chunks and a tail of 1.
    check_rmsnorm<float>(1, 7, 128, 128, 2048);
    check_rmsnorm<half>(2, 3, 64, 60, 8192);
    check_rmsnorm<half>(1, 5, 96, 96, 4096);
}

XTEST(rmsnorm_basic_block) {
    // 8 rows: the strip-wise sums, the row-by-row broadcast.
    check_rmsnorm<float, true>(1, 8, 128, 128, 8192);
    check_rmsnorm<half, true>(1, 8, 64, 64, 4096);
}

XTEST(rmsnorm_basic_block_brcb_broadcast_overlaps) {
    // 16 rows of 128 take the Brcb broadcast, whose first Adds copies each row's
    // block 0 (block stride 0) over that row's first 64 columns, in place: a
    // partial overlap within a repeat, which the address-overlap rules of
    // 通用说明和约束.md do not allow.
    auto brcb = [] { check_rmsnorm<float, true>(2, 8, 128, 128, 16384); };
    XCHECK_THROWS_WITH(brcb(),
                       "Adds (block 0): dst", "overlap other than element for element within a repeat");
}

XTEST(rmsnorm_tmp_sizes_and_undersized_tmp) {
    uint32_t maxV = 0, minV = 0;
    XCHECK(GetRmsNormMaxMinTmpSize(TensorShape({2, 3, 64}), 4, maxV, minV));
    XCHECK_EQ(minV, (64u + 8) * 4);
    XCHECK_EQ(maxV, (6u * 64 + 8) * 4);
    XCHECK(GetRmsNormMaxMinTmpSize(TensorShape({2, 3, 64}), 2, maxV, minV));
    XCHECK_EQ(minV, (128u + 8) * 4);
    XCHECK_EQ(maxV, (12u * 64 + 16) * 4);
    XCHECK(!GetRmsNormMaxMinTmpSize(TensorShape({1, 3, 64}), 4, maxV, minV, true));
    tiling::RmsNormTiling t;
    XCHECK(!GetRmsNormTilingInfo(TensorShape({1, 3, 64}), TensorShape({1, 3, 64}), 100, 4, t));
    XCHECK(!GetRmsNormTilingInfo(TensorShape({1, 3, 12}), TensorShape({1, 3, 12}), 4096, 4, t));
    XCHECK(GetRmsNormTilingInfo(TensorShape({1, 4, 64}), TensorShape({1, 4, 64}), 4096, 4, t));
    // The optiling class carries the same fields, which the struct is saved from.
    optiling::RmsNormTiling o;
    XCHECK(GetRmsNormTilingInfo(TensorShape({1, 7, 128}), TensorShape({1, 7, 128}), 2048, 4, o));
    XCHECK_EQ(o.get_mainBsLength(), 3u);
    XCHECK_EQ(o.get_loopRound(), 2u);
    XCHECK_EQ(o.get_tailBsLength(), 1u);
    XCHECK_EQ(o.GetDataSize(), sizeof(tiling::RmsNormTiling));
    XCHECK_THROWS_WITH(one([&] {
                           sim_test::Calc c(16384);
                           auto src = c.get<float>(), dst = c.get<float>()[1024], gamma = c.get<float>()[2048];
                           auto tmp = c.get<uint8_t>()[12288];
                           tmp.SetSize(512);
                           RmsNorm(dst, src, gamma, tmp, 1e-5f, t);
                       }),
                       "RmsNorm (block 0): sharedTmpBuffer holds 512 B, less than the 1056 B the tiling's slices take");
}

// AscendDequant against int32 x scale in float64 over the first calCount of
// each row: uint64_t scales to half, float and bfloat16_t scales to float and
// bfloat16_t, a scalar scale; rows padded to 32 B of dst, chunks of whole rows
// with and without a tail, the calCount form's partial last row, the split of a
// single row; in both auto-sync modes; its tmp-size helpers and an undersized
// sharedTmpBuffer reported. Tolerances (one rounding of the product to dstT):
// float 2e-7 relative, half 1e-3, bfloat16_t 8e-3.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "tiling/tiling_api.h"
#include "xtest.h"

using namespace AscendC;

namespace {
void one(const std::function<void()>& body) { ascend_sim::run_kernel("adv_dequant", 1, body); }

int32_t input(uint32_t i) { return int32_t(i * 7919 % 2001) - 1000; }
float scale_at(uint32_t j) { return 0.5f + float(j % 13) / 32.0f; }

template <class D>
double rel() {
    return std::is_same_v<D, float> ? 2e-7 : std::is_same_v<D, half> ? 1e-3 : 8e-3;
}

// Runs api(dst, src, scale, tmp) on m rows of n (count src elements) and checks
// row r, column j < calCount of dst at r * dstInner + j.
template <class D, class S, class Api>
void check(uint32_t m, uint32_t n, uint32_t calCount, uint32_t count, uint32_t scaleSize, uint32_t tmpBytes, Api api) {
    constexpr uint32_t perBlock = 32 / sizeof(D);
    const uint32_t dstInner = (n + perBlock - 1) / perBlock * perBlock;
    for (int autoSync : {1, 0}) {
        const sim_test::AutoSync mode(autoSync);
        one([&] {
            sim_test::Calc c(4 * 8192);
            auto src = c.get<int32_t>(), scale = c.get<S>()[8192 / sizeof(S)];
            auto dst = c.get<D>()[2 * 8192 / sizeof(D)];
            auto tmp = c.get<uint8_t>()[3 * 8192];
            src.SetSize(m * n), scale.SetSize(scaleSize), dst.SetSize(m * dstInner), tmp.SetSize(tmpBytes);
            sim_test::fill(src, m * n, input);
            for (uint32_t j = 0; j < scaleSize; ++j) {
                if constexpr (std::is_same_v<S, uint64_t>) {
                    uint32_t bits;
                    const float f = scale_at(j);
                    std::memcpy(&bits, &f, 4);
                    scale.SetValue(j, uint64_t(bits));
                } else {
                    scale.SetValue(j, S(scale_at(j)));
                }
            }
            sim_test::sync<HardEvent::S_V>();
            api(dst, src, scale, tmp);
            sim_test::sync<HardEvent::V_S>();
            for (uint32_t i = 0; i < count; ++i) {
                const uint32_t r = i / n, j = i % n;
                if (j >= calCount) continue;
                const double s = std::is_same_v<S, uint64_t> ? double(scale_at(j)) : double(float(S(scale_at(j))));
                const double ref = double(input(i)) * s;
                XCHECK_NEAR(double(float(dst.GetValue(r * dstInner + j))), ref, rel<D>() * std::fabs(ref) + 1e-6);
            }
        });
    }
}
}  // namespace

XTEST(dequant_uint64_scale_to_half_padded_rows) {
    // Rows of 72 int32 become half rows of 80; (64 + 8 + 2 x 72) floats of tmp hold 2 rows a chunk.
    auto api = [](auto& d, auto& s, auto& sc, auto& t) { AscendDequant(d, s, sc, t, DequantParams{4, 72, 40}); };
    check<half, uint64_t>(4, 72, 40, 288, 40, (48 + 2 * 72) * 4, api);
    check<half, uint64_t>(4, 72, 40, 288, 40, (48 + 3 * 72) * 4, api);  // 3 rows and a tail row
}

XTEST(dequant_float_calcount_form_partial_last_row) {
    // deqScale of 64 makes rows of 64; 300 of 320 leaves 44 of the fifth row.
    auto api = [](auto& d, auto& s, auto& sc, auto& t) { AscendDequant(d, s, sc, t, 300u); };
    check<float, float>(5, 64, 64, 300, 64, (64 + 128) * 4, api);
    auto all = [](auto& d, auto& s, auto& sc, auto& t) { AscendDequant(d, s, sc, t); };
    check<float, float>(5, 64, 64, 320, 64, 4096, all);
}

XTEST(dequant_without_tmp) {
    auto params = [](auto& d, auto& s, auto& sc, auto&) { AscendDequant(d, s, sc, DequantParams{4, 72, 40}); };
    check<half, uint64_t>(4, 72, 40, 288, 40, 0, params);
    auto count = [](auto& d, auto& s, auto& sc, auto&) { AscendDequant(d, s, sc, 300u); };
    check<float, float>(5, 64, 64, 300, 64, 0, count);
}

XTEST(dequant_bfloat16_and_single_row_split) {
    auto bf = [](auto& d, auto& s, auto& sc, auto& t) { AscendDequant(d, s, sc, t, DequantParams{3, 64, 64}); };
    check<bfloat16_t, float>(3, 64, 64, 192, 64, 4096, bf);
    check<float, bfloat16_t>(3, 64, 64, 192, 64, 4096, bf);
    // One row of 256 with calCount 64 is taken as 4 rows of 64.
    auto split = [](auto& d, auto& s, auto& sc, auto& t) { AscendDequant(d, s, sc, t, DequantParams{1, 256, 64}); };
    check<float, float>(4, 64, 64, 256, 64, 4096, split);
}

XTEST(dequant_scalar_scale) {
    auto api = [](auto& d, auto& s, auto&, auto& t) { AscendDequant(d, s, 0.75f, t, DequantParams{3, 64, 64}); };
    for (int autoSync : {1, 0}) {
        const sim_test::AutoSync mode(autoSync);
        one([&] {
            sim_test::Calc c(4 * 8192);
            auto src = c.get<int32_t>();
            auto dst = c.get<float>()[2048];
            auto tmp = c.get<uint8_t>()[3 * 8192];
            tmp.SetSize(1024);
            src.SetSize(192);
            sim_test::fill(src, 192, input);
            sim_test::sync<HardEvent::S_V>();
            api(dst, src, dst, tmp);
            sim_test::sync<HardEvent::V_S>();
            for (uint32_t i = 0; i < 192; ++i) XCHECK_NEAR(double(dst.GetValue(i)), input(i) * 0.75, 1e-9);
        });
    }
}

XTEST(dequant_undersized_tmp_and_helpers) {
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(16384);
                           auto src = c.get<int32_t>();
                           auto scale = c.get<float>()[1024], dst = c.get<float>()[2048];
                           auto tmp = c.get<uint8_t>()[12288];
                           src.SetSize(128), scale.SetSize(64), tmp.SetSize(256);
                           AscendDequant(dst, src, scale, tmp, DequantParams{2, 64, 64});
                       }),
                       "AscendDequant (block 0): sharedTmpBuffer holds 256 B, too little for the 64 float scales and "
                       "one row of 64");
    uint32_t maxV = 0, minV = 0;
    GetAscendDequantMaxMinTmpSize(TensorShape({4, 72}), 4, maxV, minV);
    XCHECK_EQ(minV, (64u + 80 + 72) * 4);
    XCHECK_EQ(maxV, (64u + 80 + 288) * 4);
    XCHECK_THROWS_WITH(GetAscendDequantMaxMinTmpSize(TensorShape({4, 72}), 2, maxV, minV), "typeSize 2 is not 4");
    uint32_t live = 0, extra = 0;
    GetAscendDequantTmpBufferFactorSize(TensorShape({4, 72}), live, extra);
    XCHECK_EQ(live, 1u);
    XCHECK_EQ(extra, 144u);
}

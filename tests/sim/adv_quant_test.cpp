// AscendQuant with a scalar scale and offset against round(x * scale + offset)
// in float64, saturated to int8_t, for half and float inputs over several tmp
// chunks with a tail, in both auto-sync modes; its tmp-size helper against the
// sizes the tiling code gives; an undersized sharedTmpBuffer reported.
// Tolerance: the product and the sum are each rounded to half (11 bits) before
// the rounding to an integer, so the result may sit up to 0.5 + 2 * 2^-11 * |v|
// (plus the half rounding of the input, scale and offset for float) from v.
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
void one(const std::function<void()>& body) { ascend_sim::run_kernel("adv_quant", 1, body); }

float input(uint32_t i) { return float(int(i % 211) - 105) / 4.0f + 0.125f; }

// stack: the form without sharedTmpBuffer (its tmp the UB the TPipe left free).
template <class T>
void check_quant(uint32_t n, uint32_t tmpBytes, float scale, float offset, bool stack = false) {
    for (int autoSync : {1, 0}) {
        const sim_test::AutoSync mode(autoSync);
        one([&] {
            sim_test::Calc c(3 * 8192);
            auto src = c.get<T>();
            auto dst = c.get<int8_t>()[8192];
            auto tmp = c.get<uint8_t>()[2 * 8192];
            tmp.SetSize(tmpBytes);
            sim_test::fill(src, n, input);
            sim_test::sync<HardEvent::S_V>();
            if (stack)
                AscendQuant<T>(dst, src, scale, offset, n);
            else
                AscendQuant<T>(dst, src, tmp, scale, offset, n);
            sim_test::sync<HardEvent::V_S>();
            for (uint32_t i = 0; i < n; ++i) {
                const double v = double(float(src.GetValue(i))) * scale + offset;
                const double ref = std::fmin(std::fmax(v, -128.0), 127.0);
                const double slack = sizeof(T) == 2 ? 2 : 4;
                XCHECK_NEAR(double(dst.GetValue(i)), ref, 0.5 + slack * std::ldexp(std::fabs(v), -11) + 1e-9);
            }
        });
    }
}
}  // namespace

XTEST(ascend_quant_half_and_float_over_tmp_chunks) {
    // 512 B of tmp: chunks of 256 halves; 1000 elements end in a tail of 232.
    check_quant<half>(1000, 512, 2.0f, 0.5f);
    check_quant<float>(1000, 512, 2.0f, -3.0f);
    check_quant<float>(100, 1024, 0.25f, 1.0f);  // one partial chunk
    check_quant<half>(600, 4096, 8.0f, 0.0f);    // saturates at both ends
}

XTEST(ascend_quant_without_tmp) {
    check_quant<half>(1000, 0, 2.0f, 0.5f, true);
    check_quant<float>(2000, 0, 0.25f, -1.0f, true);
}

XTEST(ascend_quant_tmp_size_helpers) {
    uint32_t maxV = 0, minV = 0;
    GetAscendQuantMaxMinTmpSize(TensorShape({1008}), 2, maxV, minV);
    XCHECK_EQ(minV, 512u);
    XCHECK_EQ(maxV, 2016u);  // a half per element
    GetAscendQuantMaxMinTmpSize(TensorShape({64}), 4, maxV, minV);
    XCHECK_EQ(maxV, 512u);
    XCHECK_THROWS_WITH(GetAscendQuantMaxMinTmpSize(TensorShape({7}), 2, maxV, minV), "not 32 B aligned");
    uint32_t live = 0, extra = 1;
    GetAscendQuantTmpBufferFactorSize(live, extra);
    XCHECK_EQ(live, 2u);
    XCHECK_EQ(extra, 0u);
}

XTEST(ascend_quant_undersized_or_overlapping_tmp_is_reported) {
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(8192);
                           auto src = c.get<half>();
                           auto dst = c.get<int8_t>()[2048];
                           auto tmp = c.get<uint8_t>()[4096];
                           tmp.SetSize(256);
                           AscendQuant<half>(dst, src, tmp, 1.0f, 0.0f, 128);
                       }),
                       "AscendQuant (block 0): sharedTmpBuffer holds 256 B, less than the 512 B minimum "
                       "GetAscendQuantMaxMinTmpSize gives");
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(8192);
                           auto src = c.get<half>();
                           auto dst = c.get<int8_t>()[2048];
                           auto tmp = c.get<uint8_t>()[128];  // inside src
                           tmp.SetSize(1024);
                           AscendQuant<half>(dst, src, tmp, 1.0f, 0.0f, 128);
                       }),
                       "AscendQuant (block 0): sharedTmpBuffer [128, +1024 B) and srcTensor [0, +256 B) overlap");
}

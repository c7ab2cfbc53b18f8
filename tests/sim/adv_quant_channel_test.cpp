// AscendQuant with a scale tensor and a scalar or tensor offset against
// round(x * scale[j] + offset[j]) in float64, saturated to int8_t, for half
// over several groups and tmp chunks, in both auto-sync modes; with float, the
// in-place narrowing of the scales that the simulator's overlap check reports;
// an undersized sharedTmpBuffer and inconsistent counts reported. Tolerance:
// the product and the sum each round to half, so 0.5 + 2 x 2^-11 x |v|.
#include <cmath>
#include <cstdint>
#include <functional>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "xtest.h"

using namespace AscendC;

namespace {
void one(const std::function<void()>& body) { ascend_sim::run_kernel("adv_quant_channel", 1, body); }

float input(uint32_t i) { return float(int(i % 97) - 48) / 2.0f + 0.25f; }
float scale_at(uint32_t j) { return 0.25f + float(j % 9) / 4.0f; }
float offset_at(uint32_t j) { return float(int(j % 5) - 2); }

// groups of scaleCount; a tensor offset when tensorOffset, else 1.5.
void check_half(uint32_t scaleCount, uint32_t groups, uint32_t tmpBytes, bool tensorOffset) {
    const uint32_t n = scaleCount * groups;
    for (int autoSync : {1, 0}) {
        const sim_test::AutoSync mode(autoSync);
        one([&] {
            sim_test::Calc c(5 * 8192);
            auto src = c.get<half>(), scale = c.get<half>()[4096], offset = c.get<half>()[8192];
            auto dst = c.get<int8_t>()[3 * 8192];
            auto tmp = c.get<uint8_t>()[4 * 8192];
            src.SetSize(n), scale.SetSize(scaleCount), offset.SetSize(scaleCount), tmp.SetSize(tmpBytes);
            sim_test::fill(src, n, input);
            sim_test::fill(scale, scaleCount, scale_at);
            sim_test::fill(offset, scaleCount, offset_at);
            sim_test::sync<HardEvent::S_V>();
            if (tensorOffset) AscendQuant<half>(dst, src, tmp, scale, offset, scaleCount, scaleCount, n);
            else AscendQuant<half>(dst, src, tmp, scale, half(1.5f), scaleCount, n);
            sim_test::sync<HardEvent::V_S>();
            for (uint32_t i = 0; i < n; ++i) {
                const uint32_t j = i % scaleCount;
                const double v = double(float(src.GetValue(i))) * scale_at(j) + (tensorOffset ? offset_at(j) : 1.5);
                const double ref = std::fmin(std::fmax(v, -128.0), 127.0);
                XCHECK_NEAR(double(dst.GetValue(i)), ref, 0.5 + 2 * std::ldexp(std::fabs(v), -11) + 1e-9);
            }
        });
    }
}
}  // namespace

XTEST(quant_per_channel_half) {
    // 512 B of tmp: 256 halves a chunk; groups of 640 take two chunks and a tail.
    check_half(640, 3, 512, false);
    check_half(640, 3, 512, true);
    check_half(64, 5, 4096, true);  // one chunk a group
}

XTEST(quant_per_channel_float_scales_narrowed_in_place) {
    // The float scales are cast to half into their own tensor: dst's 128 B of
    // each 256 B source repeat is a partial overlap, which the address-overlap
    // rules of 通用说明和约束.md do not allow.
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(16384);
                           auto src = c.get<float>(), scale = c.get<float>()[1024];
                           auto dst = c.get<int8_t>()[8192];
                           auto tmp = c.get<uint8_t>()[12288];
                           src.SetSize(128), scale.SetSize(64), tmp.SetSize(1024);
                           Duplicate(src, 1.0f, 128);
                           Duplicate(scale, 2.0f, 64);
                           PipeBarrier<PIPE_V>();
                           AscendQuant<float>(dst, src, tmp, scale, 0.0f, 64, 128);
                       }),
                       "Cast (block 0): dst", "overlap other than element for element within a repeat");
}

XTEST(quant_per_channel_refusals) {
    auto run = [](uint32_t tmpBytes, uint32_t scaleCount, uint32_t calCount) {
        return [=] {
            sim_test::Calc c(16384);
            auto src = c.get<half>(), scale = c.get<half>()[2048];
            auto dst = c.get<int8_t>()[8192];
            auto tmp = c.get<uint8_t>()[12288];
            src.SetSize(256), scale.SetSize(64), tmp.SetSize(tmpBytes);
            AscendQuant<half>(dst, src, tmp, scale, half(0), scaleCount, calCount);
        };
    };
    XCHECK_THROWS_WITH(one(run(256, 64, 256)),
                       "AscendQuant (block 0): sharedTmpBuffer holds 256 B, less than the 512 B minimum");
    XCHECK_THROWS_WITH(one(run(1024, 64, 200)), "calCount 200 must be a non-zero multiple of scaleCount 64");
    XCHECK_THROWS_WITH(one(run(1024, 0, 256)), "scaleCount 0 must be above 0");
}

// DropOut with a byte mask as long as the src row against src * mask / keepProb
// in float64, for half and float, over several tmp chunks, in both auto-sync
// modes; its checks, its tmp-size helpers and an undersized sharedTmpBuffer
// reported.
// Tolerances: float 1e-6 relative (1 / keepProb and the two products each
// round once); half 2e-3 (the same three roundings to 11 bits).
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
void one(const std::function<void()>& body) { ascend_sim::run_kernel("adv_filter", 1, body); }

float input(uint32_t i) { return float(int(i % 113) - 56) / 8.0f; }
uint8_t keep(uint32_t r, uint32_t j) { return (r * 7 + j * 3) % 5 != 0; }

template <class T>
void check_dropout(uint32_t rows, uint32_t srcRow, uint32_t maskRow, uint32_t tmpBytes, float keepProb) {
    for (int autoSync : {1, 0}) {
        const sim_test::AutoSync mode(autoSync);
        one([&] {
            sim_test::Calc c(4 * 8192);
            auto src = c.get<T>(), dst = c.get<T>()[8192 / sizeof(T)];
            auto mask = c.get<uint8_t>()[2 * 8192];
            auto tmp = c.get<uint8_t>()[3 * 8192];
            tmp.SetSize(tmpBytes);
            sim_test::fill(src, rows * srcRow, input);
            for (uint32_t r = 0; r < rows; ++r)
                for (uint32_t j = 0; j < maskRow; ++j) mask.SetValue(r * maskRow + j, keep(r, j));
            sim_test::sync<HardEvent::S_V>();
            DropOutShapeInfo info;
            info.firstAxis = rows, info.srcLastAxis = srcRow, info.maskLastAxis = maskRow;
            DropOut(dst, src, mask, tmp, keepProb, info);
            sim_test::sync<HardEvent::V_S>();
            const double rel = sizeof(T) == 2 ? 2e-3 : 1e-6;
            for (uint32_t r = 0; r < rows; ++r)
                for (uint32_t j = 0; j < srcRow; ++j) {
                    const uint32_t i = r * srcRow + j;
                    const double ref = double(float(src.GetValue(i))) * keep(r, j) / keepProb;
                    XCHECK_NEAR(double(float(dst.GetValue(i))), ref, rel * std::fabs(ref) + 1e-6);
                }
        });
    }
}
}  // namespace

XTEST(dropout_byte_mask_same_row_length) {
    // 512 B of tmp: 256 halves or 64 floats a chunk; 1200 elements end in a tail.
    check_dropout<half>(10, 120, 120, 512, 0.8f);
    check_dropout<float>(10, 120, 120, 512, 0.6f);
    check_dropout<float>(3, 64, 64, 8192, 0.5f);  // one chunk
}

XTEST(dropout_refusals) {
    auto run = [](float keepProb, uint32_t srcRow, uint32_t maskRow, uint32_t tmpBytes) {
        return [=] {
            sim_test::Calc c(16384);
            auto src = c.get<float>(), dst = c.get<float>()[1024];
            auto mask = c.get<uint8_t>()[8192];
            auto tmp = c.get<uint8_t>()[12288];
            tmp.SetSize(tmpBytes);
            DropOutShapeInfo info;
            info.firstAxis = 2, info.srcLastAxis = srcRow, info.maskLastAxis = maskRow;
            DropOut(dst, src, mask, tmp, keepProb, info);
        };
    };
    XCHECK_THROWS_WITH(one(run(1.0f, 64, 64, 1024)), "DropOut (block 0): keepProb 1.000000 is not in (0, 1)");
    XCHECK_THROWS_WITH(one(run(0.5f, 64, 64, 256)),
                       "DropOut (block 0): sharedTmpBuffer holds 256 B, less than the 512 B minimum "
                       "GetDropOutMaxMinTmpSize gives");
    XCHECK_THROWS_WITH(one(run(0.5f, 64, 8, 1024)), "the bit-mask modes (srcLastAxis 64, maskLastAxis 8) select");
}

XTEST(dropout_tmp_size_helpers) {
    uint32_t maxV = 0, minV = 0;
    GetDropOutMaxMinTmpSize(TensorShape({10, 120}), 2, false, maxV, minV);
    XCHECK_EQ(minV, 512u);
    XCHECK_EQ(maxV, 9600u);
    GetDropOutMaxMinTmpSize(TensorShape({16}), 4, false, maxV, minV);
    XCHECK_EQ(maxV, 512u);
    XCHECK_THROWS_WITH(GetDropOutMinTmpSize(TensorShape({16}), 1, false), "typeSize 1 is neither");
}

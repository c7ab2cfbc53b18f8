// UnPad against the rows of its input with the right pad dropped (a copy, so
// compared exactly), for 16- and 32-bit types, in both auto-sync modes; its
// checks on the row width and rightPad; UnPadTilingFunc's fields. UnPad uses
// no sharedTmpBuffer on A2, so there is no minimum to report.
#include <cstdint>
#include <functional>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "tiling/tiling_api.h"
#include "xtest.h"

using namespace AscendC;

namespace {
void one(const std::function<void()>& body) { ascend_sim::run_kernel("adv_pad", 1, body); }

template <class T>
void check_unpad(uint32_t height, uint32_t width, uint16_t rightPad) {
    for (int autoSync : {1, 0}) {
        const sim_test::AutoSync mode(autoSync);
        one([&] {
            sim_test::Calc c(16384);
            auto src = c.get<T>(), dst = c.get<T>()[8192 / sizeof(T)];
            LocalTensor<uint8_t> tmp;
            sim_test::fill(src, height * width, [](uint32_t i) { return int(i % 1000) - 500; });
            sim_test::sync<HardEvent::S_V>();
            tiling::UnPadTiling t;
            UnPadTilingFunc(TensorShape({int64_t(height), int64_t(width)}), 0, sizeof(T), t);
            UnPadParams params(0, rightPad);
            UnPad(dst, src, params, tmp, t);
            sim_test::sync<HardEvent::V_S>();
            const uint32_t kept = width - rightPad;
            for (uint32_t r = 0; r < height; ++r)
                for (uint32_t j = 0; j < kept; ++j)
                    XCHECK_EQ(double(dst.GetValue(r * kept + j)), double(src.GetValue(r * width + j)));
        });
    }
}
}  // namespace

XTEST(unpad_drops_each_rows_right_pad) {
    check_unpad<half>(4, 16, 3);
    check_unpad<float>(3, 24, 5);
    check_unpad<int16_t>(7, 32, 15);
    check_unpad<int32_t>(2, 8, 1);
}

XTEST(unpad_rejects_what_its_check_does) {
    auto run = [](uint32_t width, uint16_t rightPad) {
        return [=] {
            sim_test::Calc c(4096);
            auto src = c.get<float>(), dst = c.get<float>()[512];
            LocalTensor<uint8_t> tmp;
            tiling::UnPadTiling t;
            t.srcHeight = 2;
            t.srcWidth = width;
            UnPadParams params(0, rightPad);
            UnPad(dst, src, params, tmp, t);
        };
    };
    XCHECK_THROWS_WITH(one(run(12, 2)), "UnPad (block 0): tiling.srcWidth 12 x 4 B is not a multiple of 32 B");
    XCHECK_THROWS_WITH(one(run(16, 0)), "unPadParams.rightPad 0 must be above 0 and below 8 (32 B)");
    XCHECK_THROWS_WITH(one(run(16, 8)), "unPadParams.rightPad 8 must be above 0 and below 8 (32 B)");
}

XTEST(unpad_tiling_fields) {
    tiling::UnPadTiling t;
    UnPadTilingFunc(TensorShape({5, 48}), 0, 2, t);
    XCHECK_EQ(t.srcHeight, 5u);
    XCHECK_EQ(t.srcWidth, 48u);
    XCHECK_EQ(t.widthTiling, 0u);
    // 4 KiB of half: four 16-row blocks in each half of it, so 64-column fractals; 48 columns make one.
    UnPadTilingFunc(TensorShape({5, 48}), 4096, 2, t);
    XCHECK_EQ(t.tmpBuffer1BlockNum, 4u);
    XCHECK_EQ(t.tmpBuffer1RowNum, 64u);
    XCHECK_EQ(t.tmpBuffer2Offset, 1024u);
    XCHECK_EQ(t.widthFractal, 1u);
    XCHECK_EQ(t.widthFractalTail, 48u);
    optiling::UnPadTiling o;
    UnPadTilingFunc(TensorShape({5, 48}), 4096, 2, o);
    XCHECK_EQ(o.get_widthTiling(), 64u);
    XCHECK_EQ(o.GetDataSize(), sizeof(tiling::UnPadTiling));
    XCHECK_THROWS_WITH(UnPadTilingFunc(TensorShape({48}), 0, 2, t), "srcShape has 1 dims; it must have 2");
    XCHECK_THROWS_WITH(UnPadTilingFunc(TensorShape({5, 48}), 0, 8, t), "typeSize 8 is neither 2 (half) nor 4");
}

// UnPad against the rows of its input with the right pad dropped (a copy, so
// compared exactly), for 16- and 32-bit types, in both auto-sync modes; its
// checks on the row width and rightPad; UnPadTilingFunc's fields. UnPad uses
// no sharedTmpBuffer on A2, so there is no minimum to report. Pad of rows
// that are not 32 B aligned against the rows widened here (left and right
// pads of padValue), over one and several tmp pieces a row, 16- and 32-bit,
// with and without sharedTmpBuffer; its checks' reports.
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

namespace {
// Pads `height` rows of `width` elements to left + width + right through
// `tmpBytes` of tmp (0: the form without sharedTmpBuffer, the rest of UB).
template <class T>
void check_unaligned_pad(uint32_t height, uint32_t width, uint16_t left, uint16_t right, uint32_t tmpBytes) {
    const uint32_t outWidth = left + width + right, n = height * width;
    one([&] {
        const uint32_t srcBytes = (n * sizeof(T) + 31) / 32 * 32, dstBytes = height * outWidth * sizeof(T);
        sim_test::Calc c(srcBytes + dstBytes + tmpBytes);
        auto src = c.get<T>(), dst = c.get<T>()[srcBytes / sizeof(T)];
        auto tmp = c.get<uint8_t>()[srcBytes + dstBytes];
        sim_test::fill(src, n, [](uint32_t i) { return int(i % 1000) - 500; });
        sim_test::sync<HardEvent::S_V>();
        uint32_t stack = tmpBytes;
        if (stack == 0) {
            LocalTensor<uint8_t> free;
            PopStackBuffer<uint8_t, TPosition::LCM>(free);
            stack = free.GetSize();
        }
        const TensorShape shape({int64_t(height), int64_t(width)});
        tiling::PadTiling t;
        PadTilingFunc(shape, shape, stack, sizeof(T), t);
        PadParams params(left, right, 77);
        if (tmpBytes != 0) Pad(dst, src, params, tmp, t);
        else Pad(dst, src, params, t);
        sim_test::sync<HardEvent::V_S>();
        for (uint32_t r = 0; r < height; ++r)
            for (uint32_t k = 0; k < outWidth; ++k) {
                const bool pad = k < left || k >= left + width;
                XCHECK_EQ(double(dst.GetValue(r * outWidth + k)),
                          pad ? 77.0 : double(int((r * width + k - left) % 1000) - 500));
            }
    });
}
}  // namespace

XTEST(pad_widens_unaligned_rows) {
    check_unaligned_pad<half>(16, 15, 0, 1, 4096);  // Pad.md's example; one piece a row
    check_unaligned_pad<half>(32, 33, 5, 10, 1024);  // 16-row pieces: two full and a tail a row
    check_unaligned_pad<int16_t>(16, 7, 3, 6, 0);
    check_unaligned_pad<float>(8, 13, 1, 2, 1024);
    check_unaligned_pad<float>(24, 37, 0, 3, 1024);  // a tail of 8 rows: one block each
    check_unaligned_pad<int32_t>(8, 21, 2, 1, 2048);  // a tail of 24 rows: a 16-row group and 8
}

XTEST(unaligned_pad_rejects_what_its_checks_do) {
    auto run = [](uint32_t height, uint32_t width, uint16_t left, uint16_t right, uint32_t stack) {
        return [=] {
            sim_test::Calc c(16384);
            auto src = c.get<float>(), dst = c.get<float>()[1024];
            auto tmp = c.get<uint8_t>()[8192];
            tmp.SetSize(1024);
            const TensorShape shape({int64_t(height), int64_t(width)});
            tiling::PadTiling t;
            PadTilingFunc(shape, shape, stack, 4, t);
            PadParams params(left, right, 0);
            Pad(dst, src, params, tmp, t);
        };
    };
    XCHECK_THROWS_WITH(one(run(8, 13, 1, 1, 1024)),
                       "Pad (block 0): (tiling.srcWidth 13 + leftPad 1 + rightPad 1) x 4 B is not a multiple of 32 B");
    XCHECK_THROWS_WITH(one(run(3, 13, 0, 3, 1024)), "srcHeight 3 x srcWidth 13 x 4 B is not a multiple of 32 B");
    XCHECK_THROWS_WITH(one(run(8, 13, 0, 3, 0)), "tiling.tmpBuffer1BlockNum is 0");
    XCHECK_THROWS_WITH(one(run(8, 13, 0, 3, 2048)),
                       "sharedTmpBuffer holds 1024 B, less than the 2048 B minimum PadTilingFunc's stackBufferSize gives");
}

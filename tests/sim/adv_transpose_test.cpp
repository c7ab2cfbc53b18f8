// UnPad without sharedTmpBuffer (the stack buffer, unused on A2) against the
// rows of its input with the right pad dropped; Pad of 32 B rows against the
// rows with the right pad's lanes set (over 255 rows: a repeat block and a
// tail), and PadTilingFunc's fields.
#include <cstdint>
#include <functional>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "tiling/tiling_api.h"
#include "xtest.h"

using namespace AscendC;
using sim_test::sync;

XTEST(unpad_without_tmp) {
    ascend_sim::run_kernel("adv_transpose", 1, [] {
        sim_test::Calc c(8192);
        auto src = c.get<half>(), dst = c.get<half>()[2048];
        constexpr uint32_t height = 5, width = 32;
        for (uint32_t i = 0; i < height * width; ++i) src.SetValue(i, half(float(i % 251)));
        sync<HardEvent::S_V>();
        tiling::UnPadTiling t;
        UnPadTilingFunc(TensorShape({int64_t(height), int64_t(width)}), 0, sizeof(half), t);
        UnPadParams params(0, 3);
        UnPad(dst, src, params, t);
        sync<HardEvent::V_S>();
        for (uint32_t r = 0; r < height; ++r)
            for (uint32_t k = 0; k < width - 3; ++k)
                XCHECK_EQ(float(dst.GetValue(r * (width - 3) + k)), float((r * width + k) % 251));
    });
}

namespace {
// Pads rows of `ori` of `width` elements (the rest of each row left over from src) with value.
template <class T>
void check_pad(uint32_t height, uint32_t width, uint32_t ori, uint16_t rightPad, int32_t value) {
    ascend_sim::run_kernel("adv_transpose", 1, [&] {
        sim_test::Calc c(160 * 1024);
        auto src = c.get<T>(), dst = c.get<T>()[80 * 1024 / sizeof(T)];
        const uint32_t n = height * width;
        for (uint32_t i = 0; i < n; ++i) src.SetValue(i, T(float(i % 97)));
        sync<HardEvent::S_V>();
        tiling::PadTiling t;
        PadTilingFunc(TensorShape({int64_t(height), int64_t(width)}), TensorShape({int64_t(height), int64_t(ori)}),
                      0, sizeof(T), t);
        PadParams params(0, rightPad, value);
        Pad(dst, src, params, t);
        sync<HardEvent::V_S>();
        for (uint32_t r = 0; r < height; ++r)
            for (uint32_t k = 0; k < width; ++k) {
                const bool padded = k >= ori && k < ori + rightPad;
                XCHECK_EQ(float(dst.GetValue(r * width + k)), padded ? float(value) : float((r * width + k) % 97));
            }
    });
}
}  // namespace

XTEST(pad_aligned_rows) {
    check_pad<float>(300, 16, 13, 3, 7);  // 255 rows a repeat block, a tail of 45
    check_pad<half>(20, 32, 30, 1, -2);
}

XTEST(pad_tiling_fields) {
    optiling::PadTiling t;
    PadTilingFunc(TensorShape({300, 16}), TensorShape({300, 13}), 0, 4, t);
    XCHECK_EQ(t.get_widthWithoutLastBlock(), 8u), XCHECK_EQ(t.get_blocksPerRow(), 2u);
    XCHECK_EQ(t.get_heightFractal(), 1u), XCHECK_EQ(t.get_heightFractalTail(), 45u);
    XCHECK_EQ(t.get_mainLoopOffset(), 255u * 16), XCHECK_EQ(t.get_tailBlockOffset(), 255u * 16 + 8);
    uint32_t mx = 0, mn = 0;
    GetPadMaxMinTmpSize(TensorShape({16, 31}), 4, mx, mn);
    XCHECK_EQ(mn, 1024u), XCHECK_EQ(mx, 31u * 1024);
}

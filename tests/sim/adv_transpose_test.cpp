// UnPad without sharedTmpBuffer (the stack buffer, unused on A2) against the
// rows of its input with the right pad dropped.
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

// The CPU-twin host program, in the shape of CANN's samples: GmAlloc the
// tensors and the tiling, pick the tiling key, ICPU_RUN_KF, check, GmFree.
#include <cmath>
#include <cstdio>

#include "scale_add_tiling.h"
#ifndef ASCENDC_CPU_DEBUG
#error "tikicpulib::<soc> defines ASCENDC_CPU_DEBUG"
#endif
#ifndef __CCE_KT_TEST__
#error "tikicpulib::<soc> defines __CCE_KT_TEST__, as CANN's CPU builds do"
#endif
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void scale_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling);

int32_t main() {
    constexpr uint32_t blockDim = 8, total = blockDim * 4096;
    const size_t bytes = total * sizeof(half);
    auto* x = (uint8_t*)AscendC::GmAlloc(bytes);
    auto* y = (uint8_t*)AscendC::GmAlloc(bytes);
    auto* z = (uint8_t*)AscendC::GmAlloc(bytes);
    auto* tiling = (uint8_t*)AscendC::GmAlloc(sizeof(ScaleAddTiling));
    *(ScaleAddTiling*)tiling = ScaleAddTiling{total, 1024, 2.0f};
    for (uint32_t i = 0; i < total; ++i) {
        ((half*)x)[i] = half(float(i % 64));
        ((half*)y)[i] = half(0.5f);
    }
    int failures = 0;
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    for (uint64_t key : {1, 2}) {
        ICPU_SET_TILING_KEY(key);
        ICPU_RUN_KF(scale_add, blockDim, x, y, z, nullptr, tiling);
        for (uint32_t i = 0; i < total; ++i) {
            const float want = (key == 1 ? 2.0f : 1.0f) * float(i % 64) + 0.5f;
            if (float(((half*)z)[i]) != want && failures++ < 5)
                std::printf("key %llu: z[%u] = %f, expected %f\n", (unsigned long long)key, i,
                            float(((half*)z)[i]), want);
        }
    }
    const bool socOk = ascend_sim::current_profile().name == "ascend910b";
    if (!socOk) std::printf("profile %s, expected ascend910b\n", ascend_sim::current_profile().name.c_str());
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    AscendC::GmFree(z);
    AscendC::GmFree(tiling);
    std::printf(failures || !socOk ? "[Failed]\n" : "[Success]\n");
    return failures || !socOk ? 1 : 0;
}

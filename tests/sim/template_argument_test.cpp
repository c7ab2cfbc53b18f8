// Tiling-key templates (ascendc/host_api/tiling/template_argument.h): the host form
// encodes a key from parameter values as CANN's FastEncodeTilingKeyDirect does, and a
// kernel templated by the same parameters runs instantiated by the program.
#include "tikicpulib.h"
#include "tiling_key/demo_tiling_key.h"
#include "xtest.h"

template <uint32_t schMode, int dType, uint32_t unroll>
__global__ __aicore__ void tiling_key_demo(GM_ADDR out);
extern template __global__ __aicore__ void tiling_key_demo<5, ge::DT_FLOAT16, 4>(GM_ADDR);

XTEST(keys_pack_each_parameter_in_its_bit_field) {
    // schMode: index of 5 in {0, 1, 5} = 2, 2 bits; dType: the id itself, 8 bits;
    // unroll: index of 4 in {2, 3, 4, 9} (the range 2..4, then 9) = 2, 4 bits.
    XCHECK_EQ(GET_TPL_TILING_KEY(5, ge::DT_FLOAT16, 4), uint64_t(2 | (1 << 2) | (2 << 10)));
    XCHECK_EQ(GET_TPL_TILING_KEY(0, ge::DT_FLOAT, 9), uint64_t(3 << 10));
    XCHECK_EQ(GET_TPL_TILING_KEY(3, ge::DT_FLOAT, 9), INVALID_TILING_KEY);  // 3 is not declared
}

XTEST(a_templated_kernel_runs_as_instantiated) {
    uint8_t* out = (uint8_t*)AscendC::GmAlloc(16 * sizeof(half));
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF((tiling_key_demo<5, ge::DT_FLOAT16, 4>), 1, out);
    XCHECK_EQ(float(reinterpret_cast<half*>(out)[15]), 504.0f);
    AscendC::GmFree(out);
}

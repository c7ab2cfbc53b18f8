// A kernel templated by its tiling-key parameters, compiled as CANN compiles kernels
// (ASCENDC_TPL_KERNEL): the declarations are empty, TypeFromId gives the data type.
#define ASCENDC_TPL_KERNEL
#include "kernel_operator.h"
#include "tiling_key/demo_tiling_key.h"

template <uint32_t schMode, int dType, uint32_t unroll>
__global__ __aicore__ void tiling_key_demo(GM_ADDR out) {
    using T = typename TypeFromId<dType>::type;
    AscendC::GlobalTensor<T> gm;
    gm.SetGlobalBuffer((__gm__ T*)out, 16);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 32);
    AscendC::LocalTensor<T> t = buf.Get<T>();
    AscendC::Duplicate(t, T(float(schMode * 100 + unroll)), 16);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(gm, t, 16);
}
template __global__ __aicore__ void tiling_key_demo<5, ge::DT_FLOAT16, 4>(GM_ADDR);

// A kernel that declares no tiling struct of its own: GET_TILING_DATA and friends
// use the classes generated from demo_tiling.h's registration, as under CANN.
#include "kernel_operator.h"

// The generated layout is the host's: every field where SaveToBuffer puts it.
static_assert(sizeof(DemoShape) == 8 && offsetof(DemoShape, cols) == 4, "nested struct layout");
static_assert(offsetof(DemoTilingData, scale) == 4 && offsetof(DemoTilingData, dims) == 8 &&
                  offsetof(DemoTilingData, total) == 16 && offsetof(DemoTilingData, shape) == 24 &&
                  offsetof(DemoTilingData, softmax) == 32 && offsetof(DemoTilingData, tail) == 96 &&
                  sizeof(DemoTilingData) == 104,
              "top-level layout");
static_assert(std::is_same_v<decltype(DemoTilingData::softmax), AscendC::tiling::SoftMaxTiling>,
              "an advanced API's struct is the kernel_tiling.h one");

namespace {
constexpr int kOut = 16;

__aicore__ void write_out(GM_ADDR out, const int64_t (&v)[kOut]) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kOut * sizeof(int64_t));
    AscendC::LocalTensor<int64_t> t = buf.Get<int64_t>();
    for (int i = 0; i < kOut; ++i) t.SetValue(i, v[i]);
    AscendC::GlobalTensor<int64_t> gm;
    gm.SetGlobalBuffer((__gm__ int64_t*)out, kOut);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(gm, t, kOut);
}
}  // namespace

extern "C" __global__ __aicore__ void tiling_demo(GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling) {
    if (TILING_KEY_IS(7)) {
        GET_TILING_DATA_WITH_STRUCT(DemoKeyTiling, keyed, tiling);
        const int64_t v[kOut] = {keyed.only};
        write_out(out, v);
        return;
    }
    GET_TILING_DATA(t, tiling);
    GET_TILING_DATA_MEMBER(DemoTilingData, shape, shape, tiling);
    const int64_t v[kOut] = {t.mode,     int64_t(t.scale * 1000), t.dims[0],       t.dims[1],
                             t.dims[2],  t.total,                 t.shape.rows,    t.shape.cols,
                             t.softmax.srcM, t.softmax.tailReduceSize, t.tail,     shape.rows,
                             shape.cols, 0,                       0,               0};
    write_out(out, v);
}

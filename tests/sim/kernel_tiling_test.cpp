// The kernel-side tiling header generated from a host registration
// (ascend_xent_kernel_tiling): a kernel with no struct of its own reads what
// SaveToBuffer wrote, field by field, through GET_TILING_DATA, _MEMBER and
// _WITH_STRUCT (a tiling key's class).
#include <cstring>

#include "tiling_gen/demo_tiling.h"
#include "tikicpulib.h"
#include "xtest.h"

extern "C" __global__ __aicore__ void tiling_demo(GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling);

namespace {
struct Gm {
    uint8_t* p;
    explicit Gm(size_t n) : p((uint8_t*)AscendC::GmAlloc(n)) {}
    ~Gm() { AscendC::GmFree(p); }
};
}  // namespace

XTEST(host_layout_has_cann_placeholders) {
    optiling::DemoTilingData t;
    XCHECK_EQ(t.GetDataSize(), size_t(104));
    XCHECK_EQ(optiling::DemoShape().GetDataSize(), size_t(8));
    std::string names;
    for (const optiling::FieldInfo& f : t.GetFieldInfo()) names += std::string(f.name_) + ",";
    XCHECK_EQ(names, std::string("mode,scalePH,scale,dims,totalPH,total,shape,softmax,tail,DemoTilingDataPH,"));
}

XTEST(kernel_reads_every_field_the_host_saved) {
    optiling::DemoTilingData host;
    host.set_mode(3);
    host.set_scale(1.5f);
    const int16_t dims[3] = {-7, 11, 300};
    host.set_dims(dims);
    host.set_total(-123456789012LL);
    host.shape.set_rows(640);
    host.shape.set_cols(99999);
    host.softmax.set_srcM(17);
    host.softmax.set_tailReduceSize(23);
    host.set_tail(0xABCDEF);
    Gm tiling(host.GetDataSize()), out(16 * sizeof(int64_t)), ws(32);
    host.SaveToBuffer(tiling.p, host.GetDataSize());
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_SET_TILING_KEY(1);
    ICPU_RUN_KF(tiling_demo, 1, out.p, ws.p, tiling.p);
    const int64_t want[13] = {3, 1500, -7, 11, 300, -123456789012LL, 640, 99999, 17, 23, 0xABCDEF, 640, 99999};
    int64_t got[16];
    std::memcpy(got, out.p, sizeof got);
    for (int i = 0; i < 13; ++i) XCHECK_EQ(got[i], want[i]);
}

XTEST(tiling_key_class_is_generated_too) {
    optiling::DemoKeyTiling host;
    host.set_only(4242);
    Gm tiling(host.GetDataSize()), out(16 * sizeof(int64_t)), ws(32);
    host.SaveToBuffer(tiling.p, host.GetDataSize());
    ICPU_SET_TILING_KEY(7);
    ICPU_RUN_KF(tiling_demo, 1, out.p, ws.p, tiling.p);
    int64_t got;
    std::memcpy(&got, out.p, sizeof got);
    XCHECK_EQ(got, int64_t(4242));
}

// z = x + y over half tensors, written from the descriptions of the seven
// configurations in asc-devkit's add_high_performance best-practice guide (cases
// 0-6): rows split evenly over the cores, static UB buffers at fixed addresses,
// SetFlag/WaitFlag between the pipes, one or two buffer sets, optional L2 bypass of
// the inputs, and the bank-group-aware layout of case 6.
#include "kernel_operator.h"
#include "timing_cases.h"

namespace {

using AscendC::HardEvent;

template <HardEvent E>
__aicore__ inline void Set(int32_t id) {
    AscendC::SetFlag<E>(id);
}
template <HardEvent E>
__aicore__ inline void Wait(int32_t id) {
    AscendC::WaitFlag<E>(id);
}

// UB byte addresses of x, y, z for buffer set s (0 = ping, 1 = pong).
struct Layout {
    uint32_t x[2], y[2], z[2];
};

Layout layout_of(const AddCase& c) {
    const uint32_t len = c.copyLen * 2;  // bytes of one buffer
    if (c.bankOffset)  // x and y of a set one 256 B step apart in bank groups; z sets apart
        return Layout{{0, 65536}, {len, 65536 + len}, {131072, 131072 + len}};
    if (c.doubleBuffer) return Layout{{0, 3 * len}, {len, 4 * len}, {2 * len, 5 * len}};
    return Layout{{0, 0}, {len, len}, {2 * len, 2 * len}};
}

void add_block(GM_ADDR xg, GM_ADDR yg, GM_ADDR zg, const AddCase c) {
    const uint32_t cores = AscendC::GetBlockNum(), idx = AscendC::GetBlockIdx();
    const uint32_t base = c.rows / cores, extra = c.rows % cores;
    const uint32_t myRows = base + (idx < extra ? 1 : 0);
    const uint32_t firstRow = idx * base + (idx < extra ? idx : extra);
    const uint64_t start = uint64_t(firstRow) * c.cols, total = uint64_t(myRows) * c.cols;
    AscendC::GlobalTensor<half> x, y, z;
    x.SetGlobalBuffer((__gm__ half*)xg + start, total);
    y.SetGlobalBuffer((__gm__ half*)yg + start, total);
    z.SetGlobalBuffer((__gm__ half*)zg + start, total);
    if (c.bypass) {
        x.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);
        y.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);
    }
    const Layout L = layout_of(c);
    const uint32_t sets = c.doubleBuffer ? 2 : 1;
    const uint64_t chunks = (total + c.copyLen - 1) / c.copyLen;
    for (uint64_t i = 0; i < chunks; ++i) {
        const int32_t s = int32_t(i % sets);
        const uint32_t len = uint32_t(std::min<uint64_t>(c.copyLen, total - i * c.copyLen));
        AscendC::LocalTensor<half> xl(AscendC::TPosition::VECCALC, L.x[s], c.copyLen);
        AscendC::LocalTensor<half> yl(AscendC::TPosition::VECCALC, L.y[s], c.copyLen);
        AscendC::LocalTensor<half> zl(AscendC::TPosition::VECCALC, L.z[s], c.copyLen);
        const bool reuse = i >= sets;  // this set's buffers were used by an earlier chunk
        if (c.scalar) {
            if (reuse) Wait<HardEvent::S_MTE2>(s);
            AscendC::DataCopy(xl, x[i * c.copyLen], len);
            AscendC::DataCopy(yl, y[i * c.copyLen], len);
            Set<HardEvent::MTE2_S>(s);
            Wait<HardEvent::MTE2_S>(s);
            if (reuse) Wait<HardEvent::MTE3_S>(s);
            for (uint32_t k = 0; k < len; ++k) zl.SetValue(k, half(float(xl.GetValue(k)) + float(yl.GetValue(k))));
            Set<HardEvent::S_MTE2>(s);
            Set<HardEvent::S_MTE3>(s);
            Wait<HardEvent::S_MTE3>(s);
            AscendC::DataCopy(z[i * c.copyLen], zl, len);
            Set<HardEvent::MTE3_S>(s);
        } else {
            if (reuse) c.serial ? Wait<HardEvent::MTE3_MTE2>(s) : Wait<HardEvent::V_MTE2>(s);
            AscendC::DataCopy(xl, x[i * c.copyLen], len);
            AscendC::DataCopy(yl, y[i * c.copyLen], len);
            Set<HardEvent::MTE2_V>(s);
            Wait<HardEvent::MTE2_V>(s);
            if (reuse) Wait<HardEvent::MTE3_V>(s);
            AscendC::Add(zl, xl, yl, len);
            if (!c.serial) Set<HardEvent::V_MTE2>(s);
            Set<HardEvent::V_MTE3>(s);
            Wait<HardEvent::V_MTE3>(s);
            AscendC::DataCopy(z[i * c.copyLen], zl, len);
            Set<HardEvent::MTE3_V>(s);
            if (c.serial) Set<HardEvent::MTE3_MTE2>(s);
        }
    }
    for (uint64_t s = 0; s < std::min<uint64_t>(sets, chunks); ++s) {  // the flags still set
        if (c.scalar) {
            Wait<HardEvent::S_MTE2>(int32_t(s));
            Wait<HardEvent::MTE3_S>(int32_t(s));
        } else {
            c.serial ? Wait<HardEvent::MTE3_MTE2>(int32_t(s)) : Wait<HardEvent::V_MTE2>(int32_t(s));
            Wait<HardEvent::MTE3_V>(int32_t(s));
        }
    }
}

}  // namespace

ascend_sim::LaunchTiming run_add_case(const AddCase& c) {
    const size_t n = size_t(c.rows) * c.cols;
    DeviceBuffer<half> x(n), y(n), z(n);
    for (size_t i = 0; i < n; ++i) {
        x[i] = half(float(i % 7));
        y[i] = half(0.5f);
    }
    auto* xp = reinterpret_cast<GM_ADDR>(x.data());
    auto* yp = reinterpret_cast<GM_ADDR>(y.data());
    auto* zp = reinterpret_cast<GM_ADDR>(z.data());
    ascend_sim::GmRegion rx(x.data(), n * 2, "x"), ry(y.data(), n * 2, "y"), rz(z.data(), n * 2, "z");
    ascend_sim::run_kernel("add_custom", c.cores, [&] { add_block(xp, yp, zp, c); });
    for (size_t i = 0; i < n; i += 4099)
        if (float(z[i]) != float(i % 7) + 0.5f) throw std::runtime_error("add_custom computed a wrong z");
    return ascend_sim::last_launch_timing();
}

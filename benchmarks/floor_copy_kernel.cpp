// The floor copy (floor_copy_kernel.h): each core copies one contiguous share of the
// tensor in DMAs of plan.copyBytes through plan.buffers UB buffers. Buffer s's copy out
// waits for its copy in (MTE2 -> MTE3), and its next copy in for that copy out (MTE3 ->
// MTE2): with three buffers the copy in of one runs beside the copy out of another and
// neither MTE waits for the scalar unit. The model prices UB bank conflicts for vector
// instructions only, and a copy has none, so the buffers simply sit back to back.
#include "floor_copy_kernel.h"

#include <algorithm>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"

namespace xent_bench {

namespace {

constexpr uint32_t kMaxCopyBytes = 49152;  // 3 x 48 KiB of UB: the largest copies 3 buffers hold in 184 KiB
constexpr uint32_t kBuffers = 3;

template <class T>
__aicore__ inline void FloorCopyBlock(GM_ADDR src, GM_ADDR dst, const FloorCopyPlan& plan) {
    using AscendC::HardEvent;
    constexpr uint64_t kPerBlock = 32 / sizeof(T);  // a share starts on a 32-byte boundary
    const uint64_t cores = AscendC::GetBlockNum(), idx = AscendC::GetBlockIdx();
    const uint64_t granules = (plan.elems + kPerBlock - 1) / kPerBlock;
    const uint64_t first = std::min(plan.elems, granules * idx / cores * kPerBlock);
    const uint64_t last = std::min(plan.elems, granules * (idx + 1) / cores * kPerBlock);
    AscendC::GlobalTensor<T> in, out, outAround;
    in.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(src), plan.elems);
    out.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(dst), plan.elems);
    outAround.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(dst), plan.elems);
    in.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);  // read once: no use keeping it in the L2
    outAround.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);
    const uint64_t copyElems = plan.copyBytes / sizeof(T);
    const uint64_t copies = (last - first + copyElems - 1) / copyElems;
    const uint64_t around = static_cast<uint64_t>(static_cast<double>(copies) * plan.outBypassFraction);
    for (uint64_t i = 0; i < copies; ++i) {
        const int32_t s = static_cast<int32_t>(i % plan.buffers);
        const uint64_t at = first + i * copyElems;
        const uint32_t bytes = static_cast<uint32_t>(std::min(copyElems, last - at) * sizeof(T));
        const AscendC::LocalTensor<T> ub(AscendC::TPosition::VECCALC, s * plan.copyBytes,
                                         static_cast<uint32_t>(copyElems));
        if (i >= plan.buffers) AscendC::WaitFlag<HardEvent::MTE3_MTE2>(s);  // its last copy out has left
        AscendC::DataCopyPad(ub, in[at], AscendC::DataCopyExtParams(1, bytes, 0, 0, 0),
                             AscendC::DataCopyPadExtParams<T>(false, 0, 0, 0));
        AscendC::SetFlag<HardEvent::MTE2_MTE3>(s);
        AscendC::WaitFlag<HardEvent::MTE2_MTE3>(s);
        AscendC::DataCopyPad(i < around ? outAround[at] : out[at], ub, AscendC::DataCopyExtParams(1, bytes, 0, 0, 0));
        AscendC::SetFlag<HardEvent::MTE3_MTE2>(s);
    }
    for (uint64_t s = 0; s < std::min<uint64_t>(plan.buffers, copies); ++s)
        AscendC::WaitFlag<HardEvent::MTE3_MTE2>(static_cast<int32_t>(s));
}

}  // namespace

FloorCopyPlan PlanFloorCopy(uint64_t elems, uint32_t elemBytes, uint32_t cores, uint64_t ubBytes, uint64_t l2Bytes) {
    FloorCopyPlan p;
    p.elems = elems;
    p.elemBytes = elemBytes;
    p.buffers = kBuffers;
    p.copyBytes = static_cast<uint32_t>(std::min<uint64_t>(kMaxCopyBytes, ubBytes / kBuffers / 32 * 32));
    const uint64_t bytes = elems * elemBytes;
    p.blockDim = static_cast<uint32_t>(std::max<uint64_t>(1, std::min<uint64_t>(cores, bytes / p.copyBytes)));
    p.outBypassFraction = bytes > l2Bytes ? 1.0 - static_cast<double>(l2Bytes) / static_cast<double>(bytes) : 0.0;
    return p;
}

ascend_sim::LaunchTiming RunFloorCopy(void* src, void* dst, const FloorCopyPlan& plan) {
    auto* s = static_cast<GM_ADDR>(src);
    auto* d = static_cast<GM_ADDR>(dst);
    const bool was = ascend_sim::timing_enabled();
    ascend_sim::set_timing(1);
    ascend_sim::run_kernel("floor_copy", plan.blockDim, [&] {
        if (plan.elemBytes == 4) FloorCopyBlock<float>(s, d, plan);
        else FloorCopyBlock<half>(s, d, plan);
    });
    if (!was) ascend_sim::set_timing(-1);
    return ascend_sim::last_launch_timing();
}

}  // namespace xent_bench

// The platform figures the tiling needs, from CANN's PlatformAscendC (CANN
// build; the simulator build reads its SoC profile in platform_info_sim.cpp).
// PlatformAscendCManager::GetInstance() identifies the NPU of the calling
// thread's device, so aclrtSetDevice must have been called; when it cannot, it
// returns nullptr and the tiling then fails with "platform reports 0 vector cores".
#include "platform_info.h"

#include "tiling/platform/platform_ascendc.h"

namespace xent {
namespace {

// Left out of the UB the tiling may fill: the 8 KiB that a default Ascend C
// build reserves at the top of UB for API scratch (TMP_UB_SIZE on 2201), and
// the 256 B the framework keeps in mix kernels (this one is
// KERNEL_TYPE_MIX_AIV_1_0). Conservative where the figure already excludes them.
constexpr uint64_t kUbReservedBytes = 8 * 1024 + 256;

}  // namespace

TilingPlatform CurrentPlatform() {
    TilingPlatform t;
    const platform_ascendc::PlatformAscendC* p = platform_ascendc::PlatformAscendCManager::GetInstance();
    if (p == nullptr) {
        t.vectorCores = 0;
        return t;
    }
    // The kernel is vector-only: one block per AIV core.
    t.vectorCores = p->GetCoreNumAiv();
    uint64_t ub = 0;
    p->GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    t.ubBytes = ub > kUbReservedBytes ? ub - kUbReservedBytes : 0;
    // The user workspace starts this far into the workspace; the kernel's
    // GetUserWorkspace() skips RESERVED_WORKSPACE (16 MiB on 2201 and 3510),
    // which is what GetLibApiWorkSpaceSize() reports there.
    t.libApiWorkspaceBytes = p->GetLibApiWorkSpaceSize();
    uint64_t l2 = 0;
    p->GetCoreMemSize(platform_ascendc::CoreMemType::L2, l2);
    if (l2 > 0) t.l2Bytes = l2;
    return t;
}

}  // namespace xent

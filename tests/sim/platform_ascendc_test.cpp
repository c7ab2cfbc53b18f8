// tiling/platform/platform_ascendc.h: PlatformAscendC answers from the
// simulator's SoC profiles (the values checked against the profile table and
// platform_ascendc.cpp's rules).
#include <cstdint>
#include <stdexcept>

#include "ascend_sim/sim.h"
#include "tiling/platform/platform_ascendc.h"
#include "xtest.h"

using platform_ascendc::CoreMemType;
using platform_ascendc::PlatformAscendC;

namespace {
const ascend_sim::SocProfile& profile(const char* name) {
    for (const auto& p : ascend_sim::profiles())
        if (p.name == name) return p;
    throw std::invalid_argument(name);
}
}  // namespace

XTEST(the_910b_platform_reports_its_cores_ub_and_workspaces) {
    PlatformAscendC p(profile("ascend910b3"));
    XCHECK_EQ(p.GetCoreNum(), 40u);
    XCHECK_EQ(p.GetCoreNumAiv(), 40u);
    XCHECK_EQ(p.GetCoreNumAic(), 20u);
    uint64_t ub = 0;
    p.GetCoreMemSize(CoreMemType::UB, ub);
    XCHECK_EQ(ub, uint64_t(192 * 1024 - 256));  // TOTAL_UB_SIZE less the 910B KFC reserve
    p.ReserveLocalMemory(platform_ascendc::ReservedSize::RESERVED_SIZE_16K);
    p.GetCoreMemSize(CoreMemType::UB, ub);
    XCHECK_EQ(ub, uint64_t(192 * 1024 - 256 - 16 * 1024));
    XCHECK_EQ(p.GetLibApiWorkSpaceSize(), 16u << 20);
    XCHECK_EQ(p.GetResGroupBarrierWorkSpaceSize(), 1u << 20);
    XCHECK(p.GetSocVersion() == platform_ascendc::SocVersion::ASCEND910B);
    XCHECK(p.GetCurNpuArch() == NpuArch::DAV_2201);
    XCHECK_EQ(p.GetVecRegLen(), 0u);
    // 40 slices over 20 AIC / 40 AIV: two AIV per AIC, 20 blocks; more than the AIC count is refused (0).
    XCHECK_EQ(p.CalcTschNumBlocks(40, 20, 40), 20u);
    XCHECK_EQ(p.CalcTschNumBlocks(41, 20, 40), 0u);
    XCHECK_EQ(p.CalcTschNumBlocks(7, 0, 40), 7u);
    uint64_t l1 = 0;
    XCHECK_THROWS_WITH(p.GetCoreMemSize(CoreMemType::L1, l1), "only CoreMemType::UB");
}

XTEST(the_950_platform_is_regbase_without_the_910b_reserves) {
    PlatformAscendC p(profile("ascend950"));
    uint64_t ub = 0;
    p.GetCoreMemSize(CoreMemType::UB, ub);
    XCHECK_EQ(ub, profile("ascend950").ubBytes + 8192);
    XCHECK(p.GetSocVersion() == platform_ascendc::SocVersion::ASCEND950);
    XCHECK_EQ(p.GetVecRegLen(), 256u);
    XCHECK_EQ(p.GetResGroupBarrierWorkSpaceSize(), uint32_t(-1));
}

XTEST(the_manager_maps_cann_soc_names_and_keeps_its_first_instance) {
    PlatformAscendC* p = platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B4-1");
    XCHECK(p != nullptr);
    XCHECK_EQ(p->GetCoreNumAiv(), profile("ascend910b4").vectorCores);
    XCHECK(platform_ascendc::PlatformAscendCManager::GetInstance("Ascend950PR_9589") == p);
    XCHECK(platform_ascendc::PlatformAscendCManager::GetInstance() == p);
}

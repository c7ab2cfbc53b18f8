// Host platform queries for tiling code (CANN: include/utils/tiling/platform/
// platform_ascendc.h, impl/utils/tiling/platform/platform_ascendc.cpp), answered
// from the simulator's SoC profiles (ascend_sim/sim.h) instead of CANN's
// platform ini files. PlatformAscendCManager::GetInstance(socVersion) takes a
// CANN SoC name ("Ascend910B1", "Ascend910_9392", "Ascend950PR_9589", ...);
// GetInstance() the profile in force. As in CANN the first call fixes the
// instance. Memory sizes beyond the UB (L0, L1, L2, HBM, FB, BT) belong to
// parts the simulator does not model: asking for them throws.
#pragma once
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>

#include "ascend_sim/sim.h"

enum class NpuArch : uint32_t { DAV_2201 = 2201, DAV_3510 = 3510 };

namespace platform_ascendc {

enum class CoreMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, FB = 7, BT = 8, RESERVED };

enum class SocVersion {
    ASCEND910 = 0,
    ASCEND910B,
    ASCEND310P,
    ASCEND310B,
    ASCEND950,
    ASCEND910_55,
    ASCEND910_95 = ASCEND950,
    AS31XM1,
    ASCEND031,
    ASCEND035,
    ASCEND310,
    ASCEND610,
    ASCEND610Lite,
    ASCEND910_93,
    BS9SX1A,
    BS9SX2A,
    HI3796CV300CS,
    HI3796CV300ES,
    MC61AM21A,
    MC62,
    SD3403,
    KIRINX90,
    KIRIN9030,
    MC32DM11A,
    ASCEND350,
    RESERVED_VERSION = 99999
};

enum class ReservedSize { RESERVED_SIZE_8K, RESERVED_SIZE_16K, RESERVED_SIZE_32K };

class PlatformAscendC {
public:
    PlatformAscendC() = delete;
    ~PlatformAscendC() = default;
    explicit PlatformAscendC(ascend_sim::SocProfile profile) : prof_(std::move(profile)) {}

    // Separated (Cube/Vector) mode on A2, A3 and 950: the vector cores.
    uint32_t GetCoreNum(void) const { return prof_.vectorCores; }
    uint32_t GetCoreNumAic(void) const { return prof_.vectorCores / 2; }  // one AIC per two AIV
    uint32_t GetCoreNumAiv(void) const { return prof_.vectorCores; }
    uint32_t GetCoreNumVector(void) const { return 0; }  // 310P only
    uint32_t CalcTschNumBlocks(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
        if (aicCoreNum == 0 || aivCoreNum == 0 || aicCoreNum > aivCoreNum) return sliceNum;
        const uint32_t ratio = aivCoreNum / aicCoreNum;
        const uint32_t blocks = (sliceNum + ratio - 1) / ratio;
        return ratio == 2 && blocks > aicCoreNum ? 0 : blocks;
    }
    uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
        return CalcTschNumBlocks(sliceNum, aicCoreNum, aivCoreNum);
    }
    uint32_t GetLibApiWorkSpaceSize(void) const { return uint32_t(prof_.libApiWorkspaceBytes); }
    // 1 MiB on the 910B family; CANN returns -1 elsewhere.
    uint32_t GetResCubeGroupWorkSpaceSize(void) const { return is_910b() ? 1u << 20 : uint32_t(-1); }
    uint32_t GetResGroupBarrierWorkSpaceSize(void) const { return is_910b() ? 1u << 20 : uint32_t(-1); }
    // UB: TOTAL_UB_SIZE less 256 B on the 910B family (the KFC reserve) and what
    // ReserveLocalMemory reserved.
    // L2: the profile's (Ascend910B2.ini l2_size on A2).
    void GetCoreMemSize(const CoreMemType& memType, uint64_t& size) const {
        if (memType == CoreMemType::L2) {
            size = prof_.l2Bytes;
            return;
        }
        if (memType != CoreMemType::UB)
            throw std::invalid_argument("PlatformAscendC::GetCoreMemSize: only CoreMemType::UB and L2 are modelled "
                                        "(the simulator has no cube memories or HBM size)");
        size = prof_.ubBytes + 8192 - (is_910b() ? 256 : 0) - reserved_;
    }
    void ReserveLocalMemory(ReservedSize size) {
        reserved_ = size == ReservedSize::RESERVED_SIZE_8K    ? 8u << 10
                    : size == ReservedSize::RESERVED_SIZE_16K ? 16u << 10
                                                              : 32u << 10;
    }
    SocVersion GetSocVersion(void) const { return prof_.npuArch == 3510 ? SocVersion::ASCEND950 : SocVersion::ASCEND910B; }
    NpuArch GetCurNpuArch(void) const { return NpuArch(prof_.npuArch); }
    // Non-RegBase architectures (2201) return 0; 3510's vector registers are 256 B (VECTOR_REG_WIDTH).
    uint32_t GetVecRegLen(void) const { return prof_.npuArch == 3510 ? 256 : 0; }

private:
    bool is_910b() const { return prof_.npuArch == 2201; }
    ascend_sim::SocProfile prof_;
    uint32_t reserved_ = 0;
};

class PlatformAscendCManager {
public:
    static PlatformAscendC* GetInstance() { return instance(nullptr); }
    static PlatformAscendC* GetInstance(const char* customSocVersion) { return instance(customSocVersion); }

private:
    PlatformAscendCManager() = default;
    // The profile for a CANN SoC name, as the tikicpulib package maps them; nullptr when none fits.
    static const ascend_sim::SocProfile* profile_for(const std::string& soc) {
        const auto starts = [&](const char* p) { return soc.rfind(p, 0) == 0; };
        const char* name = soc == "Ascend910B1" || soc == "Ascend910B2" || soc == "Ascend910B2C" ? "ascend910b"
                           : soc == "Ascend910B3"                                            ? "ascend910b3"
                           : soc == "Ascend910B4" || soc == "Ascend910B4-1"                  ? "ascend910b4"
                           : starts("Ascend910_93")                                          ? "ascend910_93"
                           : starts("Ascend950")                                             ? "ascend950"
                                                                                             : nullptr;
        if (!name) return nullptr;
        for (const auto& p : ascend_sim::profiles())
            if (p.name == name) return &p;
        return nullptr;
    }
    static PlatformAscendC* instance(const char* soc) {
        static std::mutex mu;
        static PlatformAscendC* platform = nullptr;
        const std::lock_guard<std::mutex> lock(mu);
        if (platform == nullptr) {
            if (soc == nullptr) {
                platform = new PlatformAscendC(ascend_sim::current_profile());
            } else if (const ascend_sim::SocProfile* p = profile_for(soc)) {
                platform = new PlatformAscendC(*p);
            }
        }
        return platform;
    }
};

}  // namespace platform_ascendc

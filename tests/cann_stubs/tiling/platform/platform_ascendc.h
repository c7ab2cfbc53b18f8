// STAND-IN for CANN's tiling/platform/platform_ascendc.h, for the -fsyntax-only
// check in tests/cann only (see tests/cann_stubs/README.md). Declarations only;
// not CANN. Only the members op_host/platform_info_cann.cpp calls.
#ifndef XENT_CANN_STUB_PLATFORM_ASCENDC_H_
#define XENT_CANN_STUB_PLATFORM_ASCENDC_H_

#include <cstdint>

namespace platform_ascendc {

enum class CoreMemType { L0_A = 0, L0_B, L0_C, L1, L2, UB = 5, HBM, FB, BT, RESERVED };

class PlatformAscendC {
public:
    uint32_t GetCoreNumAiv() const;
    void GetCoreMemSize(const CoreMemType& memType, uint64_t& size) const;
    uint32_t GetLibApiWorkSpaceSize() const;
};

class PlatformAscendCManager {
public:
    static PlatformAscendC* GetInstance();
    static PlatformAscendC* GetInstance(const char* customSocVersion);
};

}  // namespace platform_ascendc

#endif

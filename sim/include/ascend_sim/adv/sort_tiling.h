// The host tmp sizes of the sort family (asc-devkit include/adv_api/sort/
// sort_tiling_intf.h; impl/adv_api/tiling/sort/sort_tiling_impl.cpp ::
// GetConcatTmpSize, GetSortTmpSize, GetSortMaxMinTmpSize). On A2 Concat needs
// no tmp and Sort's tmp is the proposals' size (8 B an element). The SortConfig
// form of Sort exists only on the 950 family: its GetSortMaxMinTmpSize is
// refused (asc-devkit logs "Unsupported NpuArch" and leaves both sizes unset).
#pragma once
#include <cstdint>
#include <string>

#include "../sim.h"
#include "tensor_shape.h"
#include "tiling/platform/platform_ascendc.h"

namespace AscendC {

enum class SortType { RADIX_SORT, MERGE_SORT };

// One struct for the kernel's and the host's SortConfig (the kernel's has the first two fields).
struct SortConfig {
    SortType type = SortType::RADIX_SORT;
    bool isDescend = false;
    bool hasSrcIndex = false;
    bool hasDstIndex = false;
};
constexpr SortConfig DEFAULT_SORT_CONFIG = {SortType::RADIX_SORT, false};

namespace sim_adv {
[[noreturn]] inline void host_fail(const char* api, const char* what, const std::string& msg) {
    throw ascend_sim::SimViolation(api, -1, what, std::string("[ascend_sim] ") + api + ": " + msg);
}
// CheckSortHostCommon: a positive count of half or float that fits in the UB.
inline void check_sort_host(const char* api, const platform_ascendc::PlatformAscendC& p, uint32_t elemCount,
                            uint32_t typeSize) {
    if (elemCount == 0) host_fail(api, "elemCount 0", "elemCount must be greater than 0");
    if (typeSize != 2 && typeSize != 4)
        host_fail(api, "type size unsupported", "dataTypeSize " + std::to_string(typeSize) + " is not 2 or 4");
    uint64_t ub = 0;
    p.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    if (uint64_t(elemCount) * typeSize >= ub)
        host_fail(api, "source beyond UB",
                  std::to_string(uint64_t(elemCount) * typeSize) + " B of source is not less than the UB size");
}
}  // namespace sim_adv

inline uint32_t GetConcatTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const uint32_t elemCount,
                                 const uint32_t dataTypeSize) {
    sim_adv::check_sort_host("GetConcatTmpSize", ascendcPlatform, elemCount, dataTypeSize);
    return 0;  // A2 and 950: Concat takes src as it is
}

inline uint32_t GetSortTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const uint32_t elemCount,
                               const uint32_t dataTypeSize) {
    sim_adv::check_sort_host("GetSortTmpSize", ascendcPlatform, elemCount, dataTypeSize);
    return elemCount * 8;  // one 8 B proposal an element
}

// The simulator models the A2 path, where asc-devkit rejects the NpuArch and leaves both sizes unset.
inline void GetSortMaxMinTmpSize(const TensorShape&, TensorDataType, TensorDataType, bool, const SortConfig&,
                                 uint32_t&, uint32_t&) {
    sim_adv::host_fail("GetSortMaxMinTmpSize", "not on A2",
                       "the Sort with SortConfig exists only on the 950 family (asc-devkit rejects this NpuArch and "
                       "leaves maxValue and minValue unset); on A2 Sort<T, isFullSort> takes GetSortTmpSize's tmp");
}

}  // namespace AscendC

// DCache control beyond DataCacheCleanAndInvalid(GlobalTensor) and the scalar
// GM accesses that bypass the DCache (CANN: kernel_operator_cache_intf.h,
// kernel_operator_scalar_intf.h; dav_c220 kernel_operator_cache_impl.h, kernel_scalar.h).
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "device_runtime.h"
#include "kernel_defs.h"
#include "kernel_tensor.h"

namespace AscendC {

// Fetches the 64-byte line holding src + cacheOffset bytes into the DCache (dc_preload).
template <typename T>
void DataCachePreload(const GlobalTensor<uint64_t>& src, const T cacheOffset) {
    static_assert(std::is_same_v<T, int16_t> || std::is_same_v<T, int64_t>,
                  "DataCachePreload: cacheOffset is int16_t or int64_t");
    const auto* p = reinterpret_cast<const uint8_t*>(src.GetPhyAddr()) + cacheOffset;
    ascend_sim::detail::dcache_preload("DataCachePreload", {p, p, 0});
}

// The UB form (DcciUBImpl): the simulator models no DCache over UB, so nothing to clean.
template <typename T, CacheLine entireType, DcciDst dcciDst>
void DataCacheCleanAndInvalid(const LocalTensor<T>&) {}

namespace sim_cache {
template <class T>
constexpr bool bypass_type() {
    return std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t> || std::is_same_v<T, int16_t> ||
           std::is_same_v<T, uint16_t> || std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> ||
           std::is_same_v<T, int64_t> || std::is_same_v<T, uint64_t>;
}
}  // namespace sim_cache

// st_dev: writes GM directly; a DCache copy of the line goes stale. A GM flag
// write: it publishes this block's completed accesses (ib_sync.cpp).
template <typename T>
void WriteGmByPassDCache(__gm__ T* addr, T value) {
    static_assert(sim_cache::bypass_type<T>(),
                  "WriteGmByPassDCache: A2/A3 support int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, "
                  "int64_t and uint64_t");
    ascend_sim::detail::scalar_gm_bypass("WriteGmByPassDCache", {addr, addr, 0}, sizeof(T), true, &value);
}

// ld_dev: reads GM directly, past any DCache copy of the line; seeing a GM flag
// write, it learns what that write published.
template <typename T>
T ReadGmByPassDCache(__gm__ T* addr) {
    static_assert(sim_cache::bypass_type<T>(),
                  "ReadGmByPassDCache: A2/A3 support int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, "
                  "int64_t and uint64_t");
    T v;
    ascend_sim::detail::scalar_gm_bypass("ReadGmByPassDCache", {addr, addr, 0}, sizeof(T), false, &v);
    return v;
}

}  // namespace AscendC

// The two bounded copies of Huawei's securec library (libc_sec) that CANN host
// code calls, for programs built without CANN: the tiling headers bring this in,
// as CANN's do. Return codes as securec's: 0 (EOK), or an errno value, with
// 0x80 set where the destination was zeroed ("_AND_RESET").
#pragma once
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>

#ifndef EOK
#define EOK 0
#endif
typedef int errno_t;

namespace ascend_sim::securec {
constexpr size_t kMaxLen = size_t(0x7fffffff);  // SECUREC_MEM_MAX_LEN
constexpr int kReset = 0x80;
inline bool overlap(const void* a, size_t an, const void* b, size_t bn) {
    const auto x = reinterpret_cast<uintptr_t>(a), y = reinterpret_cast<uintptr_t>(b);
    return x < y + bn && y < x + an;
}
}  // namespace ascend_sim::securec

inline errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count) {
    namespace s = ascend_sim::securec;
    if (destMax == 0 || destMax > s::kMaxLen) return ERANGE;
    if (dest == nullptr) return EINVAL;
    if (src == nullptr) {
        std::memset(dest, 0, destMax);
        return EINVAL | s::kReset;
    }
    if (count > destMax) {
        std::memset(dest, 0, destMax);
        return ERANGE | s::kReset;
    }
    if (s::overlap(dest, count, src, count)) {
        std::memset(dest, 0, destMax);
        return 54 | s::kReset;  // EOVERLAP_AND_RESET
    }
    if (count > 0) std::memcpy(dest, src, count);
    return EOK;
}

inline errno_t memset_s(void* dest, size_t destMax, int c, size_t count) {
    namespace s = ascend_sim::securec;
    if (destMax == 0 || destMax > s::kMaxLen) return ERANGE;
    if (dest == nullptr) return EINVAL;
    if (count > destMax) {
        std::memset(dest, c, destMax);
        return ERANGE | s::kReset;
    }
    std::memset(dest, c, count);
    return EOK;
}

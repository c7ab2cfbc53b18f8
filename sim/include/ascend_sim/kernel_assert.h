// The failure path of the kernel-side assert (utils/debug/asc_assert.h).
#pragma once
#include <cstdio>
#include <string>

#include "device_runtime.h"

namespace ascend_sim::twin {

[[noreturn]] void assert_failed_msg(const char* expr, const char* file, unsigned line, const char* func,
                                    const std::string& msg);

inline void assert_failed(const char* expr, const char* file, unsigned line, const char* func) {
    assert_failed_msg(expr, file, line, func, std::string());
}
template <class... Args>
void assert_failed(const char* expr, const char* file, unsigned line, const char* func, const char* fmt,
                   Args... args) {
    char buf[1024];
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-security"
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    std::snprintf(buf, sizeof buf, fmt, args...);
#pragma GCC diagnostic pop
    assert_failed_msg(expr, file, line, func, buf);
}

}  // namespace ascend_sim::twin

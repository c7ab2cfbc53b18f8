// AscendC::printf / PRINTF and DumpTensor, printed on the host. printf is
// std::printf, as in CANN's CPU twin (impl/utils/debug/asc_aicore_printf_impl.h);
// DumpTensor prints in the NPU's on-board format (上板打印/DumpTensor.md), where
// CANN's CPU twin asserts "DumpTensor is not supported in cpu mode". Neither
// is an instruction: no pipe, hazard or initcheck bookkeeping. ASCENDC_DUMP=0
// silences both, as in CANN.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>

#include "kernel_tensor.h"
#include "numerics/types.h"  // half, bfloat16_t: the header may be the only one a kernel includes

namespace AscendC {

template <class... Args>
void printf(const char* fmt, Args&&... args) {
#if !(defined(ASCENDC_DUMP) && ASCENDC_DUMP == 0)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-security"
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    std::printf(fmt, args...);
#pragma GCC diagnostic pop
#else
    (void)fmt;
    ((void)args, ...);
#endif
}

template <class... Args>
void PRINTF(const char* fmt, Args&&... args) {
    AscendC::printf(fmt, args...);
}

namespace sim_print {
template <class T>
const char* dtype_name() {
    if constexpr (std::is_same_v<T, half>) return "float16";
    else if constexpr (std::is_same_v<T, bfloat16_t>) return "bfloat16";
    else if constexpr (std::is_same_v<T, float>) return "float32";
    else if constexpr (std::is_same_v<T, bool>) return "bool";
    else if constexpr (std::is_same_v<T, int8_t>) return "int8";
    else if constexpr (std::is_same_v<T, uint8_t>) return "uint8";
    else if constexpr (std::is_same_v<T, int16_t>) return "int16";
    else if constexpr (std::is_same_v<T, uint16_t>) return "uint16";
    else if constexpr (std::is_same_v<T, int32_t>) return "int32";
    else if constexpr (std::is_same_v<T, uint32_t>) return "uint32";
    else if constexpr (std::is_same_v<T, int64_t>) return "int64";
    else if constexpr (std::is_same_v<T, uint64_t>) return "uint64";
    else return "unknown";
}

template <class T>
void dump(const T* p, uint32_t desc, uint64_t addr, const char* position, uint32_t dumpSize) {
#if !(defined(ASCENDC_DUMP) && ASCENDC_DUMP == 0)
    std::string line = "DumpTensor: desc=" + std::to_string(desc) + ", addr=";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%llx", (unsigned long long)addr);
    line += std::string(buf) + ", data_type=" + dtype_name<T>() + ", position=" + position +
            ", dump_size=" + std::to_string(dumpSize) + "\n[";
    for (uint32_t i = 0; i < dumpSize; ++i) {
        if constexpr (std::is_integral_v<T> && std::is_signed_v<T>)
            std::snprintf(buf, sizeof buf, "%lld", (long long)p[i]);
        else if constexpr (std::is_integral_v<T>)
            std::snprintf(buf, sizeof buf, "%llu", (unsigned long long)p[i]);
        else
            std::snprintf(buf, sizeof buf, "%f", double(float(p[i])));
        line += buf;
        if (i + 1 < dumpSize) line += ", ";
    }
    line += "]\n";
    std::fputs(line.c_str(), stdout);
#else
    (void)p, (void)desc, (void)addr, (void)position, (void)dumpSize;
#endif
}
}  // namespace sim_print

// dumpSize elements, at most the tensor's.
template <typename T>
void DumpTensor(const LocalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize) {
    const uint32_t n = dumpSize < tensor.GetSize() ? dumpSize : tensor.GetSize();
    sim_print::dump(tensor.GetPhyAddr(), desc, ascend_sim::detail::ub_offset("DumpTensor", tensor.GetPhyAddr()),
                    "UB", n);
}
template <typename T>
void DumpTensor(const GlobalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize) {
    const uint32_t n = tensor.GetSize() && dumpSize > tensor.GetSize() ? uint32_t(tensor.GetSize()) : dumpSize;
    sim_print::dump(tensor.GetPhyAddr(), desc, reinterpret_cast<uint64_t>(tensor.GetPhyAddr()), "GM", n);
}

}  // namespace AscendC

// The CPU-twin compatibility layer's out-of-line parts: LocalTensors on a raw
// UB address, the tiling copy, and the tiling key ICPU_SET_TILING_KEY sets.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "ascend_sim/kernel_defs.h"
#include "ascend_sim/kernel_assert.h"
#include "ascend_sim/runtime_state.h"

uint64_t g_tilingKey = 0;

namespace ascend_sim::detail {

void* ub_raw(const char* api, uint8_t pos, uint32_t addr, uint64_t bytes) {
    using AscendC::TPosition;
    Block& b = cur(api);
    const TPosition p = TPosition(pos);
    if (p != TPosition::VECIN && p != TPosition::VECOUT && p != TPosition::VECCALC)
        fail(api, "position not in UB", "position %s is not a UB position (VECIN, VECOUT or VECCALC)", pos_name(pos));
    // The checks of CANN's CPU twin (LocalTensor::CreateTensor).
    if (addr % 32 != 0) fail(api, "UB address not 32-byte aligned", "addr %u is not 32-byte aligned", addr);
    if (bytes == 0 || bytes % 32 != 0)
        fail(api, "tensor length not a multiple of 32", "tensor length %llu B is not a positive multiple of 32 B",
             (unsigned long long)bytes);
    if (addr + bytes > b.ubTotal)
        fail(api, "tensor beyond the UB", "addr %u + %llu B exceeds the UB's %llu B", addr, (unsigned long long)bytes,
             (unsigned long long)b.ubTotal);
    fill_ub(b, addr + bytes);  // never-written UB reads as 0xFF, as for InitBuffer
    return b.ub + addr;
}

UbRef ub_device_scratch(const char* api, uint32_t bytes) {
    Block& b = cur(api);
    return UbRef{b.ub + b.ubReserve, bytes, uint8_t(AscendC::TPosition::VECCALC)};
}

void tiling_copy(const char* api, void* dst, const void* src, size_t bytes) {
    const uint64_t lo = reinterpret_cast<uint64_t>(src);
    if (!src) fail(api, "null tiling", "the tiling pointer is null");
    if (!gm_lookup(lo, lo + bytes, nullptr))
        fail(api, "tiling outside GM", "the tiling struct's %zu B at %s are not inside one GM allocation (GmAlloc)",
             bytes, gm_describe(lo).c_str());
    std::memcpy(dst, src, bytes);
}

}  // namespace ascend_sim::detail

namespace ascend_sim::twin {

void assert_failed_msg(const char* expr, const char* file, unsigned line, const char* func, const std::string& msg) {
    if (detail::block_idx_or_none() < 0) {  // on the host: the C library's behaviour
        std::fprintf(stderr, "%s:%u: %s: Assertion `%s' failed.\n", file, line, func, expr);
        std::abort();
    }
    detail::fail("assert", "assertion failed", "%s:%u: %s: Assertion `%s' failed. %s", file, line, func, expr,
                 msg.c_str());
}

}  // namespace ascend_sim::twin

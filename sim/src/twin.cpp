// The CPU-twin compatibility layer's out-of-line parts: LocalTensors on a raw
// UB address, the tiling copy, the tiling key ICPU_SET_TILING_KEY sets, and the
// end of a CPU-twin program (twin_program.h).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>

#include "ascend_sim/kernel_defs.h"
#include "ascend_sim/kernel_assert.h"
#include "ascend_sim/runtime_state.h"
#include "ascend_sim/twin_program.h"

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

void ub_set_size(const char* api, const void* p, uint64_t bytes) {
    Block& b = cur(api);
    const uint64_t off = uint64_t(static_cast<const uint8_t*>(p) - b.ub);
    if (off + bytes > b.ubInitEnd)
        fail(api, "size beyond the UB", "size %llu B at UB %s reaches past the %llu B of UB the buffers may use",
             (unsigned long long)bytes, hex(off).c_str(), (unsigned long long)b.ubInitEnd);
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

namespace ascend_sim {
namespace {
std::mutex g_printedMu;
std::exception_ptr g_printed;  // the last violation ICPU_RUN_KF printed
std::terminate_handler g_previous = nullptr;

// An uncaught violation: printed once (ICPU_RUN_KF may have printed it), then
// abort as std::terminate would, without the runtime's second copy of what().
[[noreturn]] void on_terminate() {
    if (std::exception_ptr e = std::current_exception()) {
        try {
            std::rethrow_exception(e);
        } catch (const SimViolation& v) {
            bool printed;
            {
                std::lock_guard<std::mutex> lk(g_printedMu);
                printed = g_printed == e;
            }
            if (!printed) std::fprintf(stderr, "%s\n", v.what());
            std::fflush(stderr);
            std::abort();
        } catch (...) {
        }
    }
    if (g_previous) g_previous();
    std::abort();
}

// At exit: a run that went on after reports fails, with the count.
void on_exit() {
    const uint64_t hits = continued_report_hits();
    if (!hits) return;
    std::fprintf(stderr, "[ascend_sim] this run went on after %llu report(s) at %llu site(s) "
                         "(ASCEND_XENT_CONTINUE_ON_REPORT): exit status 1\n",
                 (unsigned long long)hits, (unsigned long long)continued_report_sites());
    std::fflush(nullptr);
    std::_Exit(1);
}
}  // namespace

void install_twin_program_hooks() {
    static std::once_flag once;
    std::call_once(once, [] {
        g_previous = std::set_terminate(on_terminate);
        std::atexit(on_exit);
    });
}

void twin_violation_printed(std::exception_ptr e) {
    std::lock_guard<std::mutex> lk(g_printedMu);
    g_printed = std::move(e);
}
}  // namespace ascend_sim

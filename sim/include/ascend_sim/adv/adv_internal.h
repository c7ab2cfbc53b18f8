// An advanced API's own instruction sequence (sim_adv::Internal, for the current
// block): the NPU implementation runs whole repeats and 16 B register loads over
// bytes the caller's calCount does not cover, so what its instructions read there
// is the implementation's business, not the kernel's. Inside the guard the
// initcheck and past-tensor reports of those instructions are muted; reads and
// writes outside UB still stop, and the hazard and initcheck bookkeeping (bytes
// written) is kept. The API checks what its contract covers before it enters
// (check_read: the caller's source over calCount elements).
#pragma once
#include <cstdint>

#include "../device_runtime.h"
#include "../kernel_tensor.h"

namespace ascend_sim::detail {
// access.cpp: the current block's depth of advanced-API internal sequences (Block::advInternal).
void adv_internal_enter(const char* api);
void adv_internal_leave() noexcept;
// initcheck.cpp: the initcheck of the first `bytes` of t, a read by `api` of its operand `role`.
void adv_read(const char* api, const UbRef& t, uint64_t bytes, const char* role);
}  // namespace ascend_sim::detail

namespace AscendC {
namespace sim_adv {

class Internal {
public:
    explicit Internal(const char* api) { ascend_sim::detail::adv_internal_enter(api); }
    ~Internal() { ascend_sim::detail::adv_internal_leave(); }
    Internal(const Internal&) = delete;
    Internal& operator=(const Internal&) = delete;
};

// The caller's source must hold `count` written elements.
template <class T>
void check_read(const char* api, const LocalTensor<T>& t, uint32_t count, const char* role) {
    ascend_sim::detail::adv_read(api, t.ub_ref(), uint64_t(count) * sizeof(T), role);
}

}  // namespace sim_adv
}  // namespace AscendC

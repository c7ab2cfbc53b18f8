// The parameter checks the advanced APIs share (asc-devkit's CPU-debug
// HighLevelApiCheck classes and the constraints of each API's page): the
// element count against the tensors, the sharedTmpBuffer's size against the
// minimum its GetXxxMaxMinTmpSize gives, and the operands that must not overlap.
#pragma once
#include <cstdint>
#include <type_traits>

#include "../device_runtime.h"
#include "../kernel_tensor.h"

namespace AscendC {
namespace sim_adv {

namespace d = ascend_sim::detail;

// CalCountCheckFuncBasicClass: calCount <= the tensor's size.
template <class T>
void check_count(const char* api, uint32_t count, const LocalTensor<T>& t, const char* role) {
    if (count > t.GetSize())
        d::fail(api, "count beyond tensor", "calCount %u is larger than %s's size %u", count, role, t.GetSize());
}

// The minimum of GetXxxMaxMinTmpSize: the API's loop splits its work by the
// buffer's size, so less than a repeat of scratch is outside what it supports.
inline void check_tmp(const char* api, const LocalTensor<uint8_t>& tmp, uint32_t minBytes, const char* getter) {
    if (tmp.GetSize() < minBytes)
        d::fail(api, "sharedTmpBuffer below the minimum",
                "sharedTmpBuffer holds %u B, less than the %u B minimum %s gives", tmp.GetSize(), minBytes, getter);
}

// "不支持...地址重叠" of the API's page: any shared byte among the first na / nb
// elements (the count an operand is used for; all of a sharedTmpBuffer).
template <class A, class B>
void check_disjoint(const char* api, const LocalTensor<A>& a, uint32_t nA, const char* ra, const LocalTensor<B>& b,
                    uint32_t nB, const char* rb) {
    const auto* pa = reinterpret_cast<const uint8_t*>(a.GetPhyAddr());
    const auto* pb = reinterpret_cast<const uint8_t*>(b.GetPhyAddr());
    const uint64_t na = uint64_t(nA) * sizeof(A), nb = uint64_t(nB) * sizeof(B);
    if (na && nb && pa < pb + nb && pb < pa + na)
        d::fail(api, "operands overlap", "%s [%llu, +%llu B) and %s [%llu, +%llu B) overlap; the API does not allow it",
                ra, (unsigned long long)d::ub_offset(api, pa), (unsigned long long)na, rb,
                (unsigned long long)d::ub_offset(api, pb), (unsigned long long)nb);
}

// The tmp of the forms without sharedTmpBuffer (kernel_pop_stack_buffer.h ::
// PopStackBuffer into TPosition::LCM): all the UB from the end of the TPipe's
// buffers to the stack end, refused under the API's name when none is left. The
// API then runs as its sharedTmpBuffer form with it, that form's size checks included.
template <class T = uint8_t>
LocalTensor<T> stack_tmp(const char* api) {
    return LocalTensor<T>::from_slot(d::pop_stack_buffer(api), TPosition::LCM);
}

// For the APIs whose form without sharedTmpBuffer the simulator does not provide yet.
template <class T>
inline constexpr bool no_stack_buffer_v = sizeof(T) == 0;
#define ASCEND_SIM_NEEDS_TMP(API)                                                                          \
    static_assert(::AscendC::sim_adv::no_stack_buffer_v<T>,                                                \
                  API ": the form without sharedTmpBuffer is not provided by the simulator; pass a sharedTmpBuffer")

}  // namespace sim_adv
}  // namespace AscendC

// The DMA atomic mode of later UB->GM copies (CANN: kernel_operator_set_atomic_intf.h,
// dav_c220 kernel_operator_set_atomic_impl.h). SetAtomicAdd/Max/Min set the
// operation and the element type the copies combine in; DisableDmaAtomic
// (SetAtomicNone) turns it off. A2 supports int8_t, int16_t, half, bfloat16_t,
// int32_t and float.
#pragma once
#include <type_traits>

#include "device_runtime.h"
#include "numerics/types.h"

namespace AscendC {

namespace sim_atomic {
template <class T>
constexpr ascend_sim::detail::AtomicType type_of() {
    using ascend_sim::detail::AtomicType;
    return std::is_same_v<T, float>        ? AtomicType::F32
           : std::is_same_v<T, half>       ? AtomicType::F16
           : std::is_same_v<T, int16_t>    ? AtomicType::S16
           : std::is_same_v<T, int32_t>    ? AtomicType::S32
           : std::is_same_v<T, int8_t>     ? AtomicType::S8
           : std::is_same_v<T, bfloat16_t> ? AtomicType::BF16
                                           : AtomicType::NONE;
}

template <class T>
void set(const char* api, ascend_sim::detail::AtomicOp op) {
    static_assert(type_of<T>() != ascend_sim::detail::AtomicType::NONE,
                  "SetAtomicType/SetAtomicAdd/SetAtomicMax/SetAtomicMin: A2/A3 support half, float, int16_t, "
                  "int32_t, int8_t and bfloat16_t");
    if (op != ascend_sim::detail::AtomicOp::NONE) ascend_sim::detail::set_atomic_op(api, op);
    ascend_sim::detail::set_atomic_type(api, type_of<T>());
}
}  // namespace sim_atomic

template <typename T>
void SetAtomicType(ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
    sim_atomic::set<T>("SetAtomicType", ascend_sim::detail::AtomicOp::NONE);
}
template <typename T>
void SetAtomicAdd(ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
    sim_atomic::set<T>("SetAtomicAdd", ascend_sim::detail::AtomicOp::ADD);
}
template <typename T>
void SetAtomicMax(ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
    sim_atomic::set<T>("SetAtomicMax", ascend_sim::detail::AtomicOp::MAX);
}
template <typename T>
void SetAtomicMin(ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
    sim_atomic::set<T>("SetAtomicMin", ascend_sim::detail::AtomicOp::MIN);
}
inline void DisableDmaAtomic(ASCEND_SIM_SITE) { ASCEND_SIM_ENTER; ascend_sim::detail::set_atomic_op("DisableDmaAtomic", ascend_sim::detail::AtomicOp::NONE); }
inline void SetAtomicNone(ASCEND_SIM_SITE) { ASCEND_SIM_ENTER; DisableDmaAtomic(); }

}  // namespace AscendC

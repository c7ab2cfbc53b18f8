// Tiling data and tiling keys in the kernel (Kernel-Tiling/*.md): the macros
// copy the tiling bytes the host passed (a GM pointer, as in CANN's CPU twin)
// into the user's struct; TILING_KEY_IS compares with the key
// ICPU_SET_TILING_KEY set. The copy checks the bytes lie in one GM allocation.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

extern uint64_t g_tilingKey;  // as CANN's kernel_utils_macros.h declares it for the CPU twin
#define TILING_KEY_VAR g_tilingKey
#define TILING_KEY_IS(k) (TILING_KEY_VAR == (k))
#define TILING_KEY_LIST(...) (ascend_sim::twin::key_in(TILING_KEY_VAR, __VA_ARGS__))

namespace ascend_sim {
namespace detail {
void tiling_copy(const char* api, void* dst, const void* src, size_t bytes);
}
namespace twin {
template <class... K>
bool key_in(uint64_t key, K... keys) {
    return ((key == uint64_t(keys)) || ...);
}
template <class S>
S load_tiling(const void* src, const char* api) {
    static_assert(std::is_trivially_copyable_v<S>, "a tiling struct is copied bytewise: make it trivially copyable");
    S s;
    detail::tiling_copy(api, &s, src, sizeof(S));
    return s;
}
}  // namespace twin
}  // namespace ascend_sim

// The struct GET_TILING_DATA fills: an alias at file scope (as ops-nn's kernels
// register it) or in the kernel's block. There is no global fallback, since a
// file-scope alias would clash with it; without a registration the compiler names
// the alias as undeclared.
#define REGISTER_TILING_DEFAULT(tiling_struct) using ascend_sim_tiling_struct_named_by_REGISTER_TILING_DEFAULT = tiling_struct
#define REGISTER_TILING_FOR_TILINGKEY(expression, tiling_struct) static_assert(true, "")
#define REGISTER_NONE_TILING

#define GET_TILING_DATA(tiling_data, tiling_arg)                                                              \
    ascend_sim_tiling_struct_named_by_REGISTER_TILING_DEFAULT tiling_data =                                   \
        ascend_sim::twin::load_tiling<ascend_sim_tiling_struct_named_by_REGISTER_TILING_DEFAULT>(tiling_arg,  \
                                                                                                "GET_TILING_DATA")
#define GET_TILING_DATA_WITH_STRUCT(tiling_struct, tiling_data, tiling_arg) \
    tiling_struct tiling_data = ascend_sim::twin::load_tiling<tiling_struct>(tiling_arg, "GET_TILING_DATA_WITH_STRUCT")
#define GET_TILING_DATA_MEMBER(tiling_type, member, var, tiling_arg)                                              \
    tiling_type ascend_sim_tiling_##var =                                                                          \
        ascend_sim::twin::load_tiling<tiling_type>(tiling_arg, "GET_TILING_DATA_MEMBER");                          \
    auto& var = ascend_sim_tiling_##var.member
#define GET_TILING_DATA_PTR_WITH_STRUCT(tiling_struct, dst_ptr, tiling_arg)                                       \
    const tiling_struct ascend_sim_tiling_##dst_ptr =                                                              \
        ascend_sim::twin::load_tiling<tiling_struct>(tiling_arg, "GET_TILING_DATA_PTR_WITH_STRUCT");               \
    const tiling_struct* dst_ptr = &ascend_sim_tiling_##dst_ptr
#define COPY_TILING_WITH_STRUCT(tiling_struct, src_ptr, dst_ptr)                                                  \
    const tiling_struct ascend_sim_tiling_##dst_ptr = *reinterpret_cast<const tiling_struct*>(src_ptr);           \
    const tiling_struct* dst_ptr = &ascend_sim_tiling_##dst_ptr

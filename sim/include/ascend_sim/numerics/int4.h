// int4b_t (CANN: AscendC::int4b_t; kernel_tensor_impl.h): a signed 4-bit
// integer, two to a byte in memory, element 2i in the low nibble and 2i + 1 in
// the high one. The scalar type holds one nibble in `storage`; a tensor of it
// counts elements, so its byte length is half its size (elem_bytes / byte_elems).
#pragma once
#include <cstdint>
#include <type_traits>

namespace AscendC {
struct int4b_t {
    uint8_t storage = 0;  // the low 4 bits, two's complement
    int4b_t() = default;
    template <class I, std::enable_if_t<std::is_integral_v<I>, int> = 0>
    constexpr int4b_t(I v) : storage(uint8_t(uint8_t(v) & 0xF)) {}
    constexpr operator int() const { return (storage & 0x8) ? int(storage) - 16 : int(storage); }
};
}  // namespace AscendC

namespace ascend_sim {
template <class T>
inline constexpr bool is_nibble_v = std::is_same_v<std::remove_cv_t<T>, AscendC::int4b_t>;
// Bytes of n elements of T, and elements of T in `bytes`.
template <class T>
constexpr uint64_t elem_bytes(uint64_t n) { return is_nibble_v<T> ? n / 2 : n * sizeof(T); }
template <class T>
constexpr uint64_t byte_elems(uint64_t bytes) { return is_nibble_v<T> ? bytes * 2 : bytes / sizeof(T); }
}  // namespace ascend_sim

// The small utilities kernels take from CANN's headers (impl/basic_api/utils/
// kernel_utils_ceil_oom_que.h, kernel_utils_constants.h): type traits and
// integer rounding.
#pragma once
#include <cstdint>

namespace AscendC {

template <bool b>
struct BoolInst {
    using Type = BoolInst<b>;
    static constexpr bool value = b;
};
using TrueType = BoolInst<true>;
using FalseType = BoolInst<false>;

template <typename T, typename U>
struct IsSameType : public FalseType {};
template <typename T>
struct IsSameType<T, T> : public TrueType {};

template <bool condition, class T1, class T2>
struct Conditional {
    using type = T1;
};
template <class T1, class T2>
struct Conditional<false, T1, T2> {
    using type = T2;
};
template <bool condition1, bool condition2, class T1, class T2, class T3, class T4>
struct ConditionalMulti {
    using type = typename Conditional<condition1, typename Conditional<condition2, T1, T2>::type,
                                      typename Conditional<condition2, T3, T4>::type>::type;
};

// Whether T is one of U, Args... (the dtype lists of static_asserts).
template <typename T, typename U, typename... Args>
constexpr bool SupportType() {
    if constexpr (sizeof...(Args) > 0) return IsSameType<T, U>::value || SupportType<T, Args...>();
    return IsSameType<T, U>::value;
}
template <auto T, auto U, auto... Args>
constexpr bool SupportEnum() {
    if constexpr (sizeof...(Args) > 0) return T == U || SupportEnum<T, Args...>();
    return T == U;
}

// uint32_t arithmetic, as CANN declares them (no guard against b == 0).
constexpr inline uint32_t DivCeil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
constexpr inline uint32_t AlignUp(uint32_t a, uint32_t b) { return DivCeil(a, b) * b; }
constexpr inline uint32_t ConstCeil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
inline uint32_t Ceil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
// 0 for a zero divisor.
inline int32_t CeilDivision(int32_t num1, int32_t num2) { return num2 == 0 ? 0 : (num1 + num2 - 1) / num2; }

}  // namespace AscendC

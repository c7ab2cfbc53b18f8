// AscendC::Std type traits (asc-devkit include/utils/std/type_traits.h,
// impl/utils/std/type_traits/*.h). Most are the C++ library's; three differ
// and are written out (with remove_cvref, C++20's): is_integral (bool and the char/short/int/long
// families only, plus any Std::integral_constant), is_floating_point (half
// counts as one), and is_one_of / is_one_of_value / is_constant, which the
// library lacks. Std::tuple and is_tuple are not modelled.
#pragma once
#include <type_traits>

#include "../numerics/types.h"  // half

namespace AscendC {
namespace Std {

using std::bool_constant;
using std::false_type;
using std::integral_constant;
using std::true_type;

using std::add_const;
using std::add_const_t;
using std::add_cv;
using std::add_cv_t;
using std::add_lvalue_reference;
using std::add_lvalue_reference_t;
using std::add_pointer;
using std::add_pointer_t;
using std::add_rvalue_reference;
using std::add_rvalue_reference_t;
using std::add_volatile;
using std::add_volatile_t;
using std::conditional;
using std::conditional_t;
using std::decay;
using std::decay_t;
using std::enable_if;
using std::enable_if_t;
using std::is_array;
using std::is_array_v;
using std::is_base_of;
using std::is_base_of_v;
using std::is_class;
using std::is_class_v;
using std::is_const;
using std::is_const_v;
using std::is_convertible;
using std::is_convertible_v;
using std::is_function;
using std::is_function_v;
using std::is_pointer;
using std::is_pointer_v;
using std::is_reference;
using std::is_reference_v;
using std::is_same;
using std::is_same_v;
using std::is_union;
using std::is_union_v;
using std::is_void;
using std::is_void_v;
using std::remove_const;
using std::remove_const_t;
using std::remove_cv;
using std::remove_cv_t;
using std::remove_extent;
using std::remove_extent_t;
using std::remove_pointer;
using std::remove_pointer_t;
using std::remove_reference;
using std::remove_reference_t;
using std::remove_volatile;
using std::remove_volatile_t;

// C++20's, for the C++17 the simulator builds with.
template <typename T>
struct remove_cvref {
    using type = remove_cv_t<remove_reference_t<T>>;
};
template <typename T>
using remove_cvref_t = typename remove_cvref<T>::type;

template <typename T, typename... Args>
struct is_one_of : false_type {};
template <typename T, typename Head, typename... Tail>
struct is_one_of<T, Head, Tail...> : conditional_t<is_same_v<T, Head>, true_type, is_one_of<T, Tail...>> {};
template <typename T, typename... Args>
inline constexpr bool is_one_of_v = is_one_of<T, Args...>::value;

template <typename T, T... Value>
struct is_one_of_value : false_type {};
template <typename T, T Value, T Head, T... Tail>
struct is_one_of_value<T, Value, Head, Tail...>
    : conditional_t<Value == Head, true_type, is_one_of_value<T, Value, Tail...>> {};
template <typename T, T... Value>
inline constexpr bool is_one_of_value_v = is_one_of_value<T, Value...>::value;

template <typename T>
struct is_integral
    : bool_constant<is_one_of_v<remove_cv_t<T>, bool, unsigned long long, long long, unsigned long, long,
                                unsigned int, int, unsigned short, short, unsigned char, signed char, char>> {};
template <typename T, T v>
struct is_integral<integral_constant<T, v>> : true_type {};
template <typename T>
inline constexpr bool is_integral_v = is_integral<T>::value;

template <typename T>
struct is_floating_point : bool_constant<is_one_of_v<remove_cv_t<T>, float, double, long double, half>> {};
template <typename T>
inline constexpr bool is_floating_point_v = is_floating_point<T>::value;

// Whether T is (a cv/ref-qualified) Std::integral_constant holding n.
template <auto n, typename T>
struct is_constant : false_type {};
template <auto n, typename T>
struct is_constant<n, T const> : is_constant<n, T> {};
template <auto n, typename T>
struct is_constant<n, T const&> : is_constant<n, T> {};
template <auto n, typename T>
struct is_constant<n, T&> : is_constant<n, T> {};
template <auto n, typename T>
struct is_constant<n, T&&> : is_constant<n, T> {};
template <auto n, typename T, T v>
struct is_constant<n, integral_constant<T, v>> : bool_constant<v == n> {};

}  // namespace Std
}  // namespace AscendC

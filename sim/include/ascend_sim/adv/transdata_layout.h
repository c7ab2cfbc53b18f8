// The Layout that TransDataParams carries (asc-devkit impl/basic_api/
// kernel_operator_layout.h: Shape, Stride, MakeShape, MakeStride, Layout,
// MakeLayout, is_layout; include/utils/std/tuple.h: Std::tuple, get,
// make_tuple, tuple_size, tuple_element, is_tuple). Std::tuple is the C++
// library's. Of Layout only what carries a shape is provided: GetShape,
// GetStride (all of it or the elements named); the static-size and
// coordinate-to-index parts are not.
#pragma once
#include <cstddef>
#include <tuple>
#include <type_traits>

#include "utils_type_traits.h"

namespace AscendC {
namespace Std {
using std::get;
using std::make_tuple;
using std::tuple;
using std::tuple_element;
using std::tuple_size;

template <typename T>
struct is_tuple : false_type {};
template <typename... Ts>
struct is_tuple<tuple<Ts...>> : true_type {};
template <typename T>
inline constexpr bool is_tuple_v = is_tuple<remove_cvref_t<T>>::value;
}  // namespace Std

template <typename... Shapes>
using Shape = Std::tuple<Shapes...>;
template <typename... Strides>
using Stride = Std::tuple<Strides...>;

template <typename... Ts>
constexpr Shape<Ts...> MakeShape(const Ts&... t) {
    return {t...};
}
template <typename... Ts>
constexpr Stride<Ts...> MakeStride(const Ts&... t) {
    return {t...};
}

template <typename T, typename U>
struct Layout {
    static_assert(Std::is_tuple_v<T> && Std::is_tuple_v<U>, "Layout: Shape or Stride is not tuple!");
    constexpr Layout(const T& shape = {}, const U& stride = {}) : shape_(shape), stride_(stride) {}

    template <size_t... I>
    constexpr decltype(auto) GetShape() const {
        return pick<I...>(shape_);
    }
    template <size_t... I>
    constexpr decltype(auto) GetStride() const {
        return pick<I...>(stride_);
    }

private:
    template <size_t... I, typename Tuple>
    static constexpr decltype(auto) pick(const Tuple& t) {
        if constexpr (sizeof...(I) == 0) {
            return (t);
        } else {
            return Std::make_tuple(Std::get<I>(t)...);
        }
    }
    T shape_;
    U stride_;
};

template <typename T, typename U>
constexpr auto MakeLayout(const T& shape, const U& stride) {
    static_assert(Std::is_tuple_v<T> && Std::is_tuple_v<U>, "MakeLayout: Shape or Stride is not tuple!");
    return Layout<T, U>(shape, stride);
}

template <typename T>
struct is_layout : Std::false_type {};
template <typename T, typename U>
struct is_layout<Layout<T, U>> : Std::true_type {};
template <typename T>
constexpr bool is_layout_v = is_layout<T>::value;

}  // namespace AscendC

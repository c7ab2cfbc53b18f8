// AscendC::Std::max and min (asc-devkit include/utils/std/algorithm.h; impl/utils/std/
// algorithm/max.h, min.h): the larger or smaller of two values of possibly different
// types, as the conditional operator's common type; constexpr, for host and kernel.
#pragma once

namespace AscendC {
namespace Std {

template <typename T, typename U>
inline constexpr auto max(const T& src0, const U& src1) {
    return (src0 > src1) ? src0 : src1;
}

template <typename T, typename U>
inline constexpr auto min(const T& src0, const U& src1) {
    return (src0 < src1) ? src0 : src1;
}

}  // namespace Std
}  // namespace AscendC

// GetReduceRepeatSumSpr and its older name GetAccVal (CANN:
// kernel_operator_vec_reduce_intf.h; dav_c220 kernel_operator_vec_reduce_impl.h
// GetAccValImpl: get_acc_val, the low bits read as T). GetReduceRepeatSumSpr.md
// defines the register only after the count-form ReduceSum, whose own V_S wait
// already orders the scalar read; anything else leaves it undefined and is refused.
#pragma once
#include <cstdint>
#include <cstring>

#include "kernel_vec_ops.h"

namespace AscendC {

namespace sim_vec {
template <class T>
T read_acc(const char* api) {
    static_assert(f16f32_v<T>, "GetReduceRepeatSumSpr, GetAccVal: A2/A3 support half and float");
    uint64_t bits = 0;
    const uint32_t bytes = d::vec_acc(api, &bits);
    if (bytes == 0)
        d::fail(api, "ACC_VAL undefined",
                "ACC_VAL holds no ReduceSum result (only the count-form ReduceSum defines it; another vcadd, e.g. "
                "WholeReduceSum, leaves it undefined)");
    if (bytes != sizeof(T))
        d::fail(api, "ACC_VAL read as another type",
                "ACC_VAL holds a %u-byte ReduceSum result; reading it as a %u-byte T gives undefined bits", bytes,
                unsigned(sizeof(T)));
    T v;
    std::memcpy(&v, &bits, sizeof(T));
    return v;
}
}  // namespace sim_vec

template <class T>
T GetReduceRepeatSumSpr() {
    return sim_vec::read_acc<T>("GetReduceRepeatSumSpr");
}
template <class T>
T GetAccVal() {
    return sim_vec::read_acc<T>("GetAccVal");
}

}  // namespace AscendC

// Transpose, the 16 x 16 two-byte form (CANN: kernel_operator_vec_transpose_intf.h;
// dav_c220 kernel_operator_vec_transpose_impl.h TransposeImpl: one vtranspose
// on 512 B, no mask). Transpose.md: src and dst may be the same tensor.
#pragma once
#include <cstdint>
#include <cstring>

#include "kernel_vec_ops.h"

namespace AscendC {

template <class T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src) {
    static_assert(sim_vec::one_of_v<T, int16_t, uint16_t, half>, "Transpose: A2/A3 support int16_t, uint16_t and half");
    constexpr uint32_t n = 16, bytes = n * n * sizeof(T);
    const auto* d0 = static_cast<const uint8_t*>(dst.ub_ref().p);
    const auto* s0 = static_cast<const uint8_t*>(src.ub_ref().p);
    // Only the whole-tensor reuse is documented; any other overlap mixes rows being read and written.
    if (d0 != s0 && d0 < s0 + bytes && s0 < d0 + bytes)
        sim_vec::d::fail("Transpose", "partial overlap",
                         "dst and src overlap other than as the same 512 B (Transpose.md allows only src == dst)");
    const sim_vec::d::VecArg a[2] = {sim_vec::arg(src, n * n, "src", false), sim_vec::arg(dst, n * n, "dst", true)};
    sim_vec::d::vec_instr("Transpose", sim_vec::d::VecOp::Transpose, n * n, sizeof(T), a, 2, true);
    T tmp[n * n];
    std::memcpy(tmp, src.GetPhyAddr(), bytes);
    for (uint32_t r = 0; r < n; ++r)
        for (uint32_t c = 0; c < n; ++c) dst.GetPhyAddr()[c * n + r] = tmp[r * n + c];
}

}  // namespace AscendC

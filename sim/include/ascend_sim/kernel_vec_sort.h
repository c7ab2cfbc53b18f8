// Sort32 (CANN: kernel_operator_proposal_intf.h; dav_c220
// kernel_operator_proposal_impl.h VbitsortCal: one vbitsort, no mask). Repeat r
// sorts the 32 scores at src0[32r] descending, equal scores in index order, and
// stores (score, src1[32r + i]) pairs of 8 B at dst + 256 r (Sort32.md: float
// in the low 4 B, half in the low 2 B with 2 B reserved, the index in the high 4 B).
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "kernel_vec_ops.h"
#include "kernel_vec_repeat.h"

namespace AscendC {

template <class T>
void Sort32(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<uint32_t>& src1,
            const int32_t repeatTime) {
    static_assert(sim_vec::f16f32_v<T>, "Sort32: A2/A3 support half and float");
    namespace d = sim_vec::d;
    if (repeatTime < 0 || repeatTime > 255) d::fail("Sort32", "repeatTime out of range", "repeatTime %d is outside [0, 255]", repeatTime);
    constexpr uint32_t n = 32, scoreBytes = n * sizeof(T);
    const uint64_t reps = uint64_t(repeatTime);
    const auto* dp = static_cast<const uint8_t*>(dst.ub_ref().p);
    auto overlaps = [&](const void* p, uint64_t bytes) {
        const auto* q = static_cast<const uint8_t*>(p);
        return reps && dp < q + bytes && q < dp + reps * 256;
    };
    // 通用地址重叠约束: the 256 B of proposals cannot meet a source element for element.
    if (overlaps(src0.ub_ref().p, reps * scoreBytes) || overlaps(src1.ub_ref().p, reps * 128))
        d::fail("Sort32", "dst overlaps a source", "dst's %llu B of proposals overlap src0 or src1",
                (unsigned long long)(reps * 256));
    d::RepArg a[3] = {sim_vec::rep_arg(src0, 1, scoreBytes / 32, "src0", false),
                      sim_vec::rep_arg(src1, 1, 4, "src1", false), sim_vec::rep_arg(dst, 0, 1, "dst", true)};
    a[0].align = scoreBytes;  // Sort32.md: src0 128 B (float) / 64 B (half), src1 128 B, dst 256 B aligned
    a[1].align = 128;
    a[2].repBytes = a[2].repUnit = a[2].align = 256;
    d::RepShape shape{n, uint32_t(repeatTime)};
    shape.ignoreMask = true;
    size_t runs = 0;
    d::vec_repeat("Sort32", d::VecOp::Sort32, a, 3, shape, &runs);
    if (!runs) return;
    const T* s = src0.GetPhyAddr();
    const uint32_t* ix = src1.GetPhyAddr();
    auto* out = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
    for (uint64_t r = 0; r < reps; ++r) {
        uint32_t order[n];
        for (uint32_t i = 0; i < n; ++i) {
            if (sim_vec::num::detail::wide(s[r * n + i]) != sim_vec::num::detail::wide(s[r * n + i]))
                d::fail("Sort32", "NaN score", "src0[%llu] is NaN; Sort32.md does not define where a NaN sorts",
                        (unsigned long long)(r * n + i));
            order[i] = i;
        }
        std::stable_sort(order, order + n, [&](uint32_t x, uint32_t y) {
            return sim_vec::num::detail::wide(s[r * n + x]) > sim_vec::num::detail::wide(s[r * n + y]);
        });
        for (uint32_t k = 0; k < n; ++k) {
            std::memcpy(out + r * 256 + k * 8, &s[r * n + order[k]], sizeof(T));
            std::memcpy(out + r * 256 + k * 8 + 4, &ix[r * n + order[k]], 4);
        }
    }
}

}  // namespace AscendC

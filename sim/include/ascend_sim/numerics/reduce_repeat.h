// The per-repeat reductions of the high-dimension forms (WholeReduceSum/Max/Min,
// BlockReduceSum/Max/Min, PairReduceSum) over the lanes of one repeat, with the
// masked-off lanes given: sums by the adjacent-pair binary tree of
// ReduceDataBlock.md (masked-off lanes as +0, half rounding after every add);
// max/min the first extreme value and its lane, a NaN winning as in reduce_max
// (UNCONFIRMED on hardware). A group with no active lane gives -Inf (max),
// +Inf (min), +0 (sum) (UNCONFIRMED: the documentation does not say).
#pragma once
#include <cstddef>
#include <cstdint>

#include "reduce.h"
#include "types.h"

namespace ascend_sim::numerics {

// Tree sum of n lanes (a power of two), overwriting them.
template <class T>
T tree_sum(T* lanes, size_t n) {
    for (; n > 1; n /= 2)
        for (size_t k = 0; k < n / 2; ++k) lanes[k] = detail::tree_add(lanes[2 * k], lanes[2 * k + 1]);
    return lanes[0];
}

// The extreme of the active lanes of [0, n) and its lane index.
template <class T>
void extreme(const T* lanes, const bool* active, size_t n, bool isMax, T& value, uint32_t& index) {
    value = T(isMax ? -__builtin_inff() : __builtin_inff());
    index = 0;
    bool any = false;
    for (size_t i = 0; i < n; ++i) {
        if (!active[i]) continue;
        const float x = float(lanes[i]), best = float(value);
        if (x != x) {
            value = lanes[i];
            index = uint32_t(i);
            return;
        }
        if (!any || (isMax ? x > best : x < best)) {
            value = lanes[i];
            index = uint32_t(i);
            any = true;
        }
    }
}

}  // namespace ascend_sim::numerics

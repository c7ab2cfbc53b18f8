// Broadcast (1-D and 2-D, axis 0 and 1) against an index reference: a row to
// rows (8 rows an Or, a tail of rows), a column to aligned and unaligned rows
// (Brcb + Copy, + GatherMask), int8_t through half, equal shapes (a copy) and a
// single element (a Duplicate), with and without sharedTmpBuffer, in both
// auto-sync modes; shapes that do not broadcast, an undersized tmp and overlapping
// operands reported.
#include <cstdint>
#include <functional>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "xtest.h"

using namespace AscendC;
using sim_test::sync;

namespace {
void one(const std::function<void()>& body) { ascend_sim::run_kernel("adv_broadcast", 1, body); }

int value(uint32_t i) { return int(i * 7 % 23) - 11; }

// dst[r][c] = src[r * (srcShape[0] > 1)][c * (srcShape[1] > 1)] for shapes {rows, cols}.
template <class T, int32_t dim, int32_t axis>
void check(const uint32_t (&src)[dim], const uint32_t (&dst)[dim], uint32_t tmpBytes) {
    for (int autoSync : {1, 0}) {
        const sim_test::AutoSync mode(autoSync);
        one([&] {
            sim_test::Calc c(64 * 1024);
            auto in = c.get<T>(), out = c.get<T>()[8192 / sizeof(T)];
            auto tmp = c.get<uint8_t>()[32768];
            tmp.SetSize(tmpBytes);
            const uint32_t rows = dim == 2 ? dst[0] : 1, cols = dst[dim - 1];
            const uint32_t srcRows = dim == 2 ? src[0] : 1, srcCols = src[dim - 1];
            // Brcb reads the column 8 elements at a time: all of a group written.
            for (uint32_t i = 0; i < (srcRows * srcCols + 7) / 8 * 8; ++i) in.SetValue(i, T(value(i)));
            sync<HardEvent::S_V>();
            if (tmpBytes) Broadcast<T, dim, axis>(out, in, dst, src, tmp);
            else Broadcast<T, dim, axis>(out, in, dst, src);
            sync<HardEvent::V_S>();
            for (uint32_t r = 0; r < rows; ++r)
                for (uint32_t k = 0; k < cols; ++k) {
                    const uint32_t s = (srcRows > 1 ? r : 0) * srcCols + (srcCols > 1 ? k : 0);
                    XCHECK_EQ(float(out.GetValue(r * cols + k)), float(value(s)));
                }
        });
    }
}
}  // namespace

XTEST(broadcast_rows_columns_and_dtypes) {
    check<float, 2, 0>({1, 48}, {11, 48}, 1024);     // 8 rows an Or, then a tail of 3
    check<half, 2, 0>({1, 32}, {9, 32}, 0);          // stack buffer
    check<float, 2, 1>({12, 1}, {12, 16}, 2048);     // aligned rows: Brcb + Copy
    check<float, 2, 1>({20, 1}, {20, 5}, 2048);      // unaligned rows: + GatherMask
    check<float, 2, 1>({40, 1}, {40, 8}, 256);       // tmp for 8 rows a chunk: 5 chunks
    check<half, 2, 1>({7, 1}, {7, 20}, 4096);
    check<int8_t, 2, 1>({16, 1}, {16, 32}, 8192);    // through half (16 rows: Brcb reads 8 a repeat)
    check<float, 1, 0>({24}, {24}, 256);             // equal shapes: a copy
    check<float, 2, 0>({1, 1}, {3, 8}, 256);         // one element: a Duplicate
}

XTEST(broadcast_bad_shapes_and_small_tmp) {
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(8192);
                           const uint32_t s[2] = {2, 8}, d[2] = {4, 8};
                           auto tmp = c.get<uint8_t>()[4096];
                           Broadcast<float, 2, 0>(c.get<float>()[256], c.get<float>(), d, s, tmp);
                       }),
                       "Broadcast (block 0): srcShape[0] 2 is neither dstShape[0] 4 nor 1");
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(8192);
                           const uint32_t s[2] = {8, 1}, d[2] = {8, 5};
                           auto tmp = c.get<uint8_t>()[4096];
                           tmp.SetSize(256);  // 64 floats: less than a block a row plus the padded rows
                           sync<HardEvent::S_V>();
                           Broadcast<float, 2, 1>(c.get<float>()[256], c.get<float>(), d, s, tmp);
                       }),
                       "Broadcast (block 0): sharedTmpBuffer holds 64 elements, less than the 128");
    // Broadcast.md: no overlap of source and destination, in place included (BroadCast, as
    // ops-nn's rms_norm calls it, is named as the API the kernel called).
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(8192);
                           const uint32_t s[2] = {1, 64}, d[2] = {8, 64};
                           auto x = c.get<float>();
                           auto tmp = c.get<uint8_t>()[4096];
                           Duplicate(x, 1.0f, 512);
                           PipeBarrier<PIPE_V>();
                           BroadCast<float, 2, 0>(x, x, d, s, tmp);
                       }),
                       "Broadcast (block 0): srcLocal [0, +256 B) and dstLocal [0, +2048 B) overlap; the API does not "
                       "allow it");
}

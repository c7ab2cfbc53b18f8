// The kernel against the formula in float64, over the dtype x option
// matrix and both tiling modes (tolerance: CompareWithReference in xent_test_util.h).
#include <cstdio>

#include "xent_test_util.h"
#include "xtest.h"

using namespace xtest_util;

namespace {

void RunMatrix(int64_t n, int64_t c, uint64_t seed) {
    int combos = 0;
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16})
        for (aclDataType tdt : {ACL_INT64, ACL_INT32})
            for (const char* red : {"none", "mean", "sum"})
                for (bool weight : {false, true})
                    for (double ls : {0.0, 0.1})
                        for (int z : {0, 1, 2}) {
                            const Options o = MatrixOptions(red, weight, ls, z, combos);
                            const Problem p = RandomProblem(n, c, o, seed + combos);
                            const RunResult r = Run(p, o, dtype, tdt);
                            char label[160];
                            std::snprintf(label, sizeof(label), "N=%lld C=%lld %s target=%s %s weight=%d ls=%.1f z=%d",
                                          (long long)n, (long long)c, Name(dtype), Name(tdt), red, int(weight), ls, z);
                            if (r.status != ACLNN_SUCCESS)
                                xtest::fail(__FILE__, __LINE__, std::string(label) + ": " + r.message);
                            const int64_t bad = CompareWithReference(r, o, dtype, label);
                            if (bad) xtest::fail(__FILE__, __LINE__, std::string(label) + ": " + std::to_string(bad) +
                                                                         " elements outside tolerance");
                            ++combos;
                        }
    XCHECK_EQ(combos, 3 * 2 * 3 * 2 * 2 * 3);
}

}  // namespace

// Row-packed tiles: many rows per tile, C not a multiple of the 32-byte granule.
XTEST(matrix_row_packed_37x75) { RunMatrix(37, 75, 100); }

// More rows than cores with small C: R > 1 and a ragged last row tile.
XTEST(matrix_row_packed_3001x9) { RunMatrix(3001, 9, 200); }

// Column-split tiles: C wider than one tile, fewer rows than cores.
XTEST(matrix_column_split_3x60011) { RunMatrix(3, 60011, 300); }

// With weighted smoothing, multi-row column-major tiles (fp32 2 x 6672, bf16
// 2 x 10016 on ascend910b): cores' ranges that end inside a tile's rows, and a last
// column tile whose rows are narrower than the full tiles' (6667 of 6672 columns:
// its rows sit at their own 32-byte pitch in UB).
XTEST(matrix_column_split_multi_row_62x20011) { RunMatrix(62, 20011, 400); }

// Whole-row tiles whose remainder on the launched cores is cut into column pieces.
XTEST(matrix_remainder_pieces_100x4000) { RunMatrix(100, 4000, 600); }

// Weighted smoothing subtracts smooth_i * w_j from 8 rows per Axpy, from 8 row copies
// of w (tests/op_host/test_tiling.cpp checks that both shapes take their paths).
XTEST(matrix_weight_row_copies_100x400) { RunMatrix(100, 400, 700); }

// One core, so fp16/bf16 row-packed tiles hold 75 rows of 400 columns: more than the
// work area (pieces of 34 rows) and more than the 64 rows whose terms are held at once,
// so a piece (rows 34-67) crosses the terms' chunk boundary.
XTEST(matrix_row_packed_pieces_one_core_150x400) {
    ascend_sim::set_cores(1);
    RunMatrix(150, 400, 500);
    ascend_sim::set_cores(0);
}

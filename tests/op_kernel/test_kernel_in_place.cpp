// out = logProb (in place): the gradient overwrites the log-probabilities. Each
// core copies a tile of logProb in before it copies the same elements of out back,
// and no two cores share a tile, so the result must be bitwise the out-of-place
// one, within the float64 reference's tolerance, in every dtype, reduction, tiling
// mode and option set; the simulator's GM race and hazard checks run on every launch.
#include <cstdio>

#include "xent_test_util.h"
#include "xtest.h"

using namespace xtest_util;

namespace {

void RunInPlace(int64_t n, int64_t c, uint64_t seed) {
    int combos = 0;
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16})
        for (const char* red : {"none", "mean", "sum"})
            for (bool all : {false, true}) {  // plain; weight + label smoothing + z-loss with gradZloss
                Options o;
                o.reduction = red;
                o.weight = all;
                o.labelSmoothing = all ? 0.1 : 0.0;
                o.zlossScale = all ? 1e-2 : 0.0;
                o.lse = all;
                o.gradZloss = all;
                const Problem p = RandomProblem(n, c, o, seed + combos++);
                char label[128];
                std::snprintf(label, sizeof(label), "N=%lld C=%lld %s %s options=%d", (long long)n, (long long)c,
                              Name(dtype), red, int(all));
                const RunResult apart = Run(p, o, dtype, ACL_INT64);
                const RunResult same = Run(p, o, dtype, ACL_INT64, /*inPlace=*/true);
                if (apart.status != ACLNN_SUCCESS || same.status != ACLNN_SUCCESS)
                    xtest::fail(__FILE__, __LINE__, std::string(label) + ": " + apart.message + " / " + same.message);
                if (same.outBytes != apart.outBytes)
                    xtest::fail(__FILE__, __LINE__, std::string(label) + ": in place differs from out of place");
                const int64_t bad = CompareWithReference(same, o, dtype, label);
                if (bad) xtest::fail(__FILE__, __LINE__, std::string(label) + ": " + std::to_string(bad) +
                                                             " elements outside tolerance");
            }
    XCHECK_EQ(combos, 3 * 3 * 2);
}

}  // namespace

// Row-packed tiles over many cores (and the mean's sums launch before them).
XTEST(in_place_row_packed_3001x9) { RunInPlace(3001, 9, 500); }

// Column-split tiles: a row's column tiles on different cores.
XTEST(in_place_column_split_3x60011) { RunInPlace(3, 60011, 600); }

// Weighted smoothing: column-major multi-row tiles with a ragged last row and column tile.
XTEST(in_place_column_split_multi_row_62x20011) { RunInPlace(62, 20011, 700); }

// Edge semantics: ignored rows are exactly 0 (NaN/Inf logProb still give NaN,
// as p * 0 does in PyTorch), every row ignored under mean gives 0 (not NaN),
// the target column's p - 1 is formed in fp32 before rounding (bf16), C = 1.
#include <cmath>

#include "xent_test_util.h"
#include "xtest.h"

using namespace xtest_util;

XTEST(ignored_rows_are_zero_and_propagate_nan) {
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        Options o;
        o.reduction = "sum";
        o.labelSmoothing = 0.1;
        o.weight = true;
        Problem p = RandomProblem(4, 10, o, 5);
        p.target = {-100, 2, -100, -100};
        p.logProb[0] = std::nan("");                // row 0: ignored, NaN
        p.logProb[20] = INFINITY;                   // row 2: ignored, +Inf
        p.logProb[30] = -INFINITY;                  // row 3: ignored, -Inf -> p = 0 -> 0
        const RunResult r = Run(p, o, dtype, ACL_INT64);
        XCHECK_EQ(r.status, ACLNN_SUCCESS);
        XCHECK(std::isnan(r.out[0]));
        XCHECK(std::isnan(r.out[20]));
        for (int j = 1; j < 10; ++j) XCHECK(r.out[size_t(j)] == 0.0 && !std::signbit(r.out[size_t(j)]));
        for (int j = 21; j < 40; ++j) XCHECK(r.out[size_t(j)] == 0.0);
    }
}

XTEST(all_rows_ignored_under_mean_gives_zero) {
    for (bool weight : {false, true}) {
        Options o;
        o.reduction = "mean";
        o.weight = weight;
        o.labelSmoothing = 0.2;
        o.zlossScale = 0.5;
        o.lse = o.gradZloss = true;
        Problem p = RandomProblem(50, 33, o, 9);
        for (auto& t : p.target) t = -100;
        const RunResult r = Run(p, o, ACL_FLOAT, ACL_INT32);
        XCHECK_EQ(r.status, ACLNN_SUCCESS);
        for (double v : r.out) XCHECK(v == 0.0);
    }
}

XTEST(bf16_confident_target_column_formed_in_fp32) {
    // p = 0.999 at the target: p - 1 = -0.001 must come out as bf16(-0.001), not bf16(p) - 1.
    Options o;
    o.reduction = "sum";
    Problem p = RandomProblem(8, 64, o, 3);
    for (int64_t i = 0; i < 8; ++i) {
        p.target[size_t(i)] = i;
        p.logProb[size_t(i * 64 + i)] = std::log(0.999);
    }
    p.gradLoss = {1.0};
    const RunResult r = Run(p, o, ACL_BF16, ACL_INT64);
    XCHECK_EQ(r.status, ACLNN_SUCCESS);
    const std::vector<double> ref = Reference(r.stored, o);
    for (int64_t i = 0; i < 8; ++i) {
        const double want = ref[size_t(i * 64 + i)], got = r.out[size_t(i * 64 + i)];
        XCHECK(want < -5e-4 && want > -2e-3);
        XCHECK(std::abs(got - want) <= std::abs(want) / 128);  // within bf16 rounding of the exact value
    }
}

XTEST(single_class) {
    Options o;
    o.reduction = "mean";
    o.labelSmoothing = 0.3;
    Problem p = RandomProblem(100, 1, o, 4);
    const RunResult r = Run(p, o, ACL_FLOAT, ACL_INT64);
    XCHECK_EQ(r.status, ACLNN_SUCCESS);
    const std::vector<double> ref = Reference(r.stored, o);
    for (size_t k = 0; k < ref.size(); ++k) XCHECK_NEAR(r.out[k], ref[k], 1e-6 * (1 + std::abs(ref[k])));
}

XTEST(one_row_many_classes_spreads_over_every_core) {
    Options o;
    o.reduction = "none";
    o.weight = true;
    o.labelSmoothing = 0.1;
    Problem p = RandomProblem(1, 524288, o, 11);
    p.target = {200000};
    const RunResult r = Run(p, o, ACL_FLOAT, ACL_INT64);
    XCHECK_EQ(r.status, ACLNN_SUCCESS);
    const auto stats = ascend_sim::last_launch_stats();
    XCHECK_EQ(stats.blockDim, ascend_sim::current_profile().vectorCores);
    XCHECK_EQ(stats.blocksUsed, stats.blockDim);
    const std::vector<double> ref = Reference(r.stored, o);
    for (size_t k = 0; k < ref.size(); k += 97) XCHECK_NEAR(r.out[k], ref[k], 1e-6 * std::abs(ref[k]) + 1e-12);
    XCHECK_NEAR(r.out[200000], ref[200000], 1e-6 * std::abs(ref[200000]));
}

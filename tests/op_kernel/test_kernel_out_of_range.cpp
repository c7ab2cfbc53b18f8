// Out-of-range targets straight through the aclnn API (no Python check in front):
// the launch reports the first bad row and its value (ACLNN_ERR_PARAM_INVALID),
// the bad rows are exactly 0, the other rows are the reference computed without
// them, and nothing is read or written out of bounds: every buffer is an exact
// simulator GM allocation (or an exact caller-memory region), so a weight[t] read
// or a fix-up write outside [0, C) would fail the launch with a GM bounds
// violation (ACLNN_ERR_RUNTIME_ERROR) instead.
#include <cinttypes>
#include <cmath>
#include <limits>
#include <string>

#include "xent_test_util.h"
#include "xtest.h"

using namespace xtest_util;

namespace {

void CheckBadTargets(int64_t n, int64_t c, aclDataType dtype, aclDataType targetDtype, const Options& o,
                     const std::vector<std::pair<int64_t, int64_t>>& bad, const std::string& what) {
    Problem p = RandomProblem(n, c, o, uint64_t(n * 131 + c));
    for (const auto& rv : bad) p.target[size_t(rv.first)] = rv.second;
    const RunResult r = Run(p, o, dtype, targetDtype);
    int64_t firstRow = -1, firstValue = 0;
    for (int64_t i = 0; i < n; ++i) {
        const int64_t t = p.target[size_t(i)];
        if (t != o.ignoreIndex && (t < 0 || t >= c)) {
            firstRow = i;
            firstValue = t;
            break;
        }
    }
    XCHECK(firstRow >= 0);
    const std::string want = "target[" + std::to_string(firstRow) + "] = " + std::to_string(firstValue) +
                             " is outside [0, " + std::to_string(c) + ") and is not ignoreIndex (" +
                             std::to_string(o.ignoreIndex) + ")";
    if (r.status != ACLNN_ERR_PARAM_INVALID || r.message.find(want) == std::string::npos) {
        xtest::fail(__FILE__, __LINE__, what + ": status " + std::to_string(r.status) + " message \"" + r.message +
                                            "\"; wanted 161002 with \"" + want + "\"");
        return;
    }
    // Bad rows are 0; the rest is the reference with bad rows excluded from W and M.
    std::vector<double> scale;
    const std::vector<double> ref = Reference(r.stored, o, &scale);
    const double eps = dtype == ACL_FLOAT ? 6e-8 : (dtype == ACL_FLOAT16 ? 4.9e-4 : 3.9e-3);
    int mismatches = 0;
    for (int64_t i = 0; i < n; ++i) {
        const int64_t t = r.stored.target[size_t(i)];
        const bool badRow = t != o.ignoreIndex && (t < 0 || t >= c);
        for (int64_t j = 0; j < c; ++j) {
            const size_t k = size_t(i * c + j);
            const double got = r.out[k];
            if (badRow ? got != 0.0 : std::abs(got - ref[k]) > 16 * eps * scale[k] + 1e-30 + eps * std::abs(ref[k]))
                ++mismatches;
        }
    }
    if (mismatches) xtest::fail(__FILE__, __LINE__, what + ": " + std::to_string(mismatches) + " wrong elements");
}

}  // namespace

XTEST(bad_int64_targets_every_reduction_and_dtype) {
    const int64_t big = std::numeric_limits<int64_t>::max(), small = std::numeric_limits<int64_t>::min();
    for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16})
        for (const char* red : {"mean", "sum", "none"})
            for (bool weight : {false, true}) {
                Options o;
                o.reduction = red;
                o.weight = weight;
                o.labelSmoothing = 0.1;
                o.zlossScale = 1e-3;
                o.lse = o.gradZloss = true;
                CheckBadTargets(37, 41, dt, ACL_INT64, o, {{5, 41}, {9, -1}, {20, big}, {21, small}, {36, 1000}},
                                std::string(red) + (weight ? " weighted" : ""));
            }
}

XTEST(bad_int32_targets_and_negative_ignore_index) {
    Options o;
    o.reduction = "mean";
    o.weight = true;
    o.ignoreIndex = 7;  // -100 is then out of range, 7 is ignored
    CheckBadTargets(19, 23, ACL_BF16, ACL_INT32, o,
                    {{2, -100}, {3, std::numeric_limits<int32_t>::max()}, {4, std::numeric_limits<int32_t>::min()}},
                    "int32, ignore_index 7");
    o.ignoreIndex = std::numeric_limits<int64_t>::min();
    CheckBadTargets(8, 5, ACL_FLOAT, ACL_INT64, o, {{7, 5}}, "ignore_index INT64_MIN, last row bad");
}

XTEST(bad_targets_in_column_split_tiles_on_many_cores) {
    // C over one UB row: column tiles; the bad target would fall in a later tile.
    Options o;
    o.reduction = "sum";
    o.weight = true;
    o.labelSmoothing = 0.05;
    CheckBadTargets(6, 40000, ACL_FLOAT16, ACL_INT64, o, {{1, 40000}, {4, 65536}, {5, -2}}, "column split");
    // Every row bad under mean: W = M = 0 over no live rows, output all 0, no NaN.
    o.reduction = "mean";
    std::vector<std::pair<int64_t, int64_t>> all;
    for (int64_t i = 0; i < 64; ++i) all.push_back({i, 300 + i});
    CheckBadTargets(64, 300, ACL_FLOAT, ACL_INT64, o, all, "all rows bad");
}

XTEST(bad_targets_over_caller_memory_regions) {
    // The same through caller memory (as the Python binding passes it): the weight and
    // target are registered as exact GmRegions for the launch, nothing more.
    const int64_t N = 16, C = 9;
    std::vector<float> grad = {1.0f}, logProb(size_t(N * C), -std::log(9.0f)), weight(size_t(C), 1.5f),
        out(size_t(N * C), 5.0f);
    std::vector<int64_t> target(size_t(N), 3);
    target[11] = 9;
    target[13] = -5;
    auto host = [](std::vector<int64_t> shape, aclDataType dt, void* data) {
        return aclCreateTensor(shape.data(), shape.size(), dt, nullptr, 0, ACL_FORMAT_ND, shape.data(), shape.size(),
                               data);
    };
    aclTensor* g = host({}, ACL_FLOAT, grad.data());
    aclTensor* lp = host({N, C}, ACL_FLOAT, logProb.data());
    aclTensor* t = host({N}, ACL_INT64, target.data());
    aclTensor* w = host({C}, ACL_FLOAT, weight.data());
    aclTensor* o = host({N, C}, ACL_FLOAT, out.data());
    uint64_t wsSize = 0;
    aclOpExecutor* exec = nullptr;
    char mean[] = "mean";
    XCHECK_EQ(aclnnCrossEntropyLossGradGetWorkspaceSize(g, lp, t, w, nullptr, nullptr, mean, -100, 0.0, 0.0, o, &wsSize,
                                                        &exec),
              ACLNN_SUCCESS);
    void* ws = nullptr;
    aclrtMalloc(&ws, wsSize, ACL_MEM_MALLOC_HUGE_FIRST);
    XCHECK_EQ(aclnnCrossEntropyLossGrad(ws, wsSize, exec, nullptr), ACLNN_ERR_PARAM_INVALID);
    XCHECK(std::string(aclGetRecentErrMsg()).find("target[11] = 9 is outside [0, 9)") != std::string::npos);
    aclrtFree(ws);
    for (aclTensor* x : {g, lp, t, w, o}) aclDestroyTensor(x);
    for (int64_t i = 0; i < N; ++i)
        for (int64_t j = 0; j < C; ++j) {
            const float v = out[size_t(i * C + j)];
            if (i == 11 || i == 13) XCHECK(v == 0.0f);
            else XCHECK_NEAR(v, (1.0 / 9 - (j == 3 ? 1.0 : 0.0)) / 14.0, 1e-6);  // W = 14 * 1.5, nll = 1.5 / W
        }
}

// CrossEntropyLoss (the forward) through the two-phase API on the simulator, against
// the float64 reference of forward_test_util.h: the dtype x option matrix in both
// kernel paths (whole rows in UB, column tiles), ragged shapes, edge cases and
// bitwise determinism over SoC profiles, core and host-thread counts.
#include <cmath>

#include "ascend_xent/launch_info.h"
#include "forward_test_util.h"
#include "xtest.h"

using namespace fwd_test;

namespace {

const aclDataType kDtypes[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
const char* const kReductions[] = {"none", "mean", "sum"};

// Every dtype x reduction x weight x smoothing x z-loss, target int64 and int32 in
// turn, ignoreIndex -100 and the in-range 3 in turn.
void Matrix(int64_t n, int64_t c) {
    int combo = 0, bad = 0;
    for (aclDataType dt : kDtypes)
        for (const char* red : kReductions)
            for (int weight = 0; weight < 2; ++weight)
                for (double ls : {0.0, 0.1})
                    for (double z : {0.0, 1e-2}) {
                        Options o;
                        o.reduction = red;
                        o.weight = weight != 0;
                        o.labelSmoothing = ls;
                        o.zlossScale = z;
                        o.ignoreIndex = combo % 2 ? -100 : 3;
                        const aclDataType targetType = combo % 3 ? ACL_INT64 : ACL_INT32;
                        const Problem p = RandomProblem(n, c, o, 1000 + combo);
                        const RunResult r = Run(p, o, dt, targetType);
                        char label[160];
                        std::snprintf(label, sizeof label, "%lldx%lld %s %s w=%d ls=%g z=%g", (long long)n,
                                      (long long)c, xtest_util::Name(dt), red, weight, ls, z);
                        if (r.status != ACLNN_SUCCESS) {
                            std::printf("    %s: status %d %s\n", label, r.status, r.message.c_str());
                            ++bad;
                        } else {
                            bad += CompareWithReference(r, o, dt, label) > 0;
                        }
                        ++combo;
                    }
    XCHECK_EQ(bad, 0);
}

Options Opts(const char* reduction, bool weight, double ls, double z) {
    Options o;
    o.reduction = reduction;
    o.weight = weight;
    o.labelSmoothing = ls;
    o.zlossScale = z;
    return o;
}

void ExpectMatches(const Problem& p, const Options& o, aclDataType dt, const char* label) {
    const RunResult r = Run(p, o, dt, ACL_INT64);
    XCHECK_EQ(r.status, ACLNN_SUCCESS);
    XCHECK_EQ(CompareWithReference(r, o, dt, label), 0);
}

}  // namespace

XTEST(option_matrix_whole_rows) { Matrix(37, 1001); }

// A row of 40000 does not fit in UB in any dtype: max and sum online over column tiles.
XTEST(option_matrix_column_tiles) { Matrix(3, 40000); }

XTEST(ragged_shapes) {
    const int64_t shapes[][2] = {{1, 1},   {1, 2},    {5, 7},   {19, 41},  {1, 256}, {1, 257}, {65, 8},
                                 {129, 9}, {601, 9},  {8, 883}, {255, 257}, {2, 18433}, {1, 131073}};
    int k = 0;
    for (const auto& s : shapes)
        for (aclDataType dt : kDtypes) {
            const Options o = Opts(kReductions[k % 3], k % 2 == 0, k % 4 < 2 ? 0.1 : 0.0, k % 5 < 2 ? 1e-3 : 0.0);
            ++k;
            char label[64];
            std::snprintf(label, sizeof label, "%lldx%lld %s", (long long)s[0], (long long)s[1], xtest_util::Name(dt));
            ExpectMatches(RandomProblem(s[0], s[1], o, 7 + k), o, dt, label);
        }
}

// Logits far from 0 (the max is subtracted before exp) and spread wide.
XTEST(large_offsets) {
    for (double center : {-3000.0, 900.0}) {
        const Options o = Opts("none", true, 0.2, 1e-4);
        ExpectMatches(RandomProblem(9, 3000, o, 5, center), o, ACL_FLOAT, "offset whole rows");
        ExpectMatches(RandomProblem(2, 60000, o, 6, center), o, ACL_FLOAT, "offset column tiles");
    }
}

// PyTorch's values: mean over no counted row is NaN (0 / 0), its z-loss 0; sum is 0.
XTEST(every_row_ignored) {
    for (const char* red : {"mean", "sum"})
        for (int64_t c : {int64_t(50), int64_t(50000)}) {
            const Options o = Opts(red, true, 0.1, 1e-2);
            Problem p = RandomProblem(4, c, o, 3);
            for (auto& t : p.target) t = o.ignoreIndex;
            const RunResult r = Run(p, o, ACL_BF16, ACL_INT64);
            XCHECK_EQ(r.status, ACLNN_SUCCESS);
            XCHECK(std::string(red) == "mean" ? std::isnan(r.out.loss[0]) : r.out.loss[0] == 0.0);
            XCHECK_EQ(r.out.zloss[0], 0.0);
            XCHECK_EQ(CompareWithReference(r, o, ACL_BF16, red), 0);
        }
}

// No rows: mean is NaN and sum 0 (PyTorch's values), written by a launch; none writes nothing.
XTEST(no_rows) {
    for (const char* red : {"mean", "sum"}) {
        const Options o = Opts(red, false, 0.0, 0.0);
        const RunResult r = Run(RandomProblem(0, 10, o, 1), o, ACL_FLOAT, ACL_INT64);
        XCHECK_EQ(r.status, ACLNN_SUCCESS);
        XCHECK(std::string(red) == "mean" ? std::isnan(r.out.loss[0]) : r.out.loss[0] == 0.0);
        XCHECK_EQ(r.out.zloss[0], 0.0);
    }
    const Options o = Opts("none", false, 0.0, 0.0);
    XCHECK_EQ(Run(RandomProblem(0, 10, o, 1), o, ACL_FLOAT, ACL_INT64).status, ACLNN_SUCCESS);
}

// A 0-D lossOut/zlossOut under mean/sum, as torch's loss is.
XTEST(zero_dim_loss) {
    const Options o = Opts("sum", true, 0.1, 1e-2);
    const Problem p = RandomProblem(33, 500, o, 11);
    const RunResult r = Run(p, o, ACL_FLOAT16, ACL_INT32, {});
    XCHECK_EQ(r.status, ACLNN_SUCCESS);
    XCHECK_EQ(CompareWithReference(r, o, ACL_FLOAT16, "0-D"), 0);
}

// -inf logits (masked classes) give exp 0 and log_prob -inf. A row of -inf only, or with a
// +inf, is NaN in log_prob and its loss, as torch.log_softmax, but its lse is torch.logsumexp's
// -inf / +inf (and its z-loss s * lse^2 = +inf).
XTEST(infinite_logits) {
    const double inf = std::numeric_limits<double>::infinity();
    for (int64_t c : {int64_t(300), int64_t(50000)}) {
        const Options o = Opts("none", false, 0.0, 1e-2);
        Problem p = RandomProblem(4, c, o, 4);
        for (int64_t j = 0; j < c; j += 2) p.input[size_t(j)] = -inf;  // row 0: every other class masked
        for (int64_t j = 0; j < c / 2 + 100; ++j) p.input[size_t(c + j)] = -inf;  // row 1: whole first tiles
        for (int64_t j = 0; j < c; ++j) p.input[size_t(2 * c + j)] = -inf;        // row 2: all
        p.input[size_t(3 * c + c - 7)] = inf;                                      // row 3: one +inf, in the last tile
        p.target = {1, c - 1, 0, 3};
        const RunResult r = Run(p, o, ACL_FLOAT, ACL_INT64);
        XCHECK_EQ(r.status, ACLNN_SUCCESS);
        XCHECK_EQ(CompareWithReference(r, o, ACL_FLOAT, "inf"), 0);
        XCHECK(std::isinf(r.out.logProb[0]) && r.out.logProb[0] < 0);
        XCHECK(std::isnan(r.out.loss[2]) && std::isnan(r.out.logProb[size_t(2 * c)]) && r.out.lse[2] == -inf);
        XCHECK(std::isnan(r.out.loss[3]) && std::isnan(r.out.logProb[size_t(3 * c)]) && r.out.lse[3] == inf);
        XCHECK(r.out.zloss[2] == inf && r.out.zloss[3] == inf);
    }
}

// Out-of-range targets: phase 2 reports the smallest such row after writing the outputs
// (those rows count as ignored).
XTEST(out_of_range_target) {
    const Options o = Opts("mean", false, 0.0, 0.0);
    Problem p = RandomProblem(100, 20, o, 8);
    p.target[71] = 20;
    p.target[90] = -5;
    const RunResult r = Run(p, o, ACL_FLOAT, ACL_INT64);
    XCHECK_EQ(r.status, ACLNN_ERR_PARAM_INVALID);
    XCHECK(r.message.find("target[71] = 20 is outside [0, 20)") != std::string::npos);
    Problem q = p;
    q.target[71] = o.ignoreIndex;
    q.target[90] = o.ignoreIndex;
    XCHECK_EQ(r.out.loss[0], Run(q, o, ACL_FLOAT, ACL_INT64).out.loss[0]);
}

// The same bytes on every SoC profile's core count, other core counts and host threads
// (the mean's per-row terms are added in a fixed order by one core).
XTEST(bitwise_stable_over_cores) {
    struct Setting {
        const char* soc;
        uint32_t cores, threads;
    };
    const Setting settings[] = {{"ascend910b", 0, 0}, {"ascend910b4", 0, 3}, {"ascend910b", 1, 0},
                                {"ascend910b", 7, 4}, {"ascend910_93", 13, 1}};
    for (int64_t c : {int64_t(3000), int64_t(40000)}) {
        const Options o = Opts("mean", true, 0.1, 1e-3);
        const Problem p = RandomProblem(c == 3000 ? 2500 : 9, c, o, 21);
        std::vector<uint8_t> first;
        for (const Setting& s : settings) {
            ascend_sim::set_soc(s.soc);
            ascend_sim::set_cores(s.cores);
            ascend_sim::set_threads(s.threads);
            const RunResult r = Run(p, o, ACL_BF16, ACL_INT64);
            XCHECK_EQ(r.status, ACLNN_SUCCESS);
            if (first.empty()) first = r.bytes;
            else if (r.bytes != first)
                xtest::fail(__FILE__, __LINE__, std::string("outputs differ on ") + s.soc + " cores=" +
                                                    std::to_string(s.cores));
        }
        ascend_sim::set_soc("");
        ascend_sim::set_cores(0);
        ascend_sim::set_threads(0);
    }
}

// A vocabulary of 2^20 + 3 classes: 16 or more column tiles per row, the weight too large
// to stay in UB whole (its columns are loaded per tile for the weighted smoothing).
XTEST(huge_class_count) {
    const int64_t c = (int64_t(1) << 20) + 3;
    for (aclDataType dt : {ACL_FLOAT, ACL_BF16}) {
        const Options o = Opts("mean", true, 0.1, 1e-4);
        ExpectMatches(RandomProblem(2, c, o, 12), o, dt, xtest_util::Name(dt));
    }
}

// GM traffic (ascend_sim::last_launch_stats): whole rows read the logits once, column
// tiles twice; logProb is written once. The rest is O(N + C): targets, weight, per-row
// results and the mean's per-row arrays.
XTEST(traffic_one_read_when_a_row_fits_two_otherwise) {
    struct Case {
        int64_t n, c;
        aclDataType dt;
        int reads;
    };
    for (const Case& k : {Case{512, 4000, ACL_BF16, 1}, Case{300, 9000, ACL_FLOAT, 1}, Case{6, 70000, ACL_BF16, 2}}) {
        const Options o = Opts("mean", false, 0.1, 1e-3);
        const RunResult r = Run(RandomProblem(k.n, k.c, o, 2), o, k.dt, ACL_INT64);
        XCHECK_EQ(r.status, ACLNN_SUCCESS);
        const ascend_sim::LaunchStats st = ascend_sim::last_launch_stats();
        const ascend_xent::LaunchInfo info = ascend_xent::last_launch_info();
        const uint64_t elems = uint64_t(k.n) * uint64_t(k.c), eb = aclDataTypeSize(k.dt);
        XCHECK_EQ(info.mode, std::string(k.reads == 1 ? "whole_rows" : "column_tiles"));
        XCHECK_EQ(info.minTrafficBytes, elems * 2 * eb);
        const uint64_t small = uint64_t(k.n) * 64 + uint64_t(k.c) * 4 + 65536;
        XCHECK(st.total.gmReadBytes >= elems * eb * uint64_t(k.reads));
        XCHECK(st.total.gmReadBytes <= elems * eb * uint64_t(k.reads) + small);
        XCHECK(st.total.gmWriteBytes >= elems * eb && st.total.gmWriteBytes <= elems * eb + small);
    }
}

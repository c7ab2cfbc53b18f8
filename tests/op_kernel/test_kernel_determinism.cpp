// Bitwise the same output on every SoC profile, core count and host thread
// count, including the prologue's cross-core sums (several row and weight chunks).
#include "xent_test_util.h"
#include "xtest.h"

using namespace xtest_util;

namespace {

struct Setting {
    const char* soc;
    uint32_t cores, threads;
};

void CheckBitwiseStable(int64_t n, int64_t c, const Options& o, aclDataType dtype) {
    const Problem p = RandomProblem(n, c, o, 77);
    const Setting settings[] = {{"ascend910b", 0, 0},  {"ascend910b3", 0, 1}, {"ascend910b4", 0, 3},
                                {"ascend910_93", 0, 0}, {"ascend950", 0, 2},   {"ascend910b", 1, 0},
                                {"ascend910b", 7, 4},  {"ascend950", 13, 0}};
    std::vector<uint8_t> first;
    for (const Setting& s : settings) {
        ascend_sim::set_soc(s.soc);
        ascend_sim::set_cores(s.cores);
        ascend_sim::set_threads(s.threads);
        const RunResult r = Run(p, o, dtype, ACL_INT64);
        XCHECK_EQ(r.status, ACLNN_SUCCESS);
        if (first.empty()) first = r.outBytes;
        else if (r.outBytes != first)
            xtest::fail(__FILE__, __LINE__, std::string("output differs on ") + s.soc + " cores=" +
                                                std::to_string(s.cores) + " threads=" + std::to_string(s.threads));
    }
    ascend_sim::set_soc("");
    ascend_sim::set_cores(0);
    ascend_sim::set_threads(0);
}

}  // namespace

XTEST(mean_weighted_smoothing_zloss_is_bitwise_stable) {
    Options o;
    o.reduction = "mean";
    o.weight = true;
    o.labelSmoothing = 0.1;
    o.zlossScale = 1e-3;
    o.lse = o.gradZloss = true;
    CheckBitwiseStable(4500, 9000, o, ACL_BF16);  // 3 row chunks, 3 weight chunks
}

XTEST(none_column_split_is_bitwise_stable) {
    Options o;
    o.reduction = "none";
    o.labelSmoothing = 0.05;
    CheckBitwiseStable(5, 70001, o, ACL_FLOAT);
}

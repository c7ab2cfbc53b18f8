// GM traffic, from ascend_sim::last_launch_stats(): one read of logProb and one
// write of out per element, plus O(N + C) for per-row inputs, the weight and
// the workspace: total <= 1.02 * N*C*(in + out bytes) + small terms.
#include <cstdio>

#include "ascend_xent/launch_info.h"
#include "xent_test_util.h"
#include "xtest.h"

using namespace xtest_util;

namespace {

struct Shape {
    int64_t n, c;
    aclDataType dtype;
    const char* reduction;
    bool weight;
    double ls;
    bool strict;  // a benchmark case: within 1.02 of N*C*(in + out bytes), no allowance
};

void CheckTraffic(const Shape& s) {
    Options o;
    o.reduction = s.reduction;
    o.weight = s.weight;
    o.labelSmoothing = s.ls;
    const Problem p = RandomProblem(s.n, s.c, o, 1);
    const RunResult r = Run(p, o, s.dtype, ACL_INT64);
    XCHECK_EQ(r.status, ACLNN_SUCCESS);
    const ascend_sim::LaunchStats st = ascend_sim::last_launch_stats();
    const ascend_xent::LaunchInfo info = ascend_xent::last_launch_info();
    const uint64_t eb = aclDataTypeSize(s.dtype);
    const uint64_t ideal = uint64_t(s.n) * uint64_t(s.c) * 2 * eb;
    XCHECK_EQ(info.minTrafficBytes, ideal);
    const uint64_t dma = st.total.gmReadBytes + st.total.gmWriteBytes;
    const double ratio = double(dma) / double(ideal);
    // The O(N + C) allowance: per row and column tile a target, g, gz, lse (<= 32 B) and
    // weight[t] (scalar); the weight once per column tile per core; slots and partials.
    const uint64_t allowance = uint64_t(s.n) * uint64_t(info.colTiles) * 32 + uint64_t(s.n) * 8 +
                               uint64_t(s.c) * 4 * 2 + uint64_t(info.blockDim) * uint64_t(info.tileCols) * 4 + 65536;
    std::printf("  N=%lld C=%lld %s %s weight=%d ls=%.1f: mode=%s R=%lld TC=%lld blockDim=%lld  DMA %llu B "
                "(read %llu, write %llu), ideal %llu B, ratio %.5f; scalar GM reads %llu\n",
                (long long)s.n, (long long)s.c, s.dtype == ACL_FLOAT ? "fp32" : (s.dtype == ACL_BF16 ? "bf16" : "fp16"),
                s.reduction, int(s.weight), s.ls, info.mode.c_str(), (long long)info.tileRows,
                (long long)info.tileCols, (long long)info.blockDim, (unsigned long long)dma,
                (unsigned long long)st.total.gmReadBytes, (unsigned long long)st.total.gmWriteBytes,
                (unsigned long long)ideal, ratio, (unsigned long long)st.total.scalarGmReads);
    XCHECK(st.total.gmWriteBytes >= uint64_t(s.n) * uint64_t(s.c) * eb);
    XCHECK(double(dma) <= 1.02 * double(ideal) + double(allowance));
    if (s.strict) XCHECK(ratio <= 1.02);
    XCHECK_EQ(uint64_t(st.blocksUsed), uint64_t(info.blockDim));
}

}  // namespace

// The benchmark shape (bf16 to keep memory modest).
XTEST(traffic_bf16_4096x32000_mean_weight_ls) { CheckTraffic({4096, 32000, ACL_BF16, "mean", true, 0.1, true}); }
XTEST(traffic_fp32_1024x32000_none) { CheckTraffic({1024, 32000, ACL_FLOAT, "none", false, 0.0, true}); }
// Weighted smoothing: multi-row column-split tiles keep each core on about one column
// tile, so the weight columns are loaded about once per core.
XTEST(traffic_fp32_257x131073_sum_weight_ls) { CheckTraffic({257, 131073, ACL_FLOAT, "sum", true, 0.1, true}); }
XTEST(traffic_bf16_257x131073_mean_weight_ls) { CheckTraffic({257, 131073, ACL_BF16, "mean", true, 0.1, true}); }
XTEST(traffic_fp32_131073x257_mean) { CheckTraffic({131073, 257, ACL_FLOAT, "mean", false, 0.0, true}); }
XTEST(traffic_fp16_131073x9_none_ls) { CheckTraffic({131073, 9, ACL_FLOAT16, "none", false, 0.1, false}); }
XTEST(traffic_fp32_1x262144_mean_weight_ls) { CheckTraffic({1, 262144, ACL_FLOAT, "mean", true, 0.1, false}); }
XTEST(traffic_bf16_3x1048576_none_weight_ls) { CheckTraffic({3, 1048576, ACL_BF16, "none", true, 0.2, false}); }

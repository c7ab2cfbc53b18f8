// The vocabulary-shard API (aclnn_cross_entropy_loss_grad_shard.h) against the float64
// reference of the whole problem: every shard's output must be its columns of the whole
// gradient, for uneven shards (a 1-column shard, a shard no target falls in), both
// tiling modes, every dtype and option; the target check names classCount; the
// argument checks of the class range. Tolerance as tests/op_kernel/test_kernel_reference.cpp:
// half an ulp of the output dtype + 16 fp32 ulps of the terms' magnitudes + fp16 subnormals.
#include <cstdio>

#include "xent_test_util.h"
#include "xtest.h"

using namespace xtest_util;

namespace {

double Rtol(aclDataType t) { return t == ACL_FLOAT ? 0.0 : (t == ACL_FLOAT16 ? 1.0 / 2048 : 1.0 / 256); }
constexpr double kFp32Terms = 16 * 5.96e-8;
double Atol(aclDataType t) { return t == ACL_FLOAT16 ? std::ldexp(1.0, -25) : 1e-37; }

double RoundTo(aclDataType t, double v) {
    uint64_t bits = 0;
    StoreAs(t, &bits, 0, v);
    return LoadAs(t, &bits, 0);
}

// The inputs as the kernel sees them: rounded to their dtypes.
Problem Stored(const Problem& p, aclDataType dtype) {
    Problem s = p;
    for (std::vector<double>* v : {&s.logProb, &s.gradLoss, &s.gradZloss, &s.lse})
        for (double& x : *v) x = RoundTo(dtype, x);
    for (double& x : s.weight) x = RoundTo(ACL_FLOAT, x);
    return s;
}

// Elements of every shard outside tolerance of the whole problem's reference.
int64_t CheckShards(const Problem& raw, const Options& o, aclDataType dtype, aclDataType targetDtype,
                    const std::vector<int64_t>& widths, const std::string& label) {
    const Problem p = Stored(raw, dtype);
    std::vector<double> scale;
    const std::vector<double> ref = Reference(p, o, &scale);
    int64_t bad = 0, offset = 0;
    for (int64_t width : widths) {
        const Shard shard{offset, width};
        const RunResult r = RunShard(p, o, dtype, targetDtype, shard);
        if (r.status != ACLNN_SUCCESS) {
            xtest::fail(__FILE__, __LINE__, label + " shard at " + std::to_string(offset) + ": " + r.message);
            return 1;
        }
        for (int64_t i = 0; i < p.n; ++i)
            for (int64_t j = 0; j < width; ++j) {
                const size_t k = size_t(i * p.c + offset + j);
                const double want = ref[k], got = r.out[size_t(i * width + j)];
                const double tol = Tolerance(dtype, want, scale[k]);
                if (!(std::abs(got - want) <= tol)) {
                    if (bad < 3)
                        std::printf("    %s: shard %lld out[%lld][%lld] = %.9g, reference %.9g (tol %.3g)\n",
                                    label.c_str(), (long long)offset, (long long)i, (long long)j, got, want, tol);
                    ++bad;
                }
            }
        offset += width;
    }
    return bad;
}


void RunMatrix(int64_t n, const std::vector<int64_t>& widths, uint64_t seed) {
    int64_t c = 0;
    for (int64_t w : widths) c += w;
    int combos = 0;
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16})
        for (const char* red : {"none", "mean", "sum"})
            for (bool weight : {false, true})
                for (double ls : {0.0, 0.1})
                    for (int z : {0, 1, 2}) {
                        const Options o = MatrixOptions(red, weight, ls, z, combos);
                        const Problem p = RandomProblem(n, c, o, seed + combos);
                        char label[128];
                        std::snprintf(label, sizeof(label), "N=%lld C=%lld %s %s weight=%d ls=%.1f z=%d",
                                      (long long)n, (long long)c, Name(dtype), red, int(weight), ls, z);
                        const aclDataType tdt = combos % 3 ? ACL_INT64 : ACL_INT32;
                        const int64_t bad = CheckShards(p, o, dtype, tdt, widths, label);
                        if (bad) xtest::fail(__FILE__, __LINE__, std::string(label) + ": " + std::to_string(bad) +
                                                                     " elements outside tolerance");
                        ++combos;
                    }
    XCHECK_EQ(combos, 3 * 3 * 2 * 2 * 3);
}

}  // namespace

// Row-packed shards of uneven widths, one of them a single column.
XTEST(shard_matrix_row_packed_37x_300_1_699) { RunMatrix(37, {300, 1, 699}, 500); }
// Offsets 0, 296 and 304 are 32-byte aligned: the whole weight stays in UB and weighted
// smoothing reads each shard's columns from it in place (300 and 301 above do not).
XTEST(shard_matrix_resident_weight_8x_296_8_696) { RunMatrix(8, {296, 8, 696}, 510); }

// Column-split shards (several column tiles each), fewer rows than cores.
XTEST(shard_matrix_column_split_3x_20011_19989) { RunMatrix(3, {20011, 19989}, 600); }

// Every target in the first shard: the others have no fix-up at all, yet their
// rows are live (W, M, the smoothing and the z-loss are the whole problem's).
XTEST(shard_without_targets) {
    const Options o = MatrixOptions("mean", true, 0.1, 1, 1);
    Problem p = RandomProblem(64, 900, o, 700);
    for (int64_t& t : p.target)
        if (t != o.ignoreIndex) t %= 100;
    for (aclDataType dtype : {ACL_FLOAT, ACL_BF16})
        XCHECK_EQ(CheckShards(p, o, dtype, ACL_INT64, {100, 500, 300}, "targets in shard 0"), int64_t(0));
}

// classOffset 0, classCount C: the vendor API's bits.
XTEST(shard_of_whole_vocabulary_is_vendor_api) {
    Options o;
    o.reduction = "mean";
    o.weight = true;
    o.labelSmoothing = 0.1;
    const Problem p = RandomProblem(40, 3000, o, 800);
    const Shard all{0, p.c};
    const RunResult whole = Run(p, o, ACL_BF16, ACL_INT64), shard = RunShard(p, o, ACL_BF16, ACL_INT64, all);
    XCHECK_EQ(whole.status, ACLNN_SUCCESS);
    XCHECK_EQ(shard.status, ACLNN_SUCCESS);
    XCHECK(whole.outBytes == shard.outBytes);
}

// A target past classCount is reported with classCount; one past this shard's columns is not.
XTEST(shard_target_range_is_the_vocabulary) {
    Options o;
    Problem p = RandomProblem(8, 50, o, 900);
    p.target[2] = 49;  // another shard's class: fine
    const Shard first{0, 20};
    RunResult r = RunShard(p, o, ACL_FLOAT, ACL_INT64, first);
    XCHECK_EQ(r.status, ACLNN_SUCCESS);
    p.target[5] = 50;
    r = RunShard(p, o, ACL_FLOAT, ACL_INT64, first);
    XCHECK_EQ(r.status, ACLNN_ERR_PARAM_INVALID);
    XCHECK(r.message.find("target[5] = 50 is outside [0, 50)") != std::string::npos);
}

XTEST(shard_class_range_checks) {
    struct Case {
        int64_t offset, width, count;
        const char* message;
    } cases[] = {
        {-1, 10, 30, "classOffset must be in [0, classCount - C] = [0, 20]"},
        {21, 10, 30, "classOffset must be in [0, classCount - C] = [0, 20]"},
        {0, 10, 0, "classCount must be in [1, 2^30], got 0"},
        {0, 10, 9, "classOffset must be in [0, classCount - C] = [0, -1]"},
    };
    for (const Case& k : cases) {
        uint64_t ws = 0;
        aclOpExecutor* exec = nullptr;
        DeviceTensor grad({}, ACL_FLOAT), lp({4, k.width}, ACL_FLOAT), t({4}, ACL_INT64), out({4, k.width}, ACL_FLOAT);
        t.Set({0, 1, 2, 3});
        const aclnnStatus st = aclnnXentCrossEntropyLossGradShardGetWorkspaceSize(
            grad.get(), lp.get(), t.get(), nullptr, nullptr, nullptr, nullptr, -100, 0.0, 0.0, k.offset, k.count,
            out.get(), &ws, &exec);
        const std::string msg = aclGetRecentErrMsg();
        XCHECK_EQ(st, ACLNN_ERR_PARAM_INVALID);
        XCHECK(msg.find(std::string("aclnnXentCrossEntropyLossGradShardGetWorkspaceSize: ") + k.message) !=
               std::string::npos);
    }
    // The weight is the whole vocabulary's, not the shard's.
    DeviceTensor grad({}, ACL_FLOAT), lp({4, 10}, ACL_FLOAT), t({4}, ACL_INT64), out({4, 10}, ACL_FLOAT),
        w({10}, ACL_FLOAT);
    uint64_t ws = 0;
    aclOpExecutor* exec = nullptr;
    XCHECK_EQ(aclnnXentCrossEntropyLossGradShardGetWorkspaceSize(grad.get(), lp.get(), t.get(), w.get(), nullptr,
                                                                 nullptr, nullptr, -100, 0.0, 0.0, 10, 30, out.get(),
                                                                 &ws, &exec),
              ACLNN_ERR_PARAM_INVALID);
    XCHECK(std::string(aclGetRecentErrMsg()).find("weightOptional must have shape (classCount,) = (30,)") !=
           std::string::npos);
}

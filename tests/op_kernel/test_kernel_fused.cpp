// The fused loss and gradient (aclnnXentCrossEntropyLossWithGrad) on the simulator,
// against the float64 reference of fused_test_util.h: the dtype x option matrix with
// and without softcap in both kernel paths (whole rows, column tiles), ragged shapes,
// in place, the bf16 true class at p = 0.999, its loss outputs bit for bit the
// forward's, determinism, and argument errors naming the argument.
#include <cmath>
#include <cstring>

#include "fused_test_util.h"
#include "xtest.h"

using fused_test::CompareWithReference;
using fused_test::FusedResult;
using fwd_test::Options;
using fwd_test::Problem;
using fwd_test::RandomProblem;

namespace {

const aclDataType kDtypes[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
const char* const kReductions[] = {"none", "mean", "sum"};

Options Opts(const char* reduction, bool weight, double ls, double z, int64_t ignoreIndex = -100) {
    Options o;
    o.reduction = reduction;
    o.weight = weight;
    o.labelSmoothing = ls;
    o.zlossScale = z;
    o.ignoreIndex = ignoreIndex;
    return o;
}

int64_t Check(const Problem& p, const Options& o, double softcap, aclDataType dt, aclDataType targetType,
              bool inPlace, const char* what) {
    const FusedResult r = fused_test::Run(p, o, softcap, dt, targetType, inPlace);
    char label[200];
    std::snprintf(label, sizeof label, "%s %lldx%lld %s %s w=%d ls=%g z=%g cap=%g%s", what, (long long)p.n,
                  (long long)p.c, xtest_util::Name(dt), o.reduction.c_str(), int(o.weight), o.labelSmoothing,
                  o.zlossScale, softcap, inPlace ? " in place" : "");
    if (r.status != ACLNN_SUCCESS) {
        std::printf("    %s: status %d %s\n", label, r.status, r.message.c_str());
        return 1;
    }
    return CompareWithReference(r, o, softcap, dt, label) > 0;
}

// Every dtype x reduction x weight x smoothing x z-loss x softcap; int64 and int32
// targets, ignoreIndex -100 and the in-range 3 in turn.
void Matrix(int64_t n, int64_t c) {
    int combo = 0;
    int64_t bad = 0;
    for (aclDataType dt : kDtypes)
        for (const char* red : kReductions)
            for (int weight = 0; weight < 2; ++weight)
                for (double ls : {0.0, 0.1})
                    for (double z : {0.0, 1e-2})
                        for (double cap : {0.0, 5.0}) {
                            const Options o = Opts(red, weight != 0, ls, z, combo % 2 ? -100 : 3);
                            const Problem p = RandomProblem(n, c, o, 2000 + combo);
                            bad += Check(p, o, cap, dt, combo % 3 ? ACL_INT64 : ACL_INT32, combo % 4 == 1, "matrix");
                            ++combo;
                        }
    XCHECK_EQ(bad, 0);
}

}  // namespace

XTEST(option_matrix_whole_rows) { Matrix(37, 1001); }

// A row of 40000 does not fit in UB in any dtype: the gradient comes out of the second pass.
XTEST(option_matrix_column_tiles) { Matrix(3, 40000); }

XTEST(ragged_shapes) {
    const int64_t shapes[][2] = {{1, 1},  {1, 2},   {5, 7},    {19, 41},  {1, 256},  {1, 257},
                                 {65, 8}, {129, 9}, {8, 883},  {255, 257}, {2, 18433}, {1, 131073}};
    int k = 0;
    int64_t bad = 0;
    for (const auto& s : shapes)
        for (aclDataType dt : kDtypes) {
            const Options o = Opts(kReductions[k % 3], k % 2 == 0, k % 4 < 2 ? 0.1 : 0.0, k % 5 < 2 ? 1e-3 : 0.0);
            const Problem p = RandomProblem(s[0], s[1], o, 3000 + k);
            bad += Check(p, o, k % 3 == 1 ? 30.0 : 0.0, dt, ACL_INT64, k % 4 == 3, "ragged");
            ++k;
        }
    XCHECK_EQ(bad, 0);
}

// Without softcap the loss, z-loss and logsumexp are the forward kernel's, bit for bit.
XTEST(loss_outputs_are_the_forward_s) {
    for (aclDataType dt : kDtypes)
        for (int64_t c : {1001, 40000}) {
            const Options o = Opts("mean", true, 0.1, 1e-2);
            const Problem p = RandomProblem(9, c, o, 77);
            const fwd_test::RunResult f = fwd_test::Run(p, o, dt, ACL_INT64, {});
            const FusedResult g = fused_test::Run(p, o, 0.0, dt, ACL_INT64);
            XCHECK_EQ(f.status, ACLNN_SUCCESS);
            XCHECK_EQ(g.status, ACLNN_SUCCESS);
            XCHECK(f.out.loss == g.out.loss);
            XCHECK(f.out.zloss == g.out.zloss);
            XCHECK(f.out.lse == g.out.lse);
        }
}

// bf16, p(true class) = 0.999: its gradient p - 1 = -0.001 is formed in fp32 and rounded
// once (a bf16 read-modify-write of p would give 0, a 100% error).
XTEST(bf16_true_class_at_p_0_999) {
    const int64_t C = 1000;
    Problem p;
    p.n = 1;
    p.c = C;
    p.input.assign(C, 0.0);
    p.input[7] = std::log(0.999 * (C - 1) / 0.001);  // softmax: 0.999 at 7, 0.001 shared by the rest
    p.target = {7};
    p.weight.assign(C, 1.0);
    const Options o = Opts("mean", false, 0.0, 0.0);
    const FusedResult r = fused_test::Run(p, o, 0.0, ACL_BF16, ACL_INT64);
    XCHECK_EQ(r.status, ACLNN_SUCCESS);
    const double want = fused_test::GradOf(r.stored, o, 0.0).want[7];
    XCHECK(std::abs(want + 0.001) < 2e-5);
    XCHECK(std::abs(r.out.logProb[7] - want) <= std::abs(want) / 128);  // bf16: 8 significant bits
}

// In place gives the bits of a separate gradOut; the same bits on every core count.
XTEST(in_place_and_determinism) {
    for (aclDataType dt : kDtypes)
        for (int64_t c : {1001, 40000}) {
            const Options o = Opts("mean", true, 0.1, 1e-3);
            const Problem p = RandomProblem(50, c, o, 5);
            const FusedResult a = fused_test::Run(p, o, 20.0, dt, ACL_INT64, false);
            const FusedResult b = fused_test::Run(p, o, 20.0, dt, ACL_INT64, true);
            XCHECK_EQ(a.status, ACLNN_SUCCESS);
            XCHECK_EQ(b.status, ACLNN_SUCCESS);
            XCHECK(a.gradBytes == b.gradBytes);
            XCHECK(a.out.loss == b.out.loss);
        }
}

XTEST(argument_errors_name_the_argument) {
    const int64_t N = 4, C = 10;
    xtest_util::DeviceTensor input({N, C}, ACL_FLOAT), target({N}, ACL_INT64), loss({}, ACL_FLOAT),
        zloss({}, ACL_FLOAT), lse({N}, ACL_FLOAT), grad({N, C}, ACL_FLOAT), gradHalf({N, C}, ACL_FLOAT16),
        gradShort({N, C - 1}, ACL_FLOAT);
    target.Set(std::vector<double>(N, 1.0));
    char mean[] = "mean";
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    auto phase1 = [&](double cap, aclTensor* g, aclTensor* l) {
        return aclnnXentCrossEntropyLossWithGradGetWorkspaceSize(input.get(), target.get(), nullptr, mean, -100, 0.0,
                                                                 0.0, cap, l, zloss.get(), lse.get(), g, &ws, &ex);
    };
    auto refused = [&](aclnnStatus st, const char* words) {
        const std::string msg = aclGetRecentErrMsg();
        const bool ok = st != ACLNN_SUCCESS && msg.find(words) != std::string::npos &&
                        msg.find("aclnnXentCrossEntropyLossWithGradGetWorkspaceSize") != std::string::npos;
        if (!ok) std::printf("    status %d, message: %s\n", st, msg.c_str());
        return ok;
    };
    XCHECK(refused(phase1(-1.0, grad.get(), loss.get()), "softcap must be finite and >= 0"));
    XCHECK(refused(phase1(std::nan(""), grad.get(), loss.get()), "softcap is NaN"));
    XCHECK(refused(phase1(1e-300, grad.get(), loss.get()), "softcap = "));
    XCHECK(refused(phase1(0.0, nullptr, loss.get()), "gradOut is null"));
    XCHECK(refused(phase1(0.0, gradHalf.get(), loss.get()), "gradOut"));
    XCHECK(refused(phase1(0.0, gradShort.get(), loss.get()), "gradOut must have shape"));
    XCHECK(refused(phase1(0.0, lse.get(), loss.get()), "gradOut"));
    XCHECK(refused(phase1(0.0, grad.get(), zloss.get()), "zlossOut must not overlap lossOut"));
    // An executor of the fused API is refused by the forward's phase 2, and back.
    XCHECK_EQ(phase1(0.0, grad.get(), loss.get()), ACLNN_SUCCESS);
    void* w = nullptr;
    aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST);
    XCHECK(aclnnCrossEntropyLoss(w, ws, ex, nullptr) != ACLNN_SUCCESS);
    XCHECK(std::string(aclGetRecentErrMsg()).find("did not come from aclnnCrossEntropyLossGetWorkspaceSize") !=
           std::string::npos);
    aclrtFree(w);
}

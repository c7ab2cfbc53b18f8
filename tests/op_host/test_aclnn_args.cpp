// Argument validation of the two-phase API: each bad argument gives CANN's
// status code and a message (aclGetRecentErrMsg) naming the argument.
#include <cmath>
#include <limits>
#include <string>

#include "xent_test_util.h"
#include "xtest.h"

using xtest_util::DeviceTensor;

namespace {

// A valid mean problem: N = 4, C = 6, fp32, weight, z-loss inputs.
struct Fixture {
    int64_t N = 4, C = 6;
    DeviceTensor gradLoss{{}, ACL_FLOAT}, gradLossN{{4}, ACL_FLOAT}, logProb{{4, 6}, ACL_FLOAT},
        target{{4}, ACL_INT64}, weight{{6}, ACL_FLOAT}, gradZ{{}, ACL_FLOAT}, lse{{4}, ACL_FLOAT},
        out{{4, 6}, ACL_FLOAT};
    Fixture() {
        gradLoss.Set({1.0});
        gradLossN.Set({1, 1, 1, 1});
        logProb.Set(std::vector<double>(24, -1.8));
        target.Set({0, 1, 2, 5});
        weight.Set(std::vector<double>(6, 1.0));
        gradZ.Set({0.5});
        lse.Set({1, 2, 3, 4});
    }
};

struct Call {
    const aclTensor *gradLoss, *logProb, *target, *weight, *gradZ, *lse;
    const char* reduction;
    int64_t ignoreIndex = -100;
    double ls = 0.0, zscale = 0.0;
    const aclTensor* out;
    uint64_t* wsSize;
    aclOpExecutor** exec;
};

uint64_t g_ws = 0;
aclOpExecutor* g_exec = nullptr;

Call Valid(Fixture& f) {
    return Call{f.gradLoss.get(), f.logProb.get(), f.target.get(), f.weight.get(), f.gradZ.get(), f.lse.get(),
                "mean", -100, 0.0, 0.0, f.out.get(), &g_ws, &g_exec};
}

aclnnStatus Phase1(const Call& c) {
    std::string red = c.reduction ? c.reduction : "";
    return aclnnCrossEntropyLossGradGetWorkspaceSize(c.gradLoss, c.logProb, c.target, c.weight, c.gradZ, c.lse,
                                                     c.reduction ? red.data() : nullptr, c.ignoreIndex, c.ls,
                                                     c.zscale, c.out, c.wsSize, c.exec);
}

void ExpectFail(const Call& c, aclnnStatus status, const char* mentions) {
    const aclnnStatus got = Phase1(c);
    const std::string msg = aclGetRecentErrMsg();
    if (got != status || msg.find(mentions) == std::string::npos)
        xtest::fail(__FILE__, __LINE__,
                    "status " + std::to_string(got) + " message \"" + msg + "\"; wanted " + std::to_string(status) +
                        " mentioning \"" + mentions + "\"");
}

// A valid call with one argument swapped for `t`: phase 1 must fail with the
// given status, naming `mentions`.
struct Swap {
    const aclTensor* Call::*field;
    const aclTensor* t;
    const char* mentions;
};

void ExpectEachFails(Fixture& f, aclnnStatus status, std::initializer_list<Swap> swaps) {
    for (const Swap& s : swaps) {
        Call c = Valid(f);
        c.*s.field = s.t;
        ExpectFail(c, status, s.mentions);
    }
}

void ExpectOk(const Call& c) {
    const aclnnStatus got = Phase1(c);
    if (got != ACLNN_SUCCESS) xtest::fail(__FILE__, __LINE__, std::string("unexpected failure: ") + aclGetRecentErrMsg());
    aclDestroyAclOpExecutor(g_exec);
}

}  // namespace

XTEST(valid_call_succeeds_and_reports_workspace) {
    Fixture f;
    Call c = Valid(f);
    XCHECK_EQ(Phase1(c), ACLNN_SUCCESS);
    XCHECK(g_ws >= 16u * 1024 * 1024);
    void* ws = nullptr;
    aclrtMalloc(&ws, g_ws, ACL_MEM_MALLOC_HUGE_FIRST);
    XCHECK_EQ(aclnnCrossEntropyLossGrad(ws, g_ws, g_exec, nullptr), ACLNN_SUCCESS);
    aclrtFree(ws);
    c.reduction = nullptr;  // nullptr means "mean"
    ExpectOk(c);
}

XTEST(null_required_tensors) {
    Fixture f;
    ExpectEachFails(f, ACLNN_ERR_PARAM_NULLPTR,
                    {{&Call::gradLoss, nullptr, "gradLoss"},
                     {&Call::logProb, nullptr, "logProb"},
                     {&Call::target, nullptr, "target"},
                     {&Call::out, nullptr, "out"}});
    Call c = Valid(f);
    c.wsSize = nullptr;
    ExpectFail(c, ACLNN_ERR_PARAM_NULLPTR, "workspaceSize");
    c = Valid(f);
    c.exec = nullptr;
    ExpectFail(c, ACLNN_ERR_PARAM_NULLPTR, "executor");
}

XTEST(options) {
    Fixture f;
    Call c = Valid(f);
    c.reduction = "avg";
    ExpectFail(c, ACLNN_ERR_PARAM_INVALID, "reductionOptional");
    c.reduction = "MEAN";
    ExpectFail(c, ACLNN_ERR_PARAM_INVALID, "reductionOptional");
    c = Valid(f);
    for (double bad : {-0.1, 1.5, std::nan("")}) {
        c.ls = bad;
        ExpectFail(c, ACLNN_ERR_PARAM_INVALID, "labelSmoothing");
    }
    c.ls = 1.0;
    ExpectOk(c);
    c = Valid(f);
    c.zscale = std::nan("");
    ExpectFail(c, ACLNN_ERR_PARAM_INVALID, "lseSquareScaleForZloss");
    c.zscale = 1e-4;
    c.lse = nullptr;
    ExpectFail(c, ACLNN_ERR_PARAM_NULLPTR, "lseForZlossOptional");
    c.lse = f.lse.get();
    ExpectOk(c);
}

XTEST(dtypes) {
    Fixture f;
    DeviceTensor lpInt({4, 6}, ACL_INT32), lpF64({4, 6}, ACL_DOUBLE), g16({}, ACL_FLOAT16), out16({4, 6}, ACL_FLOAT16),
        tF({4}, ACL_FLOAT), w16({6}, ACL_FLOAT16), gz16({}, ACL_FLOAT16), lse16({4}, ACL_FLOAT16), t32({4}, ACL_INT32);
    t32.Set({0, 1, 2, 5});
    ExpectEachFails(f, ACLNN_ERR_PARAM_INVALID,
                    {{&Call::logProb, lpInt.get(), "logProb"},
                     {&Call::logProb, lpF64.get(), "logProb"},
                     {&Call::gradLoss, g16.get(), "gradLoss"},
                     {&Call::out, out16.get(), "out"},
                     {&Call::target, tF.get(), "target"},
                     {&Call::weight, w16.get(), "weightOptional"},
                     {&Call::gradZ, gz16.get(), "gradZlossOptional"},
                     {&Call::lse, lse16.get(), "lseForZlossOptional"}});
    Call c = Valid(f);
    c.target = t32.get();  // int32 targets are fine
    ExpectOk(c);
}

XTEST(shapes) {
    Fixture f;
    DeviceTensor lp3({4, 6, 1}, ACL_FLOAT), lp0({4, 0}, ACL_FLOAT), t5({5}, ACL_INT64), w7({7}, ACL_FLOAT),
        o47({4, 7}, ACL_FLOAT), lse5({5}, ACL_FLOAT), g1({1}, ACL_FLOAT), gz4({4}, ACL_FLOAT);
    ExpectEachFails(f, ACLNN_ERR_PARAM_INVALID,
                    {{&Call::logProb, lp3.get(), "logProb"},
                     {&Call::logProb, lp0.get(), "logProb"},
                     {&Call::target, t5.get(), "target"},
                     {&Call::weight, w7.get(), "weightOptional"},
                     {&Call::out, o47.get(), "out"},
                     {&Call::lse, lse5.get(), "lseForZlossOptional"},
                     {&Call::gradLoss, g1.get(), "gradLoss"}});  // mean wants 0-D
    Call c = Valid(f);
    c.reduction = "none";  // none wants (N,) gradLoss and gradZloss
    ExpectFail(c, ACLNN_ERR_PARAM_INVALID, "gradLoss");
    c.gradLoss = f.gradLossN.get();
    ExpectFail(c, ACLNN_ERR_PARAM_INVALID, "gradZlossOptional");
    c.gradZ = gz4.get();
    ExpectOk(c);
}

XTEST(non_contiguous_and_aliasing) {
    Fixture f;
    // A transposed (6, 4) -> (4, 6) view of logProb's buffer: strides (1, 4).
    const int64_t dims[] = {4, 6}, strides[] = {1, 4}, storage[] = {24};
    aclTensor* transposed =
        aclCreateTensor(dims, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, storage, 1, f.logProb.data());
    Call c = Valid(f);
    c.logProb = transposed;
    ExpectFail(c, ACLNN_ERR_PARAM_INVALID, "contiguous");
    aclDestroyTensor(transposed);
    // A view past its storage.
    const int64_t small[] = {10};
    aclTensor* overrun = aclCreateTensor(dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, small, 1, f.logProb.data());
    c = Valid(f);
    c.logProb = overrun;
    ExpectFail(c, ACLNN_ERR_PARAM_INVALID, "storage");
    aclDestroyTensor(overrun);
    // No data.
    aclTensor* empty = aclCreateTensor(dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 2, nullptr);
    c = Valid(f);
    c.logProb = empty;
    ExpectFail(c, ACLNN_ERR_PARAM_NULLPTR, "logProb");
    aclDestroyTensor(empty);
}

XTEST(phase_two_arguments) {
    Fixture f;
    Call c = Valid(f);
    XCHECK_EQ(aclnnCrossEntropyLossGrad(nullptr, 0, nullptr, nullptr), ACLNN_ERR_PARAM_NULLPTR);
    XCHECK(std::string(aclGetRecentErrMsg()).find("executor") != std::string::npos);

    XCHECK_EQ(Phase1(c), ACLNN_SUCCESS);
    void* ws = nullptr;
    aclrtMalloc(&ws, g_ws, ACL_MEM_MALLOC_HUGE_FIRST);
    XCHECK_EQ(aclnnCrossEntropyLossGrad(ws, g_ws - 1, g_exec, nullptr), ACLNN_ERR_PARAM_INVALID);
    XCHECK(std::string(aclGetRecentErrMsg()).find("workspaceSize") != std::string::npos);
    // The executor is single use: phase 2 consumed it even though it failed.
    XCHECK_EQ(aclnnCrossEntropyLossGrad(ws, g_ws, g_exec, nullptr), ACLNN_ERR_PARAM_INVALID);
    XCHECK(std::string(aclGetRecentErrMsg()).find("executor") != std::string::npos);

    XCHECK_EQ(Phase1(c), ACLNN_SUCCESS);
    XCHECK_EQ(aclnnCrossEntropyLossGrad(nullptr, g_ws, g_exec, nullptr), ACLNN_ERR_PARAM_NULLPTR);
    XCHECK(std::string(aclGetRecentErrMsg()).find("workspace") != std::string::npos);

    XCHECK_EQ(Phase1(c), ACLNN_SUCCESS);
    XCHECK_EQ(aclnnCrossEntropyLossGrad(ws, g_ws, g_exec, nullptr), ACLNN_SUCCESS);
    XCHECK_EQ(aclnnCrossEntropyLossGrad(ws, g_ws, g_exec, nullptr), ACLNN_ERR_PARAM_INVALID);  // reused
    aclrtFree(ws);
    // Messages are obtained and cleared.
    (void)aclGetRecentErrMsg();
    XCHECK(std::string(aclGetRecentErrMsg()).empty());
}

XTEST(out_of_range_target_is_reported_after_the_launch) {
    const int64_t N = 20, C = 32000;
    DeviceTensor gradLoss({}, ACL_FLOAT), logProb({N, C}, ACL_FLOAT), target({N}, ACL_INT64), out({N, C}, ACL_FLOAT);
    gradLoss.Set({1.0});
    logProb.Set(std::vector<double>(size_t(N * C), -3.0));
    std::vector<double> t(N, 5);
    t[17] = 40000;
    t[19] = -7;
    t[3] = -100;
    target.Set(t);
    uint64_t wsSize = 0;
    aclOpExecutor* exec = nullptr;
    char mean[] = "mean";
    XCHECK_EQ(aclnnCrossEntropyLossGradGetWorkspaceSize(gradLoss.get(), logProb.get(), target.get(), nullptr, nullptr,
                                                        nullptr, mean, -100, 0.0, 0.0, out.get(), &wsSize, &exec),
              ACLNN_SUCCESS);
    void* ws = nullptr;
    aclrtMalloc(&ws, wsSize, ACL_MEM_MALLOC_HUGE_FIRST);
    XCHECK_EQ(aclnnCrossEntropyLossGrad(ws, wsSize, exec, nullptr), ACLNN_ERR_PARAM_INVALID);
    const std::string msg = aclGetRecentErrMsg();
    XCHECK(msg.find("target[17] = 40000 is outside [0, 32000) and is not ignoreIndex (-100)") != std::string::npos);
    aclrtFree(ws);
    // Bad rows are zero; the others are computed with M = 17 live rows.
    const std::vector<double> o = out.Get();
    for (int64_t j = 0; j < C; ++j) {
        XCHECK_EQ(o[size_t(17 * C + j)], 0.0);
        XCHECK_EQ(o[size_t(19 * C + j)], 0.0);
        XCHECK_EQ(o[size_t(3 * C + j)], 0.0);
    }
    XCHECK_NEAR(o[size_t(0 * C + 5)], (std::exp(-3.0) - 1.0) / 17.0, 1e-7);
}

XTEST(empty_batch_needs_no_launch) {
    DeviceTensor gradLoss({0}, ACL_FLOAT), logProb({0, 5}, ACL_FLOAT), target({0}, ACL_INT64), out({0, 5}, ACL_FLOAT);
    uint64_t wsSize = 123;
    aclOpExecutor* exec = nullptr;
    char none[] = "none";
    XCHECK_EQ(aclnnCrossEntropyLossGradGetWorkspaceSize(gradLoss.get(), logProb.get(), target.get(), nullptr, nullptr,
                                                        nullptr, none, -100, 0.0, 0.0, out.get(), &wsSize, &exec),
              ACLNN_SUCCESS);
    XCHECK_EQ(wsSize, uint64_t(0));
    XCHECK_EQ(aclnnCrossEntropyLossGrad(nullptr, 0, exec, nullptr), ACLNN_SUCCESS);
}

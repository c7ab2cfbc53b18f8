// Argument validation of aclnnCrossEntropyLossGetWorkspaceSize and the phase-2 entry:
// each bad argument gives CANN's status code and a message naming the argument.
#include <cmath>
#include <limits>
#include <string>

#include "aclnnop/aclnn_cross_entropy_loss.h"
#include "xent_test_util.h"
#include "xtest.h"

using xtest_util::DeviceTensor;

namespace {

// A valid mean problem: N = 4, C = 6, fp32, weight; every output.
struct Fixture {
    DeviceTensor input{{4, 6}, ACL_FLOAT}, target{{4}, ACL_INT64}, weight{{6}, ACL_FLOAT}, loss{{1}, ACL_FLOAT},
        logProb{{4, 6}, ACL_FLOAT}, zloss{{1}, ACL_FLOAT}, lse{{4}, ACL_FLOAT};
    Fixture() {
        input.Set(std::vector<double>(24, 0.5));
        target.Set({0, 1, 2, 5});
        weight.Set(std::vector<double>(6, 1.0));
    }
};

struct Call {
    const aclTensor *input, *target, *weight;
    const char* reduction;
    int64_t ignoreIndex;
    double ls, zscale;
    const aclTensor *loss, *logProb, *zloss, *lse;
    uint64_t* wsSize;
    aclOpExecutor** exec;
};

uint64_t g_ws = 0;
aclOpExecutor* g_exec = nullptr;

Call Valid(Fixture& f) {
    return Call{f.input.get(), f.target.get(), f.weight.get(), "mean", -100, 0.0, 0.0, f.loss.get(),
                f.logProb.get(), f.zloss.get(), f.lse.get(), &g_ws, &g_exec};
}

aclnnStatus Phase1(const Call& c) {
    std::string red = c.reduction ? c.reduction : "";
    return aclnnCrossEntropyLossGetWorkspaceSize(c.input, c.target, c.weight, c.reduction ? red.data() : nullptr,
                                                 c.ignoreIndex, c.ls, c.zscale, false, c.loss, c.logProb, c.zloss,
                                                 c.lse, c.wsSize, c.exec);
}

void ExpectFail(const Call& c, aclnnStatus status, const char* mentions) {
    const aclnnStatus got = Phase1(c);
    const std::string msg = aclGetRecentErrMsg();
    if (got != status || msg.find(mentions) == std::string::npos)
        xtest::fail(__FILE__, __LINE__,
                    "expected status " + std::to_string(status) + " mentioning \"" + mentions + "\", got " +
                        std::to_string(got) + ": " + msg);
}

void ExpectOk(const Call& c) {
    const aclnnStatus got = Phase1(c);
    if (got != ACLNN_SUCCESS) xtest::fail(__FILE__, __LINE__, "expected success: " + std::string(aclGetRecentErrMsg()));
    XCHECK_EQ(aclDestroyAclOpExecutor(*c.exec), ACLNN_SUCCESS);
}

}  // namespace

XTEST(valid_call_succeeds) {
    Fixture f;
    ExpectOk(Valid(f));
    Call c = Valid(f);
    c.reduction = nullptr;  // "mean"
    c.weight = nullptr;
    ExpectOk(c);
}

XTEST(null_pointers) {
    Fixture f;
    const char* names[] = {"input", "target", "lossOut", "logProbOut", "zlossOut", "lseForZlossOut"};
    for (int k = 0; k < 6; ++k) {
        Call c = Valid(f);
        const aclTensor** slot[] = {&c.input, &c.target, &c.loss, &c.logProb, &c.zloss, &c.lse};
        *slot[k] = nullptr;
        ExpectFail(c, ACLNN_ERR_PARAM_NULLPTR, (std::string(names[k]) + " is null").c_str());
    }
    Call c = Valid(f);
    c.wsSize = nullptr;
    ExpectFail(c, ACLNN_ERR_PARAM_NULLPTR, "workspaceSize is null");
    c = Valid(f);
    c.exec = nullptr;
    ExpectFail(c, ACLNN_ERR_PARAM_NULLPTR, "executor is null");
}

XTEST(options) {
    Fixture f;
    Call c = Valid(f);
    c.reduction = "avg";
    ExpectFail(c, ACLNN_ERR_PARAM_INVALID, "reductionOptional");
    c = Valid(f);
    for (double ls : {-0.1, 1.5, std::nan("")}) {
        c.ls = ls;
        ExpectFail(c, ACLNN_ERR_PARAM_INVALID, "labelSmoothing");
    }
    c = Valid(f);
    for (double z : {-1.0, std::numeric_limits<double>::infinity(), std::nan(""), 1e-320}) {
        c.zscale = z;
        ExpectFail(c, ACLNN_ERR_PARAM_INVALID, "lseSquareScaleForZloss");
    }
    c = Valid(f);
    c.ignoreIndex = std::numeric_limits<int64_t>::min();  // any int64 is an ignoreIndex
    ExpectOk(c);
}

XTEST(dtypes) {
    Fixture f;
    DeviceTensor input64({4, 6}, ACL_DOUBLE), target16({4}, ACL_INT16), weight16({6}, ACL_FLOAT16),
        lossHalf({1}, ACL_FLOAT16), logProbHalf({4, 6}, ACL_FLOAT16), zlossHalf({1}, ACL_FLOAT16),
        lseHalf({4}, ACL_FLOAT16);
    Call c = Valid(f);
    c.input = input64.get();
    ExpectFail(c, ACLNN_ERR_PARAM_INVALID, "input must be float32, float16 or bfloat16");
    c = Valid(f);
    c.target = target16.get();
    ExpectFail(c, ACLNN_ERR_PARAM_INVALID, "target must be int64 or int32");
    c = Valid(f);
    c.weight = weight16.get();
    ExpectFail(c, ACLNN_ERR_PARAM_INVALID, "weightOptional must be float32");
    const std::pair<const aclTensor*, const char*> outs[] = {
        {lossHalf.get(), "lossOut"}, {logProbHalf.get(), "logProbOut"}, {zlossHalf.get(), "zlossOut"},
        {lseHalf.get(), "lseForZlossOut"}};
    for (int k = 0; k < 4; ++k) {
        c = Valid(f);
        const aclTensor** slot[] = {&c.loss, &c.logProb, &c.zloss, &c.lse};
        *slot[k] = outs[k].first;
        ExpectFail(c, ACLNN_ERR_PARAM_INVALID, (std::string(outs[k].second) + " must have input's dtype").c_str());
    }
}

XTEST(shapes) {
    Fixture f;
    DeviceTensor input3({4, 6, 1}, ACL_FLOAT), input0({4, 0}, ACL_FLOAT), target5({5}, ACL_INT64),
        weight5({5}, ACL_FLOAT), lossN({4}, ACL_FLOAT), loss2({2}, ACL_FLOAT), logProb7({4, 7}, ACL_FLOAT),
        lse3({3}, ACL_FLOAT), zlossN({4}, ACL_FLOAT);
    Call c = Valid(f);
    c.input = input3.get();
    ExpectFail(c, ACLNN_ERR_PARAM_INVALID, "input must be 2-D");
    c.input = input0.get();
    ExpectFail(c, ACLNN_ERR_PARAM_INVALID, "input must have C >= 1");
    c = Valid(f);
    c.target = target5.get();
    ExpectFail(c, ACLNN_ERR_PARAM_INVALID, "target must have shape (N,)");
    c = Valid(f);
    c.weight = weight5.get();
    ExpectFail(c, ACLNN_ERR_PARAM_INVALID, "weightOptional must have shape (C,)");
    c = Valid(f);
    c.loss = loss2.get();
    ExpectFail(c, ACLNN_ERR_PARAM_INVALID, "lossOut must have shape (1,) or ()");
    c = Valid(f);
    c.logProb = logProb7.get();
    ExpectFail(c, ACLNN_ERR_PARAM_INVALID, "logProbOut must have shape (N, C)");
    c = Valid(f);
    c.lse = lse3.get();
    ExpectFail(c, ACLNN_ERR_PARAM_INVALID, "lseForZlossOut must have shape (N,)");
    c = Valid(f);
    c.reduction = "none";  // loss and zloss must then be (N,)
    ExpectFail(c, ACLNN_ERR_PARAM_INVALID, "lossOut must have shape (N,)");
    c.loss = lossN.get();
    ExpectFail(c, ACLNN_ERR_PARAM_INVALID, "zlossOut must have shape (N,)");
    c.zloss = zlossN.get();
    ExpectOk(c);
}

XTEST(non_contiguous_and_overlap) {
    Fixture f;
    const int64_t shape[] = {4, 6}, strides[] = {1, 4};
    aclTensor* transposed = aclCreateTensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 2, f.input.data());
    Call c = Valid(f);
    c.input = transposed;
    ExpectFail(c, ACLNN_ERR_PARAM_INVALID, "input must be contiguous");
    aclDestroyTensor(transposed);
    c = Valid(f);
    c.logProb = f.input.get();  // in place is not supported: logProbOut would overwrite the logits being read
    ExpectFail(c, ACLNN_ERR_PARAM_INVALID, "logProbOut must not overlap input");
    c = Valid(f);
    c.zloss = f.loss.get();
    ExpectFail(c, ACLNN_ERR_PARAM_INVALID, "zlossOut must not overlap lossOut");
}

XTEST(phase_two_refuses_bad_executors_and_workspaces) {
    Fixture f;
    XCHECK_EQ(Phase1(Valid(f)), ACLNN_SUCCESS);
    aclOpExecutor* exec = g_exec;
    const uint64_t need = g_ws;
    XCHECK(need > 0);
    XCHECK_EQ(aclnnCrossEntropyLoss(nullptr, need, nullptr, nullptr), ACLNN_ERR_PARAM_NULLPTR);
    void* ws = nullptr;
    aclrtMalloc(&ws, need, ACL_MEM_MALLOC_HUGE_FIRST);
    XCHECK_EQ(aclnnCrossEntropyLoss(ws, need - 1, exec, nullptr), ACLNN_ERR_PARAM_INVALID);
    XCHECK(std::string(aclGetRecentErrMsg()).find("workspaceSize") != std::string::npos);
    XCHECK_EQ(aclnnCrossEntropyLoss(ws, need, exec, nullptr), ACLNN_ERR_PARAM_INVALID);  // already used
    XCHECK(std::string(aclGetRecentErrMsg()).find("already used") != std::string::npos);
    // The backward's phase 2 refuses the forward's executor (and leaves it live).
    XCHECK_EQ(Phase1(Valid(f)), ACLNN_SUCCESS);
    XCHECK_EQ(aclnnCrossEntropyLossGrad(ws, need, g_exec, nullptr), ACLNN_ERR_PARAM_INVALID);
    XCHECK_EQ(aclnnCrossEntropyLoss(ws, need, g_exec, nullptr), ACLNN_SUCCESS);
    aclrtFree(ws);
}

XTEST(memory_freed_between_the_phases) {
    Fixture f;
    DeviceTensor* lse = new DeviceTensor({4}, ACL_FLOAT);
    Call c = Valid(f);
    c.lse = lse->get();
    XCHECK_EQ(Phase1(c), ACLNN_SUCCESS);
    aclOpExecutor* exec = g_exec;
    const uint64_t need = g_ws;
    delete lse;
    void* ws = nullptr;
    aclrtMalloc(&ws, need, ACL_MEM_MALLOC_HUGE_FIRST);
    XCHECK_EQ(aclnnCrossEntropyLoss(ws, need, exec, nullptr), ACLNN_ERR_PARAM_INVALID);
    XCHECK(std::string(aclGetRecentErrMsg()).find("lseForZlossOut: its device memory was freed") != std::string::npos);
    aclrtFree(ws);
}

// An empty view's strides do not matter (NumPy gives a (0, C) array strides (0, 0)).
XTEST(empty_input_with_zero_strides) {
    Fixture f;
    const int64_t shape[] = {0, 6}, strides[] = {0, 0}, rows[] = {0}, rowStride[] = {0};
    aclTensor* input = aclCreateTensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 2, f.input.data());
    aclTensor* target = aclCreateTensor(rows, 1, ACL_INT64, rowStride, 0, ACL_FORMAT_ND, rows, 1, f.target.data());
    aclTensor* logProb = aclCreateTensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 2, f.logProb.data());
    aclTensor* lse = aclCreateTensor(rows, 1, ACL_FLOAT, rowStride, 0, ACL_FORMAT_ND, rows, 1, f.lse.data());
    Call c = Valid(f);
    c.input = input;
    c.target = target;
    c.logProb = logProb;
    c.lse = lse;
    c.weight = nullptr;
    ExpectOk(c);
    for (aclTensor* t : {input, target, logProb, lse}) aclDestroyTensor(t);
}

// A workspace freed before phase 2 is refused before the launch writes to it; a used
// executor's handle stays refused when a later phase 1 could reuse its address.
XTEST(freed_workspace_and_stale_executor) {
    Fixture f;
    XCHECK_EQ(Phase1(Valid(f)), ACLNN_SUCCESS);
    aclOpExecutor* exec = g_exec;
    const uint64_t need = g_ws;
    void* ws = nullptr;
    XCHECK_EQ(aclrtMalloc(&ws, need, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    XCHECK_EQ(aclrtFree(ws), ACL_SUCCESS);
    XCHECK_EQ(aclnnCrossEntropyLoss(ws, need, exec, nullptr), ACLNN_ERR_PARAM_INVALID);
    XCHECK(std::string(aclGetRecentErrMsg()).find("workspace: its device memory was freed") != std::string::npos);
    XCHECK_EQ(aclrtMalloc(&ws, need, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    XCHECK_EQ(Phase1(Valid(f)), ACLNN_SUCCESS);
    aclOpExecutor* used = g_exec;
    XCHECK_EQ(aclnnCrossEntropyLoss(ws, need, used, nullptr), ACLNN_SUCCESS);
    for (int round = 0; round < 4; ++round) {
        XCHECK_EQ(Phase1(Valid(f)), ACLNN_SUCCESS);
        XCHECK_EQ(aclnnCrossEntropyLoss(ws, need, used, nullptr), ACLNN_ERR_PARAM_INVALID);
        XCHECK(std::string(aclGetRecentErrMsg()).find("already used") != std::string::npos);
        XCHECK_EQ(aclnnCrossEntropyLoss(ws, need, g_exec, nullptr), ACLNN_SUCCESS);
        used = g_exec;
    }
    aclrtFree(ws);
}

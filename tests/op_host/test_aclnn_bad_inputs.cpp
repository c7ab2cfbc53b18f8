// The bad-input matrix for the two-phase API, beyond
// test_aclnn_args.cpp: every rank/layout/alias/storage mistake per argument,
// odd reduction strings, infinite options, N = 0 for every reduction, layouts
// that would wrap 64-bit arithmetic, workspaces that lie about their size, and
// executor misuse. Each gives the status and an aclGetRecentErrMsg() message
// naming the argument, or the documented behaviour; nothing crashes and out is
// not written when phase 1 or 2 refuses.
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "xent_test_util.h"
#include "xtest.h"

using xtest_util::DeviceTensor;

namespace {

constexpr int64_t N = 4, C = 6;

struct Fixture {
    DeviceTensor gradLoss{{}, ACL_FLOAT}, gradLossN{{N}, ACL_FLOAT}, logProb{{N, C}, ACL_FLOAT},
        target{{N}, ACL_INT64}, weight{{C}, ACL_FLOAT}, gradZ{{}, ACL_FLOAT}, lse{{N}, ACL_FLOAT},
        out{{N, C}, ACL_FLOAT};
    Fixture() {
        gradLoss.Set({1.0});
        gradLossN.Set({1, 1, 1, 1});
        logProb.Set(std::vector<double>(N * C, -1.8));
        target.Set({0, 1, 2, 5});
        weight.Set(std::vector<double>(C, 1.0));
        gradZ.Set({0.5});
        lse.Set({1, 2, 3, 4});
        out.Set(std::vector<double>(N * C, 7.0));  // a sentinel: untouched unless a launch ran
    }
};

struct Args {
    const aclTensor *gradLoss, *logProb, *target, *weight, *gradZ, *lse, *out;
    std::string reduction = "mean";
    bool nullReduction = false;
    double ls = 0.0, zscale = 1e-3;
};

Args Valid(Fixture& f) {
    return Args{f.gradLoss.get(), f.logProb.get(), f.target.get(), f.weight.get(), f.gradZ.get(), f.lse.get(),
                f.out.get()};
}

aclnnStatus Phase1(const Args& a, uint64_t* ws, aclOpExecutor** exec) {
    std::string red = a.reduction;
    return aclnnCrossEntropyLossGradGetWorkspaceSize(a.gradLoss, a.logProb, a.target, a.weight, a.gradZ, a.lse,
                                                     a.nullReduction ? nullptr : red.data(), -100, a.ls, a.zscale,
                                                     a.out, ws, exec);
}

// Phase 1 must fail with `status` and a message containing every word.
void ExpectFail(int line, const Args& a, aclnnStatus status, std::initializer_list<const char*> words) {
    uint64_t ws = 0;
    aclOpExecutor* exec = nullptr;
    const aclnnStatus got = Phase1(a, &ws, &exec);
    const std::string msg = aclGetRecentErrMsg();
    bool ok = got == status;
    for (const char* w : words) ok = ok && msg.find(w) != std::string::npos;
    if (!ok) xtest::fail(__FILE__, line, "status " + std::to_string(got) + " message \"" + msg + "\"");
    if (got == ACLNN_SUCCESS) aclDestroyAclOpExecutor(exec);
}

// A valid call with one argument swapped for `t`: the message must contain `words`.
struct Swap {
    const aclTensor* Args::*field;
    const aclTensor* t;
    const char* words;
};

// Each swap on its own must fail phase 1 with ACLNN_ERR_PARAM_INVALID.
void ExpectEachFails(int line, Fixture& f, std::initializer_list<Swap> swaps) {
    for (const Swap& s : swaps) {
        Args a = Valid(f);
        a.*s.field = s.t;
        ExpectFail(line, a, ACLNN_ERR_PARAM_INVALID, {s.words});
    }
}

// Both phases; returns phase 2's status (or phase 1's when it failed).
aclnnStatus RunBoth(const Args& a, std::string* msg = nullptr) {
    uint64_t ws = 0;
    aclOpExecutor* exec = nullptr;
    aclnnStatus st = Phase1(a, &ws, &exec);
    if (st == ACLNN_SUCCESS) {
        void* w = nullptr;
        if (ws) aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST);
        st = aclnnCrossEntropyLossGrad(w, ws, exec, nullptr);
        if (w) aclrtFree(w);
    }
    const std::string m = aclGetRecentErrMsg();
    if (msg) *msg = m;
    return st;
}

// An aclTensor over `data` with explicit strides/storage.
aclTensor* View(std::vector<int64_t> dims, aclDataType dt, const std::vector<int64_t>* strides, int64_t offset,
                std::vector<int64_t> storage, void* data, aclFormat fmt = ACL_FORMAT_ND) {
    return aclCreateTensor(dims.data(), dims.size(), dt, strides ? strides->data() : nullptr, offset, fmt,
                           storage.data(), storage.size(), data);
}

bool Untouched(const DeviceTensor& out) {
    for (double v : out.Get())
        if (v != 7.0) return false;
    return true;
}

}  // namespace

XTEST(reduction_strings) {
    Fixture f;
    for (const char* bad : {"", " mean", "mean ", "Sum", "NONE", "batchmean", "avg", "elementwise_mean"}) {
        Args a = Valid(f);
        a.reduction = bad;
        ExpectFail(__LINE__, a, ACLNN_ERR_PARAM_INVALID, {"reductionOptional", "\"none\", \"mean\" or \"sum\""});
    }
    Args a = Valid(f);
    a.nullReduction = true;  // nullptr means "mean"
    XCHECK_EQ(RunBoth(a), ACLNN_SUCCESS);
    XCHECK(!Untouched(f.out));
}

XTEST(label_smoothing_and_zloss_scale) {
    Fixture f;
    for (double bad : {-1e-12, -0.5, 1.0000001, 2.0, std::numeric_limits<double>::infinity(),
                       -std::numeric_limits<double>::infinity(), std::nan(""), -std::nan("")}) {
        Args a = Valid(f);
        a.ls = bad;
        ExpectFail(__LINE__, a, ACLNN_ERR_PARAM_INVALID, {"labelSmoothing", "[0, 1]"});
    }
    for (double edge : {0.0, 1.0}) {
        Args a = Valid(f);
        a.ls = edge;
        XCHECK_EQ(RunBoth(a), ACLNN_SUCCESS);
    }
    f.out.Set(std::vector<double>(N * C, 7.0));
    Args a = Valid(f);
    a.zscale = -std::nan("");
    ExpectFail(__LINE__, a, ACLNN_ERR_PARAM_INVALID, {"lseSquareScaleForZloss", "NaN"});
    XCHECK(Untouched(f.out));
    // A finite scale >= 0, as in the Python layer.
    for (double bad : {std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(), -1e-4}) {
        a.zscale = bad;
        ExpectFail(__LINE__, a, ACLNN_ERR_PARAM_INVALID, {"lseSquareScaleForZloss", "finite and >= 0"});
        XCHECK(Untouched(f.out));
    }
    a.zscale = 0.0;
    XCHECK_EQ(RunBoth(a), ACLNN_SUCCESS);
}

XTEST(ranks_per_argument) {
    Fixture f;
    DeviceTensor lp1({N * C}, ACL_FLOAT), lp0({}, ACL_FLOAT), g11({1, 1}, ACL_FLOAT), t41({N, 1}, ACL_INT64),
        t0({}, ACL_INT64), w61({C, 1}, ACL_FLOAT), lse41({N, 1}, ACL_FLOAT), lse0({}, ACL_FLOAT),
        o3({N, C, 1}, ACL_FLOAT), o1({N * C}, ACL_FLOAT), gz1({1}, ACL_FLOAT);
    ExpectEachFails(__LINE__, f,
                    {{&Args::logProb, lp1.get(), "logProb"},      {&Args::logProb, lp0.get(), "logProb"},
                     {&Args::gradLoss, g11.get(), "gradLoss"},    {&Args::target, t41.get(), "target"},
                     {&Args::target, t0.get(), "target"},         {&Args::weight, w61.get(), "weightOptional"},
                     {&Args::lse, lse41.get(), "lseForZlossOptional"}, {&Args::lse, lse0.get(), "lseForZlossOptional"},
                     {&Args::out, o3.get(), "out"},               {&Args::out, o1.get(), "out"},
                     {&Args::gradZ, gz1.get(), "gradZlossOptional"}});
    XCHECK(Untouched(f.out));
}

XTEST(dtypes_per_argument) {
    Fixture f;
    DeviceTensor tBool({N}, ACL_BOOL), tU8({N}, ACL_UINT8), tI16({N}, ACL_INT16), wF64({C}, ACL_DOUBLE),
        wBf({C}, ACL_BF16), lpI64({N, C}, ACL_INT64), oF64({N, C}, ACL_DOUBLE), gI32({}, ACL_INT32);
    ExpectEachFails(__LINE__, f,
                    {{&Args::target, tBool.get(), "target must be int64 or int32, got bool"},
                     {&Args::target, tU8.get(), "target must be int64 or int32, got uint8"},
                     {&Args::target, tI16.get(), "target must be int64 or int32, got int16"},
                     {&Args::weight, wF64.get(), "weightOptional must be float32, got float64"},
                     {&Args::weight, wBf.get(), "weightOptional must be float32, got bfloat16"},
                     {&Args::logProb, lpI64.get(), "logProb must be float32, float16 or bfloat16, got int64"},
                     {&Args::out, oF64.get(), "out must have logProb's dtype (float32), got float64"},
                     {&Args::gradLoss, gI32.get(), "gradLoss must have logProb's dtype (float32), got int32"}});
    XCHECK(Untouched(f.out));
}

XTEST(non_contiguous_per_argument) {
    Fixture f;
    DeviceTensor big({4 * N * C}, ACL_FLOAT), bigT({4 * N}, ACL_INT64);
    const std::vector<int64_t> s2 = {2}, sT = {1, N}, s22 = {2 * C, 2};
    aclTensor* tStrided = View({N}, ACL_INT64, &s2, 0, {4 * N}, bigT.data());
    aclTensor* wStrided = View({C}, ACL_FLOAT, &s2, 0, {4 * N * C}, big.data());
    aclTensor* lseStrided = View({N}, ACL_FLOAT, &s2, 0, {4 * N * C}, big.data());
    aclTensor* gStrided = View({N}, ACL_FLOAT, &s2, 0, {4 * N * C}, big.data());
    aclTensor* outT = View({N, C}, ACL_FLOAT, &sT, 0, {4 * N * C}, big.data());
    aclTensor* outStep = View({N, C}, ACL_FLOAT, &s22, 0, {4 * N * C}, big.data());
    ExpectEachFails(__LINE__, f,
                    {{&Args::target, tStrided, "target must be contiguous"},
                     {&Args::weight, wStrided, "weightOptional must be contiguous"},
                     {&Args::lse, lseStrided, "lseForZlossOptional must be contiguous"},
                     {&Args::out, outT, "out must be contiguous"},
                     {&Args::out, outStep, "out must be contiguous"}});
    // An (N,) gradLoss needs reduction none (and then no 0-D gradZ).
    Args a = Valid(f);
    a.reduction = "none";
    a.gradLoss = gStrided;
    a.gradZ = nullptr;
    ExpectFail(__LINE__, a, ACLNN_ERR_PARAM_INVALID, {"gradLoss must be contiguous"});
    for (aclTensor* t : {tStrided, wStrided, lseStrided, gStrided, outT, outStep}) aclDestroyTensor(t);
    // Strides of size-1 dimensions do not matter: a (1, C) view with any row stride is fine.
    DeviceTensor lp1({1, C}, ACL_FLOAT), o1({1, C}, ACL_FLOAT), t1({1}, ACL_INT64), lse1({1}, ACL_FLOAT);
    lp1.Set(std::vector<double>(C, -1.8));
    t1.Set({0.0});
    lse1.Set({2.0});
    const std::vector<int64_t> odd = {12345, 1};
    aclTensor* lpOdd = View({1, C}, ACL_FLOAT, &odd, 0, {C}, lp1.data());
    a = Valid(f);
    a.logProb = lpOdd;
    a.target = t1.get();
    a.lse = lse1.get();
    a.out = o1.get();
    XCHECK_EQ(RunBoth(a), ACLNN_SUCCESS);
    aclDestroyTensor(lpOdd);
}

XTEST(out_aliasing_every_input) {
    Fixture f;
    // Each input as a view at the start of a shared buffer, out over the same buffer
    // (logProb there would be out exactly, in place, which is allowed: partial overlap below).
    DeviceTensor shared({2 * N * C}, ACL_FLOAT);
    void* d = shared.data();
    struct Case {
        const aclTensor* Args::*field;
        std::vector<int64_t> dims;
        aclDataType dt;
        const char* name;
    } cases[] = {{&Args::gradLoss, {}, ACL_FLOAT, "gradLoss"},
                     {&Args::target, {N}, ACL_INT64, "target"},
                     {&Args::weight, {C}, ACL_FLOAT, "weightOptional"},
                     {&Args::gradZ, {}, ACL_FLOAT, "gradZlossOptional"},
                     {&Args::lse, {N}, ACL_FLOAT, "lseForZlossOptional"}};
    aclTensor* o = View({N, C}, ACL_FLOAT, nullptr, 0, {2 * N * C}, d);
    for (const Case& c : cases) {
        aclTensor* in = View(c.dims, c.dt, nullptr, 0, {2 * N * C}, d);
        Args a = Valid(f);
        a.*c.field = in;
        a.out = o;
        ExpectFail(__LINE__, a, ACLNN_ERR_PARAM_INVALID, {"out must not overlap", c.name});
        aclDestroyTensor(in);
    }
    // Partial overlap: out's last element is logProb's first.
    aclTensor* lp = View({N, C}, ACL_FLOAT, nullptr, N * C - 1, {2 * N * C}, d);
    Args a = Valid(f);
    a.logProb = lp;
    a.out = o;
    ExpectFail(__LINE__, a, ACLNN_ERR_PARAM_INVALID, {"out must not overlap logProb"});
    // Adjacent (touching, not overlapping) is fine.
    aclTensor* lpNext = View({N, C}, ACL_FLOAT, nullptr, N * C, {2 * N * C}, d);
    a.logProb = lpNext;
    XCHECK_EQ(RunBoth(a), ACLNN_SUCCESS);
    for (aclTensor* t : {lp, lpNext, o}) aclDestroyTensor(t);
    // Inputs may alias each other (read-only): gradLoss and gradZloss over the same float.
    a = Valid(f);
    a.gradZ = f.gradLoss.get();
    XCHECK_EQ(RunBoth(a), ACLNN_SUCCESS);
}

XTEST(storage_offsets_and_formats) {
    Fixture f;
    // Huge storage shapes and offsets must not wrap the 64-bit bounds arithmetic.
    const int64_t max = std::numeric_limits<int64_t>::max();
    aclTensor* wrapStorage = View({N, C}, ACL_FLOAT, nullptr, 0, {max / 2, 4}, f.logProb.data());
    aclTensor* wrapOffset = View({N, C}, ACL_FLOAT, nullptr, max - 5, {max / 32}, f.logProb.data());
    aclTensor* pastEnd = View({N, C}, ACL_FLOAT, nullptr, 1, {N * C}, f.logProb.data());
    aclTensor* negStorage = View({N, C}, ACL_FLOAT, nullptr, 0, {-1, N * C}, f.logProb.data());
    aclTensor* misaligned = View({N, C}, ACL_FLOAT, nullptr, 0, {N * C},
                                 static_cast<char*>(f.logProb.data()) + 2);
    aclTensor* nz = View({N, C}, ACL_FLOAT, nullptr, 0, {N * C}, f.logProb.data(), ACL_FORMAT_FRACTAL_NZ);
    Args a = Valid(f);
    a.logProb = wrapStorage;
    ExpectFail(__LINE__, a, ACLNN_ERR_PARAM_INVALID, {"logProb has an invalid storage shape"});
    a.logProb = wrapOffset;
    ExpectFail(__LINE__, a, ACLNN_ERR_PARAM_INVALID, {"logProb view", "exceeds its storage"});
    a.logProb = pastEnd;
    ExpectFail(__LINE__, a, ACLNN_ERR_PARAM_INVALID, {"logProb view (offset 1, 24 elements) exceeds its storage of 24"});
    a.logProb = negStorage;
    ExpectFail(__LINE__, a, ACLNN_ERR_PARAM_INVALID, {"logProb has an invalid storage shape"});
    a.logProb = misaligned;
    ExpectFail(__LINE__, a, ACLNN_ERR_PARAM_INVALID, {"logProb data is not aligned"});
    a.logProb = nz;
    ExpectFail(__LINE__, a, ACLNN_ERR_PARAM_INVALID, {"logProb must be in a plain format"});
    for (aclTensor* t : {wrapStorage, wrapOffset, pastEnd, negStorage, misaligned, nz}) aclDestroyTensor(t);
    // aclCreateTensor itself refuses negative dims and offsets, with a message.
    const int64_t neg[] = {-1, C};
    XCHECK(aclCreateTensor(neg, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, neg, 2, f.logProb.data()) == nullptr);
    XCHECK(std::string(aclGetRecentErrMsg()).find("negative") != std::string::npos);
    const int64_t dims[] = {N, C};
    XCHECK(aclCreateTensor(dims, 2, ACL_FLOAT, nullptr, -1, ACL_FORMAT_ND, dims, 2, f.logProb.data()) == nullptr);
    XCHECK(std::string(aclGetRecentErrMsg()).find("offset") != std::string::npos);
    XCHECK(Untouched(f.out));
}

XTEST(empty_batch_every_reduction) {
    for (const char* red : {"mean", "sum", "none"}) {
        const bool none = std::strcmp(red, "none") == 0;
        DeviceTensor g(none ? std::vector<int64_t>{0} : std::vector<int64_t>{}, ACL_BF16), lp({0, 7}, ACL_BF16),
            t({0}, ACL_INT32), w({7}, ACL_FLOAT), lse({0}, ACL_BF16), out({0, 7}, ACL_BF16);
        uint64_t ws = 99;
        aclOpExecutor* exec = nullptr;
        std::string r = red;
        XCHECK_EQ(aclnnCrossEntropyLossGradGetWorkspaceSize(g.get(), lp.get(), t.get(), w.get(), nullptr, lse.get(),
                                                            r.data(), -100, 0.1, 1e-4, out.get(), &ws, &exec),
                  ACLNN_SUCCESS);
        XCHECK_EQ(ws, uint64_t(0));
        XCHECK_EQ(aclnnCrossEntropyLossGrad(nullptr, 0, exec, nullptr), ACLNN_SUCCESS);
    }
    // C = 0 is an error also when N = 0.
    DeviceTensor g({}, ACL_FLOAT), lp({0, 0}, ACL_FLOAT), t({0}, ACL_INT64), out({0, 0}, ACL_FLOAT);
    uint64_t ws = 0;
    aclOpExecutor* exec = nullptr;
    XCHECK_EQ(aclnnCrossEntropyLossGradGetWorkspaceSize(g.get(), lp.get(), t.get(), nullptr, nullptr, nullptr, nullptr,
                                                        -100, 0.0, 0.0, out.get(), &ws, &exec),
              ACLNN_ERR_PARAM_INVALID);
    XCHECK(std::string(aclGetRecentErrMsg()).find("C >= 1") != std::string::npos);
}

XTEST(workspace_that_lies_about_its_size) {
    Fixture f;
    Args a = Valid(f);
    uint64_t ws = 0;
    aclOpExecutor* exec = nullptr;
    XCHECK_EQ(Phase1(a, &ws, &exec), ACLNN_SUCCESS);
    // A real allocation smaller than phase 1 asked for, passed with the full size:
    // the launch refuses to treat bytes past the allocation as GM; out is not written.
    void* small = nullptr;
    aclrtMalloc(&small, 4096, ACL_MEM_MALLOC_HUGE_FIRST);
    XCHECK_EQ(aclnnCrossEntropyLossGrad(small, ws, exec, nullptr), ACLNN_ERR_RUNTIME_ERROR);
    const std::string msg = aclGetRecentErrMsg();
    XCHECK(msg.find("kernel launch failed") != std::string::npos);
    XCHECK(msg.find("without lying inside it") != std::string::npos);
    XCHECK(Untouched(f.out));
    aclrtFree(small);
    // workspaceSize 0 with a pointer: refused before any launch.
    XCHECK_EQ(Phase1(a, &ws, &exec), ACLNN_SUCCESS);
    void* w = nullptr;
    aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST);
    XCHECK_EQ(aclnnCrossEntropyLossGrad(w, 0, exec, nullptr), ACLNN_ERR_PARAM_INVALID);
    XCHECK(std::string(aclGetRecentErrMsg()).find("workspaceSize 0 is smaller") != std::string::npos);
    XCHECK(Untouched(f.out));
    // A larger workspace than needed is fine.
    XCHECK_EQ(Phase1(a, &ws, &exec), ACLNN_SUCCESS);
    void* big = nullptr;
    aclrtMalloc(&big, ws + 4096, ACL_MEM_MALLOC_HUGE_FIRST);
    XCHECK_EQ(aclnnCrossEntropyLossGrad(big, ws + 4096, exec, nullptr), ACLNN_SUCCESS);
    aclrtFree(big);
    aclrtFree(w);
}

XTEST(executor_misuse) {
    Fixture f;
    Args a = Valid(f);
    uint64_t ws = 0;
    aclOpExecutor* exec = nullptr;
    void* w = nullptr;
    XCHECK_EQ(Phase1(a, &ws, &exec), ACLNN_SUCCESS);
    aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST);
    // Destroyed, then launched: refused, nothing written.
    XCHECK_EQ(aclDestroyAclOpExecutor(exec), ACLNN_SUCCESS);
    XCHECK_EQ(aclnnCrossEntropyLossGrad(w, ws, exec, nullptr), ACLNN_ERR_PARAM_INVALID);
    XCHECK(std::string(aclGetRecentErrMsg()).find("executor was already used") != std::string::npos);
    XCHECK_EQ(aclDestroyAclOpExecutor(exec), ACLNN_ERR_PARAM_INVALID);  // destroyed twice
    XCHECK_EQ(aclDestroyAclOpExecutor(nullptr), ACLNN_ERR_PARAM_NULLPTR);
    // A pointer that never was an executor.
    int junk = 0;
    XCHECK_EQ(aclnnCrossEntropyLossGrad(w, ws, reinterpret_cast<aclOpExecutor*>(&junk), nullptr),
              ACLNN_ERR_PARAM_INVALID);
    XCHECK(Untouched(f.out));
    // Used once, reused: the second launch is refused and does not write again.
    XCHECK_EQ(Phase1(a, &ws, &exec), ACLNN_SUCCESS);
    XCHECK_EQ(aclnnCrossEntropyLossGrad(w, ws, exec, nullptr), ACLNN_SUCCESS);
    f.out.Set(std::vector<double>(N * C, 7.0));
    XCHECK_EQ(aclnnCrossEntropyLossGrad(w, ws, exec, nullptr), ACLNN_ERR_PARAM_INVALID);
    XCHECK(Untouched(f.out));
    // An executor made on one thread and launched on another (single use still).
    XCHECK_EQ(Phase1(a, &ws, &exec), ACLNN_SUCCESS);
    aclnnStatus st = -1;
    std::thread th([&] { st = aclnnCrossEntropyLossGrad(w, ws, exec, nullptr); });
    th.join();
    XCHECK_EQ(st, ACLNN_SUCCESS);
    XCHECK_EQ(aclnnCrossEntropyLossGrad(w, ws, exec, nullptr), ACLNN_ERR_PARAM_INVALID);
    // Input tensors destroyed between the phases: the executor keeps what it needs.
    DeviceTensor lp2({N, C}, ACL_FLOAT);
    lp2.Set(std::vector<double>(N * C, -1.8));
    aclTensor* lpView = View({N, C}, ACL_FLOAT, nullptr, 0, {N * C}, lp2.data());
    a.logProb = lpView;
    XCHECK_EQ(Phase1(a, &ws, &exec), ACLNN_SUCCESS);
    aclDestroyTensor(lpView);
    XCHECK_EQ(aclnnCrossEntropyLossGrad(w, ws, exec, nullptr), ACLNN_SUCCESS);
    aclrtFree(w);
}

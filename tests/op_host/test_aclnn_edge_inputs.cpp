// Inputs at the edges of what the two-phase API can check: a storage shape of no
// dimensions (storageDimsNum 0), device memory (a tensor's or the workspace) freed
// between the phases, a stale executor handle, and options whose float32 factor
// (2 * lseSquareScaleForZloss, labelSmoothing / C) would be subnormal or infinite.
// Each is refused with a message naming the argument, and out is not written.
#include <cfloat>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "xent_test_util.h"
#include "xtest.h"

using xtest_util::DeviceTensor;

namespace {

constexpr int64_t N = 4, C = 8;

struct Fixture {
    DeviceTensor gradLoss{{}, ACL_FLOAT}, logProb{{N, C}, ACL_FLOAT}, target{{N}, ACL_INT64}, weight{{C}, ACL_FLOAT},
        lse{{N}, ACL_FLOAT}, out{{N, C}, ACL_FLOAT};
    Fixture() {
        gradLoss.Set({1.0});
        logProb.Set(std::vector<double>(N * C, -std::log(double(C))));
        target.Set({0, 1, 2, 7});
        weight.Set(std::vector<double>(C, 1.0));
        lse.Set({1, 2, 3, 4});
        out.Set(std::vector<double>(N * C, 7.0));  // untouched unless a launch ran
    }
    bool OutUntouched() const {
        for (double v : out.Get())
            if (v != 7.0) return false;
        return true;
    }
};

struct Args {
    const aclTensor *gradLoss, *logProb, *target, *weight, *lse, *out;
    double ls = 0.0, zscale = 0.0;
};

Args Valid(const Fixture& f) {
    return Args{f.gradLoss.get(), f.logProb.get(), f.target.get(), f.weight.get(), f.lse.get(), f.out.get()};
}

aclnnStatus Phase1(const Args& a, uint64_t* ws, aclOpExecutor** exec) {
    char mean[] = "mean";
    return aclnnCrossEntropyLossGradGetWorkspaceSize(a.gradLoss, a.logProb, a.target, a.weight, nullptr, a.lse, mean,
                                                     -100, a.ls, a.zscale, a.out, ws, exec);
}

aclnnStatus Phase2(uint64_t ws, aclOpExecutor* exec) {
    void* w = nullptr;
    if (ws) aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST);
    const aclnnStatus st = aclnnCrossEntropyLossGrad(w, ws, exec, nullptr);
    if (w) aclrtFree(w);
    return st;
}

aclnnStatus RunBoth(const Args& a) {
    uint64_t ws = 0;
    aclOpExecutor* exec = nullptr;
    const aclnnStatus st = Phase1(a, &ws, &exec);
    return st == ACLNN_SUCCESS ? Phase2(ws, exec) : st;
}

bool MessageHas(std::initializer_list<const char*> words) {
    const std::string msg = aclGetRecentErrMsg();
    for (const char* w : words)
        if (msg.find(w) == std::string::npos) return false;
    return true;
}

void ExpectPhase1Fails(int line, const Args& a, std::initializer_list<const char*> words) {
    uint64_t ws = 0;
    aclOpExecutor* exec = nullptr;
    const aclnnStatus st = Phase1(a, &ws, &exec);
    if (st != ACLNN_ERR_PARAM_INVALID || !MessageHas(words))
        xtest::fail(__FILE__, line, "status " + std::to_string(st) + " message \"" + aclGetRecentErrMsg() + "\"");
}

aclTensor* Scalar(aclDataType dt, const std::vector<int64_t>& dims, int64_t offset, void* data) {
    return aclCreateTensor(dims.data(), dims.size(), dt, nullptr, offset, ACL_FORMAT_ND, nullptr, 0, data);
}

}  // namespace

// CANN counts a shape of no dimensions as a scalar, one element
// (gert::Shape::GetShapeSize): storageDimsNum 0 is a storage of one element.
XTEST(storage_of_no_dimensions_is_one_element) {
    Fixture f;
    void* small = nullptr;
    aclrtMalloc(&small, 16, ACL_MEM_MALLOC_HUGE_FIRST);
    aclTensor* out = Scalar(ACL_FLOAT, {N, C}, 0, small);  // a (4, 8) view over 16 bytes
    Args a = Valid(f);
    a.out = out;
    ExpectPhase1Fails(__LINE__, a, {"out view (offset 0, 32 elements) exceeds its storage of 1 element",
                                    "storage shape ()"});
    aclTensor* lp = Scalar(ACL_FLOAT, {N, C}, 0, f.logProb.data());
    a = Valid(f);
    a.logProb = lp;
    ExpectPhase1Fails(__LINE__, a, {"logProb view", "exceeds its storage of 1 element"});
    // A 0-D view at offset 1 of a 0-D storage is past it too.
    aclTensor* g1 = Scalar(ACL_FLOAT, {}, 1, f.gradLoss.data());
    a = Valid(f);
    a.gradLoss = g1;
    ExpectPhase1Fails(__LINE__, a, {"gradLoss view (offset 1, 1 elements) exceeds its storage of 1 element"});
    XCHECK(f.OutUntouched());
    // A 0-D gradLoss over a 0-D storage is exactly what it should be.
    aclTensor* g0 = Scalar(ACL_FLOAT, {}, 0, f.gradLoss.data());
    a = Valid(f);
    a.gradLoss = g0;
    XCHECK_EQ(RunBoth(a), ACLNN_SUCCESS);
    XCHECK(!f.OutUntouched());
    for (aclTensor* t : {out, lp, g1, g0}) aclDestroyTensor(t);
    aclrtFree(small);
}

// aclrtFree of a tensor's memory after phase 1: phase 2 refuses, naming it, also
// when a new allocation has taken the same address.
XTEST(memory_freed_between_the_phases) {
    Fixture f;
    struct Case {
        const aclTensor* Args::*field;
        std::vector<int64_t> dims;
        aclDataType dt;
        const char* name;
    } cases[] = {{&Args::logProb, {N, C}, ACL_FLOAT, "logProb"},
                 {&Args::target, {N}, ACL_INT64, "target"},
                 {&Args::weight, {C}, ACL_FLOAT, "weightOptional"},
                 {&Args::lse, {N}, ACL_FLOAT, "lseForZlossOptional"},
                 {&Args::out, {N, C}, ACL_FLOAT, "out"}};
    for (bool reallocate : {false, true}) {
        for (const Case& c : cases) {
            const size_t bytes = size_t(c.dims.size() == 2 ? N * C : c.dims[0]) * aclDataTypeSize(c.dt);
            void* mem = nullptr;
            aclrtMalloc(&mem, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
            std::memset(mem, 0, bytes);  // valid contents (target 0 is a class); phase 2 must not read them
            aclTensor* t = aclCreateTensor(c.dims.data(), c.dims.size(), c.dt, nullptr, 0, ACL_FORMAT_ND,
                                           c.dims.data(), c.dims.size(), mem);
            Args a = Valid(f);
            a.*c.field = t;
            a.zscale = 1e-3;
            uint64_t ws = 0;
            aclOpExecutor* exec = nullptr;
            XCHECK_EQ(Phase1(a, &ws, &exec), ACLNN_SUCCESS);
            XCHECK_EQ(aclrtFree(mem), ACL_SUCCESS);
            void* again = nullptr;
            if (reallocate) aclrtMalloc(&again, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
            f.out.Set(std::vector<double>(N * C, 7.0));
            XCHECK_EQ(Phase2(ws, exec), ACLNN_ERR_PARAM_INVALID);
            if (!MessageHas({c.name, "device memory was freed (aclrtFree) after aclnnCrossEntropyLossGradGetWorkspaceSize"}))
                xtest::fail(__FILE__, __LINE__, std::string(c.name) + ": \"" + aclGetRecentErrMsg() + "\"");
            XCHECK(f.OutUntouched());
            if (again) aclrtFree(again);
            aclDestroyTensor(t);
        }
    }
    // Memory that stays allocated passes, and the executor was freed by each refusal (single use).
    XCHECK_EQ(RunBoth(Valid(f)), ACLNN_SUCCESS);
}

// 2 * lseSquareScaleForZloss and labelSmoothing / C reach the kernel as float32:
// nonzero values must be normal float32s (no subnormal rounding, no overflow).
XTEST(option_factors_outside_float32) {
    Fixture f;
    Args a = Valid(f);
    for (double bad : {1e-45, 1e-40, double(FLT_MIN) / 2 * 0.999, 1.8e38, 1e300}) {
        a.zscale = bad;
        ExpectPhase1Fails(__LINE__, a, {"lseSquareScaleForZloss", "2 * lseSquareScaleForZloss", "normal float32"});
    }
    for (double ok : {double(FLT_MIN) / 2, 1e-38, 1e38, double(FLT_MAX) / 2}) {
        a.zscale = ok;
        f.out.Set(std::vector<double>(N * C, 7.0));
        XCHECK_EQ(RunBoth(a), ACLNN_SUCCESS);
        XCHECK(!f.OutUntouched());
    }
    a = Valid(f);
    for (double bad : {1e-45, 8 * double(FLT_MIN) * 0.999}) {
        a.ls = bad;
        ExpectPhase1Fails(__LINE__, a, {"labelSmoothing", "labelSmoothing / C", "normal float32"});
    }
    a.ls = 8 * double(FLT_MIN);
    XCHECK_EQ(RunBoth(a), ACLNN_SUCCESS);
}

// An executor handle is good for one phase 2 only, also when a later phase 1 makes
// an executor that could sit at the freed one's address: the stale handle is refused
// and the new executor still runs its own problem.
XTEST(stale_executor_after_a_new_phase_1) {
    Fixture f;
    Args a = Valid(f);
    uint64_t ws = 0;
    aclOpExecutor* first = nullptr;
    XCHECK_EQ(Phase1(a, &ws, &first), ACLNN_SUCCESS);
    XCHECK_EQ(Phase2(ws, first), ACLNN_SUCCESS);
    for (int round = 0; round < 4; ++round) {
        aclOpExecutor* next = nullptr;
        XCHECK_EQ(Phase1(a, &ws, &next), ACLNN_SUCCESS);
        f.out.Set(std::vector<double>(N * C, 7.0));
        XCHECK_EQ(Phase2(ws, first), ACLNN_ERR_PARAM_INVALID);
        XCHECK(MessageHas({"executor was already used"}));
        XCHECK(f.OutUntouched());
        XCHECK_EQ(aclDestroyAclOpExecutor(first), ACLNN_ERR_PARAM_INVALID);
        XCHECK_EQ(Phase2(ws, next), ACLNN_SUCCESS);
        XCHECK(!f.OutUntouched());
        first = next;
    }
}

// A workspace whose device memory was freed before phase 2 is refused before anything
// is written to it; nothing is launched and the executor is freed (single use).
XTEST(workspace_freed_before_phase_2) {
    Fixture f;
    Args a = Valid(f);
    uint64_t ws = 0;
    aclOpExecutor* exec = nullptr;
    XCHECK_EQ(Phase1(a, &ws, &exec), ACLNN_SUCCESS);
    XCHECK(ws > 0);
    void* w = nullptr;
    XCHECK_EQ(aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    XCHECK_EQ(aclrtFree(w), ACL_SUCCESS);
    XCHECK_EQ(aclnnCrossEntropyLossGrad(w, ws, exec, nullptr), ACLNN_ERR_PARAM_INVALID);
    if (!MessageHas({"workspace", "freed (aclrtFree)"}))
        xtest::fail(__FILE__, __LINE__, std::string("\"") + aclGetRecentErrMsg() + "\"");
    XCHECK(f.OutUntouched());
    XCHECK_EQ(aclDestroyAclOpExecutor(exec), ACLNN_ERR_PARAM_INVALID);
    // Host memory allocated right after the free (where the C library would reuse the
    // freed block) is a valid workspace, as is a new device allocation.
    for (int k = 0; k < 2; ++k) {
        XCHECK_EQ(aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        XCHECK_EQ(aclrtFree(w), ACL_SUCCESS);
        std::vector<char> host(ws);
        void* again = nullptr;
        if (k == 1) XCHECK_EQ(aclrtMalloc(&again, ws, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        f.out.Set(std::vector<double>(N * C, 7.0));
        XCHECK_EQ(Phase1(a, &ws, &exec), ACLNN_SUCCESS);
        XCHECK_EQ(aclnnCrossEntropyLossGrad(k == 0 ? static_cast<void*>(host.data()) : again, ws, exec, nullptr),
                  ACLNN_SUCCESS);
        XCHECK(!f.OutUntouched());
        if (again) aclrtFree(again);
    }
}

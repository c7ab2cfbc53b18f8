// Tensors over caller memory (not aclrtMalloc, as the Python binding passes
// NumPy/torch buffers), and concurrent launches on several host threads that
// share input buffers: same results as the single-threaded run.
#include <thread>

#include "xent_test_util.h"
#include "xtest.h"

using namespace xtest_util;

namespace {

aclTensor* HostTensor(std::vector<int64_t> shape, aclDataType dt, void* data) {
    std::vector<int64_t> strides(shape.size(), 1);
    for (int64_t i = int64_t(shape.size()) - 2; i >= 0; --i) strides[i] = shape[i + 1] * strides[i + 1];
    return aclCreateTensor(shape.data(), shape.size(), dt, strides.data(), 0, ACL_FORMAT_ND, shape.data(),
                           shape.size(), data);
}

// One launch over host vectors; returns the status.
aclnnStatus RunHost(int64_t N, int64_t C, std::vector<float>& grad, std::vector<float>& logProb,
                    std::vector<int64_t>& target, std::vector<float>& weight, std::vector<float>& out) {
    aclTensor* g = HostTensor({}, ACL_FLOAT, grad.data());
    aclTensor* lp = HostTensor({N, C}, ACL_FLOAT, logProb.data());
    aclTensor* t = HostTensor({N}, ACL_INT64, target.data());
    aclTensor* w = HostTensor({C}, ACL_FLOAT, weight.data());
    aclTensor* o = HostTensor({N, C}, ACL_FLOAT, out.data());
    uint64_t wsSize = 0;
    aclOpExecutor* exec = nullptr;
    char mean[] = "mean";
    aclnnStatus st = aclnnCrossEntropyLossGradGetWorkspaceSize(g, lp, t, w, nullptr, nullptr, mean, -100, 0.1, 0.0, o,
                                                               &wsSize, &exec);
    std::vector<uint8_t> ws(wsSize + 64);  // caller memory for the workspace too
    void* wsp = ws.data() + (64 - reinterpret_cast<uintptr_t>(ws.data()) % 64) % 64;
    if (st == ACLNN_SUCCESS) st = aclnnCrossEntropyLossGrad(wsp, wsSize, exec, nullptr);
    for (aclTensor* x : {g, lp, t, w, o}) aclDestroyTensor(x);
    return st;
}

}  // namespace

XTEST(caller_memory_and_concurrent_launches_sharing_inputs) {
    const int64_t N = 300, C = 3000;
    Options o;
    const Problem p = RandomProblem(N, C, o, 21);
    std::vector<float> grad = {0.7f}, logProb(p.logProb.begin(), p.logProb.end()), weight(p.weight.begin(), p.weight.end());
    std::vector<int64_t> target = p.target;
    std::vector<float> expect(size_t(N * C));
    XCHECK_EQ(RunHost(N, C, grad, logProb, target, weight, expect), ACLNN_SUCCESS);

    const int kThreads = 4;
    std::vector<std::vector<float>> outs(kThreads, std::vector<float>(size_t(N * C)));
    std::vector<aclnnStatus> status(kThreads, -1);
    std::vector<std::thread> threads;
    for (int k = 0; k < kThreads; ++k)
        threads.emplace_back([&, k] {
            for (int rep = 0; rep < 3; ++rep) status[k] = RunHost(N, C, grad, logProb, target, weight, outs[k]);
        });
    for (auto& th : threads) th.join();
    for (int k = 0; k < kThreads; ++k) {
        XCHECK_EQ(status[k], ACLNN_SUCCESS);
        XCHECK(outs[k] == expect);
    }
    // And against the float64 reference.
    Options m;
    m.weight = true;
    m.labelSmoothing = 0.1;
    Problem stored = p;
    stored.gradLoss = {0.7f};
    stored.logProb.assign(logProb.begin(), logProb.end());
    stored.weight.assign(weight.begin(), weight.end());
    std::vector<double> scale;
    const std::vector<double> ref = Reference(stored, m, &scale);
    for (size_t i = 0; i < ref.size(); ++i) XCHECK_NEAR(expect[i], ref[i], 16 * 5.96e-8 * scale[i] + 1e-37);
}

// CrossEntropyLossGrad through CANN's two-phase aclnn API: 4 rows, 5 classes, class
// weights, one ignored row, label smoothing 0.1 and z-loss 1e-4 under "mean". Every
// acl/aclnn call is checked; the first failure prints aclGetRecentErrMsg() and exits 1.
// It prints each value beside the README's formula computed here in double, and exits 1
// if any differs by more than 1e-5.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_cross_entropy_loss_grad.h"

#define CHECK(call)                                                                              \
    do {                                                                                         \
        auto status_ = (call);                                                                   \
        if (status_ != 0) {                                                                      \
            std::fprintf(stderr, "%s failed (%d): %s\n", #call, static_cast<int>(status_),       \
                         aclGetRecentErrMsg());                                                  \
            return 1;                                                                            \
        }                                                                                        \
    } while (0)

// Device memory holding `host`, and a contiguous ND tensor over it.
template <typename T>
aclTensor* DeviceTensor(const std::vector<T>& host, const std::vector<int64_t>& shape, aclDataType dtype,
                        void** device) {
    size_t bytes = host.size() * sizeof(T);
    if (aclrtMalloc(device, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
        aclrtMemcpy(*device, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS)
        return nullptr;
    std::vector<int64_t> strides(shape.size(), 1);
    for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i) strides[i] = strides[i + 1] * shape[i + 1];
    return aclCreateTensor(shape.data(), shape.size(), dtype, strides.data(), 0, ACL_FORMAT_ND, shape.data(),
                           shape.size(), *device);
}

int main() {
    const int64_t N = 4, C = 5;
    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK(aclrtCreateStream(&stream));

    // log_prob = log_softmax(logits) with logits[i][j] = 0.5 * (i + 1) * j; lse = logsumexp(logits).
    std::vector<float> logProb(N * C), lse(N);
    for (int64_t i = 0; i < N; ++i) {
        double sum = 0;
        for (int64_t j = 0; j < C; ++j) sum += std::exp(0.5 * (i + 1) * j);
        lse[i] = static_cast<float>(std::log(sum));
        for (int64_t j = 0; j < C; ++j) logProb[i * C + j] = static_cast<float>(0.5 * (i + 1) * j - std::log(sum));
    }
    std::vector<int64_t> target = {1, -100, 4, 0};  // row 1 is ignored (ignoreIndex -100)
    std::vector<float> weight = {1.0f, 2.0f, 0.5f, 1.0f, 1.5f}, gradLoss = {1.0f}, grad(N * C);

    void *dGradLoss, *dLogProb, *dTarget, *dWeight, *dLse, *dGrad;
    aclTensor* tGradLoss = DeviceTensor(gradLoss, {}, ACL_FLOAT, &dGradLoss);
    aclTensor* tLogProb = DeviceTensor(logProb, {N, C}, ACL_FLOAT, &dLogProb);
    aclTensor* tTarget = DeviceTensor(target, {N}, ACL_INT64, &dTarget);
    aclTensor* tWeight = DeviceTensor(weight, {C}, ACL_FLOAT, &dWeight);
    aclTensor* tLse = DeviceTensor(lse, {N}, ACL_FLOAT, &dLse);
    aclTensor* tGrad = DeviceTensor(grad, {N, C}, ACL_FLOAT, &dGrad);
    if (!tGradLoss || !tLogProb || !tTarget || !tWeight || !tLse || !tGrad) {
        std::fprintf(stderr, "creating the device tensors failed: %s\n", aclGetRecentErrMsg());
        return 1;
    }

    // Phase 1: check the arguments, compute the tiling, size the workspace.
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    char reduction[] = "mean";
    CHECK(aclnnCrossEntropyLossGradGetWorkspaceSize(tGradLoss, tLogProb, tTarget, tWeight, /*gradZloss*/ nullptr,
                                                    tLse, reduction, /*ignoreIndex*/ -100, /*labelSmoothing*/ 0.1,
                                                    /*lseSquareScaleForZloss*/ 1e-4, tGrad, &workspaceSize,
                                                    &executor));
    // Phase 2: queue the kernel on the stream, wait for it, copy the gradient back.
    void* workspace = nullptr;
    if (workspaceSize > 0) CHECK(aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclnnCrossEntropyLossGrad(workspace, workspaceSize, executor, stream));
    CHECK(aclrtSynchronizeStream(stream));
    CHECK(aclrtMemcpy(grad.data(), grad.size() * sizeof(float), dGrad, grad.size() * sizeof(float),
                      ACL_MEMCPY_DEVICE_TO_HOST));

    // The expected gradient (README, Semantics), with g = 1 and no gradZloss.
    const double ls = 0.1, zScale = 1e-4;
    double W = 0, M = 0, sumW = 0, maxDiff = 0;
    for (int64_t j = 0; j < C; ++j) sumW += weight[j];
    for (int64_t i = 0; i < N; ++i) {
        if (target[i] != -100) {
            W += weight[target[i]];
            M += 1;
        }
    }
    for (int64_t i = 0; i < N; ++i) {
        for (int64_t j = 0; j < C; ++j) {
            double expected = 0;
            if (target[i] != -100) {
                double nll = (1 - ls) * weight[target[i]] / W, smooth = ls / (C * W);
                double zTerm = 2 * zScale * lse[i] / M;
                expected = std::exp(logProb[i * C + j]) * (nll + smooth * sumW + zTerm) - smooth * weight[j] -
                           (j == target[i] ? nll : 0);
            }
            maxDiff = std::max(maxDiff, std::fabs(grad[i * C + j] - expected));
            std::printf("result[%ld] is: %f  (expected %f)\n", static_cast<long>(i * C + j), grad[i * C + j],
                        expected);
        }
    }
    std::printf("%s: max |result - expected| = %.1e over %ld values\n", maxDiff <= 1e-5 ? "OK" : "MISMATCH",
                maxDiff, static_cast<long>(N * C));

    for (aclTensor* t : {tGradLoss, tLogProb, tTarget, tWeight, tLse, tGrad}) aclDestroyTensor(t);
    for (void* p : {dGradLoss, dLogProb, dTarget, dWeight, dLse, dGrad, workspace})
        if (p) aclrtFree(p);
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    return maxDiff <= 1e-5 ? 0 : 1;
}

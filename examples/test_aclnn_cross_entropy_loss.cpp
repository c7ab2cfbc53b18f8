// aclnnCrossEntropyLoss on the data of CANN's documentation example: a 2x5 float32
// input, targets {0, 0}, no weight, reduction "mean", ignoreIndex -100, no label
// smoothing, no z-loss. The documentation gives the loss 1.0937543 and the log-
// probabilities below; this program prints the loss as result[0] and the ten
// log-probabilities as result[1..10] (ctest compares them with those values).
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_cross_entropy_loss.h"

namespace {

struct Buffer {
    void* device = nullptr;
    aclTensor* tensor = nullptr;
};

// A contiguous ND tensor of `shape` in device memory holding `values` (zeros when empty).
template <typename T>
bool MakeTensor(const std::vector<int64_t>& shape, aclDataType dtype, std::vector<T> values, Buffer* out) {
    size_t count = 1;
    for (int64_t d : shape) count *= size_t(d);
    values.resize(count);
    const size_t bytes = count * sizeof(T);
    if (aclrtMalloc(&out->device, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return false;
    if (aclrtMemcpy(out->device, bytes, values.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) return false;
    std::vector<int64_t> strides(shape.size(), 1);
    for (int i = int(shape.size()) - 2; i >= 0; --i) strides[size_t(i)] = strides[size_t(i) + 1] * shape[size_t(i) + 1];
    out->tensor = aclCreateTensor(shape.data(), shape.size(), dtype, strides.data(), 0, ACL_FORMAT_ND, shape.data(),
                                  shape.size(), out->device);
    return out->tensor != nullptr;
}

int Fail(const char* what, int status) {
    std::printf("%s failed (%d): %s\n", what, status, aclGetRecentErrMsg());
    return 1;
}

}  // namespace

int main() {
    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return Fail("acl setup", -1);
    aclrtStream stream = nullptr;
    if (aclrtCreateStream(&stream) != ACL_SUCCESS) return Fail("aclrtCreateStream", -1);

    Buffer input, target, loss, logProb, zloss, lse;
    const bool made = MakeTensor<float>({2, 5}, ACL_FLOAT, {5, 0, 3, 3, 7, 9, 3, 5, 2, 4}, &input) &&
                      MakeTensor<int64_t>({2}, ACL_INT64, {0, 0}, &target) &&
                      MakeTensor<float>({1}, ACL_FLOAT, {}, &loss) &&
                      MakeTensor<float>({2, 5}, ACL_FLOAT, {}, &logProb) &&
                      MakeTensor<float>({1}, ACL_FLOAT, {}, &zloss) && MakeTensor<float>({2}, ACL_FLOAT, {}, &lse);
    if (!made) return Fail("creating the device tensors", -1);

    char reduction[] = "mean";
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    int status = aclnnCrossEntropyLossGetWorkspaceSize(input.tensor, target.tensor, /*weightOptional*/ nullptr,
                                                       reduction, /*ignoreIndex*/ -100, /*labelSmoothing*/ 0.0,
                                                       /*lseSquareScaleForZloss*/ 0.0, /*returnZloss*/ false,
                                                       loss.tensor, logProb.tensor, zloss.tensor, lse.tensor,
                                                       &workspaceSize, &executor);
    if (status != ACL_SUCCESS) return Fail("aclnnCrossEntropyLossGetWorkspaceSize", status);
    void* workspace = nullptr;
    if (workspaceSize > 0 && aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS)
        return Fail("allocating the workspace", -1);
    status = aclnnCrossEntropyLoss(workspace, workspaceSize, executor, stream);
    if (status != ACL_SUCCESS) return Fail("aclnnCrossEntropyLoss", status);
    if (aclrtSynchronizeStream(stream) != ACL_SUCCESS) return Fail("aclrtSynchronizeStream", -1);

    std::vector<float> results(11);
    if (aclrtMemcpy(results.data(), sizeof(float), loss.device, sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST) !=
            ACL_SUCCESS ||
        aclrtMemcpy(results.data() + 1, 10 * sizeof(float), logProb.device, 10 * sizeof(float),
                    ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS)
        return Fail("copying the results back", -1);
    std::printf("loss, then logProb:\n");
    for (size_t i = 0; i < results.size(); ++i) std::printf("result[%zu] is: %f\n", i, results[i]);

    for (Buffer* b : {&input, &target, &loss, &logProb, &zloss, &lse}) {
        aclDestroyTensor(b->tensor);
        aclrtFree(b->device);
    }
    if (workspace) aclrtFree(workspace);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}

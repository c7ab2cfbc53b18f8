// aclTensor: a view (dims, strides, offset in elements) of a storage buffer
// that starts at tensorData, as CANN's aclCreateTensor describes it.
#include <cstring>
#include <string>
#include <vector>

#include "acl_compat_internal.h"
#include "aclnn/aclnn_base.h"

struct aclTensor {
    std::vector<int64_t> viewDims, strides, storageDims;
    int64_t offset = 0;
    aclDataType dtype = ACL_DT_UNDEFINED;
    aclFormat format = ACL_FORMAT_ND;
    void* data = nullptr;
};

namespace {

constexpr uint64_t kMaxDims = 8;

aclnnStatus Fail(aclnnStatus code, const std::string& msg) {
    acl_compat::SetRecentErrMsg(msg);
    return code;
}

aclTensor* FailNull(const std::string& msg) {
    acl_compat::SetRecentErrMsg("aclCreateTensor: " + msg);
    return nullptr;
}

// The aclFormat codes acl_base.h defines. A caller's code is read as an int first: an
// enum variable holding a value outside the enumeration is undefined behaviour.
bool KnownFormat(int code) {
    switch (code) {
        case ACL_FORMAT_UNDEFINED: case ACL_FORMAT_NCHW: case ACL_FORMAT_NHWC: case ACL_FORMAT_ND:
        case ACL_FORMAT_NC1HWC0: case ACL_FORMAT_FRACTAL_Z: case ACL_FORMAT_HWCN: case ACL_FORMAT_NDHWC:
        case ACL_FORMAT_FRACTAL_NZ: case ACL_FORMAT_NCDHW: case ACL_FORMAT_NC: case ACL_FORMAT_NCL:
            return true;
        default:
            return false;
    }
}

int64_t* CopyOut(const std::vector<int64_t>& v) {
    int64_t* out = new int64_t[v.empty() ? 1 : v.size()];
    for (size_t i = 0; i < v.size(); ++i) out[i] = v[i];
    return out;
}

}  // namespace

extern "C" {

aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType, const int64_t* stride,
                           int64_t offset, aclFormat format, const int64_t* storageDims, uint64_t storageDimsNum,
                           void* tensorData) {
    if (viewDimsNum > kMaxDims || storageDimsNum > kMaxDims) return FailNull("at most 8 dimensions");
    if (viewDimsNum > 0 && !viewDims) return FailNull("viewDims is null");
    if (storageDimsNum > 0 && !storageDims) return FailNull("storageDims is null");
    if (aclDataTypeSize(dataType) == 0) return FailNull("unsupported dataType " + std::to_string(int(dataType)));
    if (offset < 0) return FailNull("offset must be >= 0");
    int formatCode;
    static_assert(sizeof formatCode == sizeof format, "aclFormat is an int");
    std::memcpy(&formatCode, &format, sizeof formatCode);
    if (!KnownFormat(formatCode)) return FailNull("unknown format " + std::to_string(formatCode));
    auto* t = new aclTensor;
    t->viewDims.assign(viewDims, viewDims + viewDimsNum);
    for (int64_t d : t->viewDims)
        if (d < 0) {
            delete t;
            return FailNull("negative view dimension");
        }
    // A null stride array means contiguous (row-major) strides.
    t->strides.assign(viewDimsNum, 1);
    if (stride) {
        t->strides.assign(stride, stride + viewDimsNum);
    } else {
        for (int64_t i = int64_t(viewDimsNum) - 2; i >= 0; --i)
            if (__builtin_mul_overflow(t->strides[i + 1], t->viewDims[i + 1], &t->strides[i])) {
                delete t;
                return FailNull("the contiguous strides of viewDims (stride is null) overflow int64");
            }
    }
    t->storageDims.assign(storageDims, storageDims + storageDimsNum);
    t->offset = offset;
    t->dtype = dataType;
    t->format = format;
    t->data = tensorData;
    return t;
}

aclnnStatus aclDestroyTensor(const aclTensor* tensor) {
    delete tensor;  // deleting nullptr is a no-op, as CANN allows
    return OK;
}

aclnnStatus aclGetViewShape(const aclTensor* t, int64_t** viewDims, uint64_t* viewDimsNum) {
    if (!t || !viewDims || !viewDimsNum) return Fail(161001, "aclGetViewShape: null argument");
    *viewDims = CopyOut(t->viewDims);
    *viewDimsNum = t->viewDims.size();
    return OK;
}
aclnnStatus aclGetStorageShape(const aclTensor* t, int64_t** storageDims, uint64_t* storageDimsNum) {
    if (!t || !storageDims || !storageDimsNum) return Fail(161001, "aclGetStorageShape: null argument");
    *storageDims = CopyOut(t->storageDims);
    *storageDimsNum = t->storageDims.size();
    return OK;
}
aclnnStatus aclGetViewStrides(const aclTensor* t, int64_t** stridesValue, uint64_t* stridesNum) {
    if (!t || !stridesValue || !stridesNum) return Fail(161001, "aclGetViewStrides: null argument");
    *stridesValue = CopyOut(t->strides);
    *stridesNum = t->strides.size();
    return OK;
}
aclnnStatus aclGetViewOffset(const aclTensor* t, int64_t* offset) {
    if (!t || !offset) return Fail(161001, "aclGetViewOffset: null argument");
    *offset = t->offset;
    return OK;
}
aclnnStatus aclGetFormat(const aclTensor* t, aclFormat* format) {
    if (!t || !format) return Fail(161001, "aclGetFormat: null argument");
    *format = t->format;
    return OK;
}
aclnnStatus aclGetDataType(const aclTensor* t, aclDataType* dataType) {
    if (!t || !dataType) return Fail(161001, "aclGetDataType: null argument");
    *dataType = t->dtype;
    return OK;
}
aclnnStatus aclGetRawTensorAddr(const aclTensor* t, void** addr) {
    if (!t || !addr) return Fail(161001, "aclGetRawTensorAddr: null argument");
    *addr = t->data;
    return OK;
}

aclnnStatus aclnnInit(const char*) { return OK; }
aclnnStatus aclnnFinalize() { return OK; }

}  // extern "C"

#include "tensor_checks.h"

#include <cfloat>
#include <cmath>
#include <cstring>
#include <sstream>

#include "../op_kernel/cross_entropy_loss_grad_tiling_data.h"  // XentReduction
#include "aclnnop/aclnn_cross_entropy_loss_grad.h"            // ACLNN_* status codes
#include "device_memory.h"

namespace xent {

[[noreturn]] void Fail(aclnnStatus status, const std::string& message) { throw CheckFailure{status, message}; }

const char* DtypeName(aclDataType t) {
    switch (t) {
        case ACL_FLOAT: return "float32";
        case ACL_FLOAT16: return "float16";
        case ACL_BF16: return "bfloat16";
        case ACL_INT64: return "int64";
        case ACL_INT32: return "int32";
        case ACL_DOUBLE: return "float64";
        case ACL_INT8: return "int8";
        case ACL_UINT8: return "uint8";
        case ACL_INT16: return "int16";
        case ACL_BOOL: return "bool";
        default: return "an unsupported dtype";
    }
}

std::string ShapeText(const std::vector<int64_t>& dims) {
    std::ostringstream os;
    os << "(";
    for (size_t i = 0; i < dims.size(); ++i) os << (i ? ", " : "") << dims[i];
    if (dims.size() == 1) os << ",";
    os << ")";
    return os.str();
}

namespace {
std::vector<int64_t> Take(int64_t* p, uint64_t n) {
    std::vector<int64_t> v(p, p + n);
    delete[] p;
    return v;
}
}  // namespace

// Reads and validates one tensor's layout: known dtype, plain format, contiguous, data in bounds and aligned.
TensorArg Describe(const aclTensor* t, const char* name) {
    TensorArg a;
    if (!t) return a;
    a.present = true;
    int64_t* p = nullptr;
    uint64_t n = 0;
    if (aclGetViewShape(t, &p, &n) != 0) Fail(ACLNN_ERR_PARAM_INVALID, std::string(name) + " is not a valid aclTensor");
    a.dims = Take(p, n);
    if (aclGetViewStrides(t, &p, &n) != 0) Fail(ACLNN_ERR_PARAM_INVALID, std::string(name) + " has no strides");
    const std::vector<int64_t> strides = Take(p, n);
    if (aclGetStorageShape(t, &p, &n) != 0) Fail(ACLNN_ERR_PARAM_INVALID, std::string(name) + " has no storage shape");
    const std::vector<int64_t> storage = Take(p, n);
    int64_t offset = 0;
    aclGetViewOffset(t, &offset);
    aclGetDataType(t, &a.dtype);
    aclFormat format = ACL_FORMAT_ND;
    aclGetFormat(t, &format);
    void* base = nullptr;
    aclGetRawTensorAddr(t, &base);

    if (format == ACL_FORMAT_NC1HWC0 || format == ACL_FORMAT_FRACTAL_Z || format == ACL_FORMAT_FRACTAL_NZ)
        Fail(ACLNN_ERR_PARAM_INVALID, std::string(name) + " must be in a plain format such as ACL_FORMAT_ND, got " +
                                          std::to_string(int(format)));
    const uint64_t elem = aclDataTypeSize(a.dtype);
    if (elem == 0) Fail(ACLNN_ERR_PARAM_INVALID, std::string(name) + " has an unsupported dtype");

    // Contiguous (row-major) view; strides of size-1 dimensions, and of an empty view
    // (NumPy gives a (0, C) array strides of 0), do not matter.
    int64_t numel = 1;
    bool overflow = false;
    for (int64_t d : a.dims) {
        if (d != 0 && numel > INT64_MAX / 16 / d) {
            overflow = true;  // stop before the multiplication would overflow (UB)
            break;
        }
        numel *= d;
    }
    if (overflow) Fail(ACLNN_ERR_PARAM_INVALID, std::string(name) + " is too large");
    int64_t expect = 1;
    for (int64_t i = int64_t(a.dims.size()) - 1; i >= 0 && numel > 0; --i) {
        if (a.dims[i] != 1 && strides[i] != expect)
            Fail(ACLNN_ERR_PARAM_INVALID, std::string(name) + " must be contiguous: shape " + ShapeText(a.dims) +
                                              " has strides " + ShapeText(strides) +
                                              " (non-contiguous tensors are not supported; make a contiguous copy)");
        expect *= a.dims[i];
    }
    a.bytes = uint64_t(numel) * elem;
    if (numel > 0) {
        if (!base) Fail(ACLNN_ERR_PARAM_NULLPTR, std::string(name) + " has no data (tensorData is null)");
        // Overflow-safe: a huge storage shape or offset must not wrap around. A storage
        // shape of no dimensions (storageDimsNum 0) is a scalar of one element, as
        // CANN's shapes count it (gert::Shape::GetShapeSize), never "unchecked".
        int64_t storageNumel = 1;
        for (int64_t d : storage) {
            if (d < 0 || (d != 0 && storageNumel > INT64_MAX / 16 / d))
                Fail(ACLNN_ERR_PARAM_INVALID, std::string(name) + " has an invalid storage shape " +
                                                  ShapeText(storage));
            storageNumel *= d;
        }
        if (offset > storageNumel - numel)
            Fail(ACLNN_ERR_PARAM_INVALID, std::string(name) + " view (offset " + std::to_string(offset) + ", " +
                                              std::to_string(numel) + " elements) exceeds its storage of " +
                                              std::to_string(storageNumel) + (storageNumel == 1 ? " element" : " elements") +
                                              " (storage shape " + ShapeText(storage) + ")");
        a.data = static_cast<char*>(base) + uint64_t(offset) * elem;
        if (reinterpret_cast<uintptr_t>(a.data) % elem != 0)
            Fail(ACLNN_ERR_PARAM_INVALID, std::string(name) + " data is not aligned to its element size (" +
                                              std::to_string(elem) + " bytes)");
    }
    return a;
}

void RequireShape(const TensorArg& a, const char* name, const std::vector<int64_t>& want, const char* what) {
    if (a.dims != want)
        Fail(ACLNN_ERR_PARAM_INVALID, std::string(name) + " must have shape " + what + " = " + ShapeText(want) +
                                          ", got " + ShapeText(a.dims));
}

void RequireSameDtype(const TensorArg& a, const char* name, aclDataType want, const char* ref) {
    if (a.present && a.dtype != want)
        Fail(ACLNN_ERR_PARAM_INVALID, std::string(name) + " must have " + ref + "'s dtype (" + DtypeName(want) +
                                          "), got " + DtypeName(a.dtype));
}

// The kernel gets 2 * lseSquareScaleForZloss and labelSmoothing / C as float32
// factors: a nonzero factor must be a normal float32 (relative rounding error at
// most 2^-24). Below FLT_MIN it would be a subnormal (1e-45 becomes 1.4e-45, 30%
// off) or 0, above FLT_MAX inf, where the exact gradient may well fit.
void RequireFloat32Factor(double factor, const char* name, double value, const char* what) {
    const double mag = std::fabs(factor);
    if (factor == 0.0 || (mag >= double(FLT_MIN) && mag <= double(FLT_MAX))) return;
    std::ostringstream os;
    os.precision(9);
    os << name << " = " << value << " is out of range: the kernel uses " << what << " = " << factor
       << " as a float32, which must be 0 or a normal float32 (magnitude " << double(FLT_MIN) << " to "
       << double(FLT_MAX) << ")";
    Fail(ACLNN_ERR_PARAM_INVALID, os.str());
}

bool Overlaps(const TensorArg& a, const TensorArg& b) {
    if (!a.present || !b.present || a.bytes == 0 || b.bytes == 0) return false;
    const char* a0 = static_cast<const char*>(a.data);
    const char* b0 = static_cast<const char*>(b.data);
    return a0 < b0 + b.bytes && b0 < a0 + a.bytes;
}

int64_t CheckReduction(const char* reductionOptional) {
    if (!reductionOptional || std::strcmp(reductionOptional, "mean") == 0) return XENT_MEAN;
    if (std::strcmp(reductionOptional, "none") == 0) return XENT_NONE;
    if (std::strcmp(reductionOptional, "sum") == 0) return XENT_SUM;
    Fail(ACLNN_ERR_PARAM_INVALID, std::string("reductionOptional must be \"none\", \"mean\" or \"sum\" "
                                              "(nullptr means \"mean\"), got \"") +
                                      reductionOptional + "\"");
}

void CheckLabelSmoothing(double labelSmoothing) {
    if (std::isnan(labelSmoothing) || labelSmoothing < 0.0 || labelSmoothing > 1.0)
        Fail(ACLNN_ERR_PARAM_INVALID, "labelSmoothing must be in [0, 1], got " + std::to_string(labelSmoothing));
}

void CheckZlossScale(double lseSquareScaleForZloss) {
    // A finite scale >= 0, as the Python layer asks: inf only turns the results into
    // inf/NaN, and a negative one would reward large logsumexps.
    if (std::isnan(lseSquareScaleForZloss)) Fail(ACLNN_ERR_PARAM_INVALID, "lseSquareScaleForZloss is NaN");
    if (!std::isfinite(lseSquareScaleForZloss) || lseSquareScaleForZloss < 0.0)
        Fail(ACLNN_ERR_PARAM_INVALID,
             "lseSquareScaleForZloss must be finite and >= 0, got " + std::to_string(lseSquareScaleForZloss));
    RequireFloat32Factor(2.0 * lseSquareScaleForZloss, "lseSquareScaleForZloss", lseSquareScaleForZloss,
                         "2 * lseSquareScaleForZloss");
}

void CheckSoftcap(double softcap) {
    // 0 turns it off; the kernel uses cap, 1 / cap and 2 / cap as float32 factors.
    if (std::isnan(softcap)) Fail(ACLNN_ERR_PARAM_INVALID, "softcap is NaN");
    if (!std::isfinite(softcap) || softcap < 0.0)
        Fail(ACLNN_ERR_PARAM_INVALID, "softcap must be finite and >= 0 (0: no capping), got " + std::to_string(softcap));
    if (softcap == 0.0) return;
    RequireFloat32Factor(softcap, "softcap", softcap, "softcap");
    RequireFloat32Factor(2.0 / softcap, "softcap", softcap, "2 / softcap");
    RequireFloat32Factor(2.0 * softcap, "softcap", softcap, "2 * softcap");
}

void CheckClassCount(int64_t c, const char* tensor, const std::vector<int64_t>& dims, double labelSmoothing) {
    if (c < 1) Fail(ACLNN_ERR_PARAM_INVALID, std::string(tensor) + " must have C >= 1 classes, got " + ShapeText(dims));
    if (c > (int64_t(1) << 30))
        Fail(ACLNN_ERR_PARAM_INVALID,
             std::string(tensor) + " has C = " + std::to_string(c) + " classes; at most 2^30 are supported");
    RequireFloat32Factor(labelSmoothing / double(c), "labelSmoothing", labelSmoothing, "labelSmoothing / C");
}

void RecordAllocations(const std::vector<NamedTensor>& tensors) {
    for (const NamedTensor& t : tensors) t.arg->allocation = DeviceAllocationOf(t.arg->data, t.arg->bytes);
}

std::string FreedSincePhase1(const std::vector<NamedTensor>& tensors, const void* workspace, const char* phase1,
                             const char* phase2) {
    for (const NamedTensor& t : tensors) {
        if (t.arg->allocation == 0 || DeviceAllocationOf(t.arg->data, t.arg->bytes) == t.arg->allocation) continue;
        return std::string(t.name) + ": its device memory was freed (aclrtFree) after " + phase1 +
               "; every tensor's memory must stay allocated until " + phase2 + " returns";
    }
    if (IsFreedDeviceMemory(workspace))  // the launch would write the tiling into it first
        return std::string("workspace: its device memory was freed (aclrtFree) and not allocated again; the "
                           "workspace must stay allocated until ") + phase2 + " returns";
    return {};
}

}  // namespace xent

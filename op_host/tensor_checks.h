// Argument checks both two-phase APIs share: a tensor's layout read through CANN's
// public accessors (acl_meta.h), shapes, dtypes, overlaps and the options
// (reduction, label smoothing, z-loss scale), each failure naming the argument as
// the API names it. A failed check throws CheckFailure; the API's check function
// catches it into its result.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "aclnn/acl_meta.h"

namespace xent {

// A validated, contiguous tensor.
struct TensorArg {
    bool present = false;
    aclDataType dtype = ACL_DT_UNDEFINED;
    std::vector<int64_t> dims;
    void* data = nullptr;     // first element (storage base + view offset)
    uint64_t bytes = 0;       // numel * element size
    uint64_t allocation = 0;  // the device allocation holding the bytes at phase 1 (0: none known)
};

struct CheckFailure {
    aclnnStatus status;
    std::string message;
};

struct CheckResult {
    aclnnStatus status = 0;  // ACLNN_SUCCESS or an ACLNN_ERR_PARAM_* code
    std::string message;     // "" on success
};

[[noreturn]] void Fail(aclnnStatus status, const std::string& message);

const char* DtypeName(aclDataType t);
std::string ShapeText(const std::vector<int64_t>& dims);

// Reads and validates one tensor's layout (absent when t is null): known dtype, plain
// format, contiguous, data in bounds of its storage and aligned.
TensorArg Describe(const aclTensor* t, const char* name);

void RequireShape(const TensorArg& a, const char* name, const std::vector<int64_t>& want, const char* what);
// a (when present) has dtype `want`, the dtype of the tensor named `ref`.
void RequireSameDtype(const TensorArg& a, const char* name, aclDataType want, const char* ref);
// A float32 factor the kernel gets from a double option: 0 or a normal float32.
void RequireFloat32Factor(double factor, const char* name, double value, const char* what);
bool Overlaps(const TensorArg& a, const TensorArg& b);

// reductionOptional -> XentReduction (nullptr: mean); labelSmoothing in [0, 1];
// lseSquareScaleForZloss finite, >= 0 and 2x it a float32 factor.
int64_t CheckReduction(const char* reductionOptional);
void CheckLabelSmoothing(double labelSmoothing);
void CheckZlossScale(double lseSquareScaleForZloss);
// softcap finite, >= 0 (0: off); cap, 2 / cap and 2 * cap float32 factors.
void CheckSoftcap(double softcap);
// The class count's limit and labelSmoothing / C as a float32 factor.
void CheckClassCount(int64_t c, const char* tensor, const std::vector<int64_t>& dims, double labelSmoothing);

// Phase 1 records each tensor's device allocation; phase 2 refuses, before anything
// is written, a tensor whose memory was freed (or reallocated) in between, or a
// workspace in freed device memory: "" or the message naming it.
struct NamedTensor {
    TensorArg* arg;
    const char* name;
};
void RecordAllocations(const std::vector<NamedTensor>& tensors);
std::string FreedSincePhase1(const std::vector<NamedTensor>& tensors, const void* workspace, const char* phase1,
                             const char* phase2);

}  // namespace xent

#include "bad_target_slots.h"

#include <memory>

#include "../op_kernel/cross_entropy_loss_grad_tiling_data.h"  // kSlotBytes, kNoBadRow
#include "acl/acl.h"
#include "aclnnop/aclnn_cross_entropy_loss_grad.h"  // ACLNN_* status codes

namespace xent {
namespace {

struct BadTarget {
    bool readBack = false;  // false: the slots could not be copied back
    int64_t row = -1;       // kNoBadRow: every target was valid or ignored
    int64_t value = 0;
};

BadTarget ReadBadTarget(const void* slots, int64_t blockDim) {
    BadTarget bad;
    const uint64_t slotWords = kSlotBytes / 8;
    std::unique_ptr<int64_t[]> host(new int64_t[blockDim * slotWords]);
    const size_t bytes = size_t(blockDim) * kSlotBytes;
    if (aclrtMemcpy(host.get(), bytes, slots, bytes, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) return bad;
    bad.readBack = true;
    bad.row = kNoBadRow;
    for (int64_t core = 0; core < blockDim; ++core) {
        const int64_t r = host[core * slotWords], v = host[core * slotWords + 1];
        if (r != kNoBadRow && (bad.row == kNoBadRow || r < bad.row)) {
            bad.row = r;
            bad.value = v;
        }
    }
    return bad;
}

}  // namespace

int32_t CheckBadTargets(const void* slots, int64_t blockDim, int64_t classes, int64_t ignoreIndex,
                        const char* consequence, std::string* message) {
    const BadTarget bad = ReadBadTarget(slots, blockDim);
    if (!bad.readBack) {
        *message = "could not read the target check back from the workspace";
        return ACLNN_ERR_RUNTIME_ERROR;
    }
    if (bad.row == kNoBadRow) return ACLNN_SUCCESS;
    *message = "target[" + std::to_string(bad.row) + "] = " + std::to_string(bad.value) + " is outside [0, " +
               std::to_string(classes) + ") and is not ignoreIndex (" + std::to_string(ignoreIndex) + "); " +
               consequence;
    return ACLNN_ERR_PARAM_INVALID;
}

}  // namespace xent

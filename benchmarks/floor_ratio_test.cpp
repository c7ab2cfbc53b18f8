// The floor tool (floor_ratio.h) on a small case: it copies exactly the backward's bytes,
// and its ratio is the backward's launches over the copy's launch, as recorded by the
// timing model. No figure of the model is checked here (the model has its own suite).
#include "acl/acl.h"
#include "floor_ratio.h"
#include "xtest.h"

namespace {

struct AclSession {
    AclSession() { aclInit(nullptr); }
    ~AclSession() { aclFinalize(); }
};

xent_bench::BackwardCase SmallCase(const char* dtype) {
    xent_bench::BackwardCase k;
    k.n = 600;  // more than one chunk of rows under mean: the sums launch runs first
    k.c = 3000;
    k.dtype = dtype;
    k.labelSmoothing = 0.1;
    k.weight = true;
    return k;
}

}  // namespace

XTEST(floor_copy_moves_the_backwards_bytes_and_the_ratio_is_of_the_two_runs) {
    AclSession acl;
    for (const char* dtype : {"fp32", "bf16"}) {
        const xent_bench::BackwardCase k = SmallCase(dtype);
        const xent_bench::FloorRatio r = xent_bench::ModelFloorRatio(k);
        const uint64_t bytes = uint64_t(k.n) * uint64_t(k.c) * (std::string(dtype) == "fp32" ? 4 : 2);
        XCHECK(r.floorCopied);
        XCHECK_EQ(r.floorReadBytes, bytes);
        XCHECK_EQ(r.floorWriteBytes, bytes);
        XCHECK(r.floor.valid && r.floor.kernel == "floor_copy" && r.floor.taskDurationUs > 0);
        XCHECK_EQ(r.ours.size(), size_t(2));
        XCHECK(r.ours[0].valid && r.ours[0].kernel == "cross_entropy_loss_grad_sums");
        XCHECK(r.ours[1].valid && r.ours[1].kernel == "cross_entropy_loss_grad");
        XCHECK_EQ(r.oursUs, r.ours[0].taskDurationUs + r.ours[1].taskDurationUs);
        XCHECK_EQ(r.floorUs, r.floor.taskDurationUs);
        XCHECK_EQ(r.ratio, r.oursUs / r.floorUs);
        XCHECK(r.oursLaunchCostUs > r.oneCoreLaunchCostUs && r.oneCoreLaunchCostUs > 0);
    }
}

XTEST(floor_copy_of_one_ragged_row_runs_on_one_core) {
    AclSession acl;
    xent_bench::BackwardCase k;
    k.n = 1;
    k.c = 257;  // 514 bytes in bf16: not a whole number of 32-byte blocks
    k.dtype = "bf16";
    const xent_bench::FloorRatio r = xent_bench::ModelFloorRatio(k);
    XCHECK(r.floorCopied);
    XCHECK_EQ(r.floor.blockDim, 1u);
    XCHECK_EQ(r.floorReadBytes, uint64_t(514));
    XCHECK_EQ(r.ours.size(), size_t(1));
}

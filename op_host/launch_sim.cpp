// launch_cross_entropy_loss_grad over the simulator: synchronous; caller
// memory that is not aclrtMalloc'd (e.g. the Python caller's buffers) is
// registered as simulator GM for the launch's duration.
#include <cstring>
#include <memory>
#include <vector>

#include "../acl_compat/src/acl_compat_internal.h"
#include "aclnnop/aclnn_cross_entropy_loss_grad.h"
#include "ascend_sim/sim.h"
#include "cross_entropy_loss_grad_launch.h"
#include "platform_info_sim.h"

extern "C" void cross_entropy_loss_grad(uint8_t* gradLoss, uint8_t* logProb, uint8_t* target, uint8_t* weight,
                                        uint8_t* gradZloss, uint8_t* lseForZloss, uint8_t* xGrad, uint8_t* workspace,
                                        uint8_t* tiling);

namespace xent {
namespace {

// Caller memory (not from aclrtMalloc, e.g. NumPy or torch buffers) must be
// simulator GM while a kernel runs: each such buffer is registered as a
// GmRegion for the launch's duration. Launches on several host threads may
// share buffers (the same weight, say): the simulator accepts overlapping and
// repeated registrations of caller memory, so they never wait for each other.
class CallerMemory {
public:
    explicit CallerMemory(const LaunchArgs& a) {
        const GmBuffer buffers[] = {a.gradLoss, a.logProb, a.target, a.weight, a.gradZloss, a.lseForZloss, a.xGrad,
                                    GmBuffer{a.workspace, a.workspaceBytes}};
        const char* names[] = {"gradLoss", "logProb", "target", "weight", "gradZloss", "lseForZloss", "out", "workspace"};
        for (size_t i = 0; i < sizeof(buffers) / sizeof(buffers[0]); ++i) {
            const GmBuffer& b = buffers[i];
            if (!b.data || b.bytes == 0 || acl_compat::IsDeviceMemory(b.data, b.bytes)) continue;
            regions_.push_back(std::make_unique<ascend_sim::GmRegion>(b.data, b.bytes, names[i]));
        }
    }
    CallerMemory(const CallerMemory&) = delete;
    CallerMemory& operator=(const CallerMemory&) = delete;

private:
    std::vector<std::unique_ptr<ascend_sim::GmRegion>> regions_;
};

uint8_t* Gm(const GmBuffer& b) { return static_cast<uint8_t*>(b.data); }

// Problems up to this many elements run their blocks on one host thread: waking a
// second one and meeting it at SyncAll and at the end cost more than it takes over
// (measured from Python on a 2-core host: fp32 1 x 32000 180 us on one thread, 260-300
// us on two; the two break even around 130k elements, 8 x 32000 is faster on two).
constexpr int64_t kOneHostThreadElements = int64_t(1) << 17;

}  // namespace

LaunchOutcome launch_cross_entropy_loss_grad(const LaunchArgs& a, aclrtStream) {
    LaunchOutcome out;
    try {
        const CallerMemory lease(a);
        const ascend_sim::ScopedHostThreadCap cap(a.tiling.n * a.tiling.c <= kOneHostThreadElements ? 1 : 0);
        uint8_t* ws = static_cast<uint8_t*>(a.workspace);
        std::memcpy(ws + a.libApiWorkspaceBytes, &a.tiling, sizeof(a.tiling));
        uint8_t* tiling = ws + a.libApiWorkspaceBytes;
        ascend_sim::run_kernel("cross_entropy_loss_grad", a.blockDim, ProfileOf(a.platform), [&] {
            cross_entropy_loss_grad(Gm(a.gradLoss), Gm(a.logProb), Gm(a.target), Gm(a.weight), Gm(a.gradZloss),
                                    Gm(a.lseForZloss), Gm(a.xGrad), ws, tiling);
        });
        out.completed = true;
    } catch (const std::exception& e) {
        out.status = ACLNN_ERR_RUNTIME_ERROR;
        out.message = std::string("kernel launch failed: ") + e.what();
    }
    return out;
}

}  // namespace xent

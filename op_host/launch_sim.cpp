// launch_cross_entropy_loss_grad and launch_cross_entropy_loss over the simulator:
// synchronous; caller memory that is not aclrtMalloc'd (e.g. the Python caller's
// buffers) is registered as simulator GM for the launch's duration.
#include <cstring>
#include <functional>
#include <initializer_list>
#include <memory>
#include <vector>

#include "../acl_compat/src/acl_compat_internal.h"
#include "aclnnop/aclnn_cross_entropy_loss_grad.h"
#include "ascend_sim/sim.h"
#include "cross_entropy_loss_grad_launch.h"
#include "cross_entropy_loss_launch.h"
#include "platform_info_sim.h"

extern "C" void cross_entropy_loss_grad(uint8_t* gradLoss, uint8_t* logProb, uint8_t* target, uint8_t* weight,
                                        uint8_t* gradZloss, uint8_t* lseForZloss, uint8_t* xGrad, uint8_t* workspace,
                                        uint8_t* tiling);
extern "C" void cross_entropy_loss_grad_sums(uint8_t* gradLoss, uint8_t* logProb, uint8_t* target, uint8_t* weight,
                                             uint8_t* gradZloss, uint8_t* lseForZloss, uint8_t* xGrad,
                                             uint8_t* workspace, uint8_t* tiling);
extern "C" void cross_entropy_loss(uint8_t* input, uint8_t* target, uint8_t* weight, uint8_t* loss, uint8_t* logProb,
                                   uint8_t* zloss, uint8_t* lseForZloss, uint8_t* workspace, uint8_t* tiling);

namespace xent {
namespace {

// Caller memory (not from aclrtMalloc, e.g. NumPy or torch buffers) must be
// simulator GM while a kernel runs: each such buffer is registered as a
// GmRegion for the launch's duration. Launches on several host threads may
// share buffers (the same weight, say): the simulator accepts overlapping and
// repeated registrations of caller memory, so they never wait for each other.
struct NamedBuffer {
    GmBuffer buffer;
    const char* name;
};

class CallerMemory {
public:
    explicit CallerMemory(std::initializer_list<NamedBuffer> buffers) {
        for (const NamedBuffer& nb : buffers) {
            const GmBuffer& b = nb.buffer;
            if (!b.data || b.bytes == 0 || acl_compat::IsDeviceMemory(b.data, b.bytes)) continue;
            regions_.push_back(std::make_unique<ascend_sim::GmRegion>(b.data, b.bytes, nb.name));
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

// A kernel's launch: its name, its blockDim and the call that runs one block.
struct Kernel {
    const char* name;
    uint32_t blockDim;
    std::function<void(uint8_t* ws, uint8_t* tiling)> body;
};

// The tiling at the start of the user workspace, then each kernel's blocks in turn (as
// launches queued on one stream run); a simulator report (or any exception) becomes
// ACLNN_ERR_RUNTIME_ERROR.
template <class Tiling>
LaunchOutcome Run(std::initializer_list<NamedBuffer> buffers, const Tiling& tiling, int64_t elements,
                  void* workspace, uint64_t libApiWorkspaceBytes, const TilingPlatform& platform,
                  std::initializer_list<Kernel> kernels) {
    LaunchOutcome out;
    try {
        const CallerMemory lease(buffers);
        const ascend_sim::ScopedHostThreadCap cap(elements <= kOneHostThreadElements ? 1 : 0);
        uint8_t* ws = static_cast<uint8_t*>(workspace);
        std::memcpy(ws + libApiWorkspaceBytes, &tiling, sizeof(tiling));
        uint8_t* tilingGm = ws + libApiWorkspaceBytes;
        for (const Kernel& k : kernels) {
            if (k.blockDim == 0) continue;
            ascend_sim::run_kernel(k.name, k.blockDim, ProfileOf(platform), [&] { k.body(ws, tilingGm); });
        }
        out.completed = true;
    } catch (const std::exception& e) {
        out.status = ACLNN_ERR_RUNTIME_ERROR;
        out.message = std::string("kernel launch failed: ") + e.what();
    }
    return out;
}

}  // namespace

LaunchOutcome launch_cross_entropy_loss_grad(const LaunchArgs& a, aclrtStream) {
    const auto args = [&](auto kernel) {
        return [&a, kernel](uint8_t* ws, uint8_t* tiling) {
            kernel(Gm(a.gradLoss), Gm(a.logProb), Gm(a.target), Gm(a.weight), Gm(a.gradZloss), Gm(a.lseForZloss),
                   Gm(a.xGrad), ws, tiling);
        };
    };
    return Run({{a.gradLoss, "gradLoss"},
                {a.logProb, "logProb"},
                {a.target, "target"},
                {a.weight, "weight"},
                {a.gradZloss, "gradZloss"},
                {a.lseForZloss, "lseForZloss"},
                {a.xGrad, "out"},
                {GmBuffer{a.workspace, a.workspaceBytes}, "workspace"}},
               a.tiling, a.tiling.n * a.tiling.c, a.workspace, a.libApiWorkspaceBytes, a.platform,
               {{"cross_entropy_loss_grad_sums", static_cast<uint32_t>(a.tiling.sumsBlockDim),
                 args(cross_entropy_loss_grad_sums)},
                {"cross_entropy_loss_grad", a.blockDim, args(cross_entropy_loss_grad)}});
}

LaunchOutcome launch_cross_entropy_loss(const ForwardLaunchArgs& a, aclrtStream) {
    return Run({{a.input, "input"},
                {a.target, "target"},
                {a.weight, "weight"},
                {a.loss, "loss"},
                {a.logProb, "logProb"},
                {a.zloss, "zloss"},
                {a.lseForZloss, "lseForZloss"},
                {GmBuffer{a.workspace, a.workspaceBytes}, "workspace"}},
               a.tiling, a.tiling.n * a.tiling.c, a.workspace, a.libApiWorkspaceBytes, a.platform,
               {{"cross_entropy_loss", a.blockDim, [&a](uint8_t* ws, uint8_t* tiling) {
                     cross_entropy_loss(Gm(a.input), Gm(a.target), Gm(a.weight), Gm(a.loss), Gm(a.logProb),
                                        Gm(a.zloss), Gm(a.lseForZloss), ws, tiling);
                 }}});
}

}  // namespace xent

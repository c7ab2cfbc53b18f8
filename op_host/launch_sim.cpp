// launch_cross_entropy_loss_grad over the simulator: synchronous; caller
// memory that is not aclrtMalloc'd (e.g. the Python caller's buffers) is
// registered as simulator GM for the launch's duration.
#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <cstring>
#include <memory>
#include <vector>

#include "../acl_compat/src/acl_compat_internal.h"
#include "aclnnop/aclnn_cross_entropy_loss_grad.h"
#include "ascend_sim/sim.h"
#include "cross_entropy_loss_grad_launch.h"

extern "C" void cross_entropy_loss_grad(uint8_t* gradLoss, uint8_t* logProb, uint8_t* target, uint8_t* weight,
                                        uint8_t* gradZloss, uint8_t* lseForZloss, uint8_t* xGrad, uint8_t* workspace,
                                        uint8_t* tiling);

namespace xent {
namespace {

struct Range {
    char* begin;
    char* end;
};

// Caller memory (not from aclrtMalloc, e.g. NumPy or torch buffers) must be
// simulator GM while a kernel runs. Launches on several host threads may share
// buffers (the same weight, say), and the simulator refuses overlapping
// regions, so registrations are shared: a range inside an already registered
// span reuses it (reference counted); a range that only partly overlaps one
// waits until that span is released, then registers the union it needs.
class CallerMemory {
public:
    explicit CallerMemory(std::vector<Range> ranges) {
        std::unique_lock<std::mutex> lock(mutex_);
        cv_.wait(lock, [&] { return !PartlyOverlapsAny(ranges); });
        for (const Range& r : ranges) {
            Span* s = Containing(r);
            if (!s) {
                spans_.push_back(std::make_unique<Span>());
                s = spans_.back().get();
                s->range = r;
                s->region = std::make_unique<ascend_sim::GmRegion>(r.begin, size_t(r.end - r.begin), "caller tensor");
            }
            ++s->refs;
            held_.push_back(s);
        }
    }
    ~CallerMemory() {
        std::lock_guard<std::mutex> lock(mutex_);
        for (Span* s : held_)
            if (--s->refs == 0)
                for (auto it = spans_.begin(); it != spans_.end(); ++it)
                    if (it->get() == s) {
                        spans_.erase(it);
                        break;
                    }
        cv_.notify_all();
    }
    CallerMemory(const CallerMemory&) = delete;
    CallerMemory& operator=(const CallerMemory&) = delete;

private:
    struct Span {
        Range range{};
        int refs = 0;
        std::unique_ptr<ascend_sim::GmRegion> region;
    };
    static Span* Containing(const Range& r) {
        for (auto& s : spans_)
            if (s->range.begin <= r.begin && r.end <= s->range.end) return s.get();
        return nullptr;
    }
    static bool PartlyOverlapsAny(const std::vector<Range>& ranges) {
        for (const Range& r : ranges)
            for (auto& s : spans_) {
                const bool overlap = r.begin < s->range.end && s->range.begin < r.end;
                const bool inside = s->range.begin <= r.begin && r.end <= s->range.end;
                if (overlap && !inside) return true;
            }
        return false;
    }

    static std::mutex mutex_;
    static std::condition_variable cv_;
    static std::vector<std::unique_ptr<Span>> spans_;
    std::vector<Span*> held_;
};
std::mutex CallerMemory::mutex_;
std::condition_variable CallerMemory::cv_;
std::vector<std::unique_ptr<CallerMemory::Span>> CallerMemory::spans_;

// The union of the launch's buffers the simulator does not know yet
// (overlapping or touching ranges merged).
std::vector<Range> CallerRanges(const LaunchArgs& a) {
    std::vector<Range> ranges;
    const GmBuffer buffers[] = {a.gradLoss, a.logProb, a.target, a.weight, a.gradZloss, a.lseForZloss, a.xGrad,
                                GmBuffer{a.workspace, a.workspaceBytes}};
    for (const GmBuffer& b : buffers) {
        if (!b.data || b.bytes == 0 || acl_compat::IsDeviceMemory(b.data, b.bytes)) continue;
        ranges.push_back({static_cast<char*>(b.data), static_cast<char*>(b.data) + b.bytes});
    }
    std::sort(ranges.begin(), ranges.end(), [](const Range& x, const Range& y) { return x.begin < y.begin; });
    std::vector<Range> merged;
    for (const Range& r : ranges) {
        if (!merged.empty() && r.begin <= merged.back().end) merged.back().end = std::max(merged.back().end, r.end);
        else merged.push_back(r);
    }
    return merged;
}

uint8_t* Gm(const GmBuffer& b) { return static_cast<uint8_t*>(b.data); }

}  // namespace

LaunchOutcome launch_cross_entropy_loss_grad(const LaunchArgs& a, aclrtStream) {
    LaunchOutcome out;
    try {
        const CallerMemory lease(CallerRanges(a));
        uint8_t* ws = static_cast<uint8_t*>(a.workspace);
        std::memcpy(ws + a.libApiWorkspaceBytes, &a.tiling, sizeof(a.tiling));
        uint8_t* tiling = ws + a.libApiWorkspaceBytes;
        ascend_sim::run_kernel("cross_entropy_loss_grad", a.blockDim, [&] {
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

// ascend_xent._C, CANN build (ASCEND_XENT_WITH_CANN): no simulator. Phase 2 queues the
// kernel on the caller's stream and returns, so the binding never owns the workspace
// (ascend_xent/_npu.py passes a torch_npu tensor and the current NPU stream) and
// last_launch_stats() reports the tiling only: no counters, no kernel time.
// See bindings_backend.h. Not yet run on hardware (docs/npu_guide.md).
#include <pybind11/pybind11.h>

#include <mutex>
#include <optional>
#include <string>

#include "ascend_xent/launch_info.h"
#include "bindings_backend.h"

namespace py = pybind11;

namespace xent_py {

namespace {

struct LastLaunch {
    bool valid = false;
    ascend_xent::LaunchInfo info{};
    double queueSeconds = 0.0;
};
std::mutex g_lastMutex;
LastLaunch g_last;

py::object last_launch_stats() {
    LastLaunch l;
    {
        std::lock_guard<std::mutex> lock(g_lastMutex);
        l = g_last;
    }
    if (!l.valid) return py::none();
    py::dict d = launch_info_dict(l.info);
    d["kernel"] = "cross_entropy_loss_grad";
    d["backend"] = "npu";
    d["block_dim"] = l.info.blockDim;
    // Host time of both phases: checks, tiling, queueing. Not the kernel's time (asynchronous).
    d["host_seconds"] = l.queueSeconds;
    return d;
}

}  // namespace

const char* backend_name() { return "cann"; }

bool binding_may_own_workspace() { return false; }

// Never called: without binding_may_own_workspace() the caller provides the workspace.
void* alloc_owned_workspace(uint64_t) { return nullptr; }
void free_owned_workspace(void*, uint64_t) {}

void record_launch(double wallSeconds) {
    ascend_xent::LaunchInfo info = ascend_xent::last_launch_info();
    std::lock_guard<std::mutex> lock(g_lastMutex);
    g_last.valid = true;
    g_last.info = info;
    g_last.queueSeconds = wallSeconds;
}

std::optional<std::string> backend_error_message(const std::exception&) { return std::nullopt; }

void register_backend(py::module_& m) { m.def("last_launch_stats", &last_launch_stats); }

}  // namespace xent_py

// pybind11 module ascend_xent._C: the Python face of the aclnn two-phase API.
//
// Tensors cross this boundary as plain descriptors
//     (data_ptr: int, dtype: str, shape: tuple[int], strides_in_elements: tuple[int])
// so that torch is never a build dependency. The binding wraps the caller's buffers
// in aclTensors (no copies), runs the two phases of aclnnXentCrossEntropyLossGrad (or
// of the forward, aclnnXentCrossEntropyLoss) with the GIL released, and maps a failed aclnn status
// to a Python exception carrying ascend-xent's message (xent_last_error_message()).
//
// This file is common to both builds of the module. Where the workspace and the stream
// come from:
//   launch=None      the binding allocates the workspace (host memory) and runs on the
//                    default stream; only where the launch is synchronous (the
//                    simulator build), see binding_may_own_workspace().
//   launch=callable  called with the GIL, between the phases, as
//                    launch(workspace_bytes) -> (workspace_ptr, stream); the caller owns
//                    both (ascend_xent/_npu.py: a torch_npu uint8 tensor and the current
//                    NPU stream). Required by the CANN build, where phase 2 only queues
//                    the kernel.
// What is build-specific (the simulator's API and statistics) is in bindings_sim.cpp or
// bindings_cann.cpp, behind bindings_backend.h.
//
// The Python layer (python/ascend_xent/_checks.py) validates arguments first with
// messages that name the Python arguments; what reaches here is already checked.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_cross_entropy_loss.h"
#include "aclnnop/aclnn_cross_entropy_loss_grad.h"
#include "aclnnop/aclnn_cross_entropy_loss_grad_shard.h"
#include "aclnnop/aclnn_cross_entropy_loss_with_grad.h"
#include "ascend_xent/launch_info.h"
#include "bindings_backend.h"
#include "error_report.h"  // xent_last_error_message

namespace py = pybind11;

#ifndef ASCEND_XENT_VERSION
#define ASCEND_XENT_VERSION "0.0.0"
#endif
#ifndef ASCEND_XENT_CXX_FLAGS
#define ASCEND_XENT_CXX_FLAGS ""
#endif
#ifndef ASCEND_XENT_BUILD_TYPE
#define ASCEND_XENT_BUILD_TYPE ""
#endif

namespace xent_py {

py::dict launch_info_dict(const ascend_xent::LaunchInfo& info) {
    py::dict d;
    d["mode"] = py::str(info.mode);
    d["tile_rows"] = info.tileRows;
    d["tile_cols"] = info.tileCols;
    d["row_tiles"] = info.rowTiles;
    d["col_tiles"] = info.colTiles;
    d["tiling_block_dim"] = info.blockDim;
    d["prologue"] = info.prologue;
    d["launches"] = info.launches;
    d["workspace_bytes"] = info.workspaceBytes;
    d["min_traffic_bytes"] = info.minTrafficBytes;
    d["ub_bytes"] = info.ubBytes;
    return d;
}

}  // namespace xent_py

namespace {

// ---------------------------------------------------------------------------------------
// Descriptors -> aclTensor
// ---------------------------------------------------------------------------------------
struct Desc {
    void* data = nullptr;
    aclDataType dtype = ACL_FLOAT;
    size_t itemBytes = 4;
    std::vector<int64_t> shape, strides;
    int64_t numel() const {
        int64_t n = 1;
        for (int64_t d : shape) n *= d;
        return n;
    }
};

aclDataType dtype_from_name(const std::string& name, size_t* bytes, const char* arg) {
    if (name == "float32") { *bytes = 4; return ACL_FLOAT; }
    if (name == "float16") { *bytes = 2; return ACL_FLOAT16; }
    if (name == "bfloat16") { *bytes = 2; return ACL_BF16; }
    if (name == "int32") { *bytes = 4; return ACL_INT32; }
    if (name == "int64") { *bytes = 8; return ACL_INT64; }
    throw py::type_error(std::string(arg) + ": unsupported dtype '" + name +
                         "' (expected float32, float16, bfloat16, int32 or int64)");
}

std::optional<Desc> parse_desc(const py::handle& obj, const char* arg) {
    if (obj.is_none()) return std::nullopt;
    auto t = py::reinterpret_borrow<py::tuple>(obj);
    if (t.size() != 4)
        throw py::type_error(std::string(arg) + ": expected a (data_ptr, dtype, shape, strides) descriptor");
    Desc d;
    d.data = reinterpret_cast<void*>(t[0].cast<uintptr_t>());
    d.dtype = dtype_from_name(t[1].cast<std::string>(), &d.itemBytes, arg);
    d.shape = t[2].cast<std::vector<int64_t>>();
    d.strides = t[3].cast<std::vector<int64_t>>();
    if (d.shape.size() != d.strides.size())
        throw py::value_error(std::string(arg) + ": shape and strides differ in length");
    for (int64_t s : d.shape)
        if (s < 0) throw py::value_error(std::string(arg) + ": negative dimension");
    if (d.data == nullptr && d.numel() > 0)
        throw py::value_error(std::string(arg) + ": null data pointer");
    return d;
}

struct TensorDeleter {
    void operator()(aclTensor* t) const {
        if (t) aclDestroyTensor(t);
    }
};
using TensorPtr = std::unique_ptr<aclTensor, TensorDeleter>;

// The tensor's memory is the caller's (host memory in the simulator build, device
// memory from torch_npu in the CANN build): aclCreateTensor copies no data.
TensorPtr make_tensor(const std::optional<Desc>& d, const char* arg) {
    if (!d) return TensorPtr(nullptr);
    static const int64_t kNoDims[1] = {0};
    const int64_t* dims = d->shape.empty() ? kNoDims : d->shape.data();
    const int64_t* strides = d->strides.empty() ? kNoDims : d->strides.data();
    aclTensor* t = aclCreateTensor(dims, d->shape.size(), d->dtype, strides, 0, ACL_FORMAT_ND,
                                   dims, d->shape.size(), d->data);
    if (!t) {
        const char* msg = aclGetRecentErrMsg();  // aclCreateTensor is acl_compat's or CANN's
        throw py::value_error(std::string(arg) + ": aclCreateTensor failed" +
                              (msg && *msg ? std::string(": ") + msg : std::string()));
    }
    return TensorPtr(t);
}

// ---------------------------------------------------------------------------------------
// Status -> Python exception
// ---------------------------------------------------------------------------------------
bool mentions_dtype(const std::string& msg) {
    std::string m = msg;
    for (auto& ch : m) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return m.find("dtype") != std::string::npos || m.find("data type") != std::string::npos;
}

[[noreturn]] void raise_status(const char* phase, aclnnStatus status, const std::string& message) {
    std::string msg = message.empty() ? "(no message)" : message;
    std::string text = std::string(phase) + " failed with status " + std::to_string(status) + ": " + msg;
    if (status == ACLNN_ERR_PARAM_NULLPTR || status == ACLNN_ERR_PARAM_INVALID) {
        if (mentions_dtype(msg)) throw py::type_error(text);
        throw py::value_error(text);
    }
    throw std::runtime_error(text);
}

// The message for a failed aclnn status, read on the failing thread: ascend-xent's own
// (op_host reports every failure through xent::ReportError), else whatever the acl layer
// has (in the CANN build, CANN's aclGetRecentErrMsg()).
std::string failure_message() {
    const char* ours = xent_last_error_message();
    if (ours && *ours) return ours;
    const char* acl = aclGetRecentErrMsg();
    return acl && *acl ? acl : "";
}

// The workspace the binding provides itself (launch=None): one grow-only buffer per
// calling thread, reused across calls as a caching device allocator would, so a
// launch does not pay for allocating its system-workspace reserve every time
// (the memory comes from the backend: alloc_owned_workspace). Freed when the thread ends.
class ThreadWorkspace {
public:
    ~ThreadWorkspace() {
        if (p_) xent_py::free_owned_workspace(p_, bytes_);
    }
    void* get(uint64_t bytes) {
        if (bytes <= bytes_) return p_;
        if (p_) xent_py::free_owned_workspace(p_, bytes_);
        bytes_ = 0;
        p_ = xent_py::alloc_owned_workspace(bytes);
        if (p_) bytes_ = bytes;
        return p_;
    }

private:
    void* p_ = nullptr;
    uint64_t bytes_ = 0;
};

using Phase2 = aclnnStatus (*)(void*, uint64_t, aclOpExecutor*, aclrtStream);

// Frees an executor whose phase 2 will not run with a workspace: phase 2 frees its
// executor on every path and, given no workspace, returns before launching anything.
// (The CANN build has no other way to free one; its refusal message goes to stderr there.)
void dispose_executor(Phase2 phase2, aclOpExecutor* executor) {
    (void)phase2(nullptr, 0, executor, nullptr);
    (void)xent_last_error_message();  // drop the "workspace" refusal it reported
}

struct RunResult {
    aclnnStatus status = ACLNN_SUCCESS;
    const char* phase = "";
    std::string message;  // failure_message() of a failed status
    std::string error;    // a C++ exception's text, e.g. a simulator violation
};

void check_launch_argument(const py::object& launch) {
    if (launch.is_none() && !xent_py::binding_may_own_workspace())
        throw py::value_error(
            "launch: this build of ascend_xent launches on an NPU (CANN) asynchronously; pass "
            "launch=callable(workspace_bytes) -> (workspace_ptr, stream) giving device memory "
            "and the stream to run on (ascend_xent does this for torch_npu tensors)");
    if (!launch.is_none() && !PyCallable_Check(launch.ptr()))
        throw py::type_error("launch: expected None or a callable(workspace_bytes) -> (workspace_ptr, stream)");
}

// Both phases of one operator, with the GIL released while they run: phase1(&wsSize,
// &executor) returns its status (its API is named phase1Name in errors); then the
// workspace and the stream, from the caller's launch callback (with the GIL) or the
// binding's own; then phase 2, which frees the executor.
template <class Phase1>
void run_phases(const char* phase1Name, const Phase1& phase1, const char* phase2Name, Phase2 phase2,
                const py::object& launch) {
    RunResult r;
    double wall = 0.0;
    uint64_t wsSize = 0;
    aclOpExecutor* executor = nullptr;

    // Phase 1: checks and tiling, on the host.
    {
        py::gil_scoped_release release;
        auto t0 = std::chrono::steady_clock::now();
        try {
            r.status = phase1(&wsSize, &executor);
            if (r.status != ACLNN_SUCCESS) {
                r.phase = phase1Name;
                r.message = failure_message();
            }
        } catch (const std::exception& e) {
            r.error = e.what();
        }
        wall += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    if (!r.error.empty()) throw std::runtime_error(r.error);
    if (r.status != ACLNN_SUCCESS) raise_status(r.phase, r.status, r.message);

    // The workspace and the stream: from the caller (with the GIL), or the binding's own.
    void* workspace = nullptr;
    aclrtStream stream = nullptr;
    if (!launch.is_none()) {
        try {
            py::object res = launch(wsSize);
            if (!py::isinstance<py::tuple>(res) || py::len(res) != 2)
                throw py::type_error("launch: expected the callable to return (workspace_ptr, stream)");
            auto pair = res.cast<py::tuple>();
            workspace = reinterpret_cast<void*>(pair[0].cast<uintptr_t>());
            stream = reinterpret_cast<aclrtStream>(pair[1].cast<uintptr_t>());
            if (wsSize > 0 && workspace == nullptr)
                throw py::value_error("launch: returned a null workspace for " + std::to_string(wsSize) +
                                      " bytes");
        } catch (...) {
            dispose_executor(phase2, executor);
            throw;
        }
    }

    // Phase 2: the launch (synchronous on the simulator, queued on `stream` with CANN).
    {
        py::gil_scoped_release release;
        auto t0 = std::chrono::steady_clock::now();
        try {
            if (launch.is_none() && wsSize > 0) {
                static thread_local ThreadWorkspace owned;
                workspace = owned.get(wsSize);
                if (workspace == nullptr) {
                    dispose_executor(phase2, executor);
                    throw std::runtime_error("allocating a " + std::to_string(wsSize) +
                                             "-byte workspace failed");
                }
            }
            r.status = phase2(workspace, wsSize, executor, stream);  // frees executor
            wall += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            if (r.status != ACLNN_SUCCESS) {
                r.phase = phase2Name;
                r.message = failure_message();
            } else {
                xent_py::record_launch(wall);
            }
        } catch (const std::exception& e) {
            auto special = xent_py::backend_error_message(e);
            r.error = special ? *special : std::string(e.what());
        }
    }
    if (!r.error.empty()) throw std::runtime_error(r.error);
    if (r.status != ACLNN_SUCCESS) raise_status(r.phase, r.status, r.message);
}

struct NamedArg {
    py::handle obj;  // a descriptor tuple or None
    const char* name;
    bool required;
};

// The call's tensors, in order: every descriptor parsed (refused by name), the required
// ones present (else `missing`), the launch argument checked, then an aclTensor over
// each buffer (nullptr for None).
std::vector<TensorPtr> make_tensors(std::initializer_list<NamedArg> args, const char* missing,
                                    const py::object& launch) {
    std::vector<std::optional<Desc>> descs;
    bool absent = false;
    for (const NamedArg& a : args) {
        descs.push_back(parse_desc(a.obj, a.name));
        absent = absent || (a.required && !descs.back());
    }
    if (absent) throw py::value_error(missing);
    check_launch_argument(launch);
    std::vector<TensorPtr> tensors;
    size_t k = 0;
    for (const NamedArg& a : args) tensors.push_back(make_tensor(descs[k++], a.name));
    return tensors;
}

// The columns [offset, offset + C) of a count-class vocabulary (the shard API); count 0:
// the whole vocabulary (the vendor API).
struct ClassShard {
    int64_t offset = 0, count = 0;
};

void run_grad(py::object gradLoss, py::object logProb, py::object target, py::object weight,
              py::object gradZloss, py::object lseForZloss, const std::string& reduction,
              int64_t ignoreIndex, double labelSmoothing, double lseSquareScaleForZloss,
              py::object out, py::object launch, const ClassShard& shard) {
    // The caller's buffers are used as they are (no copies). In the simulator build,
    // op_host registers memory that is not aclrtMalloc'd as simulator GM for the
    // launch's duration.
    const std::vector<TensorPtr> t =
        make_tensors({{gradLoss, "grad_loss", true}, {logProb, "log_prob", true}, {target, "target", true},
                      {weight, "weight", false}, {gradZloss, "grad_zloss", false},
                      {lseForZloss, "lse_for_zloss", false}, {out, "out", true}},
                     "grad_loss, log_prob, target and out are required", launch);
    aclTensor *tGrad = t[0].get(), *tLogProb = t[1].get(), *tTarget = t[2].get(), *tWeight = t[3].get(),
              *tGradZ = t[4].get(), *tLse = t[5].get(), *tOut = t[6].get();

    std::vector<char> red(reduction.begin(), reduction.end());
    red.push_back('\0');
    const bool whole = shard.count == 0;
    run_phases(
        whole ? "aclnnXentCrossEntropyLossGradGetWorkspaceSize" : "aclnnXentCrossEntropyLossGradShardGetWorkspaceSize",
        [&](uint64_t* wsSize, aclOpExecutor** executor) {
            if (whole)
                return aclnnXentCrossEntropyLossGradGetWorkspaceSize(
                    tGrad, tLogProb, tTarget, tWeight, tGradZ, tLse, red.data(), ignoreIndex, labelSmoothing,
                    lseSquareScaleForZloss, tOut, wsSize, executor);
            return aclnnXentCrossEntropyLossGradShardGetWorkspaceSize(
                tGrad, tLogProb, tTarget, tWeight, tGradZ, tLse, red.data(), ignoreIndex, labelSmoothing,
                lseSquareScaleForZloss, shard.offset, shard.count, tOut, wsSize, executor);
        },
        "aclnnXentCrossEntropyLossGrad", &aclnnXentCrossEntropyLossGrad, launch);
}

void cross_entropy_loss_grad(py::object gradLoss, py::object logProb, py::object target,
                             py::object weight, py::object gradZloss, py::object lseForZloss,
                             const std::string& reduction, int64_t ignoreIndex,
                             double labelSmoothing, double lseSquareScaleForZloss,
                             py::object out, py::object launch) {
    run_grad(gradLoss, logProb, target, weight, gradZloss, lseForZloss, reduction, ignoreIndex,
             labelSmoothing, lseSquareScaleForZloss, out, launch, ClassShard{});
}

void cross_entropy_loss_grad_shard(py::object gradLoss, py::object logProb, py::object target,
                                   py::object weight, py::object gradZloss, py::object lseForZloss,
                                   const std::string& reduction, int64_t ignoreIndex,
                                   double labelSmoothing, double lseSquareScaleForZloss,
                                   int64_t classOffset, int64_t classCount, py::object out,
                                   py::object launch) {
    if (classCount < 1) throw py::value_error("class_count: expected >= 1, got " + std::to_string(classCount));
    run_grad(gradLoss, logProb, target, weight, gradZloss, lseForZloss, reduction, ignoreIndex,
             labelSmoothing, lseSquareScaleForZloss, out, launch, ClassShard{classOffset, classCount});
}

// The forward (rows: log_prob) or, fused, the loss and gradient (rows: grad).
void run_forward(py::object input, py::object target, py::object weight, const std::string& reduction,
                 int64_t ignoreIndex, double labelSmoothing, double lseSquareScaleForZloss, bool fused,
                 double softcap, py::object loss, py::object rows, py::object zloss, py::object lseForZloss,
                 py::object launch) {
    const char* rowsName = fused ? "grad" : "log_prob";
    const std::vector<TensorPtr> t =
        make_tensors({{input, "input", true}, {target, "target", true}, {weight, "weight", false},
                      {loss, "loss", true}, {rows, rowsName, true}, {zloss, "zloss", true},
                      {lseForZloss, "lse_for_zloss", true}},
                     fused ? "input, target, loss, grad, zloss and lse_for_zloss are required"
                           : "input, target, loss, log_prob, zloss and lse_for_zloss are required",
                     launch);
    std::vector<char> red(reduction.begin(), reduction.end());
    red.push_back('\0');
    run_phases(
        fused ? "aclnnXentCrossEntropyLossWithGradGetWorkspaceSize" : "aclnnXentCrossEntropyLossGetWorkspaceSize",
        [&](uint64_t* wsSize, aclOpExecutor** executor) {
            if (fused)
                return aclnnXentCrossEntropyLossWithGradGetWorkspaceSize(
                    t[0].get(), t[1].get(), t[2].get(), red.data(), ignoreIndex, labelSmoothing,
                    lseSquareScaleForZloss, softcap, t[3].get(), t[5].get(), t[6].get(), t[4].get(), wsSize,
                    executor);
            return aclnnXentCrossEntropyLossGetWorkspaceSize(
                t[0].get(), t[1].get(), t[2].get(), red.data(), ignoreIndex, labelSmoothing, lseSquareScaleForZloss,
                lseSquareScaleForZloss != 0.0, t[3].get(), t[4].get(), t[5].get(), t[6].get(), wsSize, executor);
        },
        fused ? "aclnnXentCrossEntropyLossWithGrad" : "aclnnXentCrossEntropyLoss",
        fused ? &aclnnXentCrossEntropyLossWithGrad : &aclnnXentCrossEntropyLoss, launch);
}

void cross_entropy_loss(py::object input, py::object target, py::object weight, const std::string& reduction,
                        int64_t ignoreIndex, double labelSmoothing, double lseSquareScaleForZloss, py::object loss,
                        py::object logProb, py::object zloss, py::object lseForZloss, py::object launch) {
    run_forward(input, target, weight, reduction, ignoreIndex, labelSmoothing, lseSquareScaleForZloss, false, 0.0,
                loss, logProb, zloss, lseForZloss, launch);
}

void cross_entropy_loss_with_grad(py::object input, py::object target, py::object weight,
                                  const std::string& reduction, int64_t ignoreIndex, double labelSmoothing,
                                  double lseSquareScaleForZloss, double softcap, py::object loss, py::object zloss,
                                  py::object lseForZloss, py::object grad, py::object launch) {
    run_forward(input, target, weight, reduction, ignoreIndex, labelSmoothing, lseSquareScaleForZloss, true, softcap,
                loss, grad, zloss, lseForZloss, launch);
}

py::dict build_info() {
    py::dict d;
    d["version"] = ASCEND_XENT_VERSION;
#if defined(__clang__)
    d["compiler"] = std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
    d["compiler"] = std::string("gcc ") + __VERSION__;
#else
    d["compiler"] = "unknown";
#endif
    d["cxx_flags"] = ASCEND_XENT_CXX_FLAGS;
    d["build_type"] = ASCEND_XENT_BUILD_TYPE;
#ifdef ASCEND_XENT_NATIVE_BUILD
    d["native"] = true;
#else
    d["native"] = false;
#endif
#ifdef ASCEND_XENT_SANITIZE_BUILD
    d["sanitize"] = true;
#else
    d["sanitize"] = false;
#endif
    d["backend"] = xent_py::backend_name();
    d["pybind11"] = std::to_string(PYBIND11_VERSION_MAJOR) + "." + std::to_string(PYBIND11_VERSION_MINOR) +
                    "." + std::to_string(PYBIND11_VERSION_PATCH);
    return d;
}

// Asks the kernel (Linux) for transparent huge pages in the 2 MiB-aligned interior of
// [addr, addr + bytes): for an output the package allocates itself (never a caller's
// buffer), before anything touched it. A large fresh output otherwise costs one page
// fault and one zeroed 4 KiB page per 4 KiB (bf16 4096 x 32000: ~50 ms of ~80);
// NumPy does the same for its own large arrays. False when nothing was advised.
bool advise_huge_pages(uintptr_t addr, uint64_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr uintptr_t kHuge = uintptr_t(2) << 20;
    const uintptr_t lo = (addr + kHuge - 1) & ~(kHuge - 1), hi = (addr + bytes) & ~(kHuge - 1);
    return hi > lo && madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE) == 0;
#else
    (void)addr;
    (void)bytes;
    return false;
#endif
}

// The first i of target[0, n) (host memory, contiguous int32 or int64) that is neither
// ignoreIndex nor in [0, c), with its value; None when every target is valid. One pass
// in C++ instead of the half dozen tensor operations (each a dispatch and a temporary)
// the same test costs in torch or NumPy, which dominated a small call's Python side.
py::object first_bad_target(uintptr_t addr, uint32_t itemBytes, int64_t n, int64_t c, int64_t ignoreIndex) {
    if (itemBytes != 4 && itemBytes != 8)
        throw py::value_error("first_bad_target: item size " + std::to_string(itemBytes) + " (expected 4 or 8)");
    if (n > 0 && addr == 0) throw py::value_error("first_bad_target: null data pointer");
    int64_t bad = -1, value = 0;
    {
        py::gil_scoped_release release;
        // Loads through memcpy: a NumPy or torch buffer may be unaligned (refused later, by
        // the aclnn checks, with a message naming target), and reading it is still defined.
        auto scan = [&](auto item) {
            const char* t = reinterpret_cast<const char*>(addr);
            for (int64_t i = 0; i < n; ++i) {
                std::memcpy(&item, t + i * sizeof item, sizeof item);
                const int64_t v = int64_t(item);
                if (v != ignoreIndex && (v < 0 || v >= c)) {
                    bad = i;
                    value = v;
                    return;
                }
            }
        };
        if (itemBytes == 4) scan(int32_t{});
        else scan(int64_t{});
    }
    if (bad < 0) return py::none();
    return py::make_tuple(bad, value);
}

}  // namespace

PYBIND11_MODULE(_C, m) {
    m.doc() = "ascend_xent native module: CrossEntropyLoss and CrossEntropyLossGrad (aclnn two-phase APIs)";

    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const std::invalid_argument& e) {
            PyErr_SetString(PyExc_ValueError, e.what());
        }
    });

    m.def("cross_entropy_loss_grad", &cross_entropy_loss_grad, py::arg("grad_loss"), py::arg("log_prob"),
          py::arg("target"), py::arg("weight"), py::arg("grad_zloss"), py::arg("lse_for_zloss"),
          py::arg("reduction"), py::arg("ignore_index"), py::arg("label_smoothing"),
          py::arg("lse_square_scale_for_zloss"), py::arg("out"), py::arg("launch") = py::none(),
          "Run aclnnXentCrossEntropyLossGrad over descriptor tuples (data_ptr, dtype, shape, strides); "
          "the GIL is released while the phases run. launch: None (the binding allocates the workspace; "
          "simulator build only) or a callable(workspace_bytes) -> (workspace_ptr, stream), called "
          "between the phases.");
    m.def("cross_entropy_loss_grad_shard", &cross_entropy_loss_grad_shard, py::arg("grad_loss"),
          py::arg("log_prob"), py::arg("target"), py::arg("weight"), py::arg("grad_zloss"),
          py::arg("lse_for_zloss"), py::arg("reduction"), py::arg("ignore_index"),
          py::arg("label_smoothing"), py::arg("lse_square_scale_for_zloss"), py::arg("class_offset"),
          py::arg("class_count"), py::arg("out"), py::arg("launch") = py::none(),
          "aclnnXentCrossEntropyLossGradShard: cross_entropy_loss_grad of the columns "
          "[class_offset, class_offset + C) of a class_count-class vocabulary (weight: the whole "
          "vocabulary's (class_count,); log_prob: the shard minus the whole row's logsumexp).");
    m.def("cross_entropy_loss", &cross_entropy_loss, py::arg("input"), py::arg("target"), py::arg("weight"),
          py::arg("reduction"), py::arg("ignore_index"), py::arg("label_smoothing"),
          py::arg("lse_square_scale_for_zloss"), py::arg("loss"), py::arg("log_prob"), py::arg("zloss"),
          py::arg("lse_for_zloss"), py::arg("launch") = py::none(),
          "Run aclnnXentCrossEntropyLoss (the forward) over descriptor tuples, writing loss, log_prob, "
          "zloss and lse_for_zloss; launch as for cross_entropy_loss_grad.");
    m.def("cross_entropy_loss_with_grad", &cross_entropy_loss_with_grad, py::arg("input"), py::arg("target"),
          py::arg("weight"), py::arg("reduction"), py::arg("ignore_index"), py::arg("label_smoothing"),
          py::arg("lse_square_scale_for_zloss"), py::arg("softcap"), py::arg("loss"), py::arg("zloss"),
          py::arg("lse_for_zloss"), py::arg("grad"), py::arg("launch") = py::none(),
          "Run aclnnXentCrossEntropyLossWithGrad (the fused loss and gradient) over descriptor tuples, "
          "writing loss, zloss, lse_for_zloss and grad (which may be input itself); launch as for "
          "cross_entropy_loss_grad.");
    m.def("build_info", &build_info);
    m.def("advise_huge_pages", &advise_huge_pages, py::arg("addr"), py::arg("bytes"),
          "madvise(MADV_HUGEPAGE) on the 2 MiB-aligned interior of a fresh host buffer the package owns.");
    m.def("first_bad_target", &first_bad_target, py::arg("addr"), py::arg("item_bytes"), py::arg("n"),
          py::arg("c"), py::arg("ignore_index"),
          "(index, value) of the first target in host memory [addr, addr + n * item_bytes) (contiguous "
          "int32/int64) that is neither ignore_index nor in [0, c); None if there is none.");
    m.attr("__version__") = ASCEND_XENT_VERSION;
    m.attr("BACKEND") = xent_py::backend_name();
    xent_py::register_backend(m);
}

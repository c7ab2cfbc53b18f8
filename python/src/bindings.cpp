// pybind11 module ascend_xent._C: the Python face of the aclnn two-phase API.
//
// Tensors cross this boundary as plain descriptors
//     (data_ptr: int, dtype: str, shape: tuple[int], strides_in_elements: tuple[int])
// so that torch is never a build dependency. The binding wraps the caller's buffers
// in aclTensors (no copies), runs aclnnCrossEntropyLossGradGetWorkspaceSize and
// aclnnCrossEntropyLossGrad with the GIL released, and maps a failed aclnn status
// to a Python exception carrying aclGetRecentErrMsg().
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
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_cross_entropy_loss_grad.h"
#include "ascend_sim/sim.h"
#include "ascend_xent/launch_info.h"

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
    // Bytes from data to one past the last element reachable through shape/strides.
    size_t spanBytes() const {
        if (numel() == 0) return 0;
        int64_t last = 0;
        for (size_t i = 0; i < shape.size(); ++i) last += (shape[i] - 1) * strides[i];
        return static_cast<size_t>(last + 1) * itemBytes;
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

TensorPtr make_tensor(const std::optional<Desc>& d, const char* arg) {
    if (!d) return TensorPtr(nullptr);
    static const int64_t kNoDims[1] = {0};
    const int64_t* dims = d->shape.empty() ? kNoDims : d->shape.data();
    const int64_t* strides = d->strides.empty() ? kNoDims : d->strides.data();
    aclTensor* t = aclCreateTensor(dims, d->shape.size(), d->dtype, strides, 0, ACL_FORMAT_ND,
                                   dims, d->shape.size(), d->data);
    if (!t) {
        const char* msg = aclGetRecentErrMsg();
        throw py::value_error(std::string(arg) + ": aclCreateTensor failed" +
                              (msg && *msg ? std::string(": ") + msg : std::string()));
    }
    return TensorPtr(t);
}

// ---------------------------------------------------------------------------------------
// The last launch, kept process-wide: a torch backward runs on autograd's own thread,
// while ascend_sim::last_launch_stats() is per calling thread.
// ---------------------------------------------------------------------------------------
struct LastLaunch {
    bool valid = false;
    ascend_sim::LaunchStats stats;
    ascend_xent::LaunchInfo info{};
    double wallSeconds = 0.0;
};
std::mutex g_lastMutex;
LastLaunch g_last;

// One launch at a time in this process: the simulator's GM registry is global and
// rejects overlapping regions, so two Python threads passing the same array (a
// shared weight, say) must not have it registered concurrently by op_host. The
// simulator already spreads one launch over all host threads, so nothing is lost.
std::mutex g_launchMutex;

template <typename T>
py::object to_py(const T& v) {
    if constexpr (std::is_enum_v<T>) {
        return py::int_(static_cast<int64_t>(v));
    } else if constexpr (std::is_same_v<T, const char*> || std::is_same_v<T, char*>) {
        return v ? py::str(v) : py::str("");
    } else {
        return py::cast(v);
    }
}

py::dict counters_dict(const ascend_sim::KernelCounters& c) {
    py::dict d;
    d["gm_read_bytes"] = c.gmReadBytes;
    d["gm_write_bytes"] = c.gmWriteBytes;
    d["dma_in"] = c.dmaIn;
    d["dma_out"] = c.dmaOut;
    d["scalar_gm_reads"] = c.scalarGmReads;
    d["scalar_gm_writes"] = c.scalarGmWrites;
    d["scalar_ub_reads"] = c.scalarUbReads;
    d["scalar_ub_writes"] = c.scalarUbWrites;
    d["vector_instructions"] = c.vectorInstructions;
    d["vector_repeats"] = c.vectorRepeats;
    d["ub_peak_bytes"] = c.ubPeakBytes;
    py::dict byOp;
    for (const auto& kv : c.vectorRepeatsByOp) byOp[py::str(kv.first)] = kv.second;
    d["vector_repeats_by_op"] = byOp;
    return d;
}

py::object last_launch_stats() {
    LastLaunch l;
    {
        std::lock_guard<std::mutex> lock(g_lastMutex);
        l = g_last;
    }
    if (!l.valid) return py::none();
    py::dict d;
    d["kernel"] = l.stats.kernel;
    d["soc"] = l.stats.soc;
    d["block_dim"] = l.stats.blockDim;
    d["blocks_used"] = l.stats.blocksUsed;
    d["host_threads"] = l.stats.hostThreads;
    d["mode"] = to_py(l.info.mode);
    d["tile_rows"] = to_py(l.info.tileRows);
    d["tile_cols"] = to_py(l.info.tileCols);
    d["row_tiles"] = to_py(l.info.rowTiles);
    d["col_tiles"] = to_py(l.info.colTiles);
    d["tiling_block_dim"] = to_py(l.info.blockDim);
    d["prologue"] = to_py(l.info.prologue);
    d["workspace_bytes"] = to_py(l.info.workspaceBytes);
    d["min_traffic_bytes"] = to_py(l.info.minTrafficBytes);
    d["ub_bytes"] = to_py(l.info.ubBytes);
    py::dict total = counters_dict(l.stats.total);
    for (auto item : total) d[item.first] = item.second;
    py::list perBlock;
    for (const auto& c : l.stats.perBlock) perBlock.append(counters_dict(c));
    d["per_block"] = perBlock;
    d["wall_seconds"] = l.wallSeconds;
    return d;
}

// ---------------------------------------------------------------------------------------
// Status -> Python exception
// ---------------------------------------------------------------------------------------
bool mentions_dtype(const std::string& msg) {
    std::string m = msg;
    for (auto& ch : m) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return m.find("dtype") != std::string::npos || m.find("data type") != std::string::npos;
}

[[noreturn]] void raise_status(const char* phase, aclnnStatus status) {
    const char* raw = aclGetRecentErrMsg();
    std::string msg = raw && *raw ? raw : "(no message)";
    std::string text = std::string(phase) + " failed with status " + std::to_string(status) + ": " + msg;
    if (status == ACLNN_ERR_PARAM_NULLPTR || status == ACLNN_ERR_PARAM_INVALID) {
        if (mentions_dtype(msg)) throw py::type_error(text);
        throw py::value_error(text);
    }
    throw std::runtime_error(text);
}

struct WorkspaceGuard {
    void* p = nullptr;
    ~WorkspaceGuard() {
        if (p) aclrtFree(p);
    }
};

struct RunResult {
    aclnnStatus status = ACLNN_SUCCESS;
    const char* phase = "";
    std::string error;  // a C++ exception's what(), e.g. a SimViolation
    bool simViolation = false;
};

void cross_entropy_loss_grad(py::object gradLoss, py::object logProb, py::object target,
                             py::object weight, py::object gradZloss, py::object lseForZloss,
                             const std::string& reduction, int64_t ignoreIndex,
                             double labelSmoothing, double lseSquareScaleForZloss,
                             py::object out) {
    auto dGrad = parse_desc(gradLoss, "grad_loss");
    auto dLogProb = parse_desc(logProb, "log_prob");
    auto dTarget = parse_desc(target, "target");
    auto dWeight = parse_desc(weight, "weight");
    auto dGradZ = parse_desc(gradZloss, "grad_zloss");
    auto dLse = parse_desc(lseForZloss, "lse_for_zloss");
    auto dOut = parse_desc(out, "out");
    if (!dGrad || !dLogProb || !dTarget || !dOut)
        throw py::value_error("grad_loss, log_prob, target and out are required");

    std::unique_lock<std::mutex> launchLock(g_launchMutex, std::defer_lock);
    {
        py::gil_scoped_release release;  // never wait for another launch while holding the GIL
        launchLock.lock();
    }

    // The caller's buffers are used as they are (no copies): op_host registers memory
    // that is not aclrtMalloc'd as simulator GM for the launch's duration.
    TensorPtr tGrad = make_tensor(dGrad, "grad_loss");
    TensorPtr tLogProb = make_tensor(dLogProb, "log_prob");
    TensorPtr tTarget = make_tensor(dTarget, "target");
    TensorPtr tWeight = make_tensor(dWeight, "weight");
    TensorPtr tGradZ = make_tensor(dGradZ, "grad_zloss");
    TensorPtr tLse = make_tensor(dLse, "lse_for_zloss");
    TensorPtr tOut = make_tensor(dOut, "out");

    std::vector<char> red(reduction.begin(), reduction.end());
    red.push_back('\0');

    RunResult r;
    double wall = 0.0;
    ascend_sim::LaunchStats stats;
    ascend_xent::LaunchInfo info{};
    {
        py::gil_scoped_release release;
        auto t0 = std::chrono::steady_clock::now();
        try {
            uint64_t wsSize = 0;
            aclOpExecutor* executor = nullptr;
            r.status = aclnnXentCrossEntropyLossGradGetWorkspaceSize(
                tGrad.get(), tLogProb.get(), tTarget.get(), tWeight.get(), tGradZ.get(), tLse.get(),
                red.data(), ignoreIndex, labelSmoothing, lseSquareScaleForZloss, tOut.get(), &wsSize,
                &executor);
            if (r.status != ACLNN_SUCCESS) {
                r.phase = "aclnnXentCrossEntropyLossGradGetWorkspaceSize";
            } else {
                WorkspaceGuard ws;
                if (wsSize > 0) {
                    aclError e = aclrtMalloc(&ws.p, wsSize, ACL_MEM_MALLOC_HUGE_FIRST);
                    if (e != ACL_SUCCESS || ws.p == nullptr)
                        throw std::runtime_error("aclrtMalloc of a " + std::to_string(wsSize) +
                                                 "-byte workspace failed");
                }
                r.status = aclnnXentCrossEntropyLossGrad(ws.p, wsSize, executor, nullptr);
                if (r.status != ACLNN_SUCCESS) {
                    r.phase = "aclnnXentCrossEntropyLossGrad";
                } else {
                    stats = ascend_sim::last_launch_stats();
                    info = ascend_xent::last_launch_info();
                }
            }
        } catch (const ascend_sim::SimViolation& e) {
            r.error = e.what();
            r.simViolation = true;
        } catch (const std::exception& e) {
            r.error = e.what();
        }
        wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    if (r.simViolation) throw std::runtime_error(std::string("simulator violation: ") + r.error);
    if (!r.error.empty()) throw std::runtime_error(r.error);
    if (r.status != ACLNN_SUCCESS) raise_status(r.phase, r.status);

    std::lock_guard<std::mutex> lock(g_lastMutex);
    g_last.valid = true;
    g_last.stats = std::move(stats);
    g_last.info = info;
    g_last.wallSeconds = wall;
}

// ---------------------------------------------------------------------------------------
// Profiles
// ---------------------------------------------------------------------------------------
py::dict profile_dict(const ascend_sim::SocProfile& p) {
    py::dict d;
    d["name"] = p.name;
    d["soc_version"] = p.socVersion;
    d["npu_arch"] = p.npuArch;
    d["vector_cores"] = p.vectorCores;
    d["ub_bytes"] = p.ubBytes;
    d["lib_api_workspace_bytes"] = p.libApiWorkspaceBytes;
    d["hbm_bytes_per_sec"] = p.hbmBytesPerSec;
    d["clock_hz"] = p.clockHz;
    d["vector_bytes_per_cycle"] = p.vectorBytesPerCycle;
    return d;
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
    d["backend"] = "sim";
    d["pybind11"] = std::to_string(PYBIND11_VERSION_MAJOR) + "." + std::to_string(PYBIND11_VERSION_MINOR) +
                    "." + std::to_string(PYBIND11_VERSION_PATCH);
    return d;
}

}  // namespace

PYBIND11_MODULE(_C, m) {
    m.doc() = "ascend_xent native module: CrossEntropyLossGrad (aclnn API) on the Ascend C simulator";

    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const ascend_sim::SimViolation& e) {
            PyErr_SetString(PyExc_RuntimeError, (std::string("simulator violation: ") + e.what()).c_str());
        } catch (const std::invalid_argument& e) {
            PyErr_SetString(PyExc_ValueError, e.what());
        }
    });

    m.def("cross_entropy_loss_grad", &cross_entropy_loss_grad, py::arg("grad_loss"), py::arg("log_prob"),
          py::arg("target"), py::arg("weight"), py::arg("grad_zloss"), py::arg("lse_for_zloss"),
          py::arg("reduction"), py::arg("ignore_index"), py::arg("label_smoothing"),
          py::arg("lse_square_scale_for_zloss"), py::arg("out"),
          "Run aclnnCrossEntropyLossGrad over descriptor tuples (data_ptr, dtype, shape, strides); "
          "the GIL is released while it runs.");
    m.def("profiles", []() {
        py::list l;
        for (const auto& p : ascend_sim::profiles()) l.append(profile_dict(p));
        return l;
    });
    m.def("current_profile", []() { return profile_dict(ascend_sim::current_profile()); });
    m.def("set_soc", [](std::optional<std::string> name) {
        // "" (None) restores ASCEND_XENT_SOC or the simulator's default.
        ascend_sim::set_soc(name ? *name : std::string());
    }, py::arg("name"));
    m.def("set_cores", [](uint32_t n) { ascend_sim::set_cores(n); }, py::arg("n"));
    m.def("set_threads", [](uint32_t n) { ascend_sim::set_threads(n); }, py::arg("n"));
    m.def("host_threads", []() { return ascend_sim::host_threads(); });
    m.def("last_launch_stats", &last_launch_stats);
    m.def("build_info", &build_info);
    m.attr("__version__") = ASCEND_XENT_VERSION;
}

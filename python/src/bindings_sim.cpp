// ascend_xent._C, simulator build: the simulated SoC (profiles, set_soc/cores/threads),
// the simulator's launch counters and its violations. See bindings_backend.h.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>

#include "ascend_sim/sim.h"
#include "ascend_sim/timing.h"
#include "ascend_xent/launch_info.h"
#include "bindings_backend.h"

namespace py = pybind11;

namespace xent_py {

namespace {

// The last launch, kept process-wide: a torch backward runs on autograd's own thread,
// while ascend_sim::last_launch_stats() is per calling thread.
struct LastLaunch {
    bool valid = false;
    ascend_sim::LaunchStats stats;  // the main (last) kernel's, its total summed over the call's launches
    ascend_xent::LaunchInfo info{};
    std::vector<ascend_sim::LaunchTiming> timings;  // each kernel launch of the call, in order (valid when timed)
    double wallSeconds = 0.0;
};
std::mutex g_lastMutex;
LastLaunch g_last;

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
    for (auto item : launch_info_dict(l.info)) d[item.first] = item.second;
    py::dict total = counters_dict(l.stats.total);
    for (auto item : total) d[item.first] = item.second;
    py::list perBlock;
    for (const auto& c : l.stats.perBlock) perBlock.append(counters_dict(c));
    d["per_block"] = perBlock;
    d["wall_seconds"] = l.wallSeconds;
    // The timing model's records, as ASCEND_XENT_PROFILE writes them (ascend_xent.sim decodes
    // them): "timing" the last (main) kernel's, "timings" every launch's of the call.
    const bool timed = !l.timings.empty() && l.timings.back().valid;
    d["timing"] = timed ? py::object(py::str(ascend_sim::profile_json(l.timings.back()))) : py::none();
    py::list timings;
    if (timed)
        for (const auto& t : l.timings) timings.append(py::str(ascend_sim::profile_json(t)));
    d["timings"] = timed ? py::object(timings) : py::none();
    return d;
}

py::dict profile_dict(const ascend_sim::SocProfile& p) {
    py::dict d;
    d["name"] = p.name;
    d["soc_version"] = p.socVersion;
    d["npu_arch"] = p.npuArch;
    d["vector_cores"] = p.vectorCores;
    d["ub_bytes"] = p.ubBytes;
    d["lib_api_workspace_bytes"] = p.libApiWorkspaceBytes;
    d["l2_bytes"] = p.l2Bytes;
    return d;
}

}  // namespace

const char* backend_name() { return "sim"; }

bool binding_may_own_workspace() { return true; }  // the simulator's launch is synchronous

// Host memory that the launch registers as simulator GM (caller memory, like the
// tensors). The workspace starts with the profile's lib-API (system) reserve, which
// this kernel never touches: left as untouched anonymous pages it is never resident
// (aclrtMalloc'd simulator GM is filled with 0xFF, which made all 16 MiB of it
// resident). The rest, the user workspace, reads as 0xFF until written, as
// uninitialised aclrtMalloc memory does.
void* alloc_owned_workspace(uint64_t bytes) {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return nullptr;
    const uint64_t reserve = std::min<uint64_t>(bytes, ascend_sim::current_profile().libApiWorkspaceBytes);
    std::memset(static_cast<uint8_t*>(p) + reserve, 0xFF, bytes - reserve);
    return p;
}

void free_owned_workspace(void* p, uint64_t bytes) { munmap(p, bytes); }

void record_launch(double wallSeconds) {
    ascend_sim::LaunchStats stats = ascend_sim::last_launch_stats();
    ascend_xent::LaunchInfo info = ascend_xent::last_launch_info();
    const size_t launches = static_cast<size_t>(std::max<int64_t>(info.launches, 1));
    std::vector<ascend_sim::LaunchTiming> timings = ascend_sim::recent_launch_timings(launches);
    stats.total = ascend_sim::KernelCounters{};
    for (const auto& c : ascend_sim::recent_launch_totals(launches)) stats.total += c;
    std::lock_guard<std::mutex> lock(g_lastMutex);
    g_last.timings = std::move(timings);
    g_last.valid = true;
    g_last.stats = std::move(stats);
    g_last.info = info;
    g_last.wallSeconds = wallSeconds;
}

std::optional<std::string> backend_error_message(const std::exception& e) {
    if (dynamic_cast<const ascend_sim::SimViolation*>(&e))
        return std::string("simulator violation: ") + e.what();
    return std::nullopt;
}

void register_backend(py::module_& m) {
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const ascend_sim::SimViolation& e) {
            PyErr_SetString(PyExc_RuntimeError, (std::string("simulator violation: ") + e.what()).c_str());
        }
    });
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
    m.def("set_auto_sync", [](int on) { ascend_sim::set_auto_sync(on); }, py::arg("on"));
    m.def("set_timing", [](int on) { ascend_sim::set_timing(on); }, py::arg("on"));
    m.def("timing_params", [](const std::string& soc) {
        const ascend_sim::TimingParams p = ascend_sim::timing_params(soc);
        py::dict d;
        d["clock_hz"] = p.clockHz;
        d["hbm_bytes_per_cycle"] = p.hbmBytesPerCycle;
        d["l2_bytes_per_cycle"] = p.l2BytesPerCycle;
        d["core_read_bytes_per_cycle"] = p.coreReadBytesPerCycle;
        d["core_l2_read_bytes_per_cycle"] = p.coreL2ReadBytesPerCycle;
        d["core_write_bytes_per_cycle"] = p.coreWriteBytesPerCycle;
        d["read_latency_cycles"] = p.readLatencyCycles;
        d["dma_issue_cycles"] = p.dmaIssueCycles;
        d["write_back_factor"] = p.writeBackFactor;
        d["vec_issue_cycles"] = p.vecIssueCycles;
        d["scalar_issue_cycles"] = p.scalarIssueCycles;
        d["scalar_ub_cycles"] = p.scalarUbCycles;
        d["scalar_gm_cycles"] = p.scalarGmCycles;
        d["sync_all_cycles"] = p.syncAllCycles;
        d["launch_us"] = p.launchUs;
        d["launch_us_per_block"] = p.launchUsPerBlock;
        d["l2_bytes"] = p.l2Bytes;
        d["l2_line_bytes"] = p.l2LineBytes;
        return d;
    }, py::arg("soc"));
    m.def("timing_enabled", []() { return ascend_sim::timing_enabled(); });
    m.def("host_threads", []() { return ascend_sim::host_threads(); });
    m.def("last_launch_stats", &last_launch_stats);
}

}  // namespace xent_py

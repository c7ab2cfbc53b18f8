// The timing model's switches and outputs: whether launches are timed, the last
// launch's traces and timing, the msprof-style profile line (ASCEND_XENT_PROFILE)
// and the Chrome trace (ASCEND_XENT_TRACE).
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "recent_launches.h"
#include "timing_trace.h"

namespace ascend_sim {

namespace {
std::atomic<int> g_timing{-1};  // -1: the environment decides

const char* env(const char* name) {
    const char* v = std::getenv(name);
    return v && *v ? v : nullptr;
}

thread_local std::shared_ptr<TimingRecording> t_lastRec;  // the newest timed launch's recording
thread_local detail::RecentLaunches<LaunchTiming> t_recent;

std::mutex g_fileMu;

void append_line(const char* path, const std::string& line) {
    std::lock_guard<std::mutex> lk(g_fileMu);
    FILE* f = std::fopen(path, "a");
    if (!f) throw std::runtime_error(std::string("[ascend_sim] ASCEND_XENT_PROFILE: cannot open ") + path);
    std::fputs(line.c_str(), f);
    std::fputc('\n', f);
    std::fclose(f);
}

void write_file(const char* path, const std::string& text) {
    std::lock_guard<std::mutex> lk(g_fileMu);
    FILE* f = std::fopen(path, "w");
    if (!f) throw std::runtime_error(std::string("[ascend_sim] ASCEND_XENT_TRACE: cannot open ") + path);
    std::fputs(text.c_str(), f);
    std::fclose(f);
}

std::string json_string(const std::string& s) {
    std::string o = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') o += '\\';
        if (uint8_t(c) < 0x20) continue;
        o += c;
    }
    return o + "\"";
}

void pipe_fields(std::ostringstream& o, const PipeTimes& t, double aiv) {
    const auto ratio = [&](double x) { return aiv > 0 ? x / aiv : 0.0; };
    o << "\"aiv_vec_time_us\": " << t.vec << ", \"aiv_scalar_time_us\": " << t.scalar
      << ", \"aiv_mte2_time_us\": " << t.mte2 << ", \"aiv_mte3_time_us\": " << t.mte3
      << ", \"aiv_vec_ratio\": " << ratio(t.vec) << ", \"aiv_scalar_ratio\": " << ratio(t.scalar)
      << ", \"aiv_mte2_ratio\": " << ratio(t.mte2) << ", \"aiv_mte3_ratio\": " << ratio(t.mte3);
}

const char* kPipeName[] = {"scalar", "vector (V)", "MTE2 (GM->UB)", "MTE3 (UB->GM)"};
}  // namespace

void set_timing(int on) {
    if (on < -1 || on > 1) throw std::invalid_argument("[ascend_sim] set_timing(" + std::to_string(on) + "): not -1, 0 or 1");
    g_timing = on;
}

bool timing_enabled() {
    const int v = g_timing.load();
    if (v >= 0) return v == 1;
    if (env("ASCEND_XENT_PROFILE") || env("ASCEND_XENT_TRACE")) return true;
    const char* e = env("ASCEND_XENT_TIMING");
    if (!e) return false;
    const std::string s(e);
    if (s == "1") return true;
    if (s == "0") return false;
    throw std::invalid_argument("[ascend_sim] ASCEND_XENT_TIMING=" + s + " is not 0 or 1");
}

LaunchTiming last_launch_timing() { return t_recent.empty() ? LaunchTiming{} : t_recent.newest(); }

std::vector<LaunchTiming> recent_launch_timings(size_t n) { return t_recent.last(n); }

std::shared_ptr<const TimingRecording> last_launch_recording() { return t_lastRec; }

LaunchTiming retime(const TimingRecording& r, const TimingParams& p) {
    // A rate or clock of zero would divide to inf, a negative cost run time backwards.
    const auto need = [](double v, bool positive, const char* name) {
        if (!std::isfinite(v) || v < 0 || (positive && v == 0))
            throw std::invalid_argument(std::string("[ascend_sim] retime: TimingParams::") + name + " = " +
                                        std::to_string(v) + " is not " + (positive ? "a finite value > 0" : "a finite value >= 0"));
    };
    need(p.clockHz, true, "clockHz");
    need(p.hbmBytesPerCycle, true, "hbmBytesPerCycle");
    need(p.l2BytesPerCycle, true, "l2BytesPerCycle");
    need(p.coreReadBytesPerCycle, true, "coreReadBytesPerCycle");
    need(p.coreL2ReadBytesPerCycle, true, "coreL2ReadBytesPerCycle");
    need(p.coreWriteBytesPerCycle, true, "coreWriteBytesPerCycle");
    need(p.readLatencyCycles, false, "readLatencyCycles");
    need(p.dmaIssueCycles, false, "dmaIssueCycles");
    need(p.writeBackFactor, false, "writeBackFactor");
    need(p.vecIssueCycles, false, "vecIssueCycles");
    need(p.scalarIssueCycles, false, "scalarIssueCycles");
    need(p.scalarUbCycles, false, "scalarUbCycles");
    need(p.scalarGmCycles, false, "scalarGmCycles");
    need(p.syncAllCycles, false, "syncAllCycles");
    need(p.launchUs, false, "launchUs");
    need(p.launchUsPerBlock, false, "launchUsPerBlock");
    if (p.l2LineBytes == 0) throw std::invalid_argument("[ascend_sim] retime: TimingParams::l2LineBytes = 0 is not > 0");
    return detail::replay(r.traces, p, r.kernel, r.soc, nullptr);
}

std::string profile_json(const LaunchTiming& t) {
    std::ostringstream o;
    o.precision(9);
    o << "{\"kernel\": " << json_string(t.kernel) << ", \"soc\": " << json_string(t.soc)
      << ", \"block_dim\": " << t.blockDim << ", \"task_duration_us\": " << t.taskDurationUs
      << ", \"aiv_time_us\": " << t.aivTimeUs << ", ";
    pipe_fields(o, t.busy, t.aivTimeUs);
    o << ", \"l2_hit_bytes\": " << t.l2HitBytes << ", \"hbm_read_bytes\": " << t.hbmReadBytes
      << ", \"hbm_write_back_bytes\": " << t.hbmWriteBackBytes << ", \"blocks\": [";
    for (size_t i = 0; i < t.blocks.size(); ++i) {
        o << (i ? ", " : "") << "{\"block\": " << i << ", \"aiv_time_us\": " << t.blocks[i].aivTimeUs << ", ";
        pipe_fields(o, t.blocks[i].busy, t.blocks[i].aivTimeUs);
        o << "}";
    }
    o << "]}";
    return o.str();
}

std::string chrome_trace_json_last_launch() {
    if (!t_lastRec) return "{\"traceEvents\": []}";
    const TimingRecording& r = *t_lastRec;
    std::vector<detail::TraceInterval> iv;
    const TimingParams p = timing_params(r.soc);
    detail::replay(r.traces, p, r.kernel, r.soc, &iv);
    std::ostringstream o;
    o.precision(9);
    const double toUs = 1e6 / p.clockHz;
    o << "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [";
    bool first = true;
    const auto sep = [&] {
        if (!first) o << ",\n";
        first = false;
    };
    for (size_t b = 0; b < r.traces.size(); ++b) {
        sep();
        o << "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": " << b << ", \"args\": {\"name\": \"block " << b
          << "\"}}";
        for (int q = 0; q < detail::P_COUNT; ++q) {
            sep();
            o << "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": " << b << ", \"tid\": " << q
              << ", \"args\": {\"name\": \"" << kPipeName[q] << "\"}}";
        }
    }
    for (const detail::TraceInterval& v : iv) {
        sep();
        o << "{\"ph\": \"X\", \"name\": " << json_string(v.api ? v.api : "?") << ", \"pid\": " << v.block
          << ", \"tid\": " << int(v.pipe) << ", \"ts\": " << v.start * toUs << ", \"dur\": " << (v.end - v.start) * toUs
          << "}";
    }
    o << "]}\n";
    return o.str();
}

namespace detail {

void timing_launch_end(std::vector<TimingTrace>&& traces, const std::string& kernel, const std::string& soc) {
    for (TimingTrace& t : traces)
        if (t.pendingUb | t.pendingGm) t.flush_scalar();
    t_lastRec = std::make_shared<TimingRecording>(TimingRecording{std::move(traces), kernel, soc});
    t_recent.push(replay(t_lastRec->traces, timing_params(soc), kernel, soc, nullptr));
    if (const char* path = env("ASCEND_XENT_PROFILE")) append_line(path, profile_json(t_recent.newest()));
    if (const char* path = env("ASCEND_XENT_TRACE")) write_file(path, chrome_trace_json_last_launch());
}

void timing_launch_untimed() {
    t_lastRec.reset();
    t_recent.push(LaunchTiming{});
}

}  // namespace detail
}  // namespace ascend_sim

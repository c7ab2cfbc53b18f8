// SoC profiles and the run-time settings (SoC, core count, host threads, initcheck,
// over-reads, auto-sync).
// Setters win over the environment; both are read at each query.
#include <atomic>
#include <cstdlib>
#include <mutex>
#include <thread>

#include "ascend_sim/sim.h"

namespace ascend_sim {

namespace {
constexpr uint64_t KiB = 1024, MiB = 1024 * KiB;

std::vector<SocProfile> make_profiles() {
    // UB: 192 KiB less the 8 KiB API reserve (2201); 248 KiB = ASC_UB_SIZE (3510).
    const uint64_t ubA2 = 192 * KiB - 8 * KiB;
    // L2: Ascend910B2.ini l2_size (hicann/runtime); 950: 128 MB (asc-devkit data_copy guide).
    const uint64_t l2A2 = 192 * MiB;
    return {
        {"ascend910b", "Ascend910B2", 2201, 48, ubA2, 16 * MiB, l2A2},
        {"ascend910b3", "Ascend910B3", 2201, 40, ubA2, 16 * MiB, l2A2},
        {"ascend910b4", "Ascend910B4", 2201, 40, ubA2, 16 * MiB, l2A2},
        {"ascend910_93", "Ascend910_9392", 2201, 48, ubA2, 16 * MiB, l2A2},
        {"ascend950", "Ascend950", 3510, 64, 248 * KiB, 16 * MiB, 128 * MiB},
    };
}

std::mutex g_mu;
std::string g_soc;                  // "" = env or default
std::atomic<uint32_t> g_cores{0};   // 0 = env or profile
std::atomic<uint32_t> g_threads{0}; // 0 = env or hardware
std::atomic<int> g_initcheck{-1};   // -1 = env or warn
std::atomic<int> g_past_tensor{-1};    // -1 = env or warn
std::atomic<int> g_same_bytes_race{-1};  // -1 = env or warn
std::atomic<int> g_auto_sync{-1};   // -1 = env or on
std::atomic<int> g_continue{-1};    // -1 = env or off

uint32_t env_u32(const char* name) {
    const char* v = std::getenv(name);
    if (!v || !*v) return 0;
    char* end = nullptr;
    const unsigned long x = std::strtoul(v, &end, 10);
    if (*end != '\0' || x == 0 || x > 65535)
        throw std::invalid_argument(std::string("[ascend_sim] ") + name + "=" + v + " is not a count in [1, 65535]");
    return uint32_t(x);
}

const SocProfile& find(const std::string& name) {
    for (const auto& p : profiles())
        if (p.name == name) return p;
    std::string known;
    for (const auto& p : profiles()) known += (known.empty() ? "" : ", ") + p.name;
    throw std::invalid_argument("[ascend_sim] unknown SoC profile \"" + name + "\" (known: " + known + ")");
}
}  // namespace

const std::vector<SocProfile>& profiles() {
    static const std::vector<SocProfile> p = make_profiles();
    return p;
}

SocProfile current_profile() {
    std::string name;
    {
        std::lock_guard<std::mutex> lk(g_mu);
        name = g_soc;
    }
    if (name.empty()) {
        const char* e = std::getenv("ASCEND_XENT_SOC");
        name = (e && *e) ? e : "ascend910b";
    }
    SocProfile p = find(name);
    uint32_t cores = g_cores.load();
    if (!cores) cores = env_u32("ASCEND_XENT_CORES");
    if (cores) p.vectorCores = cores;
    return p;
}

void set_soc(const std::string& name) {
    if (!name.empty()) find(name);  // validates
    std::lock_guard<std::mutex> lk(g_mu);
    g_soc = name;
}

void set_cores(uint32_t n) {
    if (n > 65535) throw std::invalid_argument("[ascend_sim] set_cores: " + std::to_string(n) + " is over 65535");
    g_cores = n;
}

void set_threads(uint32_t n) { g_threads = n; }

namespace {
thread_local uint32_t t_threadCap = 0;  // ScopedHostThreadCap's; 0: none
}  // namespace

ScopedHostThreadCap::ScopedHostThreadCap(uint32_t cap) : saved_(t_threadCap) { t_threadCap = cap; }
ScopedHostThreadCap::~ScopedHostThreadCap() { t_threadCap = saved_; }

uint32_t host_threads() {
    uint32_t n = g_threads.load();
    if (!n) n = env_u32("ASCEND_XENT_THREADS");
    // Read once: it reads sysfs, which cost a small launch ~5 us.
    static const uint32_t cpus = std::thread::hardware_concurrency();
    if (!n) n = cpus;
    if (t_threadCap && n > t_threadCap) n = t_threadCap;
    return n ? n : 1;
}

namespace {
// A switch that is `dflt` unless set_*() or the variable ("0" or "1") says otherwise.
bool switch_enabled(const std::atomic<int>& set, const char* var, bool dflt = true) {
    const int v = set.load();
    if (v >= 0) return v == 1;
    const char* e = std::getenv(var);
    if (!e || !*e) return dflt;
    const std::string s(e);
    if (s == "1") return true;
    if (s == "0") return false;
    throw std::invalid_argument(std::string("[ascend_sim] ") + var + "=" + s + " is not 0 or 1");
}
}  // namespace

namespace {
// A report level that is `set` unless -1, else the variable's (0, 1 or warn, error), else 1 (warn).
int level(const std::atomic<int>& set, const char* var) {
    const int v = set.load();
    if (v >= 0) return v;
    const char* e = std::getenv(var);
    if (!e || !*e) return 1;
    const std::string s(e);
    if (s == "0") return 0;
    if (s == "1" || s == "warn") return 1;
    if (s == "error") return 2;
    throw std::invalid_argument(std::string("[ascend_sim] ") + var + "=" + s + " is not 0, 1, warn or error");
}
void set_level(std::atomic<int>& to, const char* fn, int mode) {
    if (mode > 2) throw std::invalid_argument(std::string("[ascend_sim] ") + fn + "(" + std::to_string(mode) + "): not -1, 0, 1 or 2");
    to = mode < 0 ? -1 : mode;
}
}  // namespace

void set_initcheck(int mode) { set_level(g_initcheck, "set_initcheck", mode); }
int initcheck_mode() { return level(g_initcheck, "ASCEND_XENT_INITCHECK"); }
void set_past_tensor(int mode) { set_level(g_past_tensor, "set_past_tensor", mode); }
int past_tensor_mode() { return level(g_past_tensor, "ASCEND_XENT_PAST_TENSOR"); }
void set_same_bytes_race(int mode) { set_level(g_same_bytes_race, "set_same_bytes_race", mode); }
int same_bytes_race_mode() { return level(g_same_bytes_race, "ASCEND_XENT_SAME_BYTES_RACE"); }
bool initcheck_enabled() { return initcheck_mode() != 0; }

void set_auto_sync(int on) { g_auto_sync = on < 0 ? -1 : (on ? 1 : 0); }
bool auto_sync_enabled() { return switch_enabled(g_auto_sync, "ASCEND_XENT_AUTO_SYNC"); }

void set_continue_on_report(int on) { g_continue = on < 0 ? -1 : (on ? 1 : 0); }
bool continue_on_report_enabled() { return switch_enabled(g_continue, "ASCEND_XENT_CONTINUE_ON_REPORT", false); }

}  // namespace ascend_sim

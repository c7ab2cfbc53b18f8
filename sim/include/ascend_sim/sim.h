// Host-side API of the simulator (namespace ascend_sim): SoC profiles and
// settings, GM regions, kernel launch, launch statistics and SimViolation,
// the exception every check throws. Used by op_host, the Python binding, the
// CPU-twin launcher (tikicpulib.h) and the tests.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace ascend_sim {

// ---- SoC profiles -----------------------------------------------------------

struct SocProfile {
    std::string name;                // "ascend910b", ...
    std::string socVersion;          // CANN's SOC_VERSION, e.g. "Ascend910B2"
    uint32_t npuArch;                // __NPU_ARCH__: 2201 (A2, A3), 3510 (950)
    uint32_t vectorCores;            // AIV count, what GetCoreNumAiv() returns
    uint64_t ubBytes;                // UB below TMP_UB_OFFSET (the APIs' scratch above it on the device): what a tiling plans with; InitBuffer may use 8 KiB more
    uint64_t libApiWorkspaceBytes;   // GetLibApiWorkSpaceSize(): 16 MiB
    uint64_t l2Bytes;                // the L2 cache (GetCoreMemSize(L2))
};

const std::vector<SocProfile>& profiles();
// The profile in force: set_soc() > ASCEND_XENT_SOC > "ascend910b"; its core
// count overridden by set_cores() > ASCEND_XENT_CORES.
SocProfile current_profile();
void set_soc(const std::string& name);  // std::invalid_argument on an unknown name
void set_cores(uint32_t n);             // 0 = the profile's count
void set_threads(uint32_t n);           // 0 = ASCEND_XENT_THREADS or all host cores
uint32_t host_threads();                // the above, at most a ScopedHostThreadCap of this thread
// While alive, launches made by the constructing thread use at most `cap` host
// threads (0: no cap). For a launcher that knows a launch is too small to gain from
// a second thread (waking it and meeting it at SyncAll cost more than its work).
class ScopedHostThreadCap {
public:
    explicit ScopedHostThreadCap(uint32_t cap);
    ~ScopedHostThreadCap();
    ScopedHostThreadCap(const ScopedHostThreadCap&) = delete;
    ScopedHostThreadCap& operator=(const ScopedHostThreadCap&) = delete;

private:
    uint32_t saved_;
};
// The uninitialised-UB-read check (initcheck), read at each launch: 0 off; 1 a
// warning printed once per API and operand (the default: the real implementation has
// no such rule); 2 an error that stops the launch (or is listed, under continue on
// report). set_initcheck(0 / 1 / 2) > ASCEND_XENT_INITCHECK (0, 1 or warn, error) > 1.
// -1 = back to env/default.
void set_initcheck(int mode);
int initcheck_mode();
bool initcheck_enabled();  // mode != 0
// An access past its tensor's end in memory that exists, read at each launch: a vector
// source read past its LocalTensor inside UB (the instruction reads whole repeats), a
// dst written past it inside UB (a count form's count beyond its dst, a repeated form's
// last repeat), a GM access past its GlobalTensor's SetGlobalBuffer size inside its
// allocation. The
// real implementation has no such rule: 0 not reported; 1 a warning printed once per
// API and operand (the default); 2 an error that stops the launch (or is listed, under
// continue on report). An access outside UB or outside every GM allocation always stops.
// set_past_tensor(0 / 1 / 2) > ASCEND_XENT_PAST_TENSOR (0, 1 or warn, error) > 1.
// -1 = back to env/default.
void set_past_tensor(int mode);
int past_tensor_mode();
// An inter-block GM race of two plain writes that leave the same bytes wherever both
// write (every block's InitOutput of one output): the GM holds the same bytes in either
// order, so the result does not depend on it (msSanitizer's racecheck compares no
// values and lists the pair as a potential WAW hazard). A race of different bytes
// always stops. Read at each launch: 0 not reported; 1 a warning printed once per
// site (the default); 2 an error that stops the launch (or is listed, under continue
// on report). set_same_bytes_race(0 / 1 / 2) > ASCEND_XENT_SAME_BYTES_RACE (0, 1 or
// warn, error) > 1. -1 = back to env/default.
void set_same_bytes_race(int mode);
int same_bytes_race_mode();
// What the hazard checker assumes the compiler inserted, read at each launch:
// on = --cce-auto-sync=on, CANN's default for kernel-launch and custom-operator
// builds (V->V barriers and the syncs between PIPE_S tensor accesses and V, MTE2,
// MTE3 are the compiler's); off = --cce-auto-sync=off (every sync is the kernel's).
// set_auto_sync(1 / 0) > ASCEND_XENT_AUTO_SYNC (1 or 0) > on. -1 = back to env/default.
void set_auto_sync(int on);
bool auto_sync_enabled();
// What a race or an uninitialised read does, read at each launch: off = the launch
// stops at the first one (throws, the default); on = it is recorded and the launch
// goes on, as msSanitizer and compute-sanitizer do, so one run lists every such
// report (printed to stderr when the launch ends; last_launch_reports()). Pipe
// hazards, inter-block GM races, uninitialised UB reads and reads past a tensor
// (the last two at their error level) only: every other
// check still stops the launch. set_continue_on_report(1 / 0) >
// ASCEND_XENT_CONTINUE_ON_REPORT (1 or 0) > off. -1 = back to env/default.
void set_continue_on_report(int on);
bool continue_on_report_enabled();

// ---- violations ---------------------------------------------------------------

// Thrown by every check. what() reads
//   "[ascend_sim] DataCopy (block 3): GM->UB byte count 100 is not a multiple of 32 ..."
// block() is -1 for host-side checks (gm_free, run_kernel arguments).
class SimViolation : public std::runtime_error {
public:
    SimViolation(std::string api, int64_t block, std::string rule, const std::string& what);
    const std::string& api() const { return api_; }
    int64_t block() const { return block_; }
    const std::string& rule() const { return rule_; }

private:
    std::string api_;
    int64_t block_;
    std::string rule_;
};

// ---- GM ---------------------------------------------------------------------------

// GM the kernels may touch: every GlobalTensor access must lie inside one
// registered region. gm_alloc returns 64-byte aligned memory of ALIGN_UP(bytes, 32)
// + 32 bytes, all of them GM (as aclrtMalloc and the CPU twin's GmAlloc),
// zero-filled (as CANN's CPU-twin GmAlloc), or, when zeroed is false (aclrtMalloc:
// CANN leaves device memory uninitialised), filled with 0xFF bytes, so reads of
// never-written memory give NaN / -1 deterministically.
void* gm_alloc(size_t bytes, const char* name = "GmAlloc", bool zeroed = true);
void gm_free(void* p);  // SimViolation on a pointer not from gm_alloc, or freed twice
// gm_free without releasing the memory: no longer GM (kernels' accesses are reported),
// but no other allocation can take its addresses until the caller std::free()s it.
void gm_retire(void* p);

// Registers caller-owned memory [p, p+bytes) as GM for its lifetime.
class GmRegion {
public:
    GmRegion(void* p, size_t bytes, std::string name);
    ~GmRegion();
    GmRegion(const GmRegion&) = delete;
    GmRegion& operator=(const GmRegion&) = delete;
    void* data() const { return p_; }
    size_t size() const { return bytes_; }

private:
    void* p_;
    size_t bytes_;
};

// ---- launch --------------------------------------------------------------------------

struct KernelCounters {
    uint64_t gmReadBytes = 0, gmWriteBytes = 0;      // by MTE2 / MTE3
    uint64_t dmaIn = 0, dmaOut = 0;                  // DataCopy/DataCopyPad calls
    uint64_t scalarGmReads = 0, scalarGmWrites = 0;  // GlobalTensor GetValue/SetValue
    uint64_t scalarUbReads = 0, scalarUbWrites = 0;  // LocalTensor GetValue/SetValue/operator()
    uint64_t vectorInstructions = 0;
    uint64_t vectorRepeats = 0;                      // 256-byte repeats of the widest operand
    uint64_t ubPeakBytes = 0;                        // highest end offset of InitBuffer
    std::map<std::string, uint64_t> vectorRepeatsByOp;
    KernelCounters& operator+=(const KernelCounters& o);
};

struct LaunchStats {
    std::string kernel, soc;
    uint32_t blockDim = 0, blocksUsed = 0, hostThreads = 0;
    KernelCounters total;
    std::vector<KernelCounters> perBlock;
};

// Runs body once per block (GetBlockIdx() in [0, blockDim)) on host threads.
// Throws the SimViolation of the lowest failing block; other exceptions thrown
// by the body propagate the same way.
void run_kernel(const char* name, uint32_t blockDim, const std::function<void()>& body);
// The same on a given profile instead of current_profile(): a caller that sized the
// launch for one profile (op_host tiles at phase 1) launches on that profile even if
// set_soc / set_cores changed the current one since.
void run_kernel(const char* name, uint32_t blockDim, const SocProfile& profile, const std::function<void()>& body);

// Stream capture (acl_compat's aclmdlRICaptureBegin): while a taker is set on
// the calling thread, run_kernel(name, blockDim, body) hands each launch to it
// instead of running it, unless it returns false. The body holds the launch's
// arguments as ICPU_RUN_KF passed them, by reference: they must outlive the
// replays. nullptr: none.
using LaunchCapture = std::function<bool(const char* name, uint32_t blockDim, const std::function<void()>& body)>;
void set_launch_capture(LaunchCapture capture);

// Of the calling thread's most recent run_kernel (also after it threw).
LaunchStats last_launch_stats();
// The totals of the calling thread's n most recent run_kernels (up to 8), oldest first.
std::vector<KernelCounters> recent_launch_totals(size_t n);

// A report the launch went on after (set_continue_on_report): the first violation
// seen at one site (rule, API and the other access's operation) and how many
// times the site was hit.
struct ContinuedReport {
    SimViolation violation;
    uint64_t count;
};
// Of the calling thread's most recent run_kernel, in block order; empty when
// continue_on_report was off.
std::vector<ContinuedReport> last_launch_reports();

}  // namespace ascend_sim

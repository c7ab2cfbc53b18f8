// The timing model: how long a launch would take on the NPU, pipe by pipe.
//
// While timing is on, each block records what it issues (vector instructions with
// their UB bank beats, DMAs with their GM rows and cache mode, scalar accesses,
// SetFlag/WaitFlag, queue handshakes, barriers, SyncAll). At the end of the launch
// the blocks are replayed together in simulated time: the scalar unit issues in
// program order, each pipe runs its own queue, an instruction starts when its pipe
// is free and what it waits for has happened, DMAs share the HBM and L2 bandwidth of
// the SoC, and an L2 of the SoC's size decides which reads hit. The result has the
// fields of an msprof profile (docs/performance.md says what each means and how well
// the model matches the vendor's published measurements).
//
// Timing is off unless asked for: set_timing(1), ASCEND_XENT_TIMING=1, or one of
// ASCEND_XENT_PROFILE=<file> (one JSON line per launch) and
// ASCEND_XENT_TRACE=<file> (a Chrome trace of the last launch, one track per pipe
// per block).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ascend_sim {

// Busy time of each pipe, in microseconds.
struct PipeTimes {
    double vec = 0, scalar = 0, mte2 = 0, mte3 = 0;
};

struct BlockTiming {
    double aivTimeUs = 0;  // from the launch's start to this block's last instruction
    PipeTimes busy;
};

struct LaunchTiming {
    bool valid = false;  // false: timing was off for the launch
    std::string kernel, soc;
    uint32_t blockDim = 0;
    double taskDurationUs = 0;  // launch cost + the slowest block
    double aivTimeUs = 0;       // mean over blocks (as msprof's aiv_time)
    PipeTimes busy;             // mean over blocks
    std::vector<BlockTiming> blocks;
    // L2: bytes read that hit, bytes read from HBM, dirty bytes written back to HBM.
    uint64_t l2HitBytes = 0, hbmReadBytes = 0, hbmWriteBackBytes = 0;
};

// The model's constants. Each is a published figure or fitted on the vendor's
// measured add_high_performance profiles (sim/src/timing_params.cpp says which).
struct TimingParams {
    double clockHz;            // AI Vector core clock
    double hbmBytesPerCycle;   // HBM bandwidth shared by all cores (launch-wide)
    double l2BytesPerCycle;    // L2 bandwidth shared by all cores (launch-wide)
    double coreReadBytesPerCycle;    // one core's GM -> UB rate from HBM
    double coreL2ReadBytesPerCycle;  // one core's GM -> UB rate on L2 hits
    double coreWriteBytesPerCycle;   // one core's UB -> GM rate
    double readLatencyCycles;  // GM -> UB: issue to last byte landed, beyond the transfer
    double dmaIssueCycles;     // per DMA instruction on its MTE
    double writeBackFactor;    // HBM cycles of a dirty L2 line written back, relative to a read of it
    double vecIssueCycles;     // per vector instruction, before its first repeat
    double scalarIssueCycles;  // scalar unit, per instruction it dispatches (vector, DMA, flag)
    double scalarUbCycles;     // per scalar UB access (GetValue/SetValue on a LocalTensor)
    double scalarGmCycles;     // per scalar GM access
    double syncAllCycles;      // one hard SyncAll, after the last block arrives
    double launchUs;           // Task Duration beyond the slowest block: launchUs + launchUsPerBlock x blockDim
    double launchUsPerBlock;
    uint64_t l2Bytes;          // L2 capacity
    uint32_t l2LineBytes;      // L2 allocation unit
};

// The constants for a SoC profile ("ascend910b", ...).
TimingParams timing_params(const std::string& soc);

void set_timing(int on);  // 1 on, 0 off, -1 back to the environment
bool timing_enabled();    // set_timing > ASCEND_XENT_TIMING / _PROFILE / _TRACE

// Of the calling thread's most recent launch (valid only when timing was on).
LaunchTiming last_launch_timing();
// Of the calling thread's n most recent launches (up to 8), oldest first: an operator
// that queues several kernels (a sums launch, then the main one) is timed as their sum.
std::vector<LaunchTiming> recent_launch_timings(size_t n);
// What that launch recorded, to replay it with other constants (calibration).
struct TimingRecording;
std::shared_ptr<const TimingRecording> last_launch_recording();
LaunchTiming retime(const TimingRecording& r, const TimingParams& p);
// The profile line and the Chrome trace of the last launch, as ASCEND_XENT_PROFILE
// and ASCEND_XENT_TRACE write them.
std::string profile_json(const LaunchTiming& t);
std::string chrome_trace_json_last_launch();

}  // namespace ascend_sim

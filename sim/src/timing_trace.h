// What a block records for the timing model (timing_record.cpp) and the replay
// reads (timing_replay.cpp). Internal to sim/src.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ascend_sim/device_runtime.h"
#include "ascend_sim/timing.h"

namespace ascend_sim::detail {

struct Block;

enum class TKind : uint8_t {
    Scalar,      // count = scalar UB accesses, gmAccesses = scalar GM accesses
    Vec,         // pipe V: work = cycles of its repeats (beats and per-op rate applied)
    Dma,         // pipe MTE2 (toUb) or MTE3: rows of GM, bytes in total
    Set,         // SetFlag on `pipe` (the source), key = event * 8 + id
    Wait,        // WaitFlag on `pipe` (the destination)
    Join,        // `pipe` waits for everything issued on `src` so far (an API's own sync)
    Barrier,     // PipeBarrier<pipe>
    BarrierAll,  // PipeBarrier<PIPE_ALL>
    SyncAll,     // hard SyncAll: every block waits for the last
};

struct TOp {
    TKind kind;
    uint8_t pipe = 0, src = 0;
    uint8_t cacheMode = 1;  // Dma: CacheMode (0 = L2 bypass)
    uint16_t key = 0;
    uint32_t count = 0;      // Dma: rows; Scalar: UB accesses
    double work = 0;         // Vec: cycles; Dma: bytes; Scalar: GM accesses
    uint64_t lo = 0, len = 0, pitch = 0;  // Dma: GM rows [lo + i * pitch, + len)
    const char* api = nullptr;
};

struct TimingTrace {
    std::vector<TOp> ops;
    uint64_t pendingUb = 0, pendingGm = 0;  // scalar accesses not yet flushed into ops
    void flush_scalar();
    void push(const TOp& op) {
        if (pendingUb | pendingGm) flush_scalar();
        ops.push_back(op);
    }
};

// ---- recording (timing_record.cpp); each is a no-op when the block keeps no trace ----
// A vector instruction of `repeats` repeats whose operands start at UB offsets off[i]
// (bytes per repeat per operand in perRepeat[i], blocks blkStride[i] 32 B rows apart).
struct VecOperand {
    uint64_t off;
    uint32_t perRepeat;  // bytes one repeat touches (256 for a full float or half operand)
    uint32_t blkStride;  // 32 B rows between its blocks (1: contiguous)
    bool write;
};
void t_vec(Block& b, const char* api, VecOp op, uint64_t repeats, uint32_t widestElem, const VecOperand* ops, int n);
void t_dma(Block& b, const char* api, bool toUb, uint64_t lo, uint64_t len, uint64_t pitch, uint64_t rows,
           uint64_t payload, uint8_t cacheMode);
void t_scalar(Block& b, bool gm);
void t_flag(Block& b, bool set, Pipe pipe, uint16_t key);
void t_join(Block& b, Pipe dst, Pipe src);
void t_barrier(Block& b, int pipe);  // P_COUNT: PIPE_ALL
void t_sync_all(Block& b);

// The UB beats one repeat takes under the bank rules of the 2201 UB (docs/simulator.md).
uint32_t bank_beats(const VecOperand* ops, int n);
// Cycles per repeat of op at its documented rate, widest operand `widestElem` bytes.
double cycles_per_repeat(VecOp op, uint32_t widestElem);

// ---- replay (timing_replay.cpp) ----
struct TraceInterval {
    uint32_t block;
    uint8_t pipe;
    double start, end;  // cycles
    const char* api;
};
LaunchTiming replay(const std::vector<TimingTrace>& blocks, const TimingParams& p, const std::string& kernel,
                    const std::string& soc, std::vector<TraceInterval>* intervals);

}  // namespace ascend_sim::detail

namespace ascend_sim {
struct TimingRecording {
    std::vector<detail::TimingTrace> traces;
    std::string kernel, soc;
};
}  // namespace ascend_sim

namespace ascend_sim::detail {

// The launch's traces (runtime.cpp hands them over at the end of a timed launch).
void timing_launch_end(std::vector<TimingTrace>&& traces, const std::string& kernel, const std::string& soc);
void timing_launch_untimed();  // the last launch has no timing

}  // namespace ascend_sim::detail

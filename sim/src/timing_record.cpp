// Recording for the timing model: what each API call adds to its block's trace,
// and the per-instruction costs that depend only on the instruction (its rate and
// its UB bank beats). The replay (timing_replay.cpp) does the rest.
#include <algorithm>

#include "ascend_sim/runtime_state.h"
#include "timing_trace.h"

namespace ascend_sim::detail {

void TimingTrace::flush_scalar() {
    TOp op{TKind::Scalar};
    op.pipe = P_S;
    op.count = uint32_t(pendingUb);
    op.work = double(pendingGm);
    pendingUb = pendingGm = 0;
    ops.push_back(op);
}

// 2201 UB (Vector逻辑架构.md, 避免bank冲突（NPU架构版本2201）.md): 48 banks of 4 KiB in
// 16 bank groups of 3. 32 B rows interleave over the 16 banks of each 64 KiB third
// (0x10000 is bank 16, 0x10020 bank 17, 0x20020 bank 33); bank g, g + 16, g + 32 form
// group g. Per beat the vector unit reads or writes one row per group: reads to one
// group, or writes to one group, queue; a read and a write to one bank queue too.
uint32_t bank_beats(const VecOperand* ops, int n) {
    uint8_t reads[16] = {}, writes[16] = {}, rb[48] = {}, wb[48] = {};
    for (int i = 0; i < n; ++i) {
        const uint32_t blocks = std::min<uint32_t>(8, (ops[i].perRepeat + 31) / 32);
        for (uint32_t k = 0; k < blocks; ++k) {
            const uint64_t at = ops[i].off + uint64_t(k) * ops[i].blkStride * 32;
            const uint32_t group = uint32_t((at / 32) % 16), bank = uint32_t(group + 16 * ((at / 65536) % 3));
            if (ops[i].write) {
                ++writes[group];
                ++wb[bank];
            } else {
                ++reads[group];
                ++rb[bank];
            }
        }
    }
    uint32_t beats = 1;
    for (int g = 0; g < 16; ++g) beats = std::max<uint32_t>(beats, std::max(reads[g], writes[g]));
    for (int k = 0; k < 48; ++k)
        if (rb[k] && wb[k]) beats = std::max<uint32_t>(beats, 2);
    return beats;
}

// Vector指令理论性能汇总.md, tables 6-15 (A2/A3): elements per cycle. A repeat is 256 B of
// the widest operand, so cycles per repeat = (256 / widestElem) / rate.
double cycles_per_repeat(VecOp op, uint32_t widestElem) {
    const double elems = 256.0 / std::max<uint32_t>(widestElem, 1);
    switch (op) {
        case VecOp::Exp: case VecOp::Ln: case VecOp::Sqrt: case VecOp::Div:
            return elems / 32;
        case VecOp::MulAddDst: case VecOp::GatherMask:
            return elems / (widestElem == 2 ? 64 : 32);
        case VecOp::Gather:
            return elems / 5;
        case VecOp::Gatherb:
            return elems / (widestElem == 2 ? 42 : 21);
        case VecOp::Sort32: case VecOp::MrgSort:
            return elems / 2;
        // ReduceRepeat (WholeReduce*) 64/7 or 128/7 per cycle; the count-form reductions
        // are composite ("软仿"), priced as ReduceRepeat over their repeats.
        case VecOp::WholeReduceSum: case VecOp::WholeReduceMax: case VecOp::WholeReduceMin:
        case VecOp::ReduceRepeat: case VecOp::ReduceSum: case VecOp::ReduceMax: case VecOp::ReduceMin:
            return 7;
        case VecOp::BlockReduceSum: case VecOp::BlockReduceMax: case VecOp::BlockReduceMin:
        case VecOp::ReduceDataBlock:
            return widestElem == 2 ? 7 : 1;
        default:
            return 1;
    }
}

void t_vec(Block& b, const char* api, VecOp op, uint64_t repeats, uint32_t widestElem, const VecOperand* ops, int n) {
    if (!b.trace || !repeats) return;
    TOp t{TKind::Vec};
    t.pipe = P_V;
    t.api = api;
    const double perRepeat = std::max<double>(cycles_per_repeat(op, widestElem), ops ? bank_beats(ops, n) : 1);
    t.work = double(repeats) * perRepeat;
    b.trace->push(t);
}

void t_dma(Block& b, const char* api, bool toUb, uint64_t lo, uint64_t len, uint64_t pitch, uint64_t rows,
           uint64_t payload, uint8_t cacheMode) {
    if (!b.trace) return;
    TOp t{TKind::Dma};
    t.pipe = toUb ? P_MTE2 : P_MTE3;
    t.api = api;
    t.lo = lo;
    t.len = len;
    t.pitch = pitch;
    t.count = uint32_t(std::min<uint64_t>(rows, UINT32_MAX));
    t.work = double(payload);
    t.cacheMode = cacheMode;
    b.trace->push(t);
}

void t_scalar(Block& b, bool gm) {
    if (!b.trace) return;
    ++(gm ? b.trace->pendingGm : b.trace->pendingUb);
}

void t_flag(Block& b, bool set, Pipe pipe, uint16_t key) {
    if (!b.trace) return;
    TOp t{set ? TKind::Set : TKind::Wait};
    t.pipe = pipe;
    t.key = key;
    b.trace->push(t);
}

void t_join(Block& b, Pipe dst, Pipe src) {
    if (!b.trace) return;
    TOp t{TKind::Join};
    t.pipe = dst;
    t.src = src;
    b.trace->push(t);
}

void t_barrier(Block& b, int pipe) {
    if (!b.trace) return;
    TOp t{pipe == P_COUNT ? TKind::BarrierAll : TKind::Barrier};
    t.pipe = uint8_t(pipe == P_COUNT ? 0 : pipe);
    b.trace->push(t);
}

void t_sync_all(Block& b) {
    if (!b.trace) return;
    b.trace->push(TOp{TKind::SyncAll});
}

}  // namespace ascend_sim::detail

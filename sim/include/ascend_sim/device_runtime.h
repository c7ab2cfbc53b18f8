// The simulator's per-block runtime as the device API templates see it: one
// out-of-line call per API call does the O(1)/O(log n) work (checks, pipe
// hazards, counters); the templates then run the numerics loops. Internal:
// kernels never call these directly.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace ascend_sim::detail {

enum Pipe : uint8_t { P_S = 0, P_V = 1, P_MTE2 = 2, P_MTE3 = 3, P_COUNT = 4 };

// Vector ops counted separately (LaunchStats::vectorRepeatsByOp keys).
enum class VecOp : uint8_t {
    Exp, Ln, Add, Sub, Mul, Div, Max, Min, Adds, Muls, Axpy, Duplicate, Cast,
    ReduceSum, ReduceMax, Compare, CompareScalar, Select, Gather,
    Abs, Relu, Sqrt, Rsqrt, Reciprocal, Not, And, Or, Maxs, Mins, LeakyRelu, Copy,
    WholeReduceSum, WholeReduceMax, WholeReduceMin, BlockReduceSum, BlockReduceMax, BlockReduceMin, PairReduceSum,
    ReduceRepeat, ReduceDataBlock, ReducePairElem, Brcb, GatherMask, ReduceMin, ShiftLeft, ShiftRight,
    AddRelu, SubRelu, FusedMulAdd, FusedMulAddRelu, MulAddRelu, MulAddDst, CreateVecIndex, Transpose, Sort32, MrgSort, Gatherb, TransDataTo5HD,
    COUNT
};
const char* vec_op_name(VecOp op);

// Block index of the calling thread, -1 outside a kernel.
int64_t block_idx_or_none();
uint32_t block_num(const char* api);

// Where the kernel called an API: the API entry points take it as a defaulted last
// argument (ASCEND_SIM_SITE, evaluated at the caller's line) and hold it for the
// call (ASCEND_SIM_ENTER); reports name it. The outermost call from outside the
// simulator's headers wins, so the calls an advanced API makes keep the kernel's line.
struct CallSite {
    const char* file;
    int line;
    const char* api = nullptr;  // the API the kernel called there
};
bool site_enter(const CallSite& site);  // false: outside a kernel, or a call already holds the site
void site_leave();
class SiteScope {
public:
    SiteScope(const CallSite& site, const char* api) : held_(site_enter(CallSite{site.file, site.line, api})) {}
    ~SiteScope() {
        if (held_) site_leave();
    }
    SiteScope(const SiteScope&) = delete;
    SiteScope& operator=(const SiteScope&) = delete;

private:
    bool held_;
};
#define ASCEND_SIM_SITE \
    const ascend_sim::detail::CallSite ascend_sim_site = {__builtin_FILE(), __builtin_LINE()}
#define ASCEND_SIM_ENTER const ascend_sim::detail::SiteScope ascend_sim_site_scope(ascend_sim_site, __func__)

// Throws SimViolation "[ascend_sim] <api> (block N) at <file>:<line>: <detail>" (printf-style).
[[noreturn]] void fail(const char* api, const char* rule, const char* fmt, ...)
    __attribute__((format(printf, 3, 4)));

// ---- UB operands ----
struct UbRef {
    const void* p;      // address in this block's UB
    uint32_t dataLen;   // tensor length in bytes
    uint8_t pos;        // TPosition
};
// The calling block's UB at byte address addr for a tensor of `bytes` at UB
// position pos, made without a TPipe (LocalTensor(pos, addr, tileSize)).
void* ub_raw(const char* api, uint8_t pos, uint32_t addr, uint64_t bytes);
// LocalTensor::SetSize's bound (kernel_tensor_impl.h, LocalTensor<T>::SetSize): the
// tensor's offset in UB plus `bytes` within what InitBuffer may hand out
// (bufferInitLen), not within its own buffer.
void ub_set_size(const char* api, const void* p, uint64_t bytes);
// The first `bytes` at TMP_UB_OFFSET, where dav_c220 APIs stage scratch on the
// device (Select's modes 1 and 2): a VECCALC operand any buffer there shares.
UbRef ub_device_scratch(const char* api, uint32_t bytes);
// Is p inside the calling block's UB, and its offset there.
uint64_t ub_offset(const char* api, const void* p);
// TOTAL_UB_SIZE of the SoC (usable UB plus the 8 KiB API reserve).
uint64_t ub_total_bytes();

struct VecArg {
    UbRef t;
    uint32_t elemSize;
    uint64_t bytes;     // bytes the instruction touches, from the start of t
    const char* role;   // "dst", "src0", ...
    bool write;
    bool initcheck = true;  // false: the read bytes are checked by the caller (Gather's src)
    uint32_t align = 32;    // the start's alignment (a reduction's dst: ReduceRepeat.md 表3)
};
// A vector instruction: positions, 32 B alignment, count vs sizes, overlap,
// pipe hazards (PIPE_V) and counters. count<0 and count==0 handled here; returns
// false when the instruction is a NOP (count 0). A write operand may overlap a
// read operand only 100% (same start, no wider) and only if allowFullOverlap.
bool vec_instr(const char* api, VecOp op, int64_t count, uint32_t widestElem, const VecArg* args, int n,
               bool allowFullOverlap);
// Check-only variant for auxiliary operands (ReduceMax's tmp buffer).
void vec_check_operand(const char* api, const VecArg& a);
// The scalar store ReduceSum/ReduceMax do after their internal V_S; S_V; S_MTE3 syncs
// (also Power's store of a value the NPU writes with vector work between barriers).
void reduce_scalar_store(const char* api, const void* dst, uint32_t bytes);
// initcheck bookkeeping for bytes an instruction writes outside its VecArgs
// (ReduceMax's sharedTmpBuffer).
void ub_written(const char* api, const void* p, uint64_t bytes);
// initcheck of a Gather source: exactly the gathered elements, src[(base + offsets[i]) / elemSize].
// O(log n) when all of src is written; otherwise one lookup per element.
void gather_read(const char* api, const UbRef& src, const uint32_t* offsets, uint32_t base, uint32_t count,
                 uint32_t elemSize);

// A vector instruction on n scattered 32 B blocks (TransDataTo5HD's address
// lists): each in this block's UB and 32 B aligned; of block i it touches
// [lo[i], lo[i] + bytes) (a half block for the 8-bit forms); initcheck of the
// bytes read, PIPE_V hazards and initcheck marks on exactly the bytes touched;
// `repeats` counted. write[i] tells a written block from a read one.
void vec_blocks(const char* api, VecOp op, const void* const* blocks, const uint8_t* lo, uint32_t bytes,
                const bool* write, size_t n, uint64_t repeats);

// ---- the high-dimension (mask/repeat/stride) forms ----
// The vector mask register and its mode, per block: Normal (a 128-bit mask of
// the elements of each repeat) or Counter (the low 64 bits count the elements
// of the whole instruction; repeatTimes is ignored). At block start: Normal,
// all ones. Beside it the 128-bit CMPMASK register (Compare to the register,
// SetCmpMask/GetCmpMask, Select's set_cmpmask), undefined at block start.
struct VecMaskReg {
    uint64_t hi = ~0ull, lo = ~0ull;
    bool counter = false;
    uint64_t cmp[2] = {0, 0};
    bool cmpDefined = false;
    // ACC_VAL, the sum register vcadd leaves behind: the count-form ReduceSum's
    // result (accBytes = sizeof(T)); 0 bytes: undefined (block start, any other vcadd).
    uint64_t acc = 0;
    uint32_t accBytes = 0;
    // VMS4_SR, the proposals each queue gave up to an exhausted-suspension
    // MrgSort's stop; undefined otherwise. vms4Seq/vms4Serial: that MrgSort on PIPE_V.
    uint16_t vms4[4] = {0, 0, 0, 0};
    bool vms4Defined = false;
    uint64_t vms4Seq = 0;
    uint32_t vms4Serial = 0;
};
void vec_set_mask(const char* api, uint64_t hi, uint64_t lo);
void vec_set_mask_mode(const char* api, bool counter);
VecMaskReg vec_mask(const char* api);
// DEQSCALE := value (SetDeqScale); vec_deqscale reads it, warning once per kernel
// when the block never set it (then 0, as nothing documents its reset value).
void vec_set_deqscale(const char* api, uint64_t value);
// KERNEL_TASK_TYPE_DEFAULT / KERNEL_TASK_TYPE: the KernelMetaType the kernel declares.
void declare_kernel_type(int type);
uint64_t vec_deqscale(const char* api);
// InitSocStateImpl on 2201: no DMA atomic, Normal mask mode, full mask (also run by TPipe's constructor and Reset).
void init_soc_state(const char* api);
// CMPMASK := bits (defined false: an internal value the kernel cannot rely on).
void vec_set_cmpmask(const char* api, const uint64_t bits[2], bool defined);
// CMPMASK as an instruction reads it (the Select forms without selMask); with
// initcheck on, a register no SetCmpMask or Compare into it has set is reported.
void vec_cmpmask(const char* api, uint64_t bits[2]);
// GetCmpMask (store: CMPMASK -> the 16 B at t) and SetCmpMask (load): a vector
// instruction on 16 bytes, 16-byte aligned (GetCmpMask.md, SetCmpMask.md).
void vec_cmpmask_io(const char* api, const UbRef& t, bool store);
// ACC_VAL := bits of a `bytes`-wide result (0: undefined); vec_acc returns its width.
void vec_set_acc(const char* api, uint64_t bits, uint32_t bytes);
uint32_t vec_acc(const char* api, uint64_t* bits);
// VMS4_SR := counts (defined false: undefined), set by the instruction vec_repeat last checked.
void vec_set_vms4(const char* api, const uint16_t counts[4], bool defined);
// GetMrgSortResult: a PIPE_S read of VMS4_SR, ordered after its MrgSort as a UB read would be (V_S).
void vec_vms4(const char* api, uint16_t counts[4]);

// One operand of a repeated instruction: element j of repeat r is at byte
// (r * repStride + (j / perBlock) * blkStride) * 32 + (j % perBlock) * elemSize
// of t, perBlock = 32 / elemSize (strides in 32 B blocks).
struct RepArg {
    UbRef t;
    uint32_t elemSize;
    uint32_t blkStride, repStride;
    const char* role;
    bool write;
    // Add/Sub/Mul src1 (half, int32, float): may be the dst of earlier repeats
    // when dstRepStride or src1RepStride is 0 (accumulating rows).
    bool trailsDst = false;
    // An operand touched as one chunk per repeat (a reduction's result, Brcb's
    // source): repeat r touches repBytes at r x repStride x repUnit bytes
    // (blkStride unused). Its start needs `align` bytes of alignment.
    uint32_t repBytes = 0, repUnit = 0, align = 32;
    bool initcheck = true;  // false: the bytes read are checked by the caller (Gather's src)
};
// Elements [first, first + len) of repeat `repeat`: active under the mask and
// inside one 32 B block of every operand, or with RepShape::elementwise contiguous in
// every operand; runs come in repeat order.
struct RepRun {
    uint32_t repeat, first, len;
};
inline uint64_t rep_offset(const RepArg& a, uint32_t r, uint32_t j) {
    const uint32_t perBlock = 32 / a.elemSize;
    return (uint64_t(r) * a.repStride + uint64_t(j / perBlock) * a.blkStride) * 32 + uint64_t(j % perBlock) * a.elemSize;
}
// What a Counter-mode count means.
enum class CountMode : uint8_t {
    Whole,           // the elements of the whole instruction; repeatTimes is ignored
    RepeatBlocks,    // Copy.md: per repeat, in whole 32 B blocks (may pass 8 blocks); repeatTimes holds
    Repeat,          // GatherMask.md: exactly that many elements per repeat (may pass 256 B); repeatTimes holds
};
struct RepShape {
    uint32_t perRepeat;    // elements of a full repeat: 256 / the widest element
    uint32_t repeatTimes;
    CountMode count = CountMode::Whole;
    bool ignoreMask = false;  // A2 Compare: every element of each repeat (Compare.md: mask reserved)
    // Nonzero: the elements of the instruction from this index on are read and their
    // results discarded by the caller (an API's own Compare past its calCount): not modelled.
    uint32_t significant = 0;
    // The caller works element by element: where every operand's blocks follow each other
    // (blkStride 1), a run may span the blocks of a repeat (fewer, longer runs).
    bool elementwise = false;
};
// A repeated instruction under the current mask register: positions, 32 B
// alignment, every active byte inside its tensor, overlap, initcheck of the
// bytes read, pipe hazards and initcheck marks on exactly the bytes touched,
// counters. Returns the active runs (valid until the next call in this
// thread); *nRuns = 0 for a NOP.
const RepRun* vec_repeat(const char* api, VecOp op, const RepArg* args, int n, const RepShape& shape, size_t* nRuns);
// A write whose size depends on the data (GatherMask's packed dst): `bytes`
// from t's start, by the instruction vec_repeat last checked in this thread
// (bounds, no overlap with its sources, hazards, initcheck marks).
// compacts: the index of a source the packed result may start on (in place), -1 for none.
void vec_repeat_packed_write(const char* api, const UbRef& t, const char* role, uint64_t bytes, int compacts = -1);

// ---- scalar accesses ----
void scalar_ub(const char* api, const void* p, uint32_t bytes, bool write);

struct GmRef {
    const void* p;      // first byte accessed
    const void* ori;    // SetGlobalBuffer address
    uint64_t oriBytes;  // SetGlobalBuffer size in bytes (0 = none given)
    uint8_t cacheMode = 1;  // AscendC::CacheMode of the GlobalTensor (0: L2 bypass), for the timing model
};
// A scalar GM access of `bytes` at g.p: a write stores the bytes at value, a read
// copies what it returns there (nullptr: the caller reads GM itself).
void scalar_gm(const char* api, const GmRef& g, uint32_t bytes, bool write, void* value);
void scalar_gm_bypass(const char* api, const GmRef& g, uint32_t bytes, bool write, void* value);
// DataSyncBarrier<ALL or DDR>: this block's scalar GM accesses so far have completed.
void data_sync_barrier_gm(const char* api);
void dcache_preload(const char* api, const GmRef& g);
std::string gm_describe(uint64_t addr);  // "logProb+0x40" or "0x7f..."
std::string gm_describe_range(uint64_t lo, uint64_t hi);  // "logProb+0x40, logProb+0x80": both ends from lo's region
void dcci(const char* api, const void* gm, bool entire);

// ---- DMA ----
// The UB bytes of a DMA, relative to the LocalTensor's start: block i covers
// [i*pitch, i*pitch + span); of it, [i*pitch + lo, i*pitch + hi) holds defined
// data (GM->UB: the rest of the block is written with undefined bytes, e.g.
// DataCopyPad's pads without isPad). UB->GM reads [i*pitch + lo, i*pitch + hi).
struct UbBlocks {
    uint64_t count, pitch, span, lo, hi;
    // DataCopy (not DataCopyPad): whole 32 B blocks, so a block holding fewer
    // defined bytes (a reduction's one result) drags its unwritten tail along.
    bool wholeBlocks = false;
    static UbBlocks contiguous(uint64_t bytes) { return {1, bytes, bytes, 0, bytes}; }
};
// A GM<->UB transfer: hull of the GM bytes touched [gm.p, gm.p + gmSpan), UB
// [ub.p, ub.p + ubSpan) (the hull of `blocks`), payload bytes for the counters.
// On GM the transfer is blocks.count equal blocks of payload / blocks.count
// bytes, evenly spread over the hull (first at gm.p, last ending at its end):
// the GM pitch follows from gmSpan. Checks GM bounds on the hull; records
// hazards (MTE2 or MTE3), the DCache rules and the inter-block race records
// per GM block (the bytes between strided blocks are not touched); checks or
// marks the initcheck state of the UB blocks (read, or written).
void dma(const char* api, bool toUb, const GmRef& gm, uint64_t gmSpan, const UbRef& ub, uint64_t ubSpan,
         uint64_t payload, const UbBlocks& blocks);

// A UB -> UB copy of srcBlocks.count blocks (PIPE_V): positions, 32 B alignment,
// initcheck of the blocks read, hazards on both hulls, the blocks written.
void ub_copy(const char* api, const UbRef& dst, const UbRef& src, const UbBlocks& dstBlocks,
             const UbBlocks& srcBlocks);

// The core's MOV_PAD_VAL register (DataCopyPad's fill): unset at block start.
void set_pad_register(const char* api, uint64_t bits);
bool pad_register(const char* api, uint64_t* bits);

// ---- DMA atomics (atomics.cpp) ----
// The core's atomic mode of UB->GM copies (dav_c220: set_atomic_add/max/min,
// set_atomic_<type>, set_atomic_none). None at block start.
enum class AtomicOp : uint8_t { NONE, ADD, MAX, MIN };
enum class AtomicType : uint8_t { NONE, F32, F16, S16, S32, S8, BF16 };
struct AtomicMode {
    AtomicOp op = AtomicOp::NONE;
    AtomicType type = AtomicType::NONE;
    // The race check's key: copies of one code commute; 0 = a plain write.
    uint8_t code() const { return op == AtomicOp::NONE ? 0 : uint8_t(uint8_t(op) * 8 + uint8_t(type)); }
};
void set_atomic_op(const char* api, AtomicOp op);
void set_atomic_type(const char* api, AtomicType type);
bool atomic_on(const char* api);
// Combines n UB bytes at u into GM at g by the current mode (under a launch-wide lock).
void atomic_store(const char* api, uint8_t* g, const uint8_t* u, size_t n);
std::string atomic_name(uint8_t code);  // "atomic add (float)"

// ---- sync ----
void set_flag(const char* api, uint8_t hardEvent, int32_t id);
void wait_flag(const char* api, uint8_t hardEvent, int32_t id);
void pipe_barrier(const char* api, int pipeT);  // pipe_t value
int8_t fetch_event_id(uint8_t hardEvent);
int8_t alloc_event_id(uint8_t hardEvent);
void release_event_id(uint8_t hardEvent, int8_t id);
void sync_all(const char* api);
// IBSet (set) / IBWait on the flag at `flag` (32 B read through ubWs).
void ib_flag(const char* api, bool set, const GmRef& flag, const UbRef& ubWs, int32_t blockIdx, int32_t eventID);
// InitDetermineComputeWorkspace, WaitPreBlock, NotifyNextBlock.
enum class DetermineStep : uint8_t { INIT, WAIT, NOTIFY };
void determine_sync(const char* api, DetermineStep step, const GmRef& gm, const UbRef& ubWs);
// GroupBarrier (ib_sync.cpp): the scalar stores of 1 into the first int32 of
// each of the 50 UB blocks it reserves at the end of the UB; a poll of the
// counter at `word` until it reads `want` (atLeast: at least), learning the
// order its writers published; the atomic add of the reserved blocks' first
// words to `num` counters 512 B apart from `counters` (MTE3, under the atomic
// mode in force), publishing this block's accesses at each.
void group_barrier_init(const char* api);
void group_barrier_poll(const char* api, const void* word, uint32_t want, bool atLeast);
void group_barrier_add(const char* api, void* counters, uint32_t num);
void sync_all_soft(const char* api, const GmRef& gm, uint64_t gmBytes, const UbRef& ub, int32_t usedCores);
void* user_workspace(const char* api, void* ws);
void set_sys_workspace(void* ws);
void* sys_workspace();

// ---- TPipe / TQue / TBuf (state lives in the block, the objects hold ids) ----
struct Slot {
    void* p;
    uint32_t len;
    int32_t bufId;
};
int32_t tpipe_create(const char* api, void* self);
void* live_tpipe();  // the block's live TPipe object, nullptr if none
void tpipe_reset(const char* api, int32_t pipeId);
void tpipe_destroy(const char* api, int32_t pipeId);
void tpipe_end(int32_t pipeId) noexcept;  // ~TPipe: Destroy unless destroyed already
// One side of a queue handshake: the HardEvent it sets (EnQue) or waits for
// (DeQue), the positions the call names, and whether the kernel named them
// (EnQue<src, dst>) or they are the queue's own (plain EnQue).
struct QueHop {
    uint8_t event, src, dst;
    bool user;
};
int32_t tpipe_init_queue(const char* api, int32_t pipeId, uint8_t src, uint8_t dst, int32_t depth, uint32_t num,
                         uint32_t len);
int32_t tpipe_init_tbuf(const char* api, int32_t pipeId, uint8_t pos, uint32_t len);
// A TBufPool of len bytes carved from the TPipe (parent -1, pipeId) or from a
// parent pool, or over the range of pool `share` (-1: none); cap = bufIDSize.
int32_t bufpool_init(const char* api, int32_t pipeId, int32_t parent, int32_t share, uint32_t len, uint32_t cap);
int32_t bufpool_init_queue(const char* api, int32_t poolId, uint8_t src, uint8_t dst, int32_t depth, uint32_t num,
                           uint32_t len);
int32_t bufpool_init_tbuf(const char* api, int32_t poolId, uint8_t pos, uint32_t len);
// A user-defined pool (EXTERN_IMPL_BUFPOOL): an empty queue, a buffer of len
// bytes at UB address addr inside the pool for queue queId (-1: a TBuf), and
// the pool's cursor (GetCurAddr / SetCurAddr, an absolute UB address).
int32_t bufpool_user_queue(const char* api, int32_t poolId, uint8_t src, uint8_t dst, int32_t depth);
int32_t bufpool_user_buffer(const char* api, int32_t poolId, int32_t queId, uint8_t pos, uint32_t addr, uint32_t len);
uint32_t bufpool_cursor(const char* api, int32_t poolId);
void bufpool_set_cursor(const char* api, int32_t poolId, uint32_t addr);
void bufpool_reset(const char* api, int32_t poolId);
void bufpool_end(int32_t poolId) noexcept;  // ~TBufPool: Reset unless the TPipe released it
// The UB from the end of the TPipe's buffers to the end PopStackBuffer may use.
Slot pop_stack_buffer(const char* api);
Slot que_alloc(const char* api, int32_t queId);
bool que_enque(const char* api, int32_t queId, int32_t bufId, const void* p, const QueHop& hop);
Slot que_deque(const char* api, int32_t queId, const QueHop& hop);
void que_free(const char* api, int32_t queId, int32_t bufId, const void* p);
// The buffer of queue queId that starts at UB pointer p (a TBufHandle), or a violation.
int32_t que_buffer_at(const char* api, int32_t queId, const void* p);
int32_t que_idle_buffers(int32_t queId);
int32_t que_count(int32_t queId);
void que_free_all_events(const char* api, int32_t queId);
Slot tbuf_get(const char* api, int32_t bufId, uint64_t bytes, uint64_t offset, bool checkMultiple);

}  // namespace ascend_sim::detail

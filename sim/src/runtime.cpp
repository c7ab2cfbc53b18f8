// Kernel launch: every block a fiber (fiber.h), host_threads() host threads
// running whichever blocks are ready; SyncAll as a barrier at which a block
// steps aside until the last one arrives (so blockDim 48 runs on one host
// thread), kernel-end checks per block, launch statistics, and deterministic
// error reporting (the violation of the lowest failing block).
//
// When blockDim exceeds the profile's vector cores SyncAll is itself a
// violation, so those launches run each block to its end on a pool of
// host_threads() workers instead (blockDim may be up to 65535).
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <pthread.h>
#if defined(__SSE__)
#include <immintrin.h>
#endif

#include "ascend_sim/runtime_state.h"
#include "ascend_sim/twin_program.h"
#include "fiber.h"
#include "recent_launches.h"
#include "timing_trace.h"

namespace ascend_sim {

KernelCounters& KernelCounters::operator+=(const KernelCounters& o) {
    gmReadBytes += o.gmReadBytes;
    gmWriteBytes += o.gmWriteBytes;
    dmaIn += o.dmaIn;
    dmaOut += o.dmaOut;
    scalarGmReads += o.scalarGmReads;
    scalarGmWrites += o.scalarGmWrites;
    scalarUbReads += o.scalarUbReads;
    scalarUbWrites += o.scalarUbWrites;
    vectorInstructions += o.vectorInstructions;
    vectorRepeats += o.vectorRepeats;
    ubPeakBytes = std::max(ubPeakBytes, o.ubPeakBytes);  // a high-water mark: max, not sum
    for (const auto& [k, v] : o.vectorRepeatsByOp) vectorRepeatsByOp[k] += v;
    return *this;
}

namespace detail {

namespace {
// The calling thread's last launch. Its counters' by-op maps are built when
// asked for (last_launch_stats), not per block per launch.
struct LastLaunch {
    LaunchStats stats;            // vectorRepeatsByOp still empty
    std::vector<OpRepeats> ops;   // per block
    std::vector<ContinuedReport> reports;
};
thread_local LastLaunch t_last;
thread_local RecentLaunches<KernelCounters> t_recentTotals;  // by-op maps filled

// Every launch's continued reports, for a CPU-twin program's exit status.
std::atomic<uint64_t> g_continuedHits{0}, g_continuedSites{0};

// The reports a launch went on after, in block order (host-side ones first), each
// with its site's count, then a line of totals.
void print_continued(Launch& L) {
    if (L.reports.empty()) return;
    std::stable_sort(L.reports.begin(), L.reports.end(), [](const ContinuedReport& a, const ContinuedReport& b) {
        return a.violation.block() < b.violation.block();
    });
    uint64_t hits = 0;
    for (const ContinuedReport& r : L.reports) {
        hits += r.count;
        std::fprintf(stderr, "%s", r.violation.what());
        if (r.count > 1) std::fprintf(stderr, " [%llu times at this site]", (unsigned long long)r.count);
        std::fprintf(stderr, "\n");
    }
    std::fprintf(stderr, "[ascend_sim] %s: %llu report(s) at %zu site(s); the launch went on "
                         "(ASCEND_XENT_CONTINUE_ON_REPORT)\n",
                 L.name.c_str(), (unsigned long long)hits, L.reports.size());
    g_continuedHits += hits;
    g_continuedSites += L.reports.size();
}

void fill_by_op(KernelCounters& c, const OpRepeats& ops) {
    for (size_t i = 0; i < ops.size(); ++i)
        if (ops[i]) c.vectorRepeatsByOp[vec_op_name(VecOp(i))] = ops[i];
}

// The last launch's total with its by-op map, without building the per-block maps.
KernelCounters last_launch_total() {
    KernelCounters c = t_last.stats.total;
    OpRepeats sum{};
    for (const OpRepeats& b : t_last.ops)
        for (size_t i = 0; i < sum.size(); ++i) sum[i] += b[i];
    fill_by_op(c, sum);
    return c;
}

// Thrown into blocks waiting in SyncAll when another block failed.
struct AbortLaunch {};

// A store held for one host task or fiber.
struct HeldStore {
    std::unique_ptr<BlockStore> s;
    explicit HeldStore(size_t ubBytes) : s(take_store(ubBytes)) {}
    ~HeldStore() { give_store(std::move(s)); }
    HeldStore(const HeldStore&) = delete;
    HeldStore& operator=(const HeldStore&) = delete;
};

// Host threads are kept between launches: creating and tearing down threads per
// launch (stacks, malloc arenas, page faults) cost more than a small problem's
// work. Every submitted task gets a thread of its own at once (an idle one or a
// new one), as a fresh std::thread would: concurrent launches from several
// caller threads never wait for each other. Idle threads beyond kMaxIdle exit.
// A thread that cannot be created (EAGAIN under a process or address-space limit)
// makes submit throw with its task withdrawn: nothing runs it later.
class BlockThreads {
public:
    static BlockThreads& get() {
        static const bool registered = [] {
            pthread_atfork(nullptr, nullptr, [] { instance() = new BlockThreads; });  // the child has no threads
            return true;
        }();
        (void)registered;
        return *instance();
    }
    void submit(std::function<void()> task) {
        std::lock_guard<std::mutex> lk(mu_);
        tasks_.push_back(std::move(task));
        if (idle_ >= tasks_.size()) {
            cv_.notify_one();
            return;
        }
        try {
            std::thread([this] { work(); }).detach();
        } catch (...) {
            tasks_.pop_back();  // still ours: no thread takes a task while mu_ is held
            throw;
        }
    }

private:
    static BlockThreads*& instance() {
        static BlockThreads* p = new BlockThreads;  // never destroyed: detached threads wait on it
        return p;
    }
    void work() {
        std::unique_lock<std::mutex> lk(mu_);
        for (;;) {
            if (tasks_.empty()) {
                if (idle_ >= kMaxIdle) return;
                ++idle_;
                cv_.wait(lk, [&] { return !tasks_.empty(); });
                --idle_;
            }
            std::function<void()> task = std::move(tasks_.front());
            tasks_.pop_front();
            lk.unlock();
            task();
            task = nullptr;
            lk.lock();
        }
    }
    static constexpr size_t kMaxIdle = 256;
    std::mutex mu_;
    std::condition_variable cv_;
    std::deque<std::function<void()>> tasks_;
    size_t idle_ = 0;
};

// Kernel end of one block: per-block checks, then the SyncAll bookkeeping.
void end_block(Launch& L, Block& b, std::vector<uint8_t>& ended, std::vector<uint32_t>& endedSyncs) {
    events_end(b);
    dcache_end(b);
    if (!L.fiberMode) return;
    std::unique_lock<std::mutex> lk(L.mu);
    ended[b.idx] = 1;
    endedSyncs[b.idx] = b.syncAlls;
    ++L.ended;
    if (L.arrived > 0 && !L.aborted) {
        lk.unlock();
        fail("kernel end", "block ended while others wait in SyncAll",
             "block %u ended without reaching SyncAll #%u, which %u other block(s) wait in (the NPU would hang)",
             b.idx, b.syncAlls + 1, L.arrived);
    }
}

struct LaunchCtx {
    Launch* L;
    const std::function<void()>* body;
    size_t ubBytes;
    std::vector<uint8_t> ended;
    std::vector<uint32_t> endedSyncs;
    std::vector<std::vector<GmRecord>> lastEpoch;  // records of the barrier just passed
    std::vector<std::unique_ptr<Fiber>> fibers;    // fiber mode: one per block
};
thread_local LaunchCtx* t_ctx = nullptr;

// The block context of the running host thread. A block (a fiber) may continue
// on another host thread after SyncAll, and a compiler may keep a thread_local's
// address in a register across the switch: code that can span a SyncAll reaches
// these two only through out-of-line calls.
__attribute__((noinline, noipa)) void set_block_tls(Block* b, LaunchCtx* ctx) {
    tls_block = b;
    t_ctx = ctx;
}
__attribute__((noinline, noipa)) LaunchCtx* block_ctx() { return t_ctx; }

// The block's streaming GM stores (store_to_gm in kernel_data_copy.h) become
// visible to other host threads: before SyncAll and at the end of the block. (A
// block resumed on another host thread after SyncAll is covered by the first.)
void publish_gm_writes() {
#if defined(__SSE__)
    _mm_sfence();
#endif
}

// With L.mu held: every block waiting in SyncAll becomes runnable.
void wake_parked(Launch& L) {
    L.runnable.insert(L.runnable.end(), L.parked.begin(), L.parked.end());
    L.parked.clear();
    L.workCv.notify_all();
}

void run_block(LaunchCtx& ctx, uint32_t idx, BlockStore& store, const std::function<void()>& body) {
    Launch& L = *ctx.L;
    Block b(store);
    b.launch = &L;
    b.idx = idx;
    b.num = L.blockDim;
    b.ubReserve = L.prof.ubBytes;
    b.ubTotal = L.prof.ubBytes + 8192;
    // CANN's CPU twin lets InitBuffer reach bufferInitLen (kernel_utils_mode_cpu.h):
    // all of 2201's 192 KiB; the device checks nothing. On 3510 TOTAL_UB_SIZE is
    // TMP_UB_OFFSET (248 KiB).
    b.ubInitEnd = L.prof.npuArch == 2201 ? b.ubTotal : b.ubReserve;
    b.initcheck = L.initcheck;
    if (L.traces) b.trace = &(*L.traces)[idx];
    b.hz.set_auto_sync(L.autoSync);
    // Unwritten UB reads as 0xFF bytes (NaN; what the initcheck, when switched off,
    // leaves visible). The API reserve now; the InitBuffer part when InitBuffer
    // first hands it out (queues.cpp).
    std::memset(b.ub + b.ubReserve, 0xFF, b.ubTotal - b.ubReserve);
    set_block_tls(&b, &ctx);
    try {
        body();
        end_block(L, b, ctx.ended, ctx.endedSyncs);
    } catch (const AbortLaunch&) {
    } catch (...) {
        L.record_failure(idx, std::current_exception());
        L.abort_all();
    }
    publish_gm_writes();
    set_block_tls(nullptr, nullptr);
    // Drop this block's dirty lines from the launch-wide map (reported above if any).
    if (!b.dirtyLines.empty()) {
        std::lock_guard<std::mutex> lk(L.dirtyMu);
        for (uint64_t l : b.dirtyLines) {
            auto it = L.dirtyOwner.find(l);
            if (it != L.dirtyOwner.end() && it->second == idx) {
                L.dirtyOwner.erase(it);
                L.dirtyCount.fetch_sub(1);
            }
        }
    }
    sort_gm_records(b.records);
    std::lock_guard<std::mutex> lk(L.mu);
    L.perBlock[idx] = b.ctr;
    L.perBlockOps[idx] = b.repeatsByOp;
    L.blockUsed[idx] = b.used;
    auto& rec = L.epochRecords[idx];
    rec.insert(rec.end(), b.records.begin(), b.records.end());
}

// Barrier shared by both SyncAll forms.
void barrier(const char* api, Block& b) {
    Launch& L = *b.launch;
    LaunchCtx& ctx = *block_ctx();
    if (b.num > L.prof.vectorCores)
        fail(api, "blockDim over the core count",
             "blockDim %u exceeds the %u vector cores of %s; inter-core sync needs every block resident at once "
             "(the NPU would hang)",
             b.num, L.prof.vectorCores, L.prof.name.c_str());
    publish_gm_writes();
    b.hz.barrier_all();
    t_sync_all(b);
    ++b.syncAlls;
    sort_gm_records(b.records);
    std::unique_lock<std::mutex> lk(L.mu);
    if (L.aborted) throw AbortLaunch{};
    if (L.ended > 0) {
        uint32_t e = 0;
        while (!ctx.ended[e]) ++e;
        const std::string what = "[ascend_sim] kernel end (block " + std::to_string(e) + "): block " +
                                 std::to_string(e) + " ended without reaching SyncAll #" +
                                 std::to_string(ctx.endedSyncs[e] + 1) + ", which block " + std::to_string(b.idx) +
                                 " waits in (the NPU would hang)";
        lk.unlock();
        L.record_failure(e, std::make_exception_ptr(
                                SimViolation("kernel end", e, "block ended while others wait in SyncAll", what)));
        L.abort_all();
        throw AbortLaunch{};
    }
    auto& mine = L.epochRecords[b.idx];
    mine.insert(mine.end(), b.records.begin(), b.records.end());
    b.records.clear();
    b.scalarReadsSeen.clear();
    ++L.arrived;
    b.hz.reset_gm();
    if (L.arrived == L.blockDim) {
        try {
            check_gm_races(api, L.epochRecords, L);
        } catch (const SimViolation& v) {
            const uint32_t blk = uint32_t(v.block());
            lk.unlock();
            L.record_failure(blk, std::current_exception());
            L.abort_all();
            throw AbortLaunch{};
        }
        ctx.lastEpoch.swap(L.epochRecords);
        L.epochRecords.assign(L.blockDim, {});
        L.arrived = 0;
        ++L.generation;
        wake_parked(L);
    } else {
        // Step aside: this host thread parks the block (run_fibers) and runs others;
        // the last block to arrive makes it runnable again.
        L.parkGen[b.idx] = L.generation;
        lk.unlock();
        ctx.fibers[b.idx]->yield();
        set_block_tls(&b, &ctx);
        lk.lock();
        if (L.aborted) throw AbortLaunch{};
    }
    lk.unlock();
    dcache_on_epoch(b, ctx.lastEpoch);
}

// A host thread's part of a fiber launch: run ready blocks until all have ended.
// A block that stepped aside in SyncAll is parked, unless the barrier opened (or
// the launch aborted) while it was stepping aside.
void run_fibers(Launch& L, LaunchCtx& ctx) {
    std::unique_lock<std::mutex> lk(L.mu);
    for (;;) {
        if (!L.runnable.empty()) {
            const uint32_t i = L.runnable.front();
            L.runnable.pop_front();
            lk.unlock();
            ctx.fibers[i]->resume();
            set_block_tls(nullptr, nullptr);
            lk.lock();
            if (ctx.fibers[i]->finished()) {
                if (++L.finished == L.blockDim) L.workCv.notify_all();
            } else if (L.parkGen[i] != L.generation || L.aborted) {
                L.runnable.push_back(i);
            } else {
                L.parked.push_back(i);
            }
            continue;
        }
        if (L.finished == L.blockDim) return;
        L.workCv.wait(lk);
    }
}
}  // namespace

void Launch::record_failure(uint32_t block, std::exception_ptr e) {
    std::lock_guard<std::mutex> lk(failMu);
    failures.emplace_back(block, e);
}

void Launch::abort_all() {
    std::lock_guard<std::mutex> lk(mu);
    aborted = true;
    wake_parked(*this);  // they see `aborted` and unwind
}

// A block polling GM for a flag (IBWait) steps aside and stays runnable: the
// other blocks run before it polls again.
void poll_yield(Block& b) {
    Launch& L = *b.launch;
    LaunchCtx& ctx = *block_ctx();
    {
        std::lock_guard<std::mutex> lk(L.mu);
        L.parkGen[b.idx] = UINT64_MAX;  // never the barrier's generation: run_fibers requeues it
    }
    ctx.fibers[b.idx]->yield();
    set_block_tls(&b, &ctx);
    std::lock_guard<std::mutex> lk(L.mu);
    if (L.aborted) throw AbortLaunch{};
}

void declare_kernel_type(int type) { cur("KERNEL_TASK_TYPE_DEFAULT").kernelType = type; }

// SyncAll.md: the hardware SyncAll of a vector operator needs a mix kernel type
// (__mix__(0, 1), KERNEL_TYPE_MIX_AIV_1_0), not a vector-only one. A documented
// fact the code does not check, and the twin sees the type only when the kernel
// declares it (the qualifiers are empty on the CPU, as in CANN's twin): a warning.
void sync_all(const char* api) {
    Block& b = cur(api);
    if (b.kernelType == 0)  // KERNEL_TYPE_AIV_ONLY
        warn_once("SyncAll/aiv-only/" + (b.launch ? b.launch->name : std::string()),
                  std::string(api) + " (block " + std::to_string(b.idx) +
                      "): the kernel declares KERNEL_TYPE_AIV_ONLY; SyncAll.md requires the hardware SyncAll of a "
                      "vector operator to run in a mix kernel (__mix__(0, 1), KERNEL_TYPE_MIX_AIV_1_0)");
    barrier(api, b);
}

void sync_all_soft(const char* api, const GmRef& gm, uint64_t gmBytes, const UbRef& ub, int32_t usedCores) {
    Block& b = cur(api);
    const uint64_t need = uint64_t(b.num) * 32;
    if (!gm.p) fail(api, "null workspace", "gmWorkspace is not set");
    if (gmBytes < need)
        fail(api, "GM workspace too small", "gmWorkspace holds %llu B; GetBlockNum() x 32 = %llu B needed",
             (unsigned long long)gmBytes, (unsigned long long)need);
    const uint64_t lo = reinterpret_cast<uint64_t>(gm.p);
    if (!gm_lookup(lo, lo + need, nullptr))
        fail(api, "GM access outside any allocation", "gmWorkspace [%s, +%llu B) is not inside one GM allocation",
             gm_describe(lo).c_str(), (unsigned long long)need);
    if (ub.dataLen < need)
        fail(api, "UB workspace too small", "ubWorkspace holds %u B; GetBlockNum() x 32 = %llu B needed", ub.dataLen,
             (unsigned long long)need);
    if (usedCores != 0 && uint32_t(usedCores) != b.num)
        fail(api, "usedCores not modelled",
             "usedCores %d (a subset of the %u blocks) is not modelled by the simulator; use 0 (all blocks)",
             usedCores, b.num);
    // dav_c220 SoftSyncAllImpl: each block adds 1 to its own 32 B GM slot and
    // waits until the slots sum to blockDim x its new value. That is a barrier only
    // if every slot held the same value on entry (zeroed before the first call).
    auto* slot = static_cast<int32_t*>(const_cast<void*>(gm.p)) + size_t(b.idx) * 8;
    const int32_t value = *slot + 1;
    {
        Launch& L = *b.launch;
        std::lock_guard<std::mutex> lk(L.mu);
        if (L.softGen != L.generation) {
            L.softGen = L.generation;
            L.softValue = value;
            L.softFirst = b.idx;
        } else if (value != L.softValue) {
            fail(api, "GM workspace slots differ",
                 "gmWorkspace slot of block %u counts to %d but block %u's counts to %d: the slots must all hold the "
                 "same value on entry (zero the workspace before the first soft SyncAll); the NPU would pass early "
                 "or hang",
                 b.idx, int(value), L.softFirst, int(L.softValue));
        }
    }
    *slot = value;
    // The soft barrier writes its flags through ubWorkspace (defined afterwards).
    if (b.initcheck) {
        const uint64_t off = uint64_t(static_cast<const uint8_t*>(ub.p) - b.ub);
        if (off < b.ubTotal) b.init.mark(off, off + need);
    }
    barrier(api, b);
}

}  // namespace detail

namespace {
thread_local LaunchCapture t_capture;
}  // namespace

void set_launch_capture(LaunchCapture capture) { t_capture = std::move(capture); }

void run_kernel(const char* name, uint32_t blockDim, const std::function<void()>& body) {
    if (t_capture && t_capture(name, blockDim, body)) return;
    run_kernel(name, blockDim, current_profile(), body);
}

void run_kernel(const char* name, uint32_t blockDim, const SocProfile& profile, const std::function<void()>& body) {
    using namespace detail;
    if (tls_block) fail("run_kernel", "nested launch", "a kernel cannot launch a kernel");
    if (blockDim < 1 || blockDim > 65535)
        throw SimViolation("run_kernel", -1, "blockDim out of range",
                           "[ascend_sim] run_kernel: blockDim " + std::to_string(blockDim) + " of " +
                               (name ? name : "?") + " is outside [1, 65535]");
    Launch L;
    L.name = name ? name : "kernel";
    L.prof = profile;
    L.blockDim = blockDim;
    L.threads = host_threads();
    L.fiberMode = blockDim <= L.prof.vectorCores;
    L.initcheck = initcheck_mode() != 0;
    L.initcheckError = initcheck_mode() == 2;
    L.pastTensor = past_tensor_mode();
    L.sameBytesRace = same_bytes_race_mode();
    L.autoSync = auto_sync_enabled();
    L.continueOnReport = continue_on_report_enabled();
    L.perBlock.assign(blockDim, {});
    L.perBlockOps.assign(blockDim, {});
    L.blockUsed.assign(blockDim, 0);
    L.epochRecords.assign(blockDim, {});
    std::vector<TimingTrace> traces;
    if (timing_enabled()) {
        traces.resize(blockDim);
        L.traces = &traces;
    }
    LaunchCtx ctx;
    ctx.L = &L;
    ctx.body = &body;
    ctx.ubBytes = L.prof.ubBytes + 8192;
    ctx.ended.assign(blockDim, 0);
    ctx.endedSyncs.assign(blockDim, 0);

    std::atomic<uint32_t> next{0};  // pool mode: the next block to run (outlives the tasks)
    uint32_t tasks = std::min(L.threads, blockDim);  // under doneMu once a task runs
    uint32_t finished = 0;
    std::mutex doneMu;
    std::condition_variable doneCv;
    // The last thing a task does: after it, the task touches nothing of this frame.
    auto finish = [&] {
        std::lock_guard<std::mutex> lk(doneMu);
        if (++finished == tasks) doneCv.notify_all();
    };
    // Submits `count` copies of `task`; when a host thread cannot be created, the launch
    // goes on with the tasks that started (`tasks` counts them, plus `inline_` run by
    // the calling thread), which then run every block: the frame they use is waited for.
    std::string threadError;
    auto start = [&](uint32_t count, uint32_t inline_, const std::function<void()>& task) {
        uint32_t started = 0;
        try {
            for (; started < count; ++started) BlockThreads::get().submit(task);
        } catch (const std::exception& e) {
            threadError = e.what();
        }
        std::lock_guard<std::mutex> lk(doneMu);
        tasks = started + inline_;
        if (started < count) L.threads = tasks;  // the launch statistics say how many ran it
    };
    if (L.fiberMode) {
        ctx.fibers.reserve(blockDim);
        for (uint32_t i = 0; i < blockDim; ++i)
            // Two words of capture: std::function keeps them without allocating.
            ctx.fibers.push_back(std::make_unique<Fiber>([c = &ctx, i] {
                try {
                    HeldStore store(c->ubBytes);
                    run_block(*c, i, *store.s, *c->body);
                } catch (...) {  // nothing may leave a fiber (UB allocation failure)
                    c->L->record_failure(i, std::current_exception());
                    c->L->abort_all();
                }
            }));
        L.parkGen.assign(blockDim, 0);
        L.parked.reserve(blockDim);
        for (uint32_t i = 0; i < blockDim; ++i) L.runnable.push_back(i);
        // The calling thread is one of the host threads (blocks run on fiber stacks,
        // so its own stack size does not matter): a one-block launch wakes no thread.
        start(tasks - 1, 1, [&] {
            run_fibers(L, ctx);
            finish();
        });
        run_fibers(L, ctx);
        finish();
    } else {
        start(tasks, 0, [&] {
            {
                HeldStore store(ctx.ubBytes);
                for (uint32_t i; (i = next.fetch_add(1)) < blockDim;) run_block(ctx, i, *store.s, body);
            }
            finish();
        });
        if (tasks == 0)  // nothing started, nothing to wait for
            throw std::runtime_error("[ascend_sim] run_kernel: no host thread could be created to run the " +
                                     std::to_string(blockDim) + " blocks of " + L.name + " (" + threadError + ")");
    }
    {
        std::unique_lock<std::mutex> lk(doneMu);
        doneCv.wait(lk, [&] { return finished == tasks; });
    }

    if (L.failures.empty()) {
        try {
            check_gm_races("kernel end", L.epochRecords, L);
        } catch (const SimViolation& v) {
            L.failures.emplace_back(uint32_t(v.block()), std::current_exception());
        }
    }

    LaunchStats s;
    s.kernel = L.name;
    s.soc = L.prof.name;
    s.blockDim = blockDim;
    s.hostThreads = L.threads;
    for (uint32_t i = 0; i < blockDim; ++i) {
        s.total += L.perBlock[i];
        s.blocksUsed += L.blockUsed[i];
    }
    s.perBlock = std::move(L.perBlock);
    // A kernel whose body the preprocessor emptied (an A2 path under a macro the build
    // did not define) runs, writes nothing and would otherwise say nothing.
    if (L.failures.empty() && !s.total.gmWriteBytes && !s.total.scalarGmWrites)
        warn_once("no GM write|" + L.name, L.name + ": no block of the " + std::to_string(blockDim) +
                                               " wrote to GM: the launch produced no output (is the kernel's "
                                               "body compiled out, e.g. under #if __CCE_AICORE__ == 220?)");
    t_last.stats = std::move(s);
    t_last.ops = std::move(L.perBlockOps);
    t_recentTotals.push(last_launch_total());
    print_continued(L);
    t_last.reports = std::move(L.reports);
    if (L.failures.empty() && L.traces) timing_launch_end(std::move(traces), L.name, L.prof.name);
    else timing_launch_untimed();

    if (!L.failures.empty()) {
        auto lowest = std::min_element(L.failures.begin(), L.failures.end(),
                                       [](const auto& a, const auto& b) { return a.first < b.first; });
        std::rethrow_exception(lowest->second);
    }
}

std::vector<ContinuedReport> last_launch_reports() { return detail::t_last.reports; }

std::vector<KernelCounters> recent_launch_totals(size_t n) { return detail::t_recentTotals.last(n); }

uint64_t continued_report_hits() { return detail::g_continuedHits; }
uint64_t continued_report_sites() { return detail::g_continuedSites; }

LaunchStats last_launch_stats() {
    using namespace detail;
    LaunchStats s = t_last.stats;
    for (size_t b = 0; b < s.perBlock.size(); ++b) fill_by_op(s.perBlock[b], t_last.ops[b]);
    s.total = last_launch_total();
    return s;
}

}  // namespace ascend_sim

// bench_kernel: times CrossEntropyLossGrad through the aclnn two-phase API on
// the simulator against plain C++ loops over the same data, in one process,
// interleaved (so the shared, noisy host hits every contender alike):
//   ours    aclnnCrossEntropyLossGradGetWorkspaceSize + aclnnCrossEntropyLossGrad
//   exp     a host-thread-parallel loop y = exp(x) (the simulator's exp) into a preallocated
//           output of the same dtype (fp16/bf16: widen, exp, round), the floor of any single pass
//   copy    memcpy of the same bytes (x -> y), split over the same threads
//   staged  the simulator's data path with none of its checks: x copied tile by tile into
//           a UB-sized buffer, Exp and one Muls there in float (fp16/bf16: widen, round
//           back), stored back as DataCopy stores (streaming); the floor of a simulator
//           that keeps UB as a memory of its own, as the exp loop is of any single pass
// Prints the medians, the ratios and the GM traffic from the simulator's counters.
//
// usage: bench_kernel [--n N] [--c C] [--dtype fp32|fp16|bf16|all] [--ls 0,0.1] [--reps K]
//                     [--weight] [--zloss] [--reduction mean|sum|none] [--threads T] [--json] [--only-ours]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <ctime>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_cross_entropy_loss_grad.h"
#include "ascend_sim/numerics/numerics.h"
#include "ascend_sim/sim.h"
#include "bench_device_tensor.h"
#include "kernel_operator.h"

namespace {

namespace nm = ascend_sim::numerics;
using xent_bench::Dev;
using xent_bench::StoreAs;
using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); }

double CpuSeconds() {
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

double Median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Runs f(begin, end) over [0, n) split into `threads` contiguous parts.
void Parallel(size_t n, unsigned threads, const std::function<void(size_t, size_t)>& f) {
    std::vector<std::thread> ts;
    for (unsigned k = 1; k < threads; ++k) ts.emplace_back([&, k] { f(n * k / threads, n * (k + 1) / threads); });
    f(0, n / threads);
    for (auto& t : ts) t.join();
}

// y[0, n) = exp(x), times `scale` when given, in float (fp16/bf16: a block at a time
// widened, exp, [Muls,] rounded back, as the kernel's Cast/Exp/Muls/Cast).
template <class T>
void ExpSpan(const T* x, T* y, size_t n, const float* scale) {
    if constexpr (std::is_same_v<T, float>) {
        nm::exp(y, x, n);
        if (scale) nm::muls(y, y, *scale, n);
    } else {
        constexpr size_t kB = 4096;
        alignas(64) float buf[kB];
        for (size_t i = 0; i < n; i += kB) {
            const size_t m = std::min(kB, n - i);
            nm::cast(buf, x + i, m, AscendC::RoundMode::CAST_NONE);
            nm::exp(buf, buf, m);
            if (scale) nm::muls(buf, buf, *scale, m);
            nm::cast(y + i, buf, m, AscendC::RoundMode::CAST_RINT);
        }
    }
}

template <class T>
void ExpChunk(const T* x, T* y, size_t lo, size_t hi) {
    ExpSpan(x + lo, y + lo, hi - lo, nullptr);
}

template <class T>
void StagedChunk(const T* x, T* y, size_t lo, size_t hi) {
    constexpr size_t kTile = 16384;  // elements: the kernel's tiles are 10-37 thousand
    constexpr float kScale = 0.5f;
    std::vector<T> inBuf(kTile), outBuf(kTile);
    for (size_t t = lo; t < hi; t += kTile) {
        const size_t m = std::min(kTile, hi - t);
        std::memcpy(inBuf.data(), x + t, m * sizeof(T));
        ExpSpan(inBuf.data(), outBuf.data(), m, &kScale);
        AscendC::sim_copy::store_to_gm(reinterpret_cast<uint8_t*>(y + t),
                                       reinterpret_cast<const uint8_t*>(outBuf.data()), m * sizeof(T));
    }
}

struct Case {
    int64_t n = 4096, c = 32000;
    aclDataType dt = ACL_FLOAT;
    double ls = 0.0;
    bool weight = false, zloss = false;
    std::string reduction = "mean";
};

const char* DtName(aclDataType d) { return d == ACL_FLOAT ? "fp32" : d == ACL_FLOAT16 ? "fp16" : "bf16"; }

struct Result {
    double ours = 0, expT = 0, copyT = 0, stagedT = 0, oursMin = 0, oursCpu = 0;
    uint64_t readBytes = 0, writeBytes = 0;
    uint32_t blockDim = 0;
};

bool g_onlyOurs = false;  // --only-ours: skip the exp/copy/staged loops (for profiling)

Result RunCase(const Case& k, int reps, unsigned threads) {
    const int64_t N = k.n, C = k.c;
    const bool none = k.reduction == "none";
    const std::vector<int64_t> gshape = none ? std::vector<int64_t>{N} : std::vector<int64_t>{};
    Dev gradLoss(gshape, k.dt), logProb({N, C}, k.dt), target({N}, ACL_INT64), out({N, C}, k.dt);
    Dev weight({C}, ACL_FLOAT), gradZ(gshape, k.dt), lse({N}, k.dt);
    Dev expOut({N, C}, k.dt);
    std::mt19937_64 rng(42);
    std::uniform_real_distribution<float> lp(-12.0f, -8.0f), u(0.0f, 1.0f);
    // logProb: fill in parallel-friendly blocks (random values take time; a pattern would do but be unfair to exp)
    {
        std::vector<float> pool(1 << 16);
        for (auto& v : pool) v = lp(rng);
        const size_t total = size_t(N) * size_t(C);
        Parallel(total, threads, [&](size_t lo, size_t hi) {
            for (size_t i = lo; i < hi; ++i) StoreAs(k.dt, logProb.p, i, pool[(i * 2654435761u) & 0xFFFF]);
        });
    }
    for (int64_t i = 0; i < N; ++i) static_cast<int64_t*>(target.p)[i] = int64_t(rng() % uint64_t(C));
    for (int64_t i = 0; i < (none ? N : 1); ++i) {
        StoreAs(k.dt, gradLoss.p, size_t(i), 1.0f);
        StoreAs(k.dt, gradZ.p, size_t(i), 0.5f);
    }
    for (int64_t j = 0; j < C; ++j) static_cast<float*>(weight.p)[j] = 0.5f + u(rng);
    for (int64_t i = 0; i < N; ++i) StoreAs(k.dt, lse.p, size_t(i), 10.0f + u(rng));

    std::string red = k.reduction;
    void* ws = nullptr;
    uint64_t wsCap = 0;
    auto ours = [&]() {
        uint64_t wsSize = 0;
        aclOpExecutor* exec = nullptr;
        aclnnStatus st = aclnnCrossEntropyLossGradGetWorkspaceSize(
            gradLoss.t, logProb.t, target.t, k.weight ? weight.t : nullptr, k.zloss ? gradZ.t : nullptr,
            k.zloss ? lse.t : nullptr, red.data(), -100, k.ls, k.zloss ? 1e-4 : 0.0, out.t, &wsSize, &exec);
        if (st != ACLNN_SUCCESS) {
            std::fprintf(stderr, "phase 1: %d %s\n", st, aclGetRecentErrMsg());
            std::exit(1);
        }
        if (wsSize > wsCap) {
            if (ws) aclrtFree(ws);
            aclrtMalloc(&ws, wsSize, ACL_MEM_MALLOC_HUGE_FIRST);
            wsCap = wsSize;
        }
        st = aclnnCrossEntropyLossGrad(ws, wsSize, exec, nullptr);
        if (st != ACLNN_SUCCESS) {
            std::fprintf(stderr, "phase 2: %d %s\n", st, aclGetRecentErrMsg());
            std::exit(1);
        }
    };
    const size_t total = size_t(N) * size_t(C);
    auto expRun = [&]() {
        Parallel(total, threads, [&](size_t lo, size_t hi) {
            if (k.dt == ACL_FLOAT) ExpChunk(static_cast<const float*>(logProb.p), static_cast<float*>(expOut.p), lo, hi);
            else if (k.dt == ACL_FLOAT16) ExpChunk(static_cast<const half*>(logProb.p), static_cast<half*>(expOut.p), lo, hi);
            else ExpChunk(static_cast<const bfloat16_t*>(logProb.p), static_cast<bfloat16_t*>(expOut.p), lo, hi);
        });
    };
    const size_t es = aclDataTypeSize(k.dt);
    auto copyRun = [&]() {
        Parallel(total, threads, [&](size_t lo, size_t hi) {
            std::memcpy(static_cast<char*>(expOut.p) + lo * es, static_cast<const char*>(logProb.p) + lo * es, (hi - lo) * es);
        });
    };
    auto stagedRun = [&]() {
        Parallel(total, threads, [&](size_t lo, size_t hi) {
            if (k.dt == ACL_FLOAT) StagedChunk(static_cast<const float*>(logProb.p), static_cast<float*>(expOut.p), lo, hi);
            else if (k.dt == ACL_FLOAT16) StagedChunk(static_cast<const half*>(logProb.p), static_cast<half*>(expOut.p), lo, hi);
            else StagedChunk(static_cast<const bfloat16_t*>(logProb.p), static_cast<bfloat16_t*>(expOut.p), lo, hi);
        });
    };
    // warm-up (first touch of out/expOut pages, workspace)
    ours();
    expRun();
    copyRun();
    stagedRun();
    Result r;
    const auto stats = ascend_sim::last_launch_stats();
    std::vector<double> to, te, tc, ts, tcpu;
    for (int i = 0; i < reps; ++i) {
        const double c0 = CpuSeconds();
        auto t0 = Clock::now();
        ours();
        auto t1 = Clock::now();
        tcpu.push_back(CpuSeconds() - c0);
        if (!g_onlyOurs) expRun();
        auto t2 = Clock::now();
        if (!g_onlyOurs) copyRun();
        auto t3 = Clock::now();
        if (!g_onlyOurs) stagedRun();
        ts.push_back(Seconds(t3, Clock::now()));
        to.push_back(Seconds(t0, t1));
        te.push_back(Seconds(t1, t2));
        tc.push_back(Seconds(t2, t3));
    }
    if (ws) aclrtFree(ws);
    r.ours = Median(to);
    r.oursMin = *std::min_element(to.begin(), to.end());
    r.oursCpu = Median(tcpu);
    r.expT = Median(te);
    r.copyT = Median(tc);
    r.stagedT = Median(ts);
    r.readBytes = stats.total.gmReadBytes;
    r.writeBytes = stats.total.gmWriteBytes;
    r.blockDim = stats.blockDim;
    return r;
}

std::vector<std::string> Split(const std::string& s) {
    std::vector<std::string> v;
    size_t a = 0;
    while (a <= s.size()) {
        size_t b = s.find(',', a);
        if (b == std::string::npos) b = s.size();
        v.push_back(s.substr(a, b - a));
        a = b + 1;
    }
    return v;
}

}  // namespace

int main(int argc, char** argv) {
    Case base;
    std::string dtypes = "fp32,bf16", lss = "0,0.1";
    int reps = 5;
    unsigned threads = ascend_sim::host_threads();
    bool json = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
        if (a == "--n") base.n = std::atoll(next().c_str());
        else if (a == "--c") base.c = std::atoll(next().c_str());
        else if (a == "--dtype") dtypes = next();
        else if (a == "--ls") lss = next();
        else if (a == "--reps") reps = std::atoi(next().c_str());
        else if (a == "--weight") base.weight = true;
        else if (a == "--zloss") base.zloss = true;
        else if (a == "--reduction") base.reduction = next();
        else if (a == "--threads") threads = unsigned(std::atoi(next().c_str()));
        else if (a == "--json") json = true;
        else if (a == "--only-ours") g_onlyOurs = true;
        else {
            std::fprintf(stderr, "unknown argument %s\n", a.c_str());
            return 2;
        }
    }
    if (dtypes == "all") dtypes = "fp32,fp16,bf16";
    aclInit(nullptr);
    if (!json)
        std::printf("%-6s %-5s %-4s %6s %6s %10s %10s %10s %10s %10s %10s %8s %11s %8s %9s %8s\n", "dtype", "ls", "opts", "N",
                    "C", "ours_s", "ours_min", "ours_cpu", "exp_s", "copy_s", "staged_s", "ours/exp", "ours/staged",
                    "GB/s", "copy_GB/s", "traffic");
    for (const std::string& d : Split(dtypes)) {
        for (const std::string& l : Split(lss)) {
            Case k = base;
            k.dt = d == "fp32" ? ACL_FLOAT : d == "fp16" ? ACL_FLOAT16 : ACL_BF16;
            k.ls = std::atof(l.c_str());
            const Result r = RunCase(k, reps, threads);
            const double es = double(aclDataTypeSize(k.dt));
            const double minBytes = double(k.n) * double(k.c) * 2 * es;
            const double traffic = double(r.readBytes + r.writeBytes) / minBytes;
            std::string opts = std::string(k.weight ? "w" : "") + (k.zloss ? "z" : "");
            if (opts.empty()) opts = "-";
            if (json)
                std::printf("{\"dtype\":\"%s\",\"ls\":%g,\"weight\":%d,\"zloss\":%d,\"n\":%lld,\"c\":%lld,"
                            "\"ours_s\":%.6f,\"ours_min_s\":%.6f,\"ours_cpu_s\":%.6f,\"exp_s\":%.6f,\"copy_s\":%.6f,"
                            "\"staged_s\":%.6f,\"traffic\":%.6f,\"blockDim\":%u}\n",
                            DtName(k.dt), k.ls, k.weight, k.zloss, (long long)k.n, (long long)k.c, r.ours, r.oursMin,
                            r.oursCpu, r.expT, r.copyT, r.stagedT, traffic, r.blockDim);
            else
                std::printf("%-6s %-5g %-4s %6lld %6lld %10.4f %10.4f %10.4f %10.4f %10.4f %10.4f %8.2f %11.2f %8.2f %9.2f %8.4f\n",
                            DtName(k.dt), k.ls, opts.c_str(), (long long)k.n, (long long)k.c, r.ours, r.oursMin,
                            r.oursCpu, r.expT, r.copyT, r.stagedT, r.ours / r.expT, r.ours / r.stagedT,
                            minBytes / r.ours / 1e9, minBytes / r.copyT / 1e9, traffic);
            std::fflush(stdout);
        }
    }
    aclFinalize();
    return 0;
}

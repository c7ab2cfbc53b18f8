// Streaming speed of the simulator: a kernel that streams
// 1 GiB of float through UB in double-buffered tiles (DataCopy in, Exp, Muls,
// Adds, DataCopy out, with every check, hazard record and counter on) against
// a plain C++ loop doing the same arithmetic over the same arrays, and against
// two floors of any simulator that keeps UB as a memory of its own: the same copies
// GM -> UB buffer -> GM with no checks, the arithmetic as one pass per vector call
// (what the simulator executes) or fused into one pass over the tile.
//
//   sim_stream_speed [MiB=1024] [tileFloats=8192] [blocks=1]
//
// The plain loop runs on one thread; the simulator on one host thread
// (ASCEND_XENT_THREADS=1 semantics), so the ratio is per core. Prints the ratios;
// exits 1 only when the simulator's output differs from the plain loop's.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr float kScale = 0.75f, kBias = -1.0f;

void stream_kernel(float* x, float* y, uint64_t n, uint32_t tile) {
    const uint64_t perBlock = n / uint64_t(GetBlockNum());
    const uint64_t base = perBlock * uint64_t(GetBlockIdx());
    TPipe pipe;
    TQue<TPosition::VECIN, 2> qin;
    TQue<TPosition::VECOUT, 2> qout;
    pipe.InitBuffer(qin, 2, tile * sizeof(float));
    pipe.InitBuffer(qout, 2, tile * sizeof(float));
    GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer(x + base, perBlock);
    gy.SetGlobalBuffer(y + base, perBlock);
    for (uint64_t off = 0; off < perBlock; off += tile) {
        auto in = qin.AllocTensor<float>();
        DataCopy(in, gx[off], tile);
        qin.EnQue(in);
        auto a = qin.DeQue<float>();
        auto o = qout.AllocTensor<float>();
        Exp(o, a, int32_t(tile));
        PipeBarrier<PIPE_V>();
        Muls(o, o, kScale, int32_t(tile));
        PipeBarrier<PIPE_V>();
        Adds(o, o, kBias, int32_t(tile));
        qout.EnQue(o);
        qin.FreeTensor(a);
        auto r = qout.DeQue<float>();
        DataCopy(gy[off], r, tile);
        qout.FreeTensor(r);
    }
}

__attribute__((noinline)) void plain_loop(const float* __restrict x, float* __restrict y, uint64_t n) {
    // Same arithmetic, same exp kernel, one fused pass over memory (strips stay in
    // L1 between the exp and the affine step): the best a plain loop does.
    constexpr uint64_t kStrip = 256;
    for (uint64_t i = 0; i < n; i += kStrip) {
        const uint64_t m = n - i < kStrip ? n - i : kStrip;
        ascend_sim::numerics::detail::exp_span(y + i, x + i, m);
        for (uint64_t k = i; k < i + m; ++k) y[k] = y[k] * kScale + kBias;
    }
}

__attribute__((noinline)) void plain_loop_std(const float* __restrict x, float* __restrict y, uint64_t n) {
    for (uint64_t i = 0; i < n; ++i) y[i] = std::exp(x[i]) * kScale + kBias;
}

// The simulator's data path without its checks: each tile copied into a buffer of
// UB's size class, worked on there, and stored back the way DataCopy stores (streaming).
template <bool Fused>
__attribute__((noinline)) void staged_loop(const float* x, float* y, uint64_t n, uint32_t tile) {
    std::vector<float> inBuf(tile), outBuf(tile);
    float* __restrict in = inBuf.data();
    float* __restrict out = outBuf.data();
    for (uint64_t off = 0; off < n; off += tile) {
        std::memcpy(in, x + off, tile * sizeof(float));
        if constexpr (Fused) {
            plain_loop(in, out, tile);  // the plain loop's strips, over the tile in UB
        } else {
            ascend_sim::numerics::detail::exp_span(out, in, tile);
            for (uint32_t k = 0; k < tile; ++k) out[k] = out[k] * kScale;
            for (uint32_t k = 0; k < tile; ++k) out[k] = out[k] + kBias;
        }
        AscendC::sim_copy::store_to_gm(reinterpret_cast<uint8_t*>(y + off), reinterpret_cast<const uint8_t*>(out),
                                       tile * sizeof(float));
    }
}

template <class F>
double seconds(F f) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

int main(int argc, char** argv) {
    const uint64_t mib = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1024;
    const uint32_t tile = argc > 2 ? uint32_t(std::strtoul(argv[2], nullptr, 10)) : 8192;
    const uint32_t blocks = argc > 3 ? uint32_t(std::strtoul(argv[3], nullptr, 10)) : 1;
    const uint64_t n = mib * 1024 * 1024 / sizeof(float) / (uint64_t(tile) * blocks) * (uint64_t(tile) * blocks);
    float* x = static_cast<float*>(ascend_sim::gm_alloc(n * sizeof(float), "x"));
    float* y = static_cast<float*>(ascend_sim::gm_alloc(n * sizeof(float), "y"));
    std::vector<float> ref(n);
    for (uint64_t i = 0; i < n; ++i) x[i] = -float(i % 1000) * 0.01f;
    ascend_sim::set_threads(1);

    // Warm both paths once on a slice, then time the full stream (best of 3).
    double tSim = 1e30, tPlain = 1e30, tStd = 1e30, tPasses = 1e30, tFused = 1e30;
    for (int rep = 0; rep < 3; ++rep) {
        tSim = std::min(tSim, seconds([&] {
                            ascend_sim::run_kernel("stream", blocks, [&] { stream_kernel(x, y, n, tile); });
                        }));
        tPlain = std::min(tPlain, seconds([&] { plain_loop(x, ref.data(), n); }));
        tStd = std::min(tStd, seconds([&] { plain_loop_std(x, ref.data(), n); }));
        tPasses = std::min(tPasses, seconds([&] { staged_loop<false>(x, ref.data(), n, tile); }));
        tFused = std::min(tFused, seconds([&] { staged_loop<true>(x, ref.data(), n, tile); }));
    }
    plain_loop(x, ref.data(), n);
    uint64_t mismatches = 0;
    for (uint64_t i = 0; i < n; ++i) mismatches += y[i] != ref[i];
    const auto s = ascend_sim::last_launch_stats();
    const double gib = double(n * sizeof(float)) / (1u << 30);
    std::printf("stream %.2f GiB in %u-float tiles, %u block(s) on 1 host thread\n", gib, tile, blocks);
    std::printf("  simulator:            %.3f s  (%.2f GiB/s in)  %llu DMA, %llu vector instr, %llu repeats\n", tSim,
                gib / tSim, (unsigned long long)(s.total.dmaIn + s.total.dmaOut),
                (unsigned long long)s.total.vectorInstructions, (unsigned long long)s.total.vectorRepeats);
    std::printf("  plain loop (same exp): %.3f s\n", tPlain);
    std::printf("  plain loop (std::exp): %.3f s\n", tStd);
    std::printf("  through a UB buffer, no checks: %.3f s one pass per vector call, %.3f s fused\n", tPasses,
                tFused);
    std::printf("  ratio sim / plain loop = %.2f  (sim / std::exp loop = %.2f); outputs differ in %llu elements\n",
                tSim / tPlain, tSim / tStd, (unsigned long long)mismatches);
    std::printf("  floors / plain loop: %.2f one pass per vector call, %.2f fused; sim / one pass per call = %.2f\n",
                tPasses / tPlain, tFused / tPlain, tSim / tPasses);
    ascend_sim::gm_free(x);
    ascend_sim::gm_free(y);
    return mismatches == 0 ? 0 : 1;  // a benchmark: only wrong outputs fail it
}

// Speed of the simulator's hot numeric loops over 64 MiB of floats, to show
// they vectorise: exp vs a plain std::exp loop, the float <-> bf16/half casts,
// ReduceSum. Prints the best of a few runs as GB/s of source data read.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "ascend_sim/numerics/numerics.h"

namespace nm = ascend_sim::numerics;

template <class F>
static double best_seconds(F f, int runs = 5) {
    double best = 1e30;
    for (int r = 0; r < runs; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        f();
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        best = s < best ? s : best;
    }
    return best;
}

static void report(const char* what, double bytes, double s) {
    std::printf("%-28s %8.2f ms  %7.2f GB/s\n", what, s * 1e3, bytes / s / 1e9);
}

int main() {
    const size_t n = (64u << 20) / sizeof(float);
    std::vector<float> x(n), y(n);
    std::vector<bfloat16_t> b(n);
    std::vector<half> h(n);
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> dist(-20.0f, 20.0f);
    for (auto& v : x) v = dist(rng);
    const double fb = double(n) * sizeof(float), hb = double(n) * 2;

    report("exp (ascend_sim)", fb, best_seconds([&] { nm::exp(y.data(), x.data(), n); }));
    report("exp (std::exp loop)", fb, best_seconds([&] {
               for (size_t i = 0; i < n; ++i) y[i] = std::exp(x[i]);
           }));
    report("exp in place", fb, best_seconds([&] { nm::exp(y.data(), y.data(), n); }));
    for (auto& v : y) v = std::fabs(v) + 1e-3f;
    report("ln (ascend_sim)", fb, best_seconds([&] { nm::ln(x.data(), y.data(), n); }));
    for (auto& v : x) v = dist(rng);
    report("cast float->bf16 RINT", fb, best_seconds([&] { nm::cast(b.data(), x.data(), n, AscendC::RoundMode::CAST_RINT); }));
    report("cast bf16->float", hb, best_seconds([&] { nm::cast(y.data(), b.data(), n, AscendC::RoundMode::CAST_NONE); }));
    report("cast float->half RINT", fb, best_seconds([&] { nm::cast(h.data(), x.data(), n, AscendC::RoundMode::CAST_RINT); }));
    report("cast half->float", hb, best_seconds([&] { nm::cast(y.data(), h.data(), n, AscendC::RoundMode::CAST_NONE); }));
    report("cast float->half ODD", fb, best_seconds([&] { nm::cast(h.data(), x.data(), n, AscendC::RoundMode::CAST_ODD); }));
    report("muls float in place", fb, best_seconds([&] { nm::muls(y.data(), y.data(), 0.5f, n); }));
    report("add half", hb * 2, best_seconds([&] { nm::add(h.data(), h.data(), h.data() , n); }));
    volatile float sink = 0;
    report("reduce_sum float", fb, best_seconds([&] { sink = nm::reduce_sum(x.data(), n); }));
    report("reduce_sum half", hb, best_seconds([&] { sink = float(nm::reduce_sum(h.data(), n)); }));
    float mv;
    uint32_t idx;
    volatile uint32_t isink = 0;
    x[n / 2] = 1e9f;  // the max sits mid-way, so the index scan is not trivially short
    report("reduce_max float", fb, best_seconds([&] { nm::reduce_max(x.data(), n, mv, idx); isink = idx + uint32_t(mv); }));
    (void)isink;
    (void)sink;
    return 0;
}

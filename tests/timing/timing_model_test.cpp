// The timing model's rules, each on a small kernel of its own: UB bank beats as the
// 2201 bank-conflict guide's examples state them, waits that delay the waiting pipe,
// double buffering that overlaps copies with compute, HBM shared by the cores, L2
// hits on data read again and none under CACHE_MODE_DISABLE, and the profile and
// trace outputs.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "../cpp/xtest.h"
#include "kernel_operator.h"
#include "timing_cases.h"
#include "timing_trace.h"  // sim/src: bank_beats

namespace {
using ascend_sim::detail::bank_beats;
using ascend_sim::detail::VecOperand;

struct TimingOn {
    TimingOn() { ascend_sim::set_timing(1); }
    ~TimingOn() { ascend_sim::set_timing(-1); }
};

// Copies n halves in and out `rounds` times per block; compute: an Add in between.
void stream_block(GM_ADDR src, GM_ADDR dst, uint32_t n, uint32_t rounds, bool compute, bool doubleBuffer,
                  bool bypass) {
    AscendC::GlobalTensor<half> g, o;
    const uint64_t per = uint64_t(n) * rounds;
    g.SetGlobalBuffer((__gm__ half*)src + AscendC::GetBlockIdx() * uint64_t(n), n);
    o.SetGlobalBuffer((__gm__ half*)dst + AscendC::GetBlockIdx() * per, per);
    if (bypass) g.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);
    const uint32_t sets = doubleBuffer ? 2 : 1;
    for (uint32_t r = 0; r < rounds; ++r) {
        const int32_t s = int32_t(r % sets);
        AscendC::LocalTensor<half> a(AscendC::TPosition::VECCALC, uint32_t(s) * 2 * n * 2, n);
        AscendC::LocalTensor<half> b(AscendC::TPosition::VECCALC, uint32_t(s) * 2 * n * 2 + n * 2, n);
        if (r >= sets) AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(s);
        AscendC::DataCopy(a, g, n);
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(s);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(s);
        if (r >= sets) AscendC::WaitFlag<AscendC::HardEvent::MTE3_V>(s);
        if (compute) AscendC::Exp(b, a, n);
        else AscendC::Adds(b, a, half(1.0f), n);
        AscendC::SetFlag<AscendC::HardEvent::V_MTE2>(s);
        AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(s);
        AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(s);
        AscendC::DataCopy(o[uint64_t(r) * n], b, n);
        AscendC::SetFlag<AscendC::HardEvent::MTE3_V>(s);
    }
    for (uint32_t s = 0; s < std::min(sets, rounds); ++s) {
        AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(int32_t(s));
        AscendC::WaitFlag<AscendC::HardEvent::MTE3_V>(int32_t(s));
    }
}

ascend_sim::LaunchTiming stream(uint32_t blocks, uint32_t n, uint32_t rounds, bool compute, bool doubleBuffer,
                                bool bypass = false) {
    DeviceBuffer<half> in(size_t(blocks) * n), out(size_t(blocks) * n * rounds);
    for (size_t i = 0; i < in.size(); ++i) in[i] = half(0.25f);
    ascend_sim::GmRegion ri(in.data(), in.size() * 2, "in"), ro(out.data(), out.size() * 2, "out");
    auto* s = reinterpret_cast<GM_ADDR>(in.data());
    auto* d = reinterpret_cast<GM_ADDR>(out.data());
    TimingOn on;
    ascend_sim::run_kernel("stream", blocks, [&] { stream_block(s, d, n, rounds, compute, doubleBuffer, bypass); });
    return ascend_sim::last_launch_timing();
}

std::string read_file(const std::string& path) {
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

}  // namespace

// 避免bank冲突（NPU架构版本2201）.md: 0x10000 is bank 16, 0x10020 bank 17, 0x20020 bank 33.
XTEST(bank_beats_follow_the_documented_examples) {
    const VecOperand rwApart[] = {{0x10020, 32, 1, false}, {0x10000, 32, 1, true}};
    XCHECK_EQ(bank_beats(rwApart, 2), 1u);  // src bank 17, dst bank 16: no conflict
    const VecOperand rwSameBank[] = {{0x10020, 32, 1, false}, {0x10E20, 32, 1, true}};
    XCHECK_EQ(bank_beats(rwSameBank, 2), 2u);  // both bank 17: a read-write conflict
    const VecOperand oneGroup[] = {{0x1FE00, 256, 16, true}};
    XCHECK_EQ(bank_beats(oneGroup, 1), 8u);  // 8 blocks 512 B apart: one bank group, 8 beats
    const VecOperand twoGroups[] = {{0x1FE00, 256, 8, true}};
    XCHECK_EQ(bank_beats(twoGroups, 1), 4u);  // 256 B apart: block0 and block2 share a group, 4 beats
    const VecOperand rrSameGroup[] = {{0x10020, 32, 1, false}, {0x20020, 32, 1, false}};
    XCHECK_EQ(bank_beats(rrSameGroup, 2), 2u);  // banks 17 and 33: one group, a read-read conflict
    const VecOperand rrApart[] = {{0x10020, 32, 1, false}, {0x10000, 32, 1, false}};
    XCHECK_EQ(bank_beats(rrApart, 2), 1u);
    // add_high_performance's case 5 and 6 ping layouts (x, y read; z written).
    const VecOperand case5[] = {{0, 256, 1, false}, {32768, 256, 1, false}, {65536, 256, 1, true}};
    XCHECK_EQ(bank_beats(case5, 3), 2u);
    const VecOperand case6[] = {{0, 256, 1, false}, {32512, 256, 1, false}, {131072, 256, 1, true}};
    XCHECK_EQ(bank_beats(case6, 3), 1u);
}

XTEST(timing_is_off_unless_asked) {
    DeviceBuffer<half> in(4096), out(4096);
    ascend_sim::GmRegion ri(in.data(), 8192, "in"), ro(out.data(), 8192, "out");
    for (size_t i = 0; i < in.size(); ++i) in[i] = half(0.0f);
    ascend_sim::run_kernel("untimed", 1, [&] {
        stream_block(reinterpret_cast<GM_ADDR>(in.data()), reinterpret_cast<GM_ADDR>(out.data()), 4096, 1, false,
                     false, false);
    });
    XCHECK(!ascend_sim::last_launch_timing().valid);
    XCHECK(!ascend_sim::last_launch_recording());
}

XTEST(a_wait_holds_the_pipe_that_waits) {
    // One block, one round: the vector op waits for the copy-in, the copy-out for the vector op.
    const ascend_sim::LaunchTiming t = stream(1, 16384, 1, true, false);
    XCHECK(t.valid);
    XCHECK(t.busy.mte2 > 0 && t.busy.vec > 0 && t.busy.mte3 > 0);
    XCHECK(t.aivTimeUs >= t.busy.mte2 + t.busy.vec + t.busy.mte3 - 1e-9);
    XCHECK(t.taskDurationUs > t.aivTimeUs);
}

XTEST(double_buffering_overlaps_copies_with_compute) {
    const ascend_sim::LaunchTiming single = stream(1, 8192, 16, true, false);
    const ascend_sim::LaunchTiming twice = stream(1, 8192, 16, true, true);
    // The same work, so the same busy time per pipe ...
    XCHECK(std::fabs(single.busy.vec - twice.busy.vec) < 1e-6 * single.busy.vec);
    // ... but with two buffer sets the next copy-in runs during the compute.
    XCHECK(twice.aivTimeUs < 0.9 * single.aivTimeUs);
    XCHECK(twice.aivTimeUs < single.busy.mte2 + single.busy.vec + single.busy.mte3);
}

XTEST(set_timing_takes_minus_one_zero_or_one) {
    XCHECK_THROWS_WITH(ascend_sim::set_timing(7), "set_timing(7): not -1, 0 or 1");
    XCHECK_THROWS_WITH(ascend_sim::set_timing(-2), "set_timing(-2)");
}

XTEST(an_unknown_soc_has_no_timing_params) {
    XCHECK_THROWS_WITH(ascend_sim::timing_params("ascend910"), "timing_params: unknown SoC profile \"ascend910\"");
    XCHECK_THROWS_WITH(ascend_sim::timing_params(""), "unknown SoC profile");
}

XTEST(the_cores_share_the_hbm) {
    const ascend_sim::LaunchTiming one = stream(1, 16384, 8, false, true, true);
    const ascend_sim::LaunchTiming many = stream(48, 16384, 8, false, true, true);
    const ascend_sim::TimingParams p = ascend_sim::timing_params("ascend910b");
    const double bytes = 8.0 * 16384 * 2, cyclesPerUs = p.clockHz / 1e6;
    // One core alone reads at most at its own rate; 48 at once at most at the HBM's.
    XCHECK(bytes / (one.busy.mte2 * cyclesPerUs) <= p.coreReadBytesPerCycle * 1.0001);
    double slowest = 0;
    for (const auto& b : many.blocks) slowest = std::max(slowest, b.busy.mte2);
    XCHECK(48 * bytes / (slowest * cyclesPerUs) <= p.hbmBytesPerCycle * 1.0001);
    XCHECK(48 * p.coreReadBytesPerCycle > p.hbmBytesPerCycle);  // so sharing shows
    XCHECK(many.busy.mte2 > one.busy.mte2);
    XCHECK_EQ(many.blocks.size(), size_t(48));
}

XTEST(data_read_again_hits_the_l2_unless_it_bypasses) {
    // Each round reads the same 32 KB again: after the first, from the L2.
    const ascend_sim::LaunchTiming cached = stream(4, 16384, 8, false, false);
    XCHECK_EQ(cached.hbmReadBytes, uint64_t(4) * 16384 * 2);
    XCHECK_EQ(cached.l2HitBytes, uint64_t(4) * 7 * 16384 * 2);
    const ascend_sim::LaunchTiming bypass = stream(4, 16384, 8, false, false, true);
    XCHECK_EQ(bypass.l2HitBytes, uint64_t(0));
    XCHECK_EQ(bypass.hbmReadBytes, uint64_t(4) * 8 * 16384 * 2);
    XCHECK(bypass.busy.mte2 > cached.busy.mte2);
}

XTEST(retime_replays_the_same_launch_with_other_constants) {
    const ascend_sim::LaunchTiming t = stream(2, 8192, 4, true, true);
    const auto rec = ascend_sim::last_launch_recording();
    XCHECK(rec != nullptr);
    ascend_sim::TimingParams p = ascend_sim::timing_params("ascend910b");
    const ascend_sim::LaunchTiming same = ascend_sim::retime(*rec, p);
    XCHECK(std::fabs(same.taskDurationUs - t.taskDurationUs) < 1e-9 * t.taskDurationUs);
    p.clockHz *= 2;
    XCHECK(std::fabs(ascend_sim::retime(*rec, p).aivTimeUs - t.aivTimeUs / 2) < 1e-6 * t.aivTimeUs);
    XCHECK(std::fabs(ascend_sim::last_launch_timing().taskDurationUs - t.taskDurationUs) < 1e-9 * t.taskDurationUs);
}

XTEST(retime_refuses_constants_that_make_no_time) {
    stream(1, 4096, 2, true, true);
    const auto rec = ascend_sim::last_launch_recording();
    ascend_sim::TimingParams p = ascend_sim::timing_params("ascend910b");
    p.clockHz = 0;
    XCHECK_THROWS_WITH(ascend_sim::retime(*rec, p), "TimingParams::clockHz = 0");
    p = ascend_sim::timing_params("ascend910b");
    p.hbmBytesPerCycle = -1;
    XCHECK_THROWS_WITH(ascend_sim::retime(*rec, p), "TimingParams::hbmBytesPerCycle");
    p = ascend_sim::timing_params("ascend910b");
    p.readLatencyCycles = std::nan("");
    XCHECK_THROWS_WITH(ascend_sim::retime(*rec, p), "TimingParams::readLatencyCycles");
    p = ascend_sim::timing_params("ascend910b");
    p.dmaIssueCycles = 0;  // a free cost is a valid setting
    XCHECK(std::isfinite(ascend_sim::retime(*rec, p).taskDurationUs));
}

XTEST(profile_line_and_trace_files) {
    const std::string prof = "timing_model_test_profile.jsonl", trace = "timing_model_test_trace.json";
    std::remove(prof.c_str());
    setenv("ASCEND_XENT_PROFILE", prof.c_str(), 1);
    setenv("ASCEND_XENT_TRACE", trace.c_str(), 1);
    XCHECK(ascend_sim::timing_enabled());
    DeviceBuffer<half> in(3 * 4096), out(3 * 4096);
    for (size_t i = 0; i < in.size(); ++i) in[i] = half(0.0f);
    ascend_sim::GmRegion ri(in.data(), in.size() * 2, "in"), ro(out.data(), out.size() * 2, "out");
    for (int k = 0; k < 2; ++k)
        ascend_sim::run_kernel("user_kernel", 3, [&] {
            stream_block(reinterpret_cast<GM_ADDR>(in.data()), reinterpret_cast<GM_ADDR>(out.data()), 4096, 1, true,
                         false, false);
        });
    unsetenv("ASCEND_XENT_PROFILE");
    unsetenv("ASCEND_XENT_TRACE");
    const std::string lines = read_file(prof);
    XCHECK_EQ(std::count(lines.begin(), lines.end(), '\n'), 2);  // one line per launch
    for (const char* field : {"\"kernel\": \"user_kernel\"", "\"block_dim\": 3", "\"task_duration_us\"",
                              "\"aiv_time_us\"", "\"aiv_vec_time_us\"", "\"aiv_scalar_time_us\"", "\"aiv_mte2_time_us\"",
                              "\"aiv_mte3_time_us\"", "\"aiv_vec_ratio\"", "\"aiv_mte2_ratio\"", "\"blocks\": [{\"block\": 0"})
        XCHECK(lines.find(field) != std::string::npos);
    const std::string t = read_file(trace);
    XCHECK(t.find("\"traceEvents\"") != std::string::npos);
    XCHECK(t.find("\"name\": \"block 2\"") != std::string::npos);
    XCHECK(t.find("MTE2 (GM->UB)") != std::string::npos);
    XCHECK(t.find("\"name\": \"Exp\"") != std::string::npos);
    std::remove(prof.c_str());
    std::remove(trace.c_str());
}

// An access past its tensor's end in memory that exists. A vector instruction reads
// whole repeats (A2's Compare reads 256 B of each source per repeat whatever its count
// or mask), so a Compare of a tensor smaller than a repeat reads up to 224 B past it;
// inside UB the device reads whatever the bytes hold and the kernel discards the lanes
// made from them. A GM access past SetGlobalBuffer's size inside its allocation is made
// too. A repeated form's dst written past its tensor inside UB (a Brcb whose last
// repeat spills into the next buffer, which the kernel rewrites before reading it) is
// made by the device as well, and so is a count form's dst written past its tensor. All
// are warnings (ASCEND_XENT_PAST_TENSOR=error makes them stops); an access past the end
// of UB stops.
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "xtest.h"

using namespace AscendC;
using ascend_sim::run_kernel;
using sim_test::sync;

namespace {
void one(const std::function<void()>& body) { run_kernel("past_tensor", 1, body); }

// x[i] = i, y[i] = 3.5 (8 floats each, one 32 B TBuf each), then Compare(LT) of one
// repeat through `compare`: bits 0..3 set, 4..7 clear. Returns the first mask byte.
uint8_t compare_small(const std::function<void(const LocalTensor<uint8_t>&, const LocalTensor<float>&,
                                               const LocalTensor<float>&)>& compare) {
    uint8_t bits = 0xAA;
    one([&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a, b, m;
        pipe.InitBuffer(a, 32);
        pipe.InitBuffer(b, 32);
        pipe.InitBuffer(m, 32);
        LocalTensor<float> x = a.Get<float>(), y = b.Get<float>();
        LocalTensor<uint8_t> mask = m.Get<uint8_t>();
        for (uint32_t i = 0; i < 8; ++i) {
            x.SetValue(i, float(i));
            y.SetValue(i, 3.5f);
        }
        sync<HardEvent::S_V>();
        compare(mask, x, y);
        sync<HardEvent::V_S>();
        bits = mask.GetValue(0);
    });
    return bits;
}
}  // namespace

XTEST(compare_count_form_on_a_small_tensor_warns_and_computes) {
    uint8_t bits = 0;
    const std::string err = sim_test::captured(stderr, [&] {
        bits = compare_small([](const LocalTensor<uint8_t>& mask, const LocalTensor<float>& x,
                                const LocalTensor<float>& y) {
            Compare(mask, x, y, CMPMODE::LT, 64);  // count x 4 B must be whole 256 B repeats
        });
    });
    XCHECK_EQ(int(bits), 0x0F);
    XCHECK(err.find("[ascend_sim] warning: Compare (block 0): read past the tensor: src0 reads UB [0x0000, 0x0100) "
                    "(256 B), 224 B past the end of its tensor (32 B); UB 0x0020 is in the TBuf of InitBuffer") !=
           std::string::npos);
    XCHECK(err.find("ASCEND_XENT_PAST_TENSOR=error stops here") != std::string::npos);
}

XTEST(compare_highdim_ignores_its_mask_and_reads_the_whole_repeat) {
    const uint8_t bits = compare_small([](const LocalTensor<uint8_t>& mask, const LocalTensor<float>& x,
                                          const LocalTensor<float>& y) {
        // mask 8: reserved on A2, the repeat's 64 elements are compared
        Compare(mask, x, y, CMPMODE::LT, uint64_t(8), 1, {1, 1, 1, 8, 8, 8});
    });
    XCHECK_EQ(int(bits), 0x0F);
}

XTEST(error_level_stops) {
    const sim_test::PastTensor error(2);
    XCHECK_THROWS_WITH(compare_small([](const LocalTensor<uint8_t>& mask, const LocalTensor<float>& x,
                                        const LocalTensor<float>& y) { Compare(mask, x, y, CMPMODE::LT, 64); }),
                       "Compare (block 0): read past the tensor: src0 reads UB [0x0000, 0x0100) (256 B), 224 B past "
                       "the end of its tensor (32 B)");
    XCHECK_THROWS_WITH(compare_small([](const LocalTensor<uint8_t>& mask, const LocalTensor<float>& x,
                                        const LocalTensor<float>& y) {
                           Compare(mask, x, y, CMPMODE::LT, uint64_t(8), 1, {1, 1, 1, 8, 8, 8});
                       }),
                       "Compare (block 0): read past the tensor: src0 reads UB [0x0000, 0x0100) (256 B)");
}

XTEST(level_0_is_silent) {
    const sim_test::PastTensor off(0);
    const std::string err = sim_test::captured(stderr, [] {
        compare_small([](const LocalTensor<uint8_t>& mask, const LocalTensor<float>& x, const LocalTensor<float>& y) {
            CompareScalar(mask, x, 3.5f, CMPMODE::LT, 64);
        });
    });
    XCHECK(err.find("read past the tensor") == std::string::npos);
}

XTEST(a_read_past_the_end_of_ub_stops) {
    XCHECK_THROWS_WITH(one([] {
                           // the last 32 B of the 192 KiB UB
                           LocalTensor<float> x(TPosition::VECCALC, 192 * 1024 - 32, 8), y(TPosition::VECCALC, 0, 8);
                           LocalTensor<uint8_t> mask(TPosition::VECCALC, 64, 32);
                           Duplicate(x, 1.0f, 8);
                           Duplicate(y, 1.0f, 8);
                           PipeBarrier<PIPE_V>();
                           Compare(mask, x, y, CMPMODE::LT, 64);
                       }),
                       "Compare (block 0): src0 reads UB [0x2ffe0, 0x300e0) (256 B), past the end of the UB (0x30000)");
}

// A count form's count beyond its dst: A2's count forms have no count <= dst.GetSize()
// rule (asc-devkit asserts it only in APIs A2 lacks: Prelu, Truncate, MulsCast, ...),
// so inside UB the bytes are written past the tensor, with a warning.
namespace {
// Exp of 64 ones into the 32 B tensor a, whose next 224 B are c's; returns c[0..55].
std::vector<float> exp_past_small_dst() {
    std::vector<float> got(56, 0.0f);
    one([&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a, c, b;
        pipe.InitBuffer(a, 32);
        pipe.InitBuffer(c, 224);
        pipe.InitBuffer(b, 256);
        Duplicate(b.Get<float>(), 1.0f, 64);
        PipeBarrier<PIPE_V>();
        Exp(a.Get<float>(), b.Get<float>(), 64);  // 256 B into a 32 B dst
        sync<HardEvent::V_S>();
        for (uint32_t i = 0; i < 56; ++i) got[i] = c.Get<float>().GetValue(i);
    });
    return got;
}
}  // namespace

XTEST(a_count_larger_than_its_dst_warns_and_writes) {
    std::vector<float> got;
    const std::string err = sim_test::captured(stderr, [&] { got = exp_past_small_dst(); });
    XCHECK(err.find("[ascend_sim] warning: Exp (block 0): write past the tensor: dst writes UB [0x0000, 0x0100) "
                    "(256 B), 224 B past the end of its tensor (32 B); UB 0x0020 is in the TBuf of InitBuffer") !=
           std::string::npos);
    for (float v : got) XCHECK_EQ(v, std::exp(1.0f));
    const sim_test::PastTensor error(2);
    XCHECK_THROWS_WITH(exp_past_small_dst(), "Exp (block 0): write past the tensor: dst writes UB [0x0000, 0x0100)");
}

// In place past the tensor: dst and src start together and run element for element
// (100% overlap, which the hardware allows), though the tensor ends before the count.
XTEST(an_in_place_count_past_the_tensor_is_not_a_partial_overlap) {
    float got = 0;
    sim_test::captured(stderr, [&] {
        one([&] {
            TPipe pipe;
            TBuf<TPosition::VECCALC> a, c;
            pipe.InitBuffer(a, 32);
            pipe.InitBuffer(c, 224);
            Duplicate(a.Get<float>(), 0.0f, 8);
            Duplicate(c.Get<float>(), 0.0f, 56);
            PipeBarrier<PIPE_V>();
            Exp(a.Get<float>(), a.Get<float>(), 64);  // 256 B in place from a 32 B tensor
            sync<HardEvent::V_S>();
            got = c.Get<float>().GetValue(55);
        });
    });
    XCHECK_EQ(got, 1.0f);
}

XTEST(a_count_past_the_end_of_ub_stops) {
    XCHECK_THROWS_WITH(one([] {
                           // the last 32 B of the 192 KiB UB
                           LocalTensor<float> x(TPosition::VECCALC, 192 * 1024 - 32, 8), y(TPosition::VECCALC, 0, 64);
                           Duplicate(y, 1.0f, 64);
                           PipeBarrier<PIPE_V>();
                           Exp(x, y, 64);
                       }),
                       "Exp (block 0): dst writes UB [0x2ffe0, 0x300e0) (256 B), past the end of the UB (0x30000)");
}

// ops-nn's foreach kernels read a list's scalars with SetGlobalBuffer(p, 1) and
// GetValue(i): GetValue reads oriAddress_[offset] with no bound (kernel_tensor_impl.h),
// so inside the allocation it is a warning and the value is read.
XTEST(a_gm_read_past_setglobalbuffer_size_inside_its_allocation_warns) {
    sim_test::Gm<float> s(4, "scalars");
    for (int i = 0; i < 4; ++i) s.p[i] = float(i + 1);
    float got = 0;
    const std::string err = sim_test::captured(stderr, [&] {
        one([&] {
            GlobalTensor<float> g;
            g.SetGlobalBuffer(s.p, 1);
            got = g.GetValue(2);
        });
    });
    XCHECK_EQ(got, 3.0f);
    XCHECK(err.find("warning: GlobalTensor::GetValue (block 0): scalar read of [scalars+0x0008, scalars+0x000c) (4 B) "
                    "is outside the GlobalTensor's SetGlobalBuffer range [scalars+0x0000, scalars+0x0004) (4 B) (it "
                    "lies in the same GM allocation, and the NPU accesses it") != std::string::npos);
}

namespace {
// src: 8 floats 0..7; dst: a 224 B TBuf (7 blocks) followed by a 32 B TBuf `next`.
// Brcb of one repeat writes 8 blocks (256 B): its last block lands in `next`. With
// `rewrite`, the kernel then fills `next` with 5 before reading it, as a kernel that
// keeps its workspace there does. Returns dst's 56 floats and next's 8.
std::vector<float> brcb_spill(bool rewrite) {
    std::vector<float> got;
    one([&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a, b, c;
        pipe.InitBuffer(a, 32);
        pipe.InitBuffer(b, 224);
        pipe.InitBuffer(c, 32);
        LocalTensor<float> src = a.Get<float>(), dst = b.Get<float>(), next = c.Get<float>();
        for (uint32_t i = 0; i < 8; ++i) src.SetValue(i, float(i));
        sync<HardEvent::S_V>();
        Brcb(dst, src, 1, {1, 8});
        if (rewrite) {
            PipeBarrier<PIPE_V>();
            Duplicate(next, 5.0f, 8);
        }
        sync<HardEvent::V_S>();
        for (uint32_t i = 0; i < 56; ++i) got.push_back(dst.GetValue(i));
        for (uint32_t i = 0; i < 8; ++i) got.push_back(next.GetValue(i));
    });
    return got;
}
}  // namespace

XTEST(a_brcb_dst_spilling_into_the_next_buffer_warns_and_computes) {
    std::vector<float> got;
    const std::string err = sim_test::captured(stderr, [&] { got = brcb_spill(true); });
    XCHECK_EQ(got.size(), size_t(64));
    for (uint32_t i = 0; i < 56; ++i) XCHECK_EQ(got[i], float(i / 8));
    for (uint32_t i = 56; i < 64; ++i) XCHECK_EQ(got[i], 5.0f);
    XCHECK(err.find("[ascend_sim] warning: Brcb (block 0): write past the tensor: dst writes UB [0x0020, 0x0120) "
                    "(256 B), 32 B past the end of its tensor (224 B); UB 0x0100 is in the TBuf of InitBuffer") !=
           std::string::npos);
    XCHECK(err.find("ASCEND_XENT_PAST_TENSOR=error stops here") != std::string::npos);
}

// The spilled bytes hold Brcb's data: reading them is no uninitialised read.
XTEST(the_spilled_bytes_count_as_written) {
    const sim_test::PastTensor off(0);
    const std::string err = sim_test::captured(stderr, [] {
        const std::vector<float> got = brcb_spill(false);
        for (uint32_t i = 56; i < 64; ++i) XCHECK_EQ(got[i], 7.0f);
    });
    XCHECK(err.find("uninitialised") == std::string::npos);
    XCHECK(err.find("write past the tensor") == std::string::npos);
}

XTEST(a_dst_write_past_its_tensor_stops_at_error_level) {
    const sim_test::PastTensor error(2);
    XCHECK_THROWS_WITH(brcb_spill(true), "Brcb (block 0): write past the tensor: dst writes UB [0x0020, 0x0120) (256 B), "
                                         "32 B past the end of its tensor (224 B)");
}

XTEST(a_dst_write_past_the_end_of_ub_stops) {
    XCHECK_THROWS_WITH(one([] {
                           // the last 224 B of the 192 KiB UB
                           LocalTensor<float> src(TPosition::VECCALC, 0, 8), dst(TPosition::VECCALC, 192 * 1024 - 224, 56);
                           Duplicate(src, 1.0f, 8);
                           PipeBarrier<PIPE_V>();
                           Brcb(dst, src, 1, {1, 8});
                       }),
                       "Brcb (block 0): dst writes UB [0x2ff20, 0x30020) (256 B), past the end of the UB (0x30000)");
}

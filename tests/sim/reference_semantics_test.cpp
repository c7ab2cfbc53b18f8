// Semantics the simulator takes from CANN's Atlas A2 (dav_c220) implementation
// and API documentation: the A2 Cast table, Select mode 0 and its internal
// barriers, SetFlag<V_V>, the DataCopyPad fill register (SetPadValue), the legacy
// DataCopyPadParams fill, the ReduceMax work buffer with an index, and the soft
// SyncAll's GM counters.
#include <cmath>
#include <cstring>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "xtest.h"

using namespace AscendC;
using ascend_sim::run_kernel;
using sim_test::AutoSync;
using sim_test::Calc;
using sim_test::Gm;
using sim_test::sync;

namespace {
void one(const std::function<void()>& body) { run_kernel("ref", 1, body); }

// dst = Cast(src) of n values through UB: src written by the scalar unit, the
// result read back by it.
template <class D, class S>
void cast_through_ub(const S* in, D* out, int n, RoundMode m) {
    one([&] {
        Calc c(4096);
        auto s = c.get<S>();
        auto d = c.get<uint8_t>()[2048].ReinterpretCast<D>();
        for (int i = 0; i < n; ++i) s.SetValue(i, in[i]);
        sync<HardEvent::S_V>();
        Cast(d, s, m, uint32_t(n));
        sync<HardEvent::V_S>();
        for (int i = 0; i < n; ++i) out[i] = d.GetValue(i);
    });
}
}  // namespace

// ---- Cast: the Atlas A2 table of Cast.md ----

XTEST(cast_half_to_int32_with_ceil_and_floor) {
    const half in[4] = {half(1.25f), half(-1.75f), half(2.0f), half(-0.5f)};
    int32_t ceil[4], floor[4];
    cast_through_ub(in, ceil, 4, RoundMode::CAST_CEIL);
    cast_through_ub(in, floor, 4, RoundMode::CAST_FLOOR);
    const int32_t ec[4] = {2, -1, 2, 0}, ef[4] = {1, -2, 2, -1};
    for (int i = 0; i < 4; ++i) {
        XCHECK_EQ(ceil[i], ec[i]);
        XCHECK_EQ(floor[i], ef[i]);
    }
}

XTEST(cast_half_to_8_bit_saturates) {
    const half in[4] = {half(200.0f), half(-200.0f), half(2.5f), half(-3.0f)};
    int8_t s8[4];
    uint8_t u8[4];
    cast_through_ub(in, s8, 4, RoundMode::CAST_NONE);  // NONE: RINT where inexact
    cast_through_ub(in, u8, 4, RoundMode::CAST_TRUNC);
    XCHECK_EQ(int(s8[0]), 127);
    XCHECK_EQ(int(s8[1]), -128);
    XCHECK_EQ(int(s8[2]), 2);
    XCHECK_EQ(int(u8[0]), 200);
    XCHECK_EQ(int(u8[1]), 0);
    XCHECK_EQ(int(u8[3]), 0);
}

XTEST(cast_float_rounding_and_integer_pairs) {
    const float f[4] = {2.5f, -2.5f, 1e30f, -7.75f};
    float fr[4];
    int64_t i64[4];
    int16_t i16[4];
    cast_through_ub(f, fr, 4, RoundMode::CAST_ROUND);
    cast_through_ub(f, i64, 4, RoundMode::CAST_RINT);
    cast_through_ub(f, i16, 4, RoundMode::CAST_TRUNC);
    XCHECK_EQ(fr[0], 3.0f);
    XCHECK_EQ(fr[1], -3.0f);
    XCHECK_EQ(fr[2], 1e30f);
    XCHECK_EQ(i64[0], int64_t(2));
    XCHECK_EQ(i64[2], INT64_MAX);
    XCHECK_EQ(int(i16[2]), 32767);
    XCHECK_EQ(int(i16[3]), -7);
    const int32_t w[3] = {40000, -40000, -5};
    int16_t n[3];
    cast_through_ub(w, n, 3, RoundMode::CAST_NONE);
    XCHECK_EQ(int(n[0]), 32767);
    XCHECK_EQ(int(n[1]), -32768);
    XCHECK_EQ(int(n[2]), -5);
    const int16_t s[2] = {2049, -3};  // 2049 is not a half: RINT gives 2048, CEIL 2050
    half hr[2], hc[2];
    float fs[2];
    cast_through_ub(s, hr, 2, RoundMode::CAST_RINT);
    cast_through_ub(s, hc, 2, RoundMode::CAST_CEIL);
    cast_through_ub(s, fs, 2, RoundMode::CAST_NONE);
    XCHECK_EQ(float(hr[0]), 2048.0f);
    XCHECK_EQ(float(hc[0]), 2050.0f);
    XCHECK_EQ(fs[1], -3.0f);
    const int8_t b[2] = {-128, 127};
    const uint8_t ub[2] = {255, 0};
    half hb[2], hu[2];
    cast_through_ub(b, hb, 2, RoundMode::CAST_NONE);
    cast_through_ub(ub, hu, 2, RoundMode::CAST_NONE);
    XCHECK_EQ(float(hb[0]), -128.0f);
    XCHECK_EQ(float(hu[0]), 255.0f);
}

XTEST(cast_modes_the_a2_table_refuses) {
    const half h[1] = {half(1.0f)};
    int32_t i[1];
    XCHECK_THROWS_WITH(cast_through_ub(h, i, 1, RoundMode::CAST_NONE), "Cast (block 0)", "RoundMode 0",
                       "from half to int32_t");
    const float f[1] = {1.0f};
    float g[1];
    XCHECK_THROWS_WITH(cast_through_ub(f, g, 1, RoundMode::CAST_NONE), "from float to float");
    int16_t s[1];
    XCHECK_THROWS_WITH(cast_through_ub(h, s, 1, RoundMode::CAST_NONE), "from half to int16_t");
}

// ---- Select ----

XTEST(select_mode0_reuses_one_repeat_of_mask_bits) {
    // 128 floats = 2 repeats of 64: mode 0 applies the first 64 bits to both.
    one([] {
        Calc c(4096);
        auto f = c.get<float>();
        auto x = f, y = f[128], dst = f[256];
        auto mask = f[384].ReinterpretCast<uint8_t>();
        for (int i = 0; i < 128; ++i) {
            x.SetValue(i, float(i));
            y.SetValue(i, -1.0f);
        }
        for (int i = 0; i < 16; ++i) mask.SetValue(i, uint8_t(i < 8 ? 0x0F : 0xFF));
        sync<HardEvent::S_V>();
        Select(dst, mask, x, y, SELMODE::VSEL_CMPMASK_SPR, 128);
        sync<HardEvent::V_S>();
        for (int i = 0; i < 128; ++i) XCHECK_EQ(dst.GetValue(i), (i % 8) < 4 ? float(i) : -1.0f);
    });
}

XTEST(select_modes_0_and_2_end_with_a_vector_barrier) {
    // CANN's count-form Select ends modes 0 and 2 with PipeBarrier<PIPE_V> and
    // puts one before vsel: Compare -> Select -> Adds needs no barrier of the kernel's.
    for (SELMODE m : {SELMODE::VSEL_CMPMASK_SPR, SELMODE::VSEL_TENSOR_TENSOR_MODE})
        one([m] {
            Calc c(4096);
            auto f = c.get<float>();
            auto x = f, y = f[64], dst = f[128];
            auto mask = f[192].ReinterpretCast<uint8_t>();
            Duplicate(x, 1.0f, 64);
            Duplicate(y, 2.0f, 64);
            PipeBarrier<PIPE_V>();
            Compare(mask, x, y, CMPMODE::LT, 64);
            if (m == SELMODE::VSEL_CMPMASK_SPR) PipeBarrier<PIPE_V>();  // set_cmpmask reads the mask unordered
            Select(dst, mask, x, y, m, 64);
            Adds(dst, dst, 1.0f, 64);
            sync<HardEvent::V_S>();
            XCHECK_EQ(dst.GetValue(3), 2.0f);
        });
}

XTEST(select_mode1_has_no_trailing_barrier) {
    AutoSync strict(0);  // with --cce-auto-sync=on the compiler inserts the V->V barrier
    XCHECK_THROWS_WITH(one([] {
                           Calc c(4096);
                           auto f = c.get<float>();
                           auto x = f, dst = f[128];
                           auto mask = f[192].ReinterpretCast<uint8_t>();
                           Duplicate(x, 1.0f, 64);
                           Duplicate(mask.ReinterpretCast<uint16_t>(), uint16_t(0xFFFF), 16);
                           Select(dst, mask, x, 5.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 64);
                           Adds(dst, dst, 1.0f, 64);
                       }),
                       "pipe hazard", "Adds", "Select", "PipeBarrier<PIPE_V>");
}

// ---- SetFlag<V_V> ----

XTEST(setflag_v_v_is_a_vector_barrier) {
    one([] {
        Calc c(1024);
        auto f = c.get<float>();
        Duplicate(f, 1.0f, 64);
        SetFlag<HardEvent::V_V>(0);  // orders the Muls after the Duplicate
        WaitFlag<HardEvent::V_V>(0);
        Muls(f[64], f, 3.0f, 64);
        SetFlag<HardEvent::V_V>(1);  // no flag is left set: nothing to pair at kernel end
        sync<HardEvent::V_S>();
        XCHECK_EQ(f.GetValue(64 + 5), 3.0f);
    });
    XCHECK_THROWS_WITH(one([] { SetFlag<HardEvent::V_V>(8); }), "SetFlag", "event id 8 of HardEvent::V_V");
}

// ---- DataCopyPad's fill: SetPadValue and the MOV_PAD_VAL register ----

XTEST(setpadvalue_fills_the_pads_without_ispad) {
    // Scenario 1 of SetPadValue.md: 20 halves, rightPadding 12, SetPadValue(1), isPad false.
    Gm<half> x(20, "x");
    for (int i = 0; i < 20; ++i) x.p[i] = half(float(i));
    one([&] {
        Calc c(64);
        auto t = c.get<half>();
        SetPadValue(half(1.0f));
        DataCopyPad(t, sim_test::global(x.p, 20), {1, 40, 0, 0, 0}, {false, 0, 12, half(0.0f)});
        sync<HardEvent::MTE2_S>();
        XCHECK_EQ(float(t.GetValue(19)), 19.0f);
        for (int i = 20; i < 32; ++i) XCHECK_EQ(float(t.GetValue(i)), 1.0f);
    });
}

XTEST(ispad_value_stays_in_the_register) {
    // isPad writes the register (set_mov_pad_val): a later copy with isPad false
    // fills with the same value.
    Gm<float> x(8, "x");
    for (int i = 0; i < 8; ++i) x.p[i] = float(i);
    one([&] {
        Calc c(64);
        auto t = c.get<float>();
        auto g = sim_test::global(x.p, 8);
        DataCopyPad(t, g, {1, 24, 0, 0, 0}, {true, 0, 2, -5.0f});
        DataCopyPad(t[8], g, {1, 20, 0, 0, 0}, {false, 1, 0, 0.0f});
        sync<HardEvent::MTE2_S>();
        XCHECK_EQ(t.GetValue(6), -5.0f);
        XCHECK_EQ(t.GetValue(8), -5.0f);   // left pad
        XCHECK_EQ(t.GetValue(9), 0.0f);    // data
        XCHECK_EQ(t.GetValue(15), -5.0f);  // round-up tail
    });
}

XTEST(legacy_padding_value_must_be_zero) {
    Gm<float> x(8, "x");
    XCHECK_THROWS_WITH(one([&] {
                           Calc c(64);
                           DataCopyPad(c.get<float>(), sim_test::global(x.p, 8), DataCopyParams{1, 12, 0, 0},
                                       DataCopyPadParams{true, 0, 1, 3});
                       }),
                       "DataCopyPad (block 0)", "DataCopyPadParams.paddingValue 3");
}

// ---- ReduceMax ----

XTEST(reducemax_index_needs_every_pass_in_tmp) {
    // 8192 floats: 128 first-pass repeats -> 256 (value, index) elements, then 8,
    // then 2. With the index every pass is kept in its own 32 B blocks:
    // 256 + 8 + 8 = 272 elements; without, the first pass's 256 suffice.
    auto run = [](bool calIndex) {
        one([calIndex] {
            Calc c(64 * 1024);
            auto f = c.get<float>();
            Duplicate(f, 0.5f, 8192);
            PipeBarrier<PIPE_V>();
            auto tmp = f[8192];
            tmp.SetSize(256);
            ReduceMax(f[8192 + 512], f, tmp, 8192, calIndex);
        });
    };
    run(false);
    XCHECK_THROWS_WITH(run(true), "ReduceMax (block 0)", "sharedTmpBuffer needs 1088 B but the tensor holds 1024 B");
}

// ---- soft SyncAll ----

namespace {
void soft_sync_twice(int32_t* slots) {
    run_kernel("soft", 4, [slots] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> b;
        pipe.InitBuffer(b, 4 * 32);
        const auto g = sim_test::global(slots, 4 * 8);
        SyncAll(g, b.Get<int32_t>());
        SyncAll(g, b.Get<int32_t>());
    });
}
}  // namespace

XTEST(soft_syncall_counts_in_the_gm_slots) {
    Gm<int32_t> ws(4 * 8, "ws");  // zeroed
    soft_sync_twice(ws.p);
    for (int i = 0; i < 4; ++i) XCHECK_EQ(ws.p[i * 8], 2);
}

XTEST(soft_syncall_needs_equal_slots) {
    Gm<int32_t> ws(4 * 8, "ws");
    ws.p[2 * 8] = 5;  // not zeroed: block 2 would wait for a sum of 24, the others pass early
    XCHECK_THROWS_WITH(soft_sync_twice(ws.p), "SyncAll", "gmWorkspace slot of block", "counts to 6",
                       "the slots must all hold the same value");
}

// ---- address overlap (通用地址重叠约束) ----

XTEST(dst_a_repeat_before_src_is_legal) {
    // dst = src - 256 B: each repeat writes only what an earlier repeat read.
    one([] {
        Calc c(2048);
        auto f = c.get<float>();
        for (int i = 0; i < 192; ++i) f.SetValue(i, float(i));
        sync<HardEvent::S_V>();
        Adds(f, f[64], 1.0f, 128);
        sync<HardEvent::V_S>();
        XCHECK_EQ(f.GetValue(0), 65.0f);
        XCHECK_EQ(f.GetValue(127), 192.0f);
    });
    XCHECK_THROWS_WITH(one([] {  // dst a repeat after src: repeat 1 would read repeat 0's result
                           Calc c(2048);
                           auto f = c.get<float>();
                           Duplicate(f, 1.0f, 192);
                           PipeBarrier<PIPE_V>();
                           Adds(f[64], f, 1.0f, 128);
                       }),
                       "Adds (block 0)", "overlap partially");
}

// ---- workspace ----

XTEST(setsysworkspace_keeps_the_first_address) {
    void* a = ascend_sim::gm_alloc(64, "a");
    void* b = ascend_sim::gm_alloc(64, "b");
    one([&] {
        SetSysWorkspace(static_cast<GM_ADDR>(a));
        SetSysWorkspace(static_cast<GM_ADDR>(b));
        XCHECK(GetSysWorkSpacePtr() == a);
    });
    XCHECK_THROWS_WITH(one([] { SetSysWorkspace(nullptr); }), "SetSysWorkspace (block 0)", "null");
    ascend_sim::gm_free(a);
    ascend_sim::gm_free(b);
}

// ---- DataCopy: the GM address is aligned to sizeof(T) ----

XTEST(datacopy_gm_address_aligned_to_the_element) {
    Gm<uint8_t> x(256, "x");
    XCHECK_THROWS_WITH(one([&] {
                           Calc c(64);
                           const auto g = sim_test::global(x.p, 256)[2].ReinterpretCast<float>();
                           DataCopy(c.get<float>(), g, 8);
                       }),
                       "DataCopy (block 0)", "GM address x+0x0002 is not 4-byte aligned");
    one([&] {  // DataCopyPad takes any GM address
        Calc c(64);
        const auto g = sim_test::global(x.p, 256)[2].ReinterpretCast<float>();
        DataCopyPad(c.get<float>(), g, {1, 32, 0, 0, 0}, {false, 0, 0, 0.0f});
    });
}

// ---- LocalTensor::operator[] past the end ----

XTEST(view_past_the_end_may_be_formed) {
    // kernel_tensor_impl.h operator[] only moves the address (dataLen wraps):
    // forming the view is legal; here it holds 0 bytes, so a write through it is past
    // the tensor (a warning inside UB; a stop at ASCEND_XENT_PAST_TENSOR=error).
    one([] {
        Calc c(64);
        const auto v = c.get<float>()[24];
        XCHECK_EQ(v.GetSize(), 0u);
    });
    const sim_test::PastTensor error(2);
    XCHECK_THROWS_WITH(one([] {
                           Calc c(64);
                           Duplicate(c.get<float>()[24], 1.0f, 8);
                       }),
                       "Duplicate (block 0)", "dst writes UB [0x0060, 0x0080) (32 B), 32 B past the end of its tensor (0 B)");
}

XTEST(reducemax_index_of_one_repeat_is_written_by_the_vector_unit) {
    AutoSync strict(0);  // with --cce-auto-sync=on the compiler inserts the V_S
    // count <= 256 / sizeof(T) with the index: ReduceOperation writes dst, and no
    // V_S follows inside the API, so reading dst needs the kernel's own flag.
    auto run = [](bool flag) {
        one([flag] {
            Calc c(1024);
            auto f = c.get<float>();
            Duplicate(f, 2.0f, 64);
            PipeBarrier<PIPE_V>();
            ReduceMax(f[128], f, f[64], 64, true);
            if (flag) sync<HardEvent::V_S>();
            XCHECK_EQ(f.GetValue(128), 2.0f);
        });
    };
    run(true);
    XCHECK_THROWS_WITH(run(false), "pipe hazard", "LocalTensor::GetValue", "ReduceMax", "V_S");
}

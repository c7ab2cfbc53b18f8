// Semantics of the API the simulator implements, in CANN's units: DataCopyPad
// padding and strides, DataCopyParams gaps, LocalTensor operator[] and
// ReinterpretCast sizes, TBuf Get, queue states, GlobalTensor sizes, workspace.
#include <atomic>
#include <cmath>
#include <cstring>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "xtest.h"

using namespace AscendC;
using ascend_sim::run_kernel;
using sim_test::Gm;
using sim_test::sync;

namespace {
void one(const std::function<void()>& body) { run_kernel("api", 1, body); }
}  // namespace

XTEST(datacopypad_gm_to_ub_padding_and_strides) {
    // 3 rows of 5 floats (20 B), GM rows 7 floats apart (srcStride 8 B), 1 left
    // and 2 right pad elements of -1: each UB block is roundup32(20 + 12) = 32 B,
    // plus dstStride 1 block = a 64 B pitch.
    Gm<float> x(21, "x");
    for (int i = 0; i < 21; ++i) x.p[i] = float(i);
    one([&] {
        TPipe pipe;
        TBuf<TPosition::VECIN> b;
        pipe.InitBuffer(b, 256);
        GlobalTensor<float> g;
        g.SetGlobalBuffer(x.p, 21);
        auto t = b.Get<float>();
        DataCopyPad(t, g, DataCopyExtParams{3, 20, 8, 1, 0}, DataCopyPadExtParams<float>{true, 1, 2, -1.0f});
        sync<HardEvent::MTE2_S>();
        for (int r = 0; r < 3; ++r) {
            XCHECK_EQ(t.GetValue(r * 16 + 0), -1.0f);
            for (int c = 0; c < 5; ++c) XCHECK_EQ(t.GetValue(r * 16 + 1 + c), float(r * 7 + c));
            XCHECK_EQ(t.GetValue(r * 16 + 6), -1.0f);
            XCHECK_EQ(t.GetValue(r * 16 + 7), -1.0f);
        }
        // The 32 B gap is untouched: reading it is an uninitialised read (initcheck_test.cpp).
        const auto s = ascend_sim::last_launch_stats();
        (void)s;
    });
    XCHECK_EQ(ascend_sim::last_launch_stats().total.gmReadBytes, 60u);
}

XTEST(datacopypad_dummy_fill_is_the_first_element) {
    // No isPad and no l/r padding: the tail of each 32 B block is filled with
    // a copy of the block's first element.
    Gm<half> x(6, "x");
    for (int i = 0; i < 6; ++i) x.p[i] = half(float(i + 10));
    one([&] {
        TPipe pipe;
        TBuf<TPosition::VECIN> b;
        pipe.InitBuffer(b, 128);
        GlobalTensor<half> g;
        g.SetGlobalBuffer(x.p, 6);
        auto t = b.Get<half>();
        DataCopyPad(t, g, {2, 6, 0, 0, 0}, {false, 0, 0, half(0.0f)});  // 2 rows of 3 halves
        sync<HardEvent::MTE2_S>();
        XCHECK_EQ(float(t.GetValue(0)), 10.0f);
        XCHECK_EQ(float(t.GetValue(2)), 12.0f);
        for (int k = 3; k < 16; ++k) XCHECK_EQ(float(t.GetValue(k)), 10.0f);
        XCHECK_EQ(float(t.GetValue(16)), 13.0f);
        for (int k = 19; k < 32; ++k) XCHECK_EQ(float(t.GetValue(k)), 13.0f);
    });
}

XTEST(datacopypad_ub_to_gm_strides) {
    // UB rows of 12 B sit in 32 B blocks plus srcStride 1 block (64 B pitch);
    // GM rows are 12 B apart plus dstStride 4 B: exactly blockLen bytes land.
    Gm<int32_t> y(12, "y");
    for (int i = 0; i < 12; ++i) y.p[i] = -7;
    one([&] {
        TPipe pipe;
        TBuf<TPosition::VECOUT> b;
        pipe.InitBuffer(b, 256);
        auto t = b.Get<int32_t>();
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) t.SetValue(r * 16 + c, r * 10 + c);
        SetFlag<HardEvent::S_MTE3>(0);
        WaitFlag<HardEvent::S_MTE3>(0);
        GlobalTensor<int32_t> g;
        g.SetGlobalBuffer(y.p, 12);
        DataCopyPad(g, t, {3, 12, 1, 4, 0});
    });
    const int32_t expect[12] = {0, 1, 2, -7, 10, 11, 12, -7, 20, 21, 22, -7};
    for (int i = 0; i < 12; ++i) XCHECK_EQ(y.p[i], expect[i]);
    XCHECK_EQ(ascend_sim::last_launch_stats().total.gmWriteBytes, 36u);
}

XTEST(datacopypad_legacy_params_blocklen_in_bytes) {
    Gm<float> x(8, "x");
    for (int i = 0; i < 8; ++i) x.p[i] = float(i);
    one([&] {
        TPipe pipe;
        TBuf<TPosition::VECIN> b;
        pipe.InitBuffer(b, 64);
        GlobalTensor<float> g;
        g.SetGlobalBuffer(x.p, 8);
        auto t = b.Get<float>();
        DataCopyPad(t, g, DataCopyParams{1, 12, 0, 0}, DataCopyPadParams{true, 0, 1, 0});
        sync<HardEvent::MTE2_S>();
        XCHECK_EQ(t.GetValue(2), 2.0f);
        XCHECK_EQ(t.GetValue(3), 0.0f);
    });
}

XTEST(datacopy_params_gaps_in_32_byte_blocks) {
    Gm<float> x(48, "x");
    for (int i = 0; i < 48; ++i) x.p[i] = float(i);
    one([&] {
        TPipe pipe;
        TBuf<TPosition::VECIN> b;
        pipe.InitBuffer(b, 512);
        GlobalTensor<float> g;
        g.SetGlobalBuffer(x.p, 48);
        auto t = b.Get<float>();
        // 2 blocks of 1 x 32 B; GM gap 2 blocks (16 floats apart), UB gap 1 block.
        DataCopy(t, g, DataCopyParams{2, 1, 2, 1});
        sync<HardEvent::MTE2_S>();
        XCHECK_EQ(t.GetValue(0), 0.0f);
        XCHECK_EQ(t.GetValue(7), 7.0f);
        XCHECK_EQ(t.GetValue(16), 24.0f);
        XCHECK_EQ(t.GetValue(23), 31.0f);
    });
}

XTEST(localtensor_views) {
    one([] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> b;
        pipe.InitBuffer(b, 1000);  // rounded up to 1024
        auto f = b.Get<float>();
        XCHECK_EQ(f.GetSize(), 256u);
        auto g = f[64];
        XCHECK_EQ(g.GetSize(), 192u);  // dataLen shrinks with the offset
        XCHECK_EQ(reinterpret_cast<uintptr_t>(g.GetPhyAddr()) - reinterpret_cast<uintptr_t>(f.GetPhyAddr()), uintptr_t(256));
        auto h = g.ReinterpretCast<half>();
        XCHECK_EQ(h.GetSize(), 384u);  // same bytes, 2-byte elements
        auto u8 = f.ReinterpretCast<uint8_t>();
        XCHECK_EQ(u8.GetSize(), 1024u);
        XCHECK_EQ(h.GetPosition(), int32_t(TPosition::VECCALC));
        g.SetSize(16);
        XCHECK_EQ(g.GetSize(), 16u);
        g.SetSize(192);  // back up to what is left of the buffer
        g.SetSize(1024);  // past the buffer: the real bound is the UB (kernel_tensor_impl.h, bufferInitLen)
        XCHECK_EQ(g.GetSize(), 1024u);
        XCHECK_THROWS_WITH(g.SetSize(196608 / 4), "LocalTensor::SetSize", "size 196608 B at UB 0x0100 reaches past the 196608 B");
    });
}

XTEST(tbuf_get_forms) {
    one([] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a, b;
        pipe.InitBuffer(a, 512);
        pipe.InitBuffer(b, 96);
        XCHECK_EQ(a.Get<float>().GetSize(), 128u);
        XCHECK_EQ(a.Get<float>(64).GetSize(), 64u);
        XCHECK(a.Get<float>(64).GetPhyAddr() == a.Get<float>().GetPhyAddr());  // same start every time
        XCHECK_EQ(a.GetWithOffset<half>(16, 64).GetSize(), 16u);
        XCHECK_EQ(reinterpret_cast<uintptr_t>(b.Get<uint8_t>().GetPhyAddr()) -
                      reinterpret_cast<uintptr_t>(a.Get<uint8_t>().GetPhyAddr()),
                  uintptr_t(512));  // bump-allocated in call order
        XCHECK_THROWS_WITH(a.GetWithOffset<float>(8, 16), "TBuf::GetWithOffset", "bufOffset 16 B is not a multiple of 32");
    });
    XCHECK_EQ(ascend_sim::last_launch_stats().total.ubPeakBytes, 608u);
}

XTEST(tbuf_alloctensor_is_get_and_freetensor_releases_nothing) {
    one([] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a, unset;
        pipe.InitBuffer(a, 256);
        auto t = a.AllocTensor<float>();
        XCHECK_EQ(t.GetSize(), 64u);  // the whole buffer
        XCHECK(t.GetPhyAddr() == a.Get<float>().GetPhyAddr());
        t.SetValue(3, 2.5f);
        a.FreeTensor(t);
        XCHECK_EQ(t.GetValue(3), 2.5f);  // still valid after FreeTensor
        XCHECK(a.AllocTensor<half>().GetPhyAddr() == reinterpret_cast<half*>(t.GetPhyAddr()));
        XCHECK_THROWS_WITH((void)unset.AllocTensor<float>(), "TBuf::AllocTensor", "the TBuf has no buffer");
    });
}

XTEST(queue_states_and_order) {
    one([] {
        TPipe pipe;
        TQue<TPosition::VECIN, 2> q;
        pipe.InitBuffer(q, 2, 64);
        XCHECK(q.HasIdleBuffer());
        auto a = q.AllocTensor<float>();
        auto b = q.AllocTensor<float>();
        XCHECK(!q.HasIdleBuffer());
        XCHECK(a.GetPhyAddr() != b.GetPhyAddr());
        XCHECK_EQ(a.GetSize(), 16u);
        q.EnQue(b);
        q.EnQue(a);
        auto first = q.DeQue<float>();
        XCHECK(first.GetPhyAddr() == b.GetPhyAddr());  // FIFO
        auto second = q.DeQue<float>();
        XCHECK(second.GetPhyAddr() == a.GetPhyAddr());
        q.FreeTensor(first);
        XCHECK(q.HasIdleBuffer());
        auto c = q.AllocTensor<float>();
        XCHECK(c.GetPhyAddr() == b.GetPhyAddr());
        q.FreeTensor(c);
        q.FreeTensor(second);
    });
}

XTEST(queue_sub_tensor_frees_its_buffer_and_reset) {
    one([] {
        TPipe pipe;
        TQue<TPosition::VECOUT, 1> q;
        pipe.InitBuffer(q, 1, 256);
        auto a = q.AllocTensor<float>();
        auto view = a[8];
        q.FreeTensor(view);  // the buffer handle travels with views, as in CANN
        XCHECK(q.HasIdleBuffer());
        pipe.Reset();
        XCHECK_THROWS_WITH((void)q.AllocTensor<float>(), "TQue::AllocTensor", "released by TPipe::Reset");
        pipe.InitBuffer(q, 1, 128);
        auto b = q.AllocTensor<float>();
        XCHECK_EQ(b.GetSize(), 32u);
        q.FreeTensor(b);
    });
}

XTEST(globaltensor_sizes) {
    const sim_test::PastTensor error(2);  // past SetGlobalBuffer's size: a warning by default
    Gm<float> x(64, "x");
    one([&] {
        GlobalTensor<float> g;
        g.SetGlobalBuffer(x.p, 64);
        XCHECK_EQ(g.GetSize(), uint64_t(64));
        auto h = g.ReinterpretCast<half>();
        XCHECK_EQ(h.GetSize(), uint64_t(128));
        auto v = g[10];
        XCHECK(v.GetPhyAddr() == x.p + 10);
        XCHECK_EQ(v.GetValue(53), x.p[63]);  // bounded by the SetGlobalBuffer range, not by the view
        XCHECK_THROWS_WITH((void)v.GetValue(54), "GlobalTensor::GetValue", "SetGlobalBuffer range");
    });
}

XTEST(workspace_follows_the_npu) {
    const size_t sys = size_t(16) << 20;
    uint8_t* ws = static_cast<uint8_t*>(ascend_sim::gm_alloc(sys + 1024, "workspace"));
    one([&] {
        XCHECK(GetUserWorkspace(ws) == ws + sys);
        SetSysWorkspace(ws);
        XCHECK(GetSysWorkSpacePtr() == ws);
    });
    uint8_t* small = static_cast<uint8_t*>(ascend_sim::gm_alloc(1024, "small"));
    XCHECK_THROWS_WITH(one([&] { (void)GetUserWorkspace(small); }), "GetUserWorkspace", "system workspace");
    ascend_sim::gm_free(ws);
    ascend_sim::gm_free(small);
}

XTEST(vector_ops_results) {
    one([] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> b;
        pipe.InitBuffer(b, 8192);
        auto f = b.Get<float>();
        auto x = f, y = f[64], z = f[128], tmp = f[192];
        x.SetSize(64);
        for (int i = 0; i < 64; ++i) {
            x.SetValue(i, float(i));
            y.SetValue(i, float(64 - i));
        }
        SetFlag<HardEvent::S_V>(0);
        WaitFlag<HardEvent::S_V>(0);
        ReduceMax(z, x, tmp, 64, true);
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
        XCHECK_EQ(z.GetValue(0), 63.0f);
        uint32_t idx;
        float raw = z.GetValue(1);
        std::memcpy(&idx, &raw, 4);
        XCHECK_EQ(idx, 63u);
        auto mask = f[256].ReinterpretCast<uint8_t>();
        Compare(mask, x, y, CMPMODE::LT, 64);  // i < 64 - i  <=>  i < 32
        PipeBarrier<PIPE_V>();
        auto sel = f[320];
        Select(sel, mask, x, y, SELMODE::VSEL_TENSOR_TENSOR_MODE, 64);
        PipeBarrier<PIPE_V>();
        auto sel2 = f[384];
        Select(sel2, mask, x, 100.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 64);
        SetFlag<HardEvent::V_S>(1);
        WaitFlag<HardEvent::V_S>(1);
        XCHECK_EQ(mask.GetValue(0), uint8_t(0xFF));
        XCHECK_EQ(mask.GetValue(4), uint8_t(0x00));
        XCHECK_EQ(sel.GetValue(5), 5.0f);
        XCHECK_EQ(sel.GetValue(40), 24.0f);
        XCHECK_EQ(sel2.GetValue(40), 100.0f);
        auto off = f[448].ReinterpretCast<uint32_t>();
        for (uint32_t i = 0; i < 8; ++i) off.SetValue(i, (7 - i) * 4);
        SetFlag<HardEvent::S_V>(1);
        WaitFlag<HardEvent::S_V>(1);
        auto gathered = f[512];
        Gather(gathered, x, off, 4, 8);  // srcBaseAddr 4 B: one element further
        auto bf = f[576].ReinterpretCast<bfloat16_t>();
        Cast(bf, x, RoundMode::CAST_RINT, 64);
        SetFlag<HardEvent::V_S>(2);
        WaitFlag<HardEvent::V_S>(2);
        XCHECK_EQ(gathered.GetValue(0), 8.0f);
        XCHECK_EQ(gathered.GetValue(7), 1.0f);
        XCHECK_EQ(float(bf.GetValue(63)), 63.0f);
    });
}

// Select's modes 1 and 2 stage CMPMASK in the 32 elements at TMP_UB_OFFSET
// (188416 B on 2201) on the device: a kernel buffer there (InitBuffer may reach
// 192 KiB) takes the scalar (mode 1) or selMask's UB address (mode 2); mode 0
// leaves it alone. Each staging is two vector instructions more.
XTEST(select_modes_1_and_2_write_the_ub_at_tmp_ub_offset) {
    one([] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> low, top;
        pipe.InitBuffer(low, 188416);
        pipe.InitBuffer(top, 8192);
        auto f = low.Get<float>();
        auto x = f, y = f[64], sel = f[128];
        auto mask = f[192].ReinterpretCast<uint16_t>();
        auto t = top.Get<float>();
        auto tu = top.Get<uint32_t>();
        Duplicate(x, 1.0f, 64);
        Duplicate(y, 2.0f, 64);
        Duplicate(mask, uint16_t(0x0F0F), 16);
        Duplicate(t, -1.0f, 2048);
        PipeBarrier<PIPE_V>();
        Select(sel, mask, x, y, SELMODE::VSEL_CMPMASK_SPR, 64);
        PipeBarrier<PIPE_V>();
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
        XCHECK_EQ(t.GetValue(0), -1.0f);
        Select(sel, mask, x, 5.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 64);
        SetFlag<HardEvent::V_S>(1);
        WaitFlag<HardEvent::V_S>(1);
        for (int i = 0; i < 32; ++i) XCHECK_EQ(t.GetValue(i), 5.0f);
        XCHECK_EQ(t.GetValue(32), -1.0f);
        XCHECK_EQ(sel.GetValue(3), 1.0f);
        XCHECK_EQ(sel.GetValue(4), 5.0f);
        Select(sel, mask, x, y, SELMODE::VSEL_TENSOR_TENSOR_MODE, 64);
        SetFlag<HardEvent::V_S>(2);
        WaitFlag<HardEvent::V_S>(2);
        for (int i = 0; i < 32; ++i) XCHECK_EQ(tu.GetValue(i), uint32_t(192 * 4));
        XCHECK_EQ(sel.GetValue(4), 2.0f);
    });
    // Mode 0: set_cmpmask, vsel; mode 2: Duplicate, set_cmpmask, vsel.
    auto instructions = [](SELMODE mode) {
        one([mode] {
            TPipe pipe;
            TBuf<TPosition::VECCALC> b;
            pipe.InitBuffer(b, 2048);
            auto f = b.Get<float>();
            auto mask = f[192].ReinterpretCast<uint16_t>();
            Duplicate(f, 1.0f, 192);
            Duplicate(mask, uint16_t(0x0F0F), 16);
            PipeBarrier<PIPE_V>();
            Select(f[128], mask, f, f[64], mode, 64);
        });
        return ascend_sim::last_launch_stats().total.vectorInstructions;
    };
    XCHECK_EQ(instructions(SELMODE::VSEL_TENSOR_TENSOR_MODE), instructions(SELMODE::VSEL_CMPMASK_SPR) + 1);
}

XTEST(block_index_and_count) {
    std::atomic<uint32_t> sum{0};
    run_kernel("idx", 6, [&] { sum += uint32_t(GetBlockIdx()) + 100u * (GetBlockNum() == 6); });
    XCHECK_EQ(sum.load(), 615u);
    XCHECK_THROWS_WITH((void)GetBlockIdx(), "GetBlockIdx", "outside a kernel");
}

XTEST(shape_info_is_kept_by_copies_and_views_not_by_reinterpretcast) {
    one([&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> b;
        pipe.InitBuffer(b, 256);
        auto t = b.Get<float>();
        XCHECK_EQ(unsigned(t.GetShapeInfo().shapeDim), 0u);  // never set: 0 dims, size 1
        XCHECK_EQ(GetShapeSize(t.GetShapeInfo()), uint64_t(1));
        const uint32_t shape[3] = {2, 3, 8}, original[2] = {6, 7};
        t.SetShapeInfo(ShapeInfo(3, shape, 2, original, DataFormat::NZ));
        const ShapeInfo s = t[8].GetShapeInfo();
        XCHECK_EQ(unsigned(s.shapeDim), 3u);
        XCHECK_EQ(s.shape[1], 3u);
        XCHECK_EQ(unsigned(s.originalShapeDim), 2u);
        XCHECK_EQ(s.originalShape[1], 7u);
        XCHECK(s.dataFormat == DataFormat::NZ);
        XCHECK_EQ(GetShapeSize(s), uint64_t(48));
        LocalTensor<float> copy;
        copy = t;
        XCHECK_EQ(copy.GetShapeInfo().shape[2], 8u);
        XCHECK_EQ(unsigned(t.ReinterpretCast<int32_t>().GetShapeInfo().shapeDim), 0u);
        // Without original dims the shape is the original; without a format, ND.
        const ShapeInfo nd(2, original);
        XCHECK_EQ(unsigned(nd.originalShapeDim), 2u);
        XCHECK_EQ(nd.originalShape[0], 6u);
        XCHECK(nd.dataFormat == DataFormat::ND);
        GlobalTensor<float> g;
        g.SetShapeInfo(ShapeInfo(1, shape, DataFormat::NCHW));
        XCHECK(g[1].GetShapeInfo().dataFormat == DataFormat::NCHW);
        const uint32_t nine[9] = {};
        XCHECK_THROWS_WITH(ShapeInfo(9, nine), "ShapeInfo::ShapeInfo", "9 dims; at most 8");
    });
}

// ReduceSum.md, ReduceMax.md: the dst of the count forms is aligned as ReduceRepeat.md
// 表3 says (SUM: sizeof(T); MAX/MIN: the value, or the value and its index), not 32 B:
// one result per row at element steps (ops-nn's ada_layer_norm) is legal.
XTEST(count_form_reduction_dst_aligned_to_its_result) {
    one([] {
        sim_test::Calc c(2048);
        auto src = c.get<float>(), work = c.get<float>()[128], out = c.get<float>()[256];
        Duplicate(src, 1.0f, 64);
        PipeBarrier<PIPE_V>();
        ReduceSum(out[1], src, work, 64);  // 4 B aligned
        sync<HardEvent::V_S>();
        XCHECK_EQ(out.GetValue(1), 64.0f);
    });
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(2048);
                           auto src = c.get<float>(), work = c.get<float>()[128], out = c.get<float>()[256];
                           Duplicate(src, 1.0f, 64);
                           PipeBarrier<PIPE_V>();
                           ReduceMax(out[1], src, work, 64, true);  // value and index: 8 B
                       }),
                       "ReduceMax (block 0): dst starts at UB 0x0404, not 8-byte aligned");
}

static_assert(AscendC::Std::max(3, 4.5) == 4.5 && AscendC::Std::min(3u, 7u) == 3u, "Std::max, Std::min");

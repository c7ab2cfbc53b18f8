// One small violating kernel per check: each must fail the
// launch with a SimViolation naming the API, the block, the rule and the numbers.
#include <cstring>
#include <vector>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "xtest.h"

using namespace AscendC;
using ascend_sim::run_kernel;
using sim_test::Gm;

namespace {
void one(const std::function<void()>& body) { run_kernel("check", 1, body); }

using sim_test::Calc;
using sim_test::fill_for_mte3;
using sim_test::global;
}  // namespace

// ---- UB ----

// CANN's CPU twin lets InitBuffer hand out the whole 192 KiB of 2201's UB
// (kernel_utils_mode_cpu.h bufferInitLen), the 8 KiB above TMP_UB_OFFSET included;
// the device checks nothing. One byte more is refused.
XTEST(ub_initbuffer_whole_ub_then_over_capacity) {
    one([] {
        TPipe pipe;
        TQue<TPosition::VECIN, 1> q;
        pipe.InitBuffer(q, 2, 96 * 1024);
        LocalTensor<float> t = q.AllocTensor<float>();
        XCHECK_EQ(uint64_t(t.GetSize()), uint64_t(96 * 1024 / 4));
        q.FreeTensor(t);
    });
    XCHECK_THROWS_WITH(one([] {
                           TPipe pipe;
                           TQue<TPosition::VECIN, 1> q;
                           TBuf<TPosition::VECCALC> b;
                           pipe.InitBuffer(q, 2, 96 * 1024);
                           pipe.InitBuffer(b, 32);
                       }),
                       "TPipe::InitBuffer (block 0)", "196640 B", "exceeds the UB of ascend910b: 196608 B");
}

XTEST(ub_initbufpool_whole_ub) {
    one([] {
        TPipe pipe;
        TBufPool<TPosition::VECCALC> pool;
        XCHECK(pipe.InitBufPool(pool, 196608));
    });
    XCHECK_THROWS_WITH(one([] {
                           TPipe pipe;
                           TBufPool<TPosition::VECCALC> pool;
                           TBuf<TPosition::VECCALC> b;
                           pipe.InitBuffer(b, 32);
                           pipe.InitBufPool(pool, 196608);
                       }),
                       "TPipe::InitBufPool", "InitBufPool of 196608 B after 32 B exceeds the UB of ascend910b: 196608 B");
}

XTEST(ub_more_than_64_buffers) {
    XCHECK_THROWS_WITH(one([] {
                           TPipe pipe;
                           TQue<TPosition::VECIN, 1> a, b;
                           pipe.InitBuffer(a, 40, 32);
                           pipe.InitBuffer(b, 25, 32);
                       }),
                       "TPipe::InitBuffer", "65 buffers", "64");
}

XTEST(ub_buffer_len_zero_and_num_range) {
    XCHECK_THROWS_WITH(one([] {
                           TPipe pipe;
                           TBuf<TPosition::VECCALC> b;
                           pipe.InitBuffer(b, 0);
                       }),
                       "TPipe::InitBuffer", "len is 0");
    XCHECK_THROWS_WITH(one([] {
                           TPipe pipe;
                           TQue<TPosition::VECIN, 1> q;
                           pipe.InitBuffer(q, 65, 32);
                       }),
                       "TPipe::InitBuffer", "num 65 is outside [1, 64]");
}

XTEST(ub_second_tpipe) {
    XCHECK_THROWS_WITH(one([] {
                           TPipe a;
                           TPipe b;
                       }),
                       "TPipe::TPipe (block 0)", "a second TPipe");
}

XTEST(ub_operand_not_32_byte_aligned) {
    XCHECK_THROWS_WITH(one([] {
                           Calc c(1024);
                           auto t = c.get<float>();
                           Duplicate(t, 0.0f, 64);
                           PipeBarrier<PIPE_V>();
                           Exp(t[3], t[64], 8);
                       }),
                       "Exp (block 0)", "dst starts at UB 0x000c, not 32-byte aligned");
}

// ---- DataCopy / DataCopyPad ----

XTEST(datacopy_count_not_multiple_of_32_bytes) {
    Gm<float> x(64);
    XCHECK_THROWS_WITH(one([&] {
                           Calc c(256);
                           GlobalTensor<float> g;
                           g.SetGlobalBuffer(x.p, 64);
                           auto t = c.get<float>();
                           DataCopy(t, g, 25);
                       }),
                       "DataCopy (block 0)", "GM->UB byte count 100 is not a multiple of 32",
                       "count 25 x 4 B", "the NPU would silently copy 96 B");
}

XTEST(datacopy_params_ranges_and_ub_fit) {
    Gm<float> x(1 << 16);
    XCHECK_THROWS_WITH(one([&] {
                           Calc c(1024);
                           GlobalTensor<float> g;
                           g.SetGlobalBuffer(x.p, 1 << 16);
                           auto t = c.get<float>();
                           DataCopy(t, g, DataCopyParams(5000, 1, 0, 0));
                       }),
                       "DataCopy", "blockCount 5000 is outside [0, 4095]");
    XCHECK_THROWS_WITH(one([&] {
                           Calc c(1024);
                           GlobalTensor<float> g;
                           g.SetGlobalBuffer(x.p, 1 << 16);
                           auto t = c.get<float>();
                           DataCopy(t, g, DataCopyParams(4, 8, 0, 1));  // 4 x 256 B + 3 gaps of 32 B
                       }),
                       "DataCopy", "UB destination footprint 1120 B", "exceeds the LocalTensor's 1024 B");
}

XTEST(datacopypad_param_ranges) {
    Gm<float> x(4096);
    auto run = [&](DataCopyExtParams p, DataCopyPadExtParams<float> pad) {
        one([&] {
            Calc c(4096);
            GlobalTensor<float> g;
            g.SetGlobalBuffer(x.p, 4096);
            auto t = c.get<float>();
            DataCopyPad(t, g, p, pad);
        });
    };
    XCHECK_THROWS_WITH(run({1, 2097152, 0, 0, 0}, {}), "DataCopyPad", "blockLen 2097152 B is outside [0, 2097151]");
    XCHECK_THROWS_WITH(run({1, 6, 0, 0, 0}, {}), "DataCopyPad", "blockLen 6 B is not a multiple of sizeof(T) = 4 B");
    XCHECK_THROWS_WITH(run({4096, 4, 0, 0, 0}, {}), "DataCopyPad", "blockCount 4096 is outside [0, 4095]");
    XCHECK_THROWS_WITH(run({1, 16, 0, 0, 0}, {true, 9, 0, 0.0f}), "DataCopyPad", "leftPadding 9",
                       "exceed 32 B on a side");
    // 40 B + 2 pads of 4 B -> 64 B per block in UB, plus a 1-block (32 B) gap: 3 blocks need 2 x 96 + 64 B.
    XCHECK_THROWS_WITH(one([&] {
                           TPipe pipe;
                           TBuf<TPosition::VECCALC> b;
                           pipe.InitBuffer(b, 192);
                           GlobalTensor<float> g;
                           g.SetGlobalBuffer(x.p, 4096);
                           auto t = b.Get<float>();
                           DataCopyPad(t, g, {3, 40, 0, 1, 0}, {true, 1, 1, 0.0f});
                       }),
                       "DataCopyPad", "UB destination footprint 256 B", "UB pitch 96 B",
                       "exceeds the LocalTensor's 192 B");
}

XTEST(datacopypad_64bit_pad_value) {
    Gm<int64_t> x(64);
    XCHECK_THROWS_WITH(one([&] {
                           Calc c(512);
                           GlobalTensor<int64_t> g;
                           g.SetGlobalBuffer(x.p, 64);
                           auto t = c.get<int64_t>();
                           DataCopyPad(t, g, {1, 24, 0, 0, 0}, {true, 0, 1, int64_t(7)});
                       }),
                       "DataCopyPad", "paddingValue must be 0 for a 64-bit type");
}

// ---- GM bounds ----

// Past SetGlobalBuffer's size inside the allocation: a warning by default (the real
// implementation bounds nothing by it), a stop at the error level.
XTEST(gm_datacopy_outside_setglobalbuffer_size) {
    const sim_test::PastTensor error(2);
    Gm<float> x(1024, "logProb");
    XCHECK_THROWS_WITH(one([&] {
                           Calc c(1024);
                           GlobalTensor<float> g;
                           g.SetGlobalBuffer(x.p, 64);
                           DataCopy(c.get<float>(), g[32], 64);
                       }),
                       "DataCopy (block 0)", "GM->UB read of [logProb+0x0080, logProb+0x0180) (256 B)",
                       "outside the GlobalTensor's SetGlobalBuffer range [logProb+0x0000, logProb+0x0100)");
}

XTEST(gm_datacopy_outside_allocation) {
    Gm<float> x(64, "out");
    XCHECK_THROWS_WITH(one([&] {
                           Calc c(1024);
                           GlobalTensor<float> g;
                           g.SetGlobalBuffer(x.p);  // no size: only the allocation bounds it
                           auto t = c.get<float>();
                           Duplicate(t, 1.0f, 128);
                           SetFlag<HardEvent::V_MTE3>(0);
                           WaitFlag<HardEvent::V_MTE3>(0);
                           DataCopy(g, t, 128);
                       }),
                       "DataCopy (block 0)", "UB->GM write of [out+0x0000, out+0x0200) (512 B)",
                       "is not inside one GM allocation");
}

XTEST(gm_unregistered_host_memory) {
    std::vector<float> host(64);
    XCHECK_THROWS_WITH(one([&] {
                           Calc c(256);
                           GlobalTensor<float> g;
                           g.SetGlobalBuffer(host.data(), 64);
                           DataCopy(c.get<float>(), g, 64);
                       }),
                       "DataCopy", "not inside one GM allocation");
}

XTEST(gm_scalar_getvalue_setvalue_bounds) {
    const sim_test::PastTensor error(2);
    Gm<float> x(16, "w");
    XCHECK_THROWS_WITH(one([&] {
                           GlobalTensor<float> g;
                           g.SetGlobalBuffer(x.p, 8);
                           (void)g.GetValue(8);
                       }),
                       "GlobalTensor::GetValue (block 0)", "scalar read of [w+0x0020, w+0x0024) (4 B)",
                       "SetGlobalBuffer range");
    XCHECK_THROWS_WITH(one([&] {
                           GlobalTensor<float> g;
                           g.SetGlobalBuffer(x.p);
                           g.SetValue(25, 1.0f);  // past the padding too
                       }),
                       "GlobalTensor::SetValue (block 0)", "not inside one GM allocation");
    // Just past the allocation's padding (64 B rounded up to 32, + 32): both ends are
    // named from the allocation.
    XCHECK_THROWS_WITH(one([&] {
                           GlobalTensor<float> g;
                           g.SetGlobalBuffer(x.p);
                           (void)g.GetValue(24);
                       }),
                       "scalar read of [w+0x0060, w+0x0064) (4 B) is not inside one GM allocation");
}

XTEST(initbuffer_len_zero_names_the_buffer) {
    XCHECK_THROWS_WITH(one([] {
                           TPipe pipe;
                           TQue<TPosition::VECIN, 2> q;
                           pipe.InitBuffer(q, 2, 0);
                       }),
                       "TPipe::InitBuffer (block 0): len is 0 bytes for the GM -> VECIN queue's 2 buffer(s) (depth 2)");
    XCHECK_THROWS_WITH(one([] {
                           TPipe pipe;
                           TBuf<TPosition::VECCALC> b;
                           pipe.InitBuffer(b, 0);
                       }),
                       "TPipe::InitBuffer (block 0): len is 0 bytes for the TBuf at VECCALC");
}

// ---- vector operands ----

// A count beyond its dst writes past the tensor: a warning inside UB (past_tensor_test.cpp),
// a violation at ASCEND_XENT_PAST_TENSOR=error.
XTEST(vec_count_beyond_tensor_size) {
    const sim_test::PastTensor error(2);
    XCHECK_THROWS_WITH(one([] {
                           Calc c(2048);
                           auto t = c.get<float>();
                           Exp(t[448], t, 100);
                       }),
                       "Exp (block 0): write past the tensor: dst writes UB [0x0700, 0x0890) (400 B), 144 B past the "
                       "end of its tensor (256 B)");
}

XTEST(vec_negative_count) {
    XCHECK_THROWS_WITH(one([] {
                           Calc c(1024);
                           auto t = c.get<float>();
                           Adds(t, t, 1.0f, -5);
                       }),
                       "Adds (block 0)", "count -5 is negative");
}

XTEST(vec_operand_not_in_ub) {
    XCHECK_THROWS_WITH(one([] {
                           Calc c(1024);
                           LocalTensor<float> none;
                           Muls(c.get<float>(), none, 2.0f, 8);
                       }),
                       "Muls (block 0)", "src is at GM, not a UB position");
}

XTEST(vec_partial_overlap) {
    XCHECK_THROWS_WITH(one([] {
                           Calc c(2048);
                           auto t = c.get<float>();
                           Duplicate(t, 1.0f, 512);
                           PipeBarrier<PIPE_V>();
                           Add(t[8], t, t[256], 64);
                       }),
                       "Add (block 0)", "dst UB [0x0020, 0x0120) and src0 UB [0x0000, 0x0100) overlap partially");
}

// A widening Cast may read its src from the upper part of its dst when the src starts
// at or after AlignUp(dst + count * sizeof(src), 32) (CheckCastOverlappingHigh); below
// that bound the ranges overlap partially.
XTEST(cast_widening_src_in_the_upper_part_of_dst) {
    constexpr uint32_t kCount = 100;  // src 200 B: the bound is 224 B past dst
    for (uint32_t srcByte : {224u, 256u})
        one([srcByte] {
            Calc c(1024);
            auto dst = c.get<float>();
            auto src = dst.ReinterpretCast<half>()[srcByte / 2];
            for (uint32_t i = 0; i < kCount; ++i) src.SetValue(i, half(float(i) - 50.0f));
            sim_test::sync<HardEvent::S_V>();
            Cast(dst, src, RoundMode::CAST_NONE, kCount);
            sim_test::sync<HardEvent::V_S>();
            for (uint32_t i = 0; i < kCount; ++i) XCHECK_EQ(dst.GetValue(i), float(i) - 50.0f);
        });
    XCHECK_THROWS_WITH(one([] {
                           Calc c(1024);
                           auto dst = c.get<float>();
                           auto src = dst.ReinterpretCast<half>()[96];  // byte 192 < 224
                           Duplicate(src, half(1.0f), kCount);
                           PipeBarrier<PIPE_V>();
                           Cast(dst, src, RoundMode::CAST_NONE, kCount);
                       }),
                       "Cast (block 0)", "dst UB [0x0000, 0x0190) and src UB [0x00c0, 0x0188) overlap partially");
}

XTEST(vec_compare_bytes_not_multiple_of_256) {
    XCHECK_THROWS_WITH(one([] {
                           Calc c(4096);
                           auto t = c.get<float>();
                           auto m = t[512].ReinterpretCast<uint8_t>();
                           Compare(m, t, t[256], CMPMODE::LT, 100);
                       }),
                       "Compare (block 0)", "count 100 x 4 B = 400 B is not a multiple of 256 B",
                       "silently skip the last 144 B");
    XCHECK_THROWS_WITH(one([] {
                           Calc c(4096);
                           auto t = c.get<half>();
                           auto m = t[1024].ReinterpretCast<uint8_t>();
                           CompareScalar(m, t, half(1.0f), CMPMODE::GE, 200);
                       }),
                       "CompareScalar (block 0)", "count 200 x 2 B = 400 B is not a multiple of 256 B");
}

XTEST(vec_compare_int32_only_eq) {
    XCHECK_THROWS_WITH(one([] {
                           Calc c(4096);
                           auto t = c.get<int32_t>();
                           auto m = t[512].ReinterpretCast<uint8_t>();
                           Compare(m, t, t[256], CMPMODE::LT, 64);
                       }),
                       "Compare", "only CMPMODE::EQ");
}

XTEST(vec_gather_offset_out_of_range) {
    XCHECK_THROWS_WITH(one([] {
                           Calc c(4096);
                           auto all = c.get<float>();
                           auto src = all;
                           src.SetSize(256);
                           auto off = all[256].ReinterpretCast<uint32_t>();
                           auto dst = all[512];
                           Duplicate(src, 0.0f, 256);
                           for (uint32_t i = 0; i < 8; ++i) off.SetValue(i, i * 4);
                           off.SetValue(5, 1024);  // 256 elements of 4 B: byte 1024 is past the end
                           SetFlag<HardEvent::S_V>(0);
                           WaitFlag<HardEvent::S_V>(0);
                           PipeBarrier<PIPE_V>();
                           Gather(dst, src, off, 0, 8);
                       }),
                       "Gather (block 0)", "srcOffset[5] = 1024 B (+ srcBaseAddr 0 B)", "inside src's 1024 B");
}

XTEST(vec_gather_src_dst_alias) {
    XCHECK_THROWS_WITH(one([] {
                           Calc c(4096);
                           auto t = c.get<float>();
                           auto off = t[512].ReinterpretCast<uint32_t>();
                           Gather(t, t, off, 0, 8);
                       }),
                       "Gather", "forbids any aliasing");
}

XTEST(vec_reduce_count_range) {
    XCHECK_THROWS_WITH(one([] {
                           Calc c(4096);
                           auto t = c.get<float>();
                           ReduceSum(t, t, t, 0);
                       }),
                       "ReduceSum (block 0)", "count 0 is outside [1, 49152]");
    XCHECK_THROWS_WITH(one([] {
                           Calc c(4096);
                           auto t = c.get<float>();
                           Duplicate(t, 1.0f, 1024);
                           PipeBarrier<PIPE_V>();
                           ReduceMax(t, t[64], t[32], 64, true);  // tmp t[32] holds 32 floats: ok; src ok
                           PipeBarrier<PIPE_V>();
                           ReduceMax(t, t[64], t[960], 8192);
                       }),
                       "ReduceMax (block 0)", "sharedTmpBuffer needs 1024 B but the tensor holds 256 B");
}

XTEST(cast_round_mode_not_allowed) {
    XCHECK_THROWS_WITH(one([] {
                           Calc c(4096);
                           auto f = c.get<float>();
                           auto b = f[512].ReinterpretCast<bfloat16_t>();
                           Cast(b, f, RoundMode::CAST_NONE, 64);
                       }),
                       "Cast (block 0)", "RoundMode 0 is not allowed", "from float to bfloat16_t");
    XCHECK_THROWS_WITH(one([] {
                           Calc c(4096);
                           auto h = c.get<half>();
                           auto f = h[1024].ReinterpretCast<float>();
                           Cast(f, h, RoundMode::CAST_RINT, 64);
                       }),
                       "Cast", "RoundMode 1 is not allowed");
}

XTEST(cast_widening_in_place_overlap) {
    XCHECK_THROWS_WITH(one([] {
                           Calc c(4096);
                           auto h = c.get<half>();
                           Cast(h.ReinterpretCast<float>(), h, RoundMode::CAST_NONE, 64);
                       }),
                       "Cast", "overlap partially");
}

// ---- LocalTensor / TBuf bounds ----

XTEST(localtensor_index_bounds) {
    XCHECK_THROWS_WITH(one([] {
                           Calc c(64);
                           (void)c.get<float>().GetValue(16);
                       }),
                       "LocalTensor::GetValue (block 0)", "index 16 (64 B) is outside the tensor's 64 B");
    XCHECK_THROWS_WITH(one([] {
                           Calc c(64);
                           c.get<half>()[8].SetValue(24, 1.0f);
                       }),
                       "LocalTensor::SetValue", "index 24 (48 B) is outside the tensor's 48 B");
    XCHECK_THROWS_WITH(one([] {  // forming a view past the end is legal, using it is not
                           Calc c(64);
                           (void)c.get<float>()[17].GetValue(0);
                       }),
                       "LocalTensor::GetValue", "index 0 (0 B) is outside the tensor's 0 B");
}

XTEST(tbuf_get_bounds_and_multiple) {
    XCHECK_THROWS_WITH(one([] {
                           TPipe pipe;
                           TBuf<TPosition::VECCALC> b;
                           pipe.InitBuffer(b, 256);
                           (void)b.Get<float>(72);
                       }),
                       "TBuf::Get (block 0)", "288 B at offset 0 exceed the TBuf's 256 B");
    XCHECK_THROWS_WITH(one([] {
                           TPipe pipe;
                           TBuf<TPosition::VECCALC> b;
                           pipe.InitBuffer(b, 256);
                           (void)b.Get<float>(12);
                       }),
                       "TBuf::Get", "len x sizeof(T) = 48 B is not a multiple of 32 B");
}

// ---- queues ----

XTEST(queue_enque_past_depth) {
    XCHECK_THROWS_WITH(one([] {
                           TPipe pipe;
                           TQue<TPosition::VECOUT, 1> q;
                           pipe.InitBuffer(q, 2, 256);
                           auto a = q.AllocTensor<float>();
                           auto b = q.AllocTensor<float>();
                           q.EnQue(a);
                           q.EnQue(b);
                       }),
                       "TQue::EnQue (block 0)", "ring of depth 1 is full", "overwrite the oldest entry");
}

XTEST(queue_deque_empty) {
    XCHECK_THROWS_WITH(one([] {
                           TPipe pipe;
                           TQue<TPosition::VECIN, 1> q;
                           pipe.InitBuffer(q, 1, 256);
                           (void)q.DeQue<float>();
                       }),
                       "TQue::DeQue (block 0)", "no tensor enqueued", "stale slot of the ring");
}

XTEST(queue_free_twice_and_foreign) {
    XCHECK_THROWS_WITH(one([] {
                           TPipe pipe;
                           TQue<TPosition::VECIN, 1> q;
                           pipe.InitBuffer(q, 1, 256);
                           auto a = q.AllocTensor<float>();
                           q.FreeTensor(a);
                           q.FreeTensor(a);
                       }),
                       "TQue::FreeTensor (block 0)", "already free");
    XCHECK_THROWS_WITH(one([] {
                           TPipe pipe;
                           TQue<TPosition::VECIN, 1> q1, q2;
                           pipe.InitBuffer(q1, 1, 256);
                           pipe.InitBuffer(q2, 1, 256);
                           auto a = q1.AllocTensor<float>();
                           q2.FreeTensor(a);
                       }),
                       "TQue::FreeTensor", "not allocated from this queue");
}

XTEST(queue_alloc_with_no_free_buffer) {
    XCHECK_THROWS_WITH(one([] {
                           TPipe pipe;
                           TQue<TPosition::VECIN, 2> q;
                           pipe.InitBuffer(q, 2, 256);
                           auto a = q.AllocTensor<float>();
                           auto b = q.AllocTensor<float>();
                           auto c = q.AllocTensor<float>();
                       }),
                       "TQue::AllocTensor (block 0)", "2 buffer(s) are all allocated", "spin in AllocTensor forever");
}

// The limit is the TPipe's 8 ids per event (QUE_MAX_EVENT), not a count of tensors:
// nine allocated tensors are fine, but each freed one holds an id of the release
// event until AllocTensor hands its buffer out again.
XTEST(queue_event_ids_come_from_the_pipe_pool) {
    one([] {
        TPipe pipe;
        TQue<TPosition::VECIN, 1> q;
        pipe.InitBuffer(q, 9, 64);
        for (int i = 0; i < 9; ++i) (void)q.AllocTensor<float>();
    });
    XCHECK_THROWS_WITH(one([] {
                           TPipe pipe;
                           TQue<TPosition::VECIN, 1> q;
                           pipe.InitBuffer(q, 9, 64);
                           LocalTensor<float> t[9];
                           for (auto& x : t) x = q.AllocTensor<float>();
                           for (auto& x : t) q.FreeTensor(x);
                       }),
                       "TQue::FreeTensor", "FreeTensor needs an id of HardEvent::V_MTE2", "all 8 (QUE_MAX_EVENT)");
    // Ids the kernel reserves itself count against the same pool as the queue's.
    XCHECK_THROWS_WITH(one([] {
                           TPipe pipe;
                           TQue<TPosition::VECIN, 1> q;
                           pipe.InitBuffer(q, 1, 64);
                           for (int i = 0; i < 8; ++i) (void)pipe.AllocEventID<HardEvent::MTE2_V>();
                           q.EnQue(q.AllocTensor<float>());
                       }),
                       "TQue::EnQue", "EnQue needs an id of HardEvent::MTE2_V");
}

// On the NPU a tensor never freed holds no event: nothing to report. One left
// enqueued leaves its SetFlag pending.
XTEST(queue_tensor_live_at_kernel_end) {
    one([] {
        TPipe pipe;
        TQue<TPosition::VECOUT, 1> q;
        pipe.InitBuffer(q, 1, 256);
        (void)q.AllocTensor<float>();
    });
    XCHECK_THROWS_WITH(one([] {
                           TPipe pipe;
                           TQue<TPosition::VECOUT, 1> q;
                           pipe.InitBuffer(q, 1, 256);
                           auto a = q.AllocTensor<float>();
                           q.EnQue(a);
                       }),
                       "kernel end (block 0)", "SetFlag<HardEvent::V_MTE3>(0)", "has no WaitFlag at kernel end");
}

// ---- events ----

XTEST(event_setflag_without_waitflag_at_end) {
    XCHECK_THROWS_WITH(one([] { SetFlag<HardEvent::V_S>(3); }), "kernel end (block 0)",
                       "SetFlag<HardEvent::V_S>(3)", "no WaitFlag at kernel end");
}

XTEST(event_waitflag_without_setflag) {
    XCHECK_THROWS_WITH(one([] { WaitFlag<HardEvent::MTE2_V>(1); }), "WaitFlag (block 0)",
                       "WaitFlag<HardEvent::MTE2_V>(1) with no pending SetFlag");
}

XTEST(event_set_twice) {
    XCHECK_THROWS_WITH(one([] {
                           SetFlag<HardEvent::S_MTE3>(0);
                           SetFlag<HardEvent::S_MTE3>(0);
                       }),
                       "SetFlag (block 0)", "SetFlag<HardEvent::S_MTE3>(0) while the same event is still set");
}

XTEST(event_id_and_pair_legal) {
    XCHECK_THROWS_WITH(one([] { SetFlag<HardEvent::V_S>(8); }), "SetFlag", "event id 8 of HardEvent::V_S is outside 0..7");
    XCHECK_THROWS_WITH(one([] { SetFlag<HardEvent::M_V>(0); }), "SetFlag", "HardEvent::M_V is not a legal pair");
    XCHECK_THROWS_WITH(one([] { SetFlag<HardEvent::MTE1_MTE2>(0); }), "SetFlag", "not a legal pair on a vector core");
}

// ---- DCache ----

XTEST(dcache_setvalue_is_written_back_at_kernel_end) {
    // The compiler ends an operator with a whole-DCache clean: a SetValue left dirty
    // reaches GM, and so does a cleaned one.
    Gm<float> x(64, "flags");
    one([&] {
        GlobalTensor<float> g;
        g.SetGlobalBuffer(x.p, 64);
        g.SetValue(20, 1.0f);
    });
    XCHECK_EQ(x.p[20], 1.0f);
    one([&] {
        GlobalTensor<float> g;
        g.SetGlobalBuffer(x.p, 64);
        g.SetValue(20, 2.0f);
        DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(g[20]);
    });
    XCHECK_EQ(x.p[20], 2.0f);
}

XTEST(dcache_dma_reads_dirty_line) {
    Gm<float> x(64, "x");
    XCHECK_THROWS_WITH(one([&] {
                           Calc c(256);
                           GlobalTensor<float> g;
                           g.SetGlobalBuffer(x.p, 64);
                           g.SetValue(3, 1.0f);
                           SetFlag<HardEvent::S_MTE2>(0);
                           WaitFlag<HardEvent::S_MTE2>(0);
                           DataCopy(c.get<float>(), g, 16);
                       }),
                       "DataCopy (block 0)", "MTE2 reads GM line x+0x0000", "has not cleaned");
}

XTEST(dcache_stale_line_after_mte3) {
    Gm<float> x(64, "x");
    XCHECK_THROWS_WITH(one([&] {
                           Calc c(256);
                           GlobalTensor<float> g;
                           g.SetGlobalBuffer(x.p, 64);
                           (void)g.GetValue(0);  // line cached
                           auto t = c.get<float>();
                           Duplicate(t, 2.0f, 16);
                           SetFlag<HardEvent::V_MTE3>(0);
                           WaitFlag<HardEvent::V_MTE3>(0);
                           DataCopy(g, t, 16);
                           SetFlag<HardEvent::MTE3_S>(0);
                           WaitFlag<HardEvent::MTE3_S>(0);
                           (void)g.GetValue(1);  // still the old line
                       }),
                       "GlobalTensor::GetValue (block 0)", "cached before it was overwritten");
}

// Block 1 caches a GM line by GetValue; after a SyncAll block 0 writes strided
// rows around it (pitch 256 B, the cached line in a gap) or over it; after the
// next SyncAll block 1 reads the line again: stale only if a row covered it.
XTEST(dcache_line_in_the_gap_of_another_blocks_strided_write_stays_valid) {
    Gm<float> x(256, "x");
    auto body = [&](uint32_t writeStart) {
        return [&, writeStart] {
            Calc c(512);
            const auto g = global(x.p, 256);
            if (GetBlockIdx() == 1) (void)g.GetValue(32);  // caches line x+0x0080
            SyncAll();
            if (GetBlockIdx() == 0) {
                auto t = c.get<float>();
                fill_for_mte3(t, 1.0f, 128);
                DataCopyPad(g[writeStart], t, {4, 128, 0, 128, 0});
            }
            SyncAll();
            if (GetBlockIdx() == 1) (void)g.GetValue(33);
        };
    };
    ascend_sim::set_threads(1);
    run_kernel("gap", 2, body(0));
    XCHECK_THROWS_WITH(run_kernel("over", 2, body(32)), "GlobalTensor::GetValue (block 1)",
                       "cached before it was overwritten");
    ascend_sim::set_threads(0);
}

XTEST(dcache_line_dirty_in_another_block) {
    Gm<float> x(64, "x");
    ascend_sim::set_threads(1);
    XCHECK_THROWS_WITH(run_kernel("k", 2,
                                  [&] {
                                      GlobalTensor<float> g;
                                      g.SetGlobalBuffer(x.p, 64);
                                      if (GetBlockIdx() == 0) g.SetValue(0, 1.0f);
                                      SyncAll();
                                      if (GetBlockIdx() == 1) (void)g.GetValue(1);
                                      SyncAll();
                                      DataCacheCleanAndInvalid<float, CacheLine::ENTIRE_DATA_CACHE>(g);
                                  }),
                       "GlobalTensor::GetValue (block 1)", "block 0 wrote with SetValue and has not cleaned");
    ascend_sim::set_threads(0);
}

// ---- inter-block and launch rules ----

XTEST(gm_race_between_blocks) {
    Gm<float> x(256, "out");
    XCHECK_THROWS_WITH(run_kernel("racy", 4,
                                  [&] {
                                      Calc c(512);
                                      auto t = c.get<float>();
                                      fill_for_mte3(t, float(GetBlockIdx() + 1), 128);  // different bytes
                                      DataCopy(global(x.p, 256)[GetBlockIdx() * 32], t, 128);  // 512 B windows 128 B apart
                                  }),
                       "GM race (blocks 0 and 1", "GM [out+0x0080, out+0x0200)", "written by block 0",
                       "written by block 1", "no SyncAll in between");
}

// Each block records its GM accesses out of address order (high window first),
// over an odd number of blocks: the race check sorts each block's records and
// merges the runs, and must still find the one overlap (blocks 3 and 4) and no
// false one between the interleaved, disjoint windows of the others.
XTEST(gm_race_found_across_unsorted_block_records) {
    Gm<float> x(2048, "out");
    auto body = [&](uint32_t overlapBlock) {
        return [&, overlapBlock] {
            Calc c(256);
            const auto g = global(x.p, 2048);
            auto t = c.get<float>();
            const uint32_t i = uint32_t(GetBlockIdx());
            fill_for_mte3(t, float(i + 1), 64);  // different bytes per block
            DataCopy(g[1024 + i * 64], t, 64);  // 256 B windows, disjoint
            DataCopy(g[i * 64], t, 64);
            if (i == overlapBlock) DataCopy(g[(i + 1) * 64 + 32], t, 32);  // into block i+1's low window
        };
    };
    run_kernel("disjoint", 5, body(99));
    XCHECK_THROWS_WITH(run_kernel("racy", 5, body(3)), "GM race (blocks 3 and 4", "GM [out+0x0480, out+0x0500)",
                       "written by block 3", "written by block 4", "no SyncAll in between");
}

// Two blocks write 4 rows of 128 B each with one strided DataCopyPad (GM pitch
// 256 B): block 0 the even 128 B rows, block 1 the odd ones. Their hulls
// overlap but no byte does, so there is no race (the NPU touches only the
// rows). Shifted by 32 B, block 1's rows overlap block 0's and must be reported.
XTEST(gm_race_strided_rows_interleaved_vs_overlapping) {
    Gm<float> x(256, "out");
    auto body = [&](uint32_t shiftFloats) {
        return [&, shiftFloats] {
            Calc c(512);
            const auto g = global(x.p, 256);
            auto t = c.get<float>();
            fill_for_mte3(t, float(GetBlockIdx() + 1), 128);
            const uint32_t start = GetBlockIdx() * (32 - shiftFloats);
            DataCopyPad(g[start], t, {4, 128, 0, 128, 0});  // 4 x 128 B, GM pitch 256 B
        };
    };
    run_kernel("interleaved", 2, body(0));
    for (int i = 0; i < 256; ++i) XCHECK_EQ(x.p[i], float((i / 32) % 2 + 1));
    XCHECK_THROWS_WITH(run_kernel("racy", 2, body(8)), "GM race (blocks 0 and 1", "GM [out+0x0060, out+0x0080)",
                       "written by block 0 (DataCopyPad)", "written by block 1 (DataCopyPad)",
                       "no SyncAll in between");
}

// The same with a strided read (DataCopyParams gaps, 32 B units): block 1 reads
// the rows between the ones block 0 writes; reading one of them is a race.
XTEST(gm_race_strided_read_between_written_rows) {
    Gm<float> x(256, "buf");
    auto body = [&](uint32_t readStart) {
        return [&, readStart] {
            Calc c(512);
            const auto g = global(x.p, 256);
            auto t = c.get<float>();
            if (GetBlockIdx() == 0) {
                fill_for_mte3(t, 1.0f, 128);
                DataCopy(g, t, {4, 4, 0, 4});  // UB 512 B -> GM rows [256k, 256k + 128)
            } else {
                DataCopy(t, g[readStart], {4, 4, 4, 0});  // GM rows of 128 B, pitch 256 B -> UB
            }
        };
    };
    run_kernel("between", 2, body(32));
    XCHECK_THROWS_WITH(run_kernel("racy", 2, body(0)), "GM race (blocks 0 and 1", "GM [buf+0x0000, buf+0x0080)",
                       "written by block 0 (DataCopy)", "read by block 1 (DataCopy)");
}

XTEST(syncall_blockdim_over_core_count) {
    ascend_sim::set_cores(4);
    XCHECK_THROWS_WITH(run_kernel("k", 5, [] { SyncAll(); }), "SyncAll (block 0)",
                       "blockDim 5 exceeds the 4 vector cores of ascend910b");
    ascend_sim::set_cores(0);
}

XTEST(workspace_null) {
    XCHECK_THROWS_WITH(one([] { (void)GetUserWorkspace(nullptr); }), "GetUserWorkspace (block 0)", "null");
}

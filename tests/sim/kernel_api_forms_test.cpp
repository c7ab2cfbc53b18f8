// API forms vendor kernels call: AscendCUtils's mask setters, the BroadCast
// spelling, the buffer-handle queue forms, SetDeqScale with Cast int32_t -> half,
// and the hardware SyncAll's kernel-type rule (a warning).
#include <cmath>
#include <string>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "xtest.h"

using namespace AscendC;
using ascend_sim::run_kernel;

// SetMask<float>(10) then an Adds that keeps the register (isSetMask = false):
// only the first 10 elements of the repeat change; (hi, lo) sets the bits as given.
XTEST(ascendc_utils_set_mask_forms) {
    float got[64], got2[64];
    run_kernel("set_mask", 1, [&] {
        sim_test::Calc c(3 * 256);
        LocalTensor<float> src = c.get<float>(), dst = src[64], dst2 = src[128];
        Duplicate(src, 1.0f, 64);
        Duplicate(dst, 0.0f, 64);
        Duplicate(dst2, 0.0f, 64);
        PipeBarrier<PIPE_V>();
        AscendCUtils::SetMask<float>(10);
        Adds<float, false>(dst, src, 2.0f, MASK_PLACEHOLDER, 1, {1, 1, 8, 8});
        AscendCUtils::SetMask<float>(0, 0b1010);
        Adds<float, false>(dst2, src, 2.0f, MASK_PLACEHOLDER, 1, {1, 1, 8, 8});
        AscendCUtils::SetMask<float, false>(3);  // isSetMask = false: the register keeps 0b1010
        XCHECK_EQ(ascend_sim::detail::vec_mask("test").lo, uint64_t(0b1010));
        AscendCUtils::ResetMask();
        XCHECK_EQ(ascend_sim::detail::vec_mask("test").lo, ~uint64_t(0));
        sim_test::sync<HardEvent::V_S>();
        for (int i = 0; i < 64; ++i) got[i] = dst.GetValue(i), got2[i] = dst2.GetValue(i);
    });
    for (int i = 0; i < 64; ++i) {
        XCHECK_EQ(got[i], i < 10 ? 3.0f : 0.0f);
        XCHECK_EQ(got2[i], (i == 1 || i == 3) ? 3.0f : 0.0f);
    }
}

// BroadCast<T, dim, axis> is Broadcast under the implementation's name.
// kernel_utils_base.h: C0 is one 32 B block, GetC0Count its elements of a dtype.
XTEST(ascendc_utils_c0) {
    XCHECK_EQ(AscendCUtils::GetC0Size(), 32);
    XCHECK_EQ(AscendCUtils::GetC0Count(sizeof(half)), 16);
    XCHECK_EQ(AscendCUtils::GetC0Count(sizeof(float)), 8);
    XCHECK_EQ(AscendCUtils::GetC0Count(sizeof(int8_t)), 32);
    XCHECK_THROWS_WITH(AscendCUtils::GetC0Count(0), "dtypeSize can not be 0");
}

XTEST(broadcast_spelling) {
    float got[4 * 16];
    run_kernel("broadcast_spelling", 1, [&] {
        sim_test::Calc c(4096);
        LocalTensor<float> src = c.get<float>(), dst = src[64];
        LocalTensor<uint8_t> tmp = src[512].ReinterpretCast<uint8_t>();
        sim_test::fill(src, 8, [](uint32_t i) { return float(i + 1); });  // Brcb reads a whole block
        sim_test::sync<HardEvent::S_V>();
        const uint32_t dstShape[2] = {4, 16}, srcShape[2] = {4, 1};
        BroadCast<float, 2, 1>(dst, src, dstShape, srcShape, tmp);
        sim_test::sync<HardEvent::V_S>();
        for (int i = 0; i < 64; ++i) got[i] = dst.GetValue(i);
    });
    for (int i = 0; i < 64; ++i) XCHECK_EQ(got[i], float(i / 16 + 1));
}

// AllocBuffer / EnQue(TBufHandle) / DeQue() / FreeBuffer: the handshakes of the
// tensor forms on a buffer named by its address, mixed freely with them.
XTEST(queue_buffer_handle_forms) {
    run_kernel("buffer_handles", 1, [&] {
        TPipe pipe;
        TQue<TPosition::VECIN, 2> que;
        pipe.InitBuffer(que, 2, 256);
        LocalTensor<float> t = que.AllocTensor<float>();
        que.EnQue(t);
        TBufHandle h = que.DeQue();
        XCHECK(h == reinterpret_cast<TBufHandle>(t.GetPhyAddr()));
        que.FreeBuffer(h);
        TBufHandle a = que.AllocBuffer();
        XCHECK(que.EnQue(a));
        LocalTensor<float> back = que.DeQue<float>();
        XCHECK(reinterpret_cast<TBufHandle>(back.GetPhyAddr()) == a);
        que.FreeTensor(back);
        TQue<TPosition::VECIN, 1> other;
        pipe.InitBuffer(other, 1, 256);
        TBufHandle mine = que.AllocBuffer();
        XCHECK_THROWS_WITH(other.FreeBuffer(mine), "TQue::FreeTensor", "not a buffer of this queue");
        que.FreeBuffer(mine);
    });
}

// Cast int32_t -> half scales by the DEQSCALE register (SetDeqScale(half)); the round
// mode is ignored. Reference: the float64 product rounded to the nearest half.
XTEST(cast_int32_to_half_scales_by_deqscale) {
    const int32_t in[8] = {0, 1, -3, 1000, 123457, -70000, 2049, 7};
    half got[8], got2[8];
    run_kernel("cast_deq", 1, [&] {
        sim_test::Calc c(1024);
        LocalTensor<int32_t> src = c.get<int32_t>();
        LocalTensor<half> dst = src[64].ReinterpretCast<half>(), dst2 = src[128].ReinterpretCast<half>();
        for (int i = 0; i < 8; ++i) src.SetValue(i, in[i]);
        sim_test::sync<HardEvent::S_V>();
        SetDeqScale(half(0.25f));
        Cast(dst, src, RoundMode::CAST_FLOOR, 8);
        SetDeqScale(half(1.0f));
        Cast<half, int32_t>(dst2, src, RoundMode::CAST_NONE, MASK_PLACEHOLDER + 8, 1, {1, 1, 4, 8});
        sim_test::sync<HardEvent::V_S>();
        for (int i = 0; i < 8; ++i) got[i] = dst.GetValue(i), got2[i] = dst2.GetValue(i);
    });
    for (int i = 0; i < 8; ++i) {
        XCHECK_EQ(got[i].bits(), half(float(double(in[i]) * 0.25)).bits());
        const double want = std::fabs(double(in[i])) > 65504.0 ? std::copysign(65504.0, double(in[i])) : double(in[i]);
        XCHECK_EQ(got2[i].bits(), half(float(want)).bits());
    }
}

// A block that never set DEQSCALE: the product is 0, and the run says so once.
XTEST(cast_int32_to_half_without_deqscale_warns) {
    const std::string err = sim_test::captured(stderr, [] {
        run_kernel("cast_deq_unset", 2, [] {
            sim_test::Calc c(512);
            LocalTensor<int32_t> src = c.get<int32_t>();
            Duplicate(src, 5, 8);
            PipeBarrier<PIPE_V>();
            Cast(src[64].ReinterpretCast<half>(), src, RoundMode::CAST_NONE, 8);
        });
    });
    XCHECK(err.find("Cast (block ") != std::string::npos);
    XCHECK(err.find("DEQSCALE register, which this block never set (SetDeqScale(half)); taken as 0") !=
           std::string::npos);
    XCHECK_EQ(err.find("DEQSCALE", err.find("DEQSCALE") + 1), std::string::npos);  // once for both blocks
}

// SyncAll.md: a vector operator's hardware SyncAll needs a mix kernel; a kernel that
// declares itself AIV-only is warned, a mix one (or one that declares nothing) is not.
XTEST(sync_all_in_a_declared_aiv_only_kernel_warns) {
    const std::string quiet = sim_test::captured(stderr, [] {
        run_kernel("sync_all_mix", 2, [] {
            KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);
            SyncAll();
        });
        run_kernel("sync_all_undeclared", 2, [] { SyncAll(); });
    });
    XCHECK_EQ(quiet.find("SyncAll"), std::string::npos);
    const std::string err = sim_test::captured(stderr, [] {
        run_kernel("sync_all_aiv_only", 2, [] {
            KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
            SyncAll();
        });
    });
    XCHECK(err.find("SyncAll (block ") != std::string::npos);
    XCHECK(err.find("declares KERNEL_TYPE_AIV_ONLY; SyncAll.md requires") != std::string::npos);
}

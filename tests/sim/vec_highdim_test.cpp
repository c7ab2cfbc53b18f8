// The high-dimension vector forms (mask, repeatTime, block/repeat strides) and
// the mask register, against a scalar model of the documented addressing
// (高维切分.md, 掩码.md): element j of repeat r of an operand lies at byte
// (r * repStride + (j / perBlock) * blkStride) * 32 + (j % perBlock) * sizeof(T);
// Normal mode enables element j by bit j of the mask, Counter mode counts the
// elements of the whole instruction. Each form is checked for values and for
// the bounds, initcheck and hazard checks on exactly the bytes it touches.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "xtest.h"

using namespace AscendC;
using ascend_sim::run_kernel;
using sim_test::fill;
using sim_test::sync;

namespace {
void one(const std::function<void()>& body) { run_kernel("highdim", 1, body); }

// Element index (in T) of element j of repeat r.
template <class T>
size_t at(uint32_t r, uint32_t j, uint32_t blk, uint32_t rep) {
    constexpr uint32_t perBlock = 32 / sizeof(T);
    return (size_t(r) * rep + j / perBlock * blk) * perBlock + j % perBlock;
}

bool bit(const uint64_t m[2], uint32_t j) { return ((j < 64 ? m[0] >> j : m[1] >> (j - 64)) & 1u) != 0; }


constexpr float kSentinel = -7.0f;

bool same(float a, float b) { return a == b || (a != a && b != b); }
}  // namespace

XTEST(unary_exp_count_mask_strided) {
    // 3 repeats of the first 40 floats; src reads every other block (blkStride 2, repStride 16).
    one([] {
        sim_test::Calc c(8192);
        auto src = c.get<float>(), dst = c.get<float>()[1024];
        fill(src, 1024, [](uint32_t i) { return float(i % 50) / 16; });
        fill(dst, 1024, [](uint32_t) { return kSentinel; });
        sync<HardEvent::S_V>();
        Exp(dst, src, 40, 3, {1, 2, 8, 16});
        sync<HardEvent::V_S>();
        std::vector<bool> hit(1024);
        for (uint32_t r = 0; r < 3; ++r)
            for (uint32_t j = 0; j < 40; ++j) {
                const size_t o = at<float>(r, j, 1, 8), i = at<float>(r, j, 2, 16);
                hit[o] = true;
                XCHECK_NEAR(dst.GetValue(o), std::exp(src.GetValue(i)), 2e-6f * std::exp(src.GetValue(i)));
            }
        for (uint32_t k = 0; k < 256; ++k)
            if (!hit[k]) XCHECK_EQ(dst.GetValue(k), kSentinel);
    });
}

XTEST(binary_add_bit_mask_src1_broadcast) {
    // half, mask[2] selecting alternate elements in the low word and nibbles in
    // the high word; src1 with blkStride 0 and repStride 0 reuses its first block.
    one([] {
        sim_test::Calc c(4096);
        auto s0 = c.get<half>(), s1 = c.get<half>()[512], dst = c.get<half>()[1024];
        fill(s0, 256, [](uint32_t i) { return float(i); });
        fill(s1, 16, [](uint32_t i) { return float(i) / 4; });
        fill(dst, 256, [](uint32_t) { return kSentinel; });
        sync<HardEvent::S_V>();
        uint64_t mask[2] = {0x5555555555555555ull, 0xF0F0F0F0F0F0F0F0ull};
        Add(dst, s0, s1, mask, 2, {1, 1, 0, 8, 8, 0});
        sync<HardEvent::V_S>();
        for (uint32_t r = 0; r < 2; ++r)
            for (uint32_t j = 0; j < 128; ++j) {
                const size_t o = at<half>(r, j, 1, 8);
                const float want = bit(mask, j) ? float(half(float(s0.GetValue(o)) + float(s1.GetValue(j % 16))))
                                                : kSentinel;
                XCHECK_EQ(float(dst.GetValue(o)), want);
            }
    });
}

XTEST(scalar_adds_int32_repeat_stride_zero_src) {
    // Every repeat reads the same 64 int32 (srcRepStride 0) and writes its own row.
    one([] {
        sim_test::Calc c(4096);
        auto src = c.get<int32_t>(), dst = c.get<int32_t>()[256];
        fill(src, 64, [](uint32_t i) { return int32_t(i) - 10; });
        sync<HardEvent::S_V>();
        Adds(dst, src, int32_t(1000), 64, 4, {1, 1, 8, 0});
        sync<HardEvent::V_S>();
        for (uint32_t k = 0; k < 256; ++k) XCHECK_EQ(dst.GetValue(k), int32_t(k % 64) - 10 + 1000);
    });
}

XTEST(scalar_maxs_mins_leakyrelu_highdim) {
    one([] {
        sim_test::Calc c(4096);
        auto src = c.get<float>(), a = c.get<float>()[128], b = c.get<float>()[256], l = c.get<float>()[384];
        fill(src, 64, [](uint32_t i) { return float(i) - 32; });
        sync<HardEvent::S_V>();
        uint64_t mask[2] = {~0ull, 0};
        Maxs(a, src, 3.0f, mask, 1, {1, 1, 8, 8});
        Mins(b, src, 3.0f, 64, 1, {1, 1, 8, 8});
        LeakyRelu(l, src, 0.25f, 64, 1, {1, 1, 8, 8});
        sync<HardEvent::V_S>();
        for (uint32_t k = 0; k < 64; ++k) {
            const float x = float(k) - 32;
            XCHECK_EQ(a.GetValue(k), std::max(x, 3.0f));
            XCHECK_EQ(b.GetValue(k), std::min(x, 3.0f));
            XCHECK_EQ(l.GetValue(k), x >= 0 ? x : x * 0.25f);
        }
    });
}

XTEST(axpy_highdim_a_repeat_spans_rows) {
    // dst is 5 rows of 40 floats (5 blocks each); a repeat takes one column block of
    // 5 rows (blkStride 5 = the row pitch, mask 40), 5 repeats walk the columns, so
    // dst[r][j] += 0.5 * src[r][j]. The sixth row is outside the mask and stays.
    one([] {
        sim_test::Calc c(4096);
        auto src = c.get<float>(), dst = c.get<float>()[512];
        fill(src, 240, [](uint32_t i) { return float(i % 13) - 6; });
        fill(dst, 240, [](uint32_t i) { return float(i) / 8; });
        sync<HardEvent::S_V>();
        Axpy(dst, src, 0.5f, 40, 5, {5, 5, 1, 1});
        sync<HardEvent::V_S>();
        for (uint32_t k = 0; k < 240; ++k) {
            const float before = float(k) / 8, want = k < 200 ? before + src.GetValue(k) * 0.5f : before;
            XCHECK_EQ(dst.GetValue(k), want);
        }
        uint64_t mask[2] = {0xFFull, 0};  // the first block of each repeat: row 0 only
        Axpy(dst, src, 1.0f, mask, 5, {5, 5, 1, 1});
        sync<HardEvent::V_S>();
        for (uint32_t k = 0; k < 80; ++k) {
            const float once = float(k) / 8 + src.GetValue(k) * 0.5f;
            XCHECK_EQ(dst.GetValue(k), k < 40 ? once + src.GetValue(k) : once);
        }
    });
    // dst is a source too: a dst block never written is an uninitialised read.
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(4096);
                           auto src = c.get<float>(), dst = c.get<float>()[512];
                           Duplicate(src, 1.0f, 64);
                           Duplicate(dst, 1.0f, 32);
                           PipeBarrier<PIPE_V>();
                           Axpy(dst, src, 2.0f, 64, 1, {1, 1, 8, 8});
                       }),
                       "Axpy (block 0): uninitialised read: dst UB");
}

XTEST(counter_mode_counts_the_whole_instruction) {
    // Counter mode: 100 floats over two repeats (64 + 36), repeatTime ignored.
    one([] {
        sim_test::Calc c(2048);
        auto src = c.get<float>(), dst = c.get<float>()[256];
        fill(src, 128, [](uint32_t i) { return float(i); });
        fill(dst, 128, [](uint32_t) { return kSentinel; });
        sync<HardEvent::S_V>();
        SetMaskCount();
        SetVectorMask<float, MaskMode::COUNTER>(100);
        Muls<float, false>(dst, src, 2.0f, MASK_PLACEHOLDER, 1, {1, 1, 8, 8});
        SetMaskNorm();
        ResetMask();
        sync<HardEvent::V_S>();
        for (uint32_t k = 0; k < 128; ++k) XCHECK_EQ(dst.GetValue(k), k < 100 ? 2.0f * float(k) : kSentinel);
    });
    XCHECK_EQ(ascend_sim::last_launch_stats().total.vectorRepeats, 2u);
}

XTEST(counter_mode_mask_array_in_the_call) {
    // 掩码.md: in Counter mode mask[0] of an isSetMask call is the element count.
    one([] {
        sim_test::Calc c(2048);
        auto src = c.get<half>(), dst = c.get<half>()[512];
        fill(src, 256, [](uint32_t i) { return float(i % 7); });
        fill(dst, 256, [](uint32_t) { return kSentinel; });
        sync<HardEvent::S_V>();
        SetMaskCount();
        uint64_t mask[2] = {130, 0};
        Adds(dst, src, half(1.0f), mask, 1, {1, 1, 8, 8});
        SetMaskNorm();
        sync<HardEvent::V_S>();
        for (uint32_t k = 0; k < 256; ++k)
            XCHECK_EQ(float(dst.GetValue(k)), k < 130 ? float(k % 7) + 1 : kSentinel);
    });
}

XTEST(normal_mode_register_with_is_set_mask_false) {
    // SetVectorMask then isSetMask = false: the register's 8 low bits in each of 2 repeats.
    // The count form with isSetMask = false is one repeat under the same register.
    one([] {
        sim_test::Calc c(4096);
        auto src = c.get<half>(), dst = c.get<half>()[512], dst2 = c.get<half>()[1024];
        fill(src, 256, [](uint32_t i) { return -float(i); });
        fill(dst, 256, [](uint32_t) { return kSentinel; });
        fill(dst2, 256, [](uint32_t) { return kSentinel; });
        sync<HardEvent::S_V>();
        SetVectorMask<half>(0, 0xFF);
        Abs<half, false>(dst, src, MASK_PLACEHOLDER, 2, {1, 1, 8, 8});
        Maxs<half, false>(dst2, src, half(-3.0f), 999);
        ResetMask();
        sync<HardEvent::V_S>();
        for (uint32_t k = 0; k < 256; ++k) {
            XCHECK_EQ(float(dst.GetValue(k)), k % 128 < 8 ? float(k) : kSentinel);
            XCHECK_EQ(float(dst2.GetValue(k)), k < 8 ? std::max(-float(k), -3.0f) : kSentinel);
        }
    });
}

XTEST(count_forms_leave_normal_mode_and_a_full_mask) {
    // dav_c220's count forms switch to Counter mode and back to Normal with all
    // ones, so a later isSetMask = false call sees a full mask.
    one([] {
        sim_test::Calc c(2048);
        auto src = c.get<float>(), dst = c.get<float>()[256];
        fill(src, 128, [](uint32_t i) { return float(i); });
        sync<HardEvent::S_V>();
        SetMaskCount();
        SetVectorMask<float, MaskMode::COUNTER>(3);
        Relu(dst, src, 128);
        PipeBarrier<PIPE_V>();
        Adds<float, false>(dst, src, 1.0f, MASK_PLACEHOLDER, 2, {1, 1, 8, 8});
        sync<HardEvent::V_S>();
        for (uint32_t k = 0; k < 128; ++k) XCHECK_EQ(dst.GetValue(k), float(k) + 1);
    });
}

XTEST(gather_and_compare_count_forms_and_the_register) {
    // The count-form Gather leaves its tail's continuous mask (70 floats: 6);
    // the count-form CompareScalar leaves the register as it was.
    one([] {
        sim_test::Calc c(8192);
        auto src = c.get<float>(), dst = c.get<float>()[128], out = c.get<float>()[256];
        auto off = c.get<uint32_t>()[512];
        auto bits = c.get<uint8_t>()[4096];
        src.SetSize(64);
        fill(src, 64, [](uint32_t i) { return float(i); });
        fill(off, 128, [](uint32_t i) { return (i % 64) * 4; });
        fill(out, 128, [](uint32_t) { return kSentinel; });
        sync<HardEvent::S_V>();
        Gather(dst, src, off, 0, 70);
        PipeBarrier<PIPE_V>();
        Adds<float, false>(out, dst, 1.0f, MASK_PLACEHOLDER, 1, {1, 1, 8, 8});
        sync<HardEvent::V_S>();
        for (uint32_t k = 0; k < 64; ++k) XCHECK_EQ(out.GetValue(k), k < 6 ? float(k) + 1 : kSentinel);
        SetVectorMask<float>(0, 0xF);
        CompareScalar(bits, src, 3.0f, CMPMODE::LT, 64);
        PipeBarrier<PIPE_V>();
        Muls<float, false>(out, src, 2.0f, MASK_PLACEHOLDER, 1, {1, 1, 8, 8});
        sync<HardEvent::V_S>();
        for (uint32_t k = 0; k < 64; ++k) XCHECK_EQ(out.GetValue(k), k < 4 ? 2.0f * float(k) : k < 6 ? float(k) + 1 : kSentinel);
        ResetMask();
    });
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(150000);
                           auto src = c.get<float>(), dst = c.get<float>()[64];
                           auto off = c.get<uint32_t>()[64 + 16384];
                           src.SetSize(64);
                           Gather(dst, src, off, 0, 16384);
                       }),
                       "Gather (block 0): count 16384 needs 256 full repeats of 64 elements; the count form keeps "
                       "their number in a uint8_t and the NPU would compute only 0 of them");
}

XTEST(set_vector_mask_len_forms) {
    // SetVectorMask<T>(len) in Normal mode is the continuous mask of AscendCUtils::SetMask.
    one([] {
        sim_test::Calc c(2048);
        auto src = c.get<half>(), dst = c.get<half>()[512];
        fill(src, 128, [](uint32_t i) { return float(i); });
        for (int32_t len : {1, 63, 64, 65, 100, 128}) {
            fill(dst, 128, [](uint32_t) { return kSentinel; });
            sync<HardEvent::S_V>();
            SetVectorMask<half>(len);
            Muls<half, false>(dst, src, half(1.0f), MASK_PLACEHOLDER, 1, {1, 1, 8, 8});
            sync<HardEvent::V_S>();
            for (int32_t k = 0; k < 128; ++k) XCHECK_EQ(float(dst.GetValue(k)), k < len ? float(k) : kSentinel);
        }
        ResetMask();
    });
}

XTEST(duplicate_and_copy_highdim) {
    // Duplicate into every other block; Copy 8 of every 64 int32 (Copy.md's [18, 64] -> [18, 8]).
    one([] {
        sim_test::Calc c(16384);
        auto d = c.get<float>();
        fill(d, 128, [](uint32_t) { return kSentinel; });
        sync<HardEvent::S_V>();
        Duplicate(d, 5.0f, 64, 1, 2, 8);
        sync<HardEvent::V_S>();
        for (uint32_t k = 0; k < 128; ++k) XCHECK_EQ(d.GetValue(k), (k / 8) % 2 == 0 ? 5.0f : kSentinel);

        auto src = c.get<int32_t>()[256], dst = c.get<int32_t>()[1536];
        fill(src, 18 * 64, [](uint32_t i) { return int32_t(i); });
        sync<HardEvent::S_V>();
        Copy(dst, src, 8, 18, {1, 1, 1, 8});
        sync<HardEvent::V_S>();
        for (uint32_t row = 0; row < 18; ++row)
            for (uint32_t k = 0; k < 8; ++k) XCHECK_EQ(dst.GetValue(row * 8 + k), int32_t(row * 64 + k));
    });
}

XTEST(copy_counter_mode_counts_per_repeat) {
    // Copy.md: in Counter mode Copy's count is per repeat (whole 32 B blocks) and repeatTime holds.
    one([] {
        sim_test::Calc c(8192);
        auto src = c.get<int32_t>(), dst = c.get<int32_t>()[1024];
        fill(src, 4 * 64, [](uint32_t i) { return int32_t(i); });
        fill(dst, 64, [](uint32_t) { return -1; });
        sync<HardEvent::S_V>();
        SetMaskCount();
        SetVectorMask<int32_t, MaskMode::COUNTER>(12);  // 2 blocks of 8
        Copy<int32_t, false>(dst, src, MASK_PLACEHOLDER, 4, {1, 1, 2, 8});
        SetMaskNorm();
        ResetMask();
        sync<HardEvent::V_S>();
        for (uint32_t r = 0; r < 4; ++r)
            for (uint32_t k = 0; k < 16; ++k) XCHECK_EQ(dst.GetValue(r * 16 + k), int32_t(r * 64 + k));
    });
}

XTEST(copy_counter_mode_passes_a_repeat_of_blocks) {
    // Copy.md's example: 144 int32 in one repeat are 18 blocks, the first block of each
    // of 18 rows of 64 (srcStride 8 blocks), packed in dst.
    one([] {
        sim_test::Calc c(16384);
        auto src = c.get<int32_t>(), dst = c.get<int32_t>()[18 * 64];
        fill(src, 18 * 64, [](uint32_t i) { return int32_t(i); });
        sync<HardEvent::S_V>();
        SetMaskCount();
        SetVectorMask<int32_t, MaskMode::COUNTER>(144);
        Copy<int32_t, false>(dst, src, MASK_PLACEHOLDER, 1, {1, 8, 8, 8});
        SetMaskNorm();
        ResetMask();
        sync<HardEvent::V_S>();
        for (uint32_t row = 0; row < 18; ++row)
            for (uint32_t k = 0; k < 8; ++k) XCHECK_EQ(dst.GetValue(row * 8 + k), int32_t(row * 64 + k));
    });
}

XTEST(accumulate_rows_into_dst_with_src1_repeat_stride_zero) {
    // 通用地址重叠约束: Add with dst == src1 and both repStrides 0 sums the rows of x.
    one([] {
        sim_test::Calc c(4096);
        auto acc = c.get<float>(), x = c.get<float>()[64];
        fill(acc, 64, [](uint32_t) { return 0.0f; });
        fill(x, 4 * 64, [](uint32_t i) { return float(i); });
        sync<HardEvent::S_V>();
        Add(acc, x, acc, 64, 4, {1, 1, 1, 0, 8, 0});
        sync<HardEvent::V_S>();
        for (uint32_t k = 0; k < 64; ++k) XCHECK_EQ(acc.GetValue(k), float(4 * k + 64 + 128 + 192));
    });
}

XTEST(cast_highdim_widening_and_narrowing) {
    // half -> float: 64 elements a repeat (the wider type), src 4 blocks, dst 8 blocks a repeat.
    one([] {
        sim_test::Calc c(4096);
        auto h = c.get<half>(), h2 = c.get<half>()[256];
        auto f = c.get<float>()[256];
        fill(h, 128, [](uint32_t i) { return float(i) / 3; });
        fill(f, 128, [](uint32_t) { return kSentinel; });
        fill(h2, 128, [](uint32_t) { return kSentinel; });
        sync<HardEvent::S_V>();
        Cast(f, h, RoundMode::CAST_NONE, 40, 2, {1, 1, 8, 4});
        PipeBarrier<PIPE_V>();
        uint64_t odd[2] = {0xAAAAAAAAAAAAAAAAull, 0};
        Cast(h2, f, RoundMode::CAST_RINT, odd, 2, {1, 1, 4, 8});
        sync<HardEvent::V_S>();
        for (uint32_t k = 0; k < 128; ++k) {
            const bool on = k % 64 < 40;
            XCHECK_EQ(f.GetValue(k), on ? float(h.GetValue(k)) : kSentinel);
            XCHECK_EQ(float(h2.GetValue(k)), k % 2 ? float(half(f.GetValue(k))) : kSentinel);
        }
    });
}

XTEST(brcb_fills_a_block_per_element) {
    one([] {
        sim_test::Calc c(4096);
        auto src = c.get<float>(), dst = c.get<float>()[64];
        fill(src, 16, [](uint32_t i) { return float(i) + 0.5f; });
        fill(dst, 256, [](uint32_t) { return kSentinel; });
        sync<HardEvent::S_V>();
        Brcb(dst, src, 2, {2, 16});  // every other block
        sync<HardEvent::V_S>();
        for (uint32_t k = 0; k < 256; ++k) {
            const uint32_t blk = k / 8;
            XCHECK_EQ(dst.GetValue(k), blk % 2 ? kSentinel : float(blk / 2) + 0.5f);
        }
    });
    {
        // a source chunk past its tensor: inside UB a warning, an error here
        const sim_test::PastTensor error(2);
        XCHECK_THROWS_WITH(one([] {
                               sim_test::Calc c(4096);
                               auto src = c.get<float>(), dst = c.get<float>()[64];
                               src.SetSize(8);
                               fill(src, 8, [](uint32_t) { return 1.0f; });
                               sync<HardEvent::S_V>();
                               Brcb(dst, src, 2, {1, 8});
                           }),
                           "Brcb (block 0): read past the tensor: src reads UB [0x0000, 0x0040) (64 B), 32 B past the "
                           "end of its tensor (32 B)");
    }
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(4096);
                           auto src = c.get<float>(), dst = c.get<float>()[64];
                           fill(src, 8, [](uint32_t) { return 1.0f; });
                           sync<HardEvent::S_V>();
                           Brcb(dst, src, 1, {0, 8});
                       }),
                       "Brcb (block 0): dst has blkStride 0 over more than one block of a repeat (undefined)");
}

XTEST(gather_mask_builtin_and_tensor_patterns) {
    one([] {
        sim_test::Calc c(8192);
        auto src = c.get<float>(), dst = c.get<float>()[512], dst2 = c.get<float>()[768];
        auto pat = c.get<uint32_t>()[1024];
        fill(src, 256, [](uint32_t i) { return float(i); });
        fill(pat, 4, [](uint32_t i) { return i % 2 ? 0x1u : 0x99999999u; });  // repeat 0: lanes 0,3,4,7,..; repeat 1: lane 0
        sync<HardEvent::S_V>();
        uint64_t n = 0, n2 = 0;
        GatherMask(dst, src, uint8_t(2), false, 0, {1, 2, 8, 0}, n);  // odd lanes of 2 repeats
        GatherMask(dst2, src, pat, false, 0, {1, 2, 8, 0}, n2);      // src1RepeatStride 0: one pattern
        sync<HardEvent::V_S>();
        XCHECK_EQ(n, 64u);
        for (uint32_t k = 0; k < 64; ++k) XCHECK_EQ(dst.GetValue(k), float(2 * k + 1));
        XCHECK_EQ(n2, 2u * 16u + 2u * 1u);
        std::vector<float> want;
        for (uint32_t r = 0; r < 2; ++r)
            for (uint32_t j = 0; j < 64; ++j)
                if (((j < 32 ? 0x99999999u : 0x1u) >> (j % 32)) & 1u) want.push_back(float(r * 64 + j));
        XCHECK_EQ(want.size(), size_t(n2));
        for (size_t k = 0; k < want.size(); ++k) XCHECK_EQ(dst2.GetValue(uint32_t(k)), want[k]);
    });
}

XTEST(gather_mask_in_place_compacts) {
    // GatherMask.md's example: dst is src0, pattern 2 (odd lanes), 4 repeats 8 blocks apart.
    one([] {
        sim_test::Calc c(8192);
        auto src = c.get<half>();
        fill(src, 512, [](uint32_t i) { return half(float(i)); });
        sync<HardEvent::S_V>();
        uint64_t n = 0;
        GatherMask(src, src, uint8_t(2), false, 0, {1, 4, 8, 0}, n);
        sync<HardEvent::V_S>();
        XCHECK_EQ(n, 256u);
        for (uint32_t k = 0; k < 256; ++k) XCHECK_EQ(float(src.GetValue(k)), float(2 * k + 1));
    });
    // Repeats 4 blocks apart read what earlier ones packed: in place is refused.
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(8192);
                           auto src = c.get<half>();
                           fill(src, 512, [](uint32_t i) { return half(float(i)); });
                           sync<HardEvent::S_V>();
                           uint64_t n = 0;
                           GatherMask(src, src, uint8_t(2), false, 0, {1, 4, 4, 0}, n);
                       }),
                       "GatherMask (block 0)", "overlaps a source of the instruction");
}

XTEST(gather_mask_counter_mode_and_checks) {
    // reduceMode: 70 floats a repeat (more than 64), pattern 1 (even lanes), 2 repeats 16 blocks apart.
    one([] {
        sim_test::Calc c(8192);
        auto src = c.get<float>(), dst = c.get<float>()[1024];
        fill(src, 512, [](uint32_t i) { return float(i); });
        sync<HardEvent::S_V>();
        uint64_t n = 0;
        GatherMask(dst, src, uint8_t(1), true, 70, {1, 2, 16, 0}, n);
        sync<HardEvent::V_S>();
        XCHECK_EQ(n, 70u);
        for (uint32_t k = 0; k < 70; ++k) XCHECK_EQ(dst.GetValue(k), float((k / 35) * 128 + (k % 35) * 2));
    });
    // The packed result is bounded by dst; unwritten dst past it stays unwritten.
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(8192);
                           auto src = c.get<float>(), dst = c.get<float>()[1024];
                           dst.SetSize(32);
                           fill(src, 128, [](uint32_t) { return 1.0f; });
                           sync<HardEvent::S_V>();
                           uint64_t n = 0;
                           GatherMask(dst, src, uint8_t(7), false, 0, {1, 1, 8, 0}, n);
                       }),
                       "GatherMask (block 0): dst receives 256 B but the tensor holds 128 B");
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(8192);
                           auto src = c.get<float>(), dst = c.get<float>()[1024];
                           fill(src, 64, [](uint32_t) { return 1.0f; });
                           sync<HardEvent::S_V>();
                           uint64_t n = 0;
                           GatherMask(dst, src, uint8_t(7), false, 0, {1, 1, 8, 0}, n);
                           PipeBarrier<PIPE_V>();
                           Adds(dst, dst, 1.0f, 65);
                       }),
                       "Adds (block 0): uninitialised read: src UB [0x1000, 0x1104)", "first unwritten byte at 0x1100");
}

XTEST(gather_highdim_mask_and_repeat_stride) {
    // 40 of each repeat's 64 floats; repeat r's offsets follow repeat r-1's; dst rows 16 blocks apart.
    one([] {
        sim_test::Calc c(8192);
        auto src = c.get<float>(), dst = c.get<float>()[256];
        src.SetSize(64);  // Gather's src is its whole tensor: no overlap with dst
        auto off = c.get<uint32_t>()[1024];
        fill(src, 64, [](uint32_t i) { return float(i) * 10; });
        fill(off, 128, [](uint32_t i) { return (63 - i % 64) * 4u; });
        fill(dst, 256, [](uint32_t) { return kSentinel; });
        sync<HardEvent::S_V>();
        Gather(dst, src, off, 0, 40, 2, 16);
        sync<HardEvent::V_S>();
        for (uint32_t r = 0; r < 2; ++r)
            for (uint32_t j = 0; j < 64; ++j)
                XCHECK_EQ(dst.GetValue(r * 128 + j), j < 40 ? float(63 - j) * 10 : kSentinel);
    });
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(8192);
                           auto src = c.get<float>(), dst = c.get<float>()[256];
                           src.SetSize(64);
                           auto off = c.get<uint32_t>()[1024];
                           fill(src, 64, [](uint32_t) { return 1.0f; });
                           fill(off, 128, [](uint32_t i) { return i == 70 ? 256u : 0u; });
                           sync<HardEvent::S_V>();
                           Gather(dst, src, off, 0, 64, 2, 8);
                       }),
                       "Gather (block 0): repeat 1: srcOffset[70] = 256 B (+ srcBaseAddr 0 B) is not a 4-byte aligned "
                       "offset inside src's 256 B");
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(8192);
                           auto src = c.get<float>(), dst = c.get<float>()[256];
                           src.SetSize(64);
                           auto off = c.get<uint32_t>()[1024];
                           fill(src, 8, [](uint32_t) { return 1.0f; });
                           fill(off, 64, [](uint32_t i) { return i == 9 ? 40u : 0u; });  // src[10] never written
                           sync<HardEvent::S_V>();
                           Gather(dst, src, off, 0, 64, 1, 8);
                       }),
                       "Gather (block 0): uninitialised read: src UB [0x0028, 0x002c)");
}

XTEST(compare_highdim_ignores_the_mask_on_a2) {
    // Compare.md: mask is reserved on A2/A3; each repeat's 128 half results fill 16 bytes of dst.
    one([] {
        sim_test::Calc c(8192);
        auto a = c.get<half>(), b = c.get<half>()[1024];
        auto bits = c.get<uint8_t>()[4096], sbits = c.get<uint8_t>()[4160];
        fill(a, 512, [](uint32_t i) { return float(i % 17); });
        fill(b, 256, [](uint32_t i) { return float(i % 5) * 3; });
        sync<HardEvent::S_V>();
        uint64_t none[2] = {0, 0};
        Compare(bits, a, b, CMPMODE::GT, none, 2, {1, 2, 1, 8, 16, 8});  // src0 reads every other block
        CompareScalar(sbits, a, half(4.0f), CMPMODE::EQ, 1, 2, {1, 1, 8, 8});
        sync<HardEvent::V_S>();
        for (uint32_t r = 0; r < 2; ++r)
            for (uint32_t j = 0; j < 128; ++j) {
                const uint32_t i = r * 128 + j, ia = (r * 16 + j / 16 * 2) * 16 + j % 16;
                const bool gt = float(a.GetValue(ia)) > float(b.GetValue(r * 128 + j));
                XCHECK_EQ(((bits.GetValue(i / 8) >> (i % 8)) & 1) != 0, gt);
                XCHECK_EQ(((sbits.GetValue(i / 8) >> (i % 8)) & 1) != 0, float(a.GetValue(i)) == 4.0f);
            }
    });
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(8192);
                           auto a = c.get<float>();
                           auto bits = c.get<uint8_t>()[4096];
                           Duplicate(a, 1.0f, 128);
                           PipeBarrier<PIPE_V>();
                           CompareScalar(bits, a, 1.0f, CMPMODE::EQ, 64, 2, {1, 1, 1, 8});
                       }),
                       "CompareScalar (block 0): dstBlkStride 1 / dstRepStride 1 over 2 repeats");
}

XTEST(shifts_as_documented) {
    // ShiftLeft.md / ShiftRight.md: 0b1010101010101010 shifted by one, signed and unsigned; roundEn adds bit sh-1.
    one([] {
        sim_test::Calc c(4096);
        auto s16 = c.get<int16_t>(), l16 = c.get<int16_t>()[128], r16 = c.get<int16_t>()[256];
        auto u16 = c.get<uint16_t>()[384], lu = c.get<uint16_t>()[512], ru = c.get<uint16_t>()[640];
        auto rr = c.get<int16_t>()[768];
        fill(s16, 128, [](uint32_t i) { return i == 1 ? int16_t(17) : int16_t(0xAAAA); });
        fill(u16, 128, [](uint32_t) { return uint16_t(0xAAAA); });
        sync<HardEvent::S_V>();
        ShiftLeft(l16, s16, int16_t(1), 128);
        ShiftRight(r16, s16, int16_t(1), 128);
        ShiftLeft(lu, u16, uint16_t(1), 128, 1, {1, 1, 8, 8});
        ShiftRight(ru, u16, uint16_t(1), 128, 1, {1, 1, 8, 8});
        ShiftRight(rr, s16, int16_t(5), 128, 1, {1, 1, 8, 8}, true);
        sync<HardEvent::V_S>();
        XCHECK_EQ(uint16_t(l16.GetValue(0)), uint16_t(0xD554));
        XCHECK_EQ(uint16_t(r16.GetValue(0)), uint16_t(0xD555));
        XCHECK_EQ(lu.GetValue(0), uint16_t(0x5554));
        XCHECK_EQ(ru.GetValue(0), uint16_t(0x5555));
        XCHECK_EQ(rr.GetValue(1), int16_t(1));  // 17 >> 5 = 0, bit 4 of 17 is 1
    });
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(1024);
                           auto t = c.get<int16_t>();
                           ShiftLeft(t, t, int16_t(17), 16);
                       }),
                       "ShiftLeft (block 0): shift 17 is outside [0, 16] for a 16-bit type");
}

XTEST(compare_into_cmpmask_get_and_set) {
    // Compare（结果存入寄存器）.md: one repeat under the mask into CMPMASK; GetCmpMask stores its 16 B.
    one([] {
        sim_test::Calc c(4096);
        auto a = c.get<float>(), b = c.get<float>()[64];
        auto m = c.get<uint8_t>()[1024], m2 = c.get<uint8_t>()[1056];
        fill(a, 64, [](uint32_t i) { return float(i); });
        fill(b, 64, [](uint32_t) { return 20.0f; });
        fill(m2, 16, [](uint32_t i) { return uint8_t(0xA0 + i); });
        sync<HardEvent::S_V>();
        Compare(a, b, CMPMODE::LT, 40, {1, 1, 1, 8, 8, 8});  // lanes 0..39: a < 20 for lanes 0..19
        GetCmpMask(m);
        PipeBarrier<PIPE_V>();
        SetCmpMask(m2);
        GetCmpMask(m2[16]);
        sync<HardEvent::V_S>();
        uint64_t lo;
        std::memcpy(&lo, m.GetPhyAddr(), 8);
        XCHECK_EQ(lo, (1ull << 20) - 1);
        for (uint32_t k = 8; k < 16; ++k) XCHECK_EQ(m.GetValue(k), uint8_t(0));
        for (uint32_t k = 0; k < 16; ++k) XCHECK_EQ(m2.GetValue(16 + k), uint8_t(0xA0 + k));
    });
    // CMPMASK is undefined at block start and after a Select: GetCmpMask then stores undefined bytes.
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(1024);
                           auto m = c.get<uint8_t>();
                           GetCmpMask(m);
                           sync<HardEvent::V_S>();
                           (void)m.GetValue(0);
                       }),
                       "LocalTensor::GetValue (block 0): uninitialised read: UB [0x0000, 0x0001)");
}

XTEST(unary_count_forms) {
    one([] {
        sim_test::Calc c(8192);
        auto f = c.get<float>(), o = c.get<float>()[256];
        auto i16 = c.get<int16_t>()[1024], o16 = c.get<int16_t>()[1536];
        auto i32 = c.get<int32_t>()[1024], o32 = c.get<int32_t>()[1280];
        fill(f, 64, [](uint32_t i) { return float(i) - 20.5f; });
        fill(i16, 32, [](uint32_t i) { return int16_t(i * 977); });
        sync<HardEvent::S_V>();
        auto check = [&](float (*want)(float)) {
            sync<HardEvent::V_S>();
            for (uint32_t k = 0; k < 64; ++k) XCHECK(same(o.GetValue(k), want(float(k) - 20.5f)));
            sync<HardEvent::S_V>();
        };
        Abs(o, f, 64);
        check([](float x) { return std::fabs(x); });
        Relu(o, f, 64);
        check([](float x) { return x > 0 ? x : 0.0f; });
        Sqrt(o, f, 64);
        check([](float x) { return std::sqrt(x); });
        Reciprocal(o, f, 64);
        check([](float x) { return 1.0f / x; });
        Rsqrt(o, f, 64);
        check([](float x) { return float(1.0 / std::sqrt(double(x))); });
        Not(o16, i16, 32);
        sync<HardEvent::V_S>();
        for (uint32_t k = 0; k < 32; ++k) XCHECK_EQ(o16.GetValue(k), int16_t(~int16_t(k * 977)));
        // And/Or on int32 run as int16 over `count` elements: 8 int32 give only 4 results.
        fill(i32, 8, [](uint32_t i) { return int32_t(0x0F0F0F0F + i); });
        fill(o32, 8, [](uint32_t) { return 0; });
        sync<HardEvent::S_V>();
        Or(o32, i32, i32, 8);
        sync<HardEvent::V_S>();
        for (uint32_t k = 0; k < 8; ++k) XCHECK_EQ(o32.GetValue(k), k < 4 ? int32_t(0x0F0F0F0F + k) : 0);
    });
}

XTEST(sqrt_of_negative_is_nan_and_nan_propagates) {
    one([] {
        sim_test::Calc c(1024);
        auto s = c.get<half>(), o = c.get<half>()[128];
        fill(s, 128, [](uint32_t i) { return i == 0 ? -1.0f : float(i); });
        sync<HardEvent::S_V>();
        Sqrt(o, s, 128);
        sync<HardEvent::V_S>();
        XCHECK(std::isnan(float(o.GetValue(0))));
        XCHECK_EQ(float(o.GetValue(4)), 2.0f);
    });
}

// ---- checks ----

XTEST(bounds_a_repeat_past_the_tensor) {
    {  // past the tensor inside UB: a warning unless ASCEND_XENT_PAST_TENSOR=error
        const sim_test::PastTensor error(2);
        XCHECK_THROWS_WITH(one([] {
                               sim_test::Calc c(2048);
                               auto t = c.get<float>();
                               t.SetSize(128);  // 512 B: two full repeats fit, the third does not
                               fill(t, 128, [](uint32_t i) { return float(i); });
                               sync<HardEvent::S_V>();
                               Exp(t, t, 64, 3, {1, 1, 8, 8});
                           }),
                           "[ascend_sim] Exp (block 0): read past the tensor: src reads UB [0x0000, 0x0300) (768 B)",
                           "past the end of its tensor (512 B)");
    }
    // A strided read past the end with a mask that keeps the tensor's bytes only is fine.
    one([] {
        sim_test::Calc c(2048);
        auto t = c.get<float>();
        t.SetSize(64);
        fill(t, 64, [](uint32_t i) { return float(i); });
        sync<HardEvent::S_V>();
        uint64_t mask[2] = {0xFFull, 0};  // block 0 of each repeat
        Adds(t, t, 1.0f, mask, 8, {1, 1, 1, 1});
    });
}

XTEST(bounds_block_stride_reaches_past_the_tensor) {
    const sim_test::PastTensor error(2);  // inside UB: a warning unless ASCEND_XENT_PAST_TENSOR=error
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(4096);
                           auto s = c.get<half>(), d = c.get<half>()[1024];
                           d.SetSize(256);
                           fill(s, 128, [](uint32_t) { return 1.0f; });
                           sync<HardEvent::S_V>();
                           Ln(d, s, 128, 1, {3, 1, 8, 8});  // dst block 7 at 7 x 3 x 32 = 672 B > 512 B
                       }),
                       "Ln (block 0): write past the tensor: dst writes UB [0x0800, 0x0ac0) (704 B), 192 B past the "
                       "end of its tensor (512 B)");
}

XTEST(initcheck_sees_the_strided_bytes_exactly) {
    // src's odd blocks are never written: a blkStride-2 read is clean, a contiguous one is not.
    auto kernel = [](uint16_t srcBlk) {
        return [srcBlk] {
            sim_test::Calc c(4096);
            auto s = c.get<float>(), d = c.get<float>()[512];
            Duplicate(s, 1.0f, 64, 4, 2, 16);  // even blocks of 4 x 512 B
            PipeBarrier<PIPE_V>();
            Exp(d, s, 64, 4, {1, srcBlk, 8, 16});
        };
    };
    one(kernel(2));
    XCHECK_THROWS_WITH(one(kernel(1)),
                       "Exp (block 0): uninitialised read: src UB [0x0000, 0x0100) (256 B)",
                       "(first unwritten byte at 0x0020)");
}

XTEST(initcheck_masked_off_elements_are_not_written) {
    // Add writes only the masked elements: reading the others is an uninitialised read.
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(2048);
                           auto a = c.get<float>(), d = c.get<float>()[256];
                           Duplicate(a, 1.0f, 128);
                           PipeBarrier<PIPE_V>();
                           Add(d, a, a, 32, 2, {1, 1, 1, 8, 8, 8});
                           PipeBarrier<PIPE_V>();
                           Exp(a, d, 128);
                       }),
                       "Exp (block 0): uninitialised read: src UB [0x0400, 0x0600) (512 B)",
                       "(first unwritten byte at 0x0480)");
}

XTEST(hazard_missing_pipe_barrier_between_dependent_highdim_ops) {
    auto kernel = [](bool barrier) {
        return [barrier] {
            sim_test::Calc c(4096);
            auto a = c.get<half>(), b = c.get<half>()[512];
            Duplicate(a, half(1.0f), 256);
            PipeBarrier<PIPE_V>();
            Adds(b, a, half(1.0f), 128, 2, {1, 1, 8, 8});
            if (barrier) PipeBarrier<PIPE_V>();
            Muls(a, b, half(2.0f), 128, 2, {2, 1, 8, 8});
        };
    };
    one(kernel(true));
    one(kernel(false));  // the compiler's auto-sync inserts the barrier
    const sim_test::AutoSync strict(0);
    XCHECK_THROWS_WITH(one(kernel(false)), "pipe hazard (block 0): RAW on UB [0x0400",
                       "PIPE_V Muls", "reads bytes written by PIPE_V Adds", "with no PipeBarrier<PIPE_V>");
}

XTEST(hazard_follows_the_strided_bytes_only) {
    // Writes to the even blocks, then reads of the odd ones: no common byte, no barrier
    // needed even where the compiler inserts none (strict mode).
    const sim_test::AutoSync strict(0);
    one([] {
        sim_test::Calc c(4096);
        auto a = c.get<float>();
        Duplicate(a, 1.0f, 512);
        PipeBarrier<PIPE_V>();
        Duplicate(a, 2.0f, 64, 4, 2, 16);
        Exp(a[512], a[8], 64, 4, {1, 2, 8, 16});
    });
}

XTEST(overlap_other_than_in_place_is_refused) {
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(4096);
                           auto a = c.get<float>();
                           Duplicate(a, 1.0f, 512);
                           PipeBarrier<PIPE_V>();
                           Exp(a[8], a, 64, 2, {1, 1, 8, 8});  // dst one block after src
                       }),
                       "Exp (block 0): dst (UB 0x0020, blkStride 1, repStride 8) and src (UB 0x0000",
                       "overlap other than element for element within a repeat");
    // In place with contiguous repeats is the 100% case.
    one([] {
        sim_test::Calc c(4096);
        auto a = c.get<float>();
        Duplicate(a, 1.0f, 512);
        PipeBarrier<PIPE_V>();
        Exp(a, a, 64, 8, {1, 1, 8, 8});
    });
}

XTEST(repeat_time_zero_and_empty_mask_are_nops) {
    one([] {
        sim_test::Calc c(1024);
        auto a = c.get<float>();
        Exp(a, a, 64, 0, {1, 1, 8, 8});  // a is never written: no read happens
        uint64_t none[2] = {0, 0};
        Exp(a, a, none, 4, {1, 1, 8, 8});
    });
    XCHECK_EQ(ascend_sim::last_launch_stats().total.vectorInstructions, 0u);
}

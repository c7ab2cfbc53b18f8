// CreateVecIndex in its three forms (CreateVecIndex.md): dst holds
// firstValue, firstValue + 1, ... at the elements the count or the mask and
// strides select; other elements keep their values. A2 builds the index from
// scalar stores and Adds, so half values follow Adds' rounding.
#include <cstdint>
#include <vector>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "vec_test_util.h"
#include "xtest.h"

using namespace AscendC;
using vec_test::one;
using sim_test::fill;
using sim_test::sync;

XTEST(create_vec_index_count_form_int32_and_float) {
    // 200 int32: one block stored, 7 copied, a second repeat of 72 elements copied from the first.
    one([] {
        sim_test::Calc c(4096);
        auto d = c.get<int32_t>();
        auto f = c.get<float>()[256];
        Duplicate(d, -1, 256);
        sync<HardEvent::V_S>();
        CreateVecIndex(d, int32_t(5), 200);
        CreateVecIndex(f, -3.0f, 44);  // five blocks and a tail of 4
        sync<HardEvent::V_S>();
        for (uint32_t i = 0; i < 256; ++i) XCHECK_EQ(d.GetValue(i), i < 200 ? int32_t(5 + i) : -1);
        for (uint32_t i = 0; i < 44; ++i) XCHECK_EQ(f.GetValue(i), -3.0f + float(i));
    });
    one([] {  // a count within one block: scalar stores only
        sim_test::Calc c(1024);
        auto d = c.get<int16_t>();
        CreateVecIndex(d, int16_t(-4), 10);
        for (uint32_t i = 0; i < 10; ++i) XCHECK_EQ(int(d.GetValue(i)), -4 + int(i));
    });
}

XTEST(create_vec_index_half_rounds_like_adds) {
    // From 2040 the half spacing is 2: block b is block b-1 plus 16, repeat r
    // repeat r-1 plus 128, each add rounded to half.
    one([] {
        sim_test::Calc c(2048);
        auto d = c.get<half>();
        CreateVecIndex(d, half(2040.0f), 300);
        sync<HardEvent::V_S>();
        std::vector<float> want(300);
        for (uint32_t i = 0; i < 300; ++i)
            want[i] = i < 16    ? float(half(2040.0f + float(i)))
                      : i < 128 ? float(half(want[i - 16] + 16.0f))
                                : float(half(want[i - 128] + 128.0f));
        for (uint32_t i = 0; i < 300; ++i) XCHECK_EQ(float(d.GetValue(i)), want[i]);
    });
}

XTEST(create_vec_index_continuous_mask_with_strides) {
    // float, mask 20 (two blocks and 4), 3 repeats, blocks 2 apart, repeats 16 blocks apart.
    one([] {
        sim_test::Calc c(8192);
        auto d = c.get<float>();
        Duplicate(d, -1.0f, 512);
        sync<HardEvent::V_S>();
        CreateVecIndex(d, 100.0f, 20, 3, 2, 16);
        sync<HardEvent::V_S>();
        std::vector<float> want(512, -1.0f);
        for (uint32_t r = 0; r < 3; ++r)
            for (uint32_t j = 0; j < 20; ++j) want[(r * 16 + j / 8 * 2) * 8 + j % 8] = 100.0f + float(r * 64 + j);
        for (uint32_t i = 0; i < 512; ++i) XCHECK_EQ(d.GetValue(i), want[i]);
    });
}

XTEST(create_vec_index_bit_mask) {
    // int16_t, the odd elements of the low word and every element of the high word, 2 repeats.
    one([] {
        sim_test::Calc c(4096);
        auto d = c.get<int16_t>();
        Duplicate(d, int16_t(-1), 512);
        sync<HardEvent::V_S>();
        uint64_t mask[2] = {0xAAAAAAAAAAAAAAAAull, ~0ull};
        CreateVecIndex(d, int16_t(0), mask, 2, 1, 8);
        sync<HardEvent::V_S>();
        for (uint32_t i = 0; i < 512; ++i) {
            const uint32_t j = i % 128;
            const bool on = i < 256 && (j >= 64 || j % 2);
            XCHECK_EQ(int(d.GetValue(i)), on ? int(i) : -1);
        }
    });
}

XTEST(create_vec_index_checks) {
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(1024);
                           auto d = c.get<float>();
                           CreateVecIndex(d, 0.0f, 5, 1, 1, 8);
                       }),
                       "CreateVecIndex (block 0): mask 5 is outside [8, 64]");
    // 100 floats into 64: the tail repeat's Adds writes past the tensor.
    {  // past the tensor inside UB: a warning unless ASCEND_XENT_PAST_TENSOR=error
        const sim_test::PastTensor error(2);
        XCHECK_THROWS_WITH(one([] {
                               sim_test::Calc c(1024);
                               auto d = c.get<float>();
                               d.SetSize(64);
                               CreateVecIndex(d, 0.0f, 100);
                           }),
                           "CreateVecIndex (block 0): write past the tensor: dst writes UB [0x0100,",
                           "past the end of its tensor (0 B)");
    }
    // Static tensors and no TPipe: dav_c220 takes the S_V id from GetTPipePtr().
    XCHECK_THROWS_WITH(one([] {
                           LocalMemAllocator<Hardware::UB> ub;
                           auto d = ub.Alloc<TPosition::VECCALC, int32_t>(64);
                           CreateVecIndex(d, int32_t(0), 64);
                       }),
                       "CreateVecIndex (block 0): dav_c220 takes its S_V event id from GetTPipePtr()->FetchEventID; "
                       "there is no live TPipe");
    // A masked-off element is not written: a later read of it is uninitialised (element 9, bytes [36, 40)).
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(1024);
                           auto d = c.get<float>(), e = c.get<float>()[128];
                           uint64_t mask[2] = {~(1ull << 9), 0};
                           CreateVecIndex(d, 0.0f, mask, 2, 1, 8);
                           Adds(e, d, 1.0f, 128);
                       }),
                       "Adds (block 0): uninitialised read: src UB [0x0000, 0x0200)", "first unwritten byte at 0x0024");
}

XTEST(create_vec_index_missing_sync_in_strict_mode) {
    // The index is written by the vector unit: reading it from the scalar unit needs V_S.
    auto k = [] {
        sim_test::Calc c(4096);
        auto d = c.get<int32_t>();
        CreateVecIndex(d, int32_t(0), 64);
        XCHECK_EQ(d.GetValue(40), 40);
    };
    vec_test::clean_with_auto_sync(k);
    const sim_test::AutoSync strict(0);
    XCHECK_THROWS_WITH(one(k), "pipe hazard (block 0): RAW on UB [0x00a0, 0x00a4)", "PIPE_S LocalTensor::GetValue",
                       "written by PIPE_V CreateVecIndex", "no V_S flag");
}

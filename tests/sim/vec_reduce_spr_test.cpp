// GetReduceRepeatSumSpr / GetAccVal (GetReduceRepeatSumSpr.md): after the
// count-form ReduceSum the register holds its result; nothing else defines it.
#include <cstdint>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "vec_test_util.h"
#include "xtest.h"

using namespace AscendC;
using vec_test::one;
using sim_test::fill;
using sim_test::sync;

XTEST(reduce_sum_result_in_acc_val) {
    // Integers, so every order of the adds gives the exact sum.
    one([] {
        sim_test::Calc c(8192);
        auto s = c.get<float>(), d = c.get<float>()[1024], t = c.get<float>()[1032];
        fill(s, 300, [](uint32_t i) { return float(int(i % 23) - 11); });
        sync<HardEvent::S_V>();
        ReduceSum(d, s, t, 300);
        float want = 0;
        for (uint32_t i = 0; i < 300; ++i) want += float(int(i % 23) - 11);
        XCHECK_EQ(GetReduceRepeatSumSpr<float>(), want);
        XCHECK_EQ(GetAccVal<float>(), d.GetValue(0));
    });
    one([] {
        sim_test::Calc c(4096);
        auto s = c.get<half>(), d = c.get<half>()[1024], t = c.get<half>()[1040];
        fill(s, 200, [](uint32_t i) { return float(i % 5); });
        sync<HardEvent::S_V>();
        ReduceSum(d, s, t, 200);
        XCHECK_EQ(float(GetReduceRepeatSumSpr<half>()), 400.0f);
    });
}

XTEST(acc_val_undefined_is_refused) {
    XCHECK_THROWS_WITH(one([] { (void)GetReduceRepeatSumSpr<float>(); }),
                       "GetReduceRepeatSumSpr (block 0): ACC_VAL holds no ReduceSum result");
    // WholeReduceSum is a vcadd too: it leaves the register undefined.
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(4096);
                           auto s = c.get<float>(), d = c.get<float>()[512], t = c.get<float>()[520];
                           Duplicate(s, 1.0f, 128);
                           PipeBarrier<PIPE_V>();
                           ReduceSum(d, s, t, 128);
                           WholeReduceSum(d, s, 64, 1, 1, 1, 8);
                           (void)GetAccVal<float>();
                       }),
                       "GetAccVal (block 0): ACC_VAL holds no ReduceSum result");
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(4096);
                           auto s = c.get<half>(), d = c.get<half>()[1024], t = c.get<half>()[1040];
                           Duplicate(s, half(1.0f), 128);
                           PipeBarrier<PIPE_V>();
                           ReduceSum(d, s, t, 128);
                           (void)GetReduceRepeatSumSpr<float>();
                       }),
                       "ACC_VAL holds a 2-byte ReduceSum result; reading it as a 4-byte T");
}

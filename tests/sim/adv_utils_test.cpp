// AscendC::Std type traits where they differ from the C++ library's (half a
// floating-point type, wchar_t not integral, integral_constant integral,
// is_one_of, is_constant) and where they agree; Fill over several bursts of
// the stack buffer and a tail, into GM read back on the host, and its checks.
#include <cstdint>
#include <functional>
#include <type_traits>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "xtest.h"

using namespace AscendC;

static_assert(Std::is_floating_point_v<half> && Std::is_floating_point_v<const volatile float>);
static_assert(!Std::is_floating_point_v<bfloat16_t> && !Std::is_floating_point_v<int>);
static_assert(Std::is_integral_v<const bool> && Std::is_integral_v<unsigned long long> && !Std::is_integral_v<wchar_t>);
static_assert(Std::is_integral_v<Std::integral_constant<int, 3>> && !Std::is_integral_v<float>);
static_assert(Std::is_one_of_v<int, float, int> && !Std::is_one_of_v<int, float, half>);
static_assert(Std::is_one_of_value_v<int, 3, 1, 2, 3> && !Std::is_one_of_value_v<int, 4, 1, 2, 3>);
static_assert(Std::is_constant<5, const Std::integral_constant<int, 5>&>::value &&
              !Std::is_constant<4, Std::integral_constant<int, 5>>::value);
static_assert(Std::is_same_v<Std::remove_cvref_t<const int&>, int> && Std::is_same_v<Std::add_cv_t<int>, const volatile int>);
static_assert(Std::is_void<const void>::value && Std::is_pointer<int*>::value && !Std::is_reference<int>::value);

namespace {
void blocks(uint32_t n, const std::function<void()>& body) { ascend_sim::run_kernel("adv_utils", n, body); }
}  // namespace

XTEST(fill_bursts_and_tail) {
    // The stack buffer after 184 KiB of InitBuffers: the 8064 B to the UB end less
    // the 128 B KfcMsg, 2016 floats a burst: two bursts and a tail of 968.
    constexpr uint32_t n = 5000;
    sim_test::Gm<float> gm(2 * n);
    blocks(2, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> big;
        pipe.InitBuffer(big, 184 * 1024);
        auto g = sim_test::global(gm.p + GetBlockIdx() * n, n);
        Fill(g, n, float(GetBlockIdx()) + 0.5f);
    });
    for (uint32_t i = 0; i < 2 * n; ++i) XCHECK_EQ(gm.p[i], float(i / n) + 0.5f);
}

XTEST(fill_checks) {
    sim_test::Gm<int32_t> gm(64);
    XCHECK_THROWS_WITH(blocks(1,
                              [&] {
                                  TPipe pipe;
                                  auto g = sim_test::global(gm.p, 64);
                                  Fill(g, 65, int32_t(1));
                              }),
                       "Fill (block 0): size 65 is larger than gmWorkspaceAddr's size 64");
}

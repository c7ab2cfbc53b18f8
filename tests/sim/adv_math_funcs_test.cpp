// Xor, Log/Log2/Log10, Erf, the Taylor Exp, Acosh, Axpy, Fmod, Tanh and Sign against
// references computed here (the C library's functions in double, bitwise xor, fmod),
// half and float, over several tmp chunks with a tail and through the forms
// without calCount or sharedTmpBuffer; their tmp-size helpers against the
// tiling files; the refusals each adds.
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "tiling/tiling_api.h"
#include "xtest.h"

using namespace AscendC;
using sim_test::sync;

namespace {
void one(const std::function<void()>& body) { ascend_sim::run_kernel("adv_math_funcs", 1, body); }

// Runs api(dst, src0, src1, tmp, n) on a 24 KiB UB split into src0 | src1 | dst | tmp
// (tmp of tmpBytes) and checks dst[i] against ref(i) within tol (relative above 1).
struct NoInit {};
template <class T, class D = T, class In0, class In1, class Api, class Ref, class Init = NoInit>
void check(uint32_t n, uint32_t tmpBytes, In0 in0, In1 in1, Api api, Ref ref, double tol, Init dst0 = {}) {
    for (int autoSync : {1, 0}) {
        const sim_test::AutoSync mode(autoSync);
        one([&] {
            sim_test::Calc c(24 * 1024);
            auto a = c.get<T>(), b = c.get<T>()[4096 / sizeof(T)];
            auto dst = c.get<D>()[8192 / sizeof(D)];
            auto tmp = c.get<uint8_t>()[16384];
            a.SetSize(n), b.SetSize(n), dst.SetSize(n), tmp.SetSize(tmpBytes);
            for (uint32_t i = 0; i < n; ++i) a.SetValue(i, in0(i)), b.SetValue(i, in1(i));
            if constexpr (!std::is_same_v<Init, NoInit>)
                for (uint32_t i = 0; i < n; ++i) dst.SetValue(i, dst0(i));
            sync<HardEvent::S_V>();
            api(dst, a, b, tmp, n);
            sync<HardEvent::V_S>();
            for (uint32_t i = 0; i < n; ++i) {
                const double got = double(dst.GetValue(i)), want = ref(i);
                XCHECK_NEAR(got, want, tol * (std::fabs(want) > 1 ? std::fabs(want) : 1));
            }
        });
    }
}

float spread(uint32_t i) { return float(int(i * 37 % 101) - 50) / 10.0f; }  // [-5, 5]
float positive(uint32_t i) { return 0.05f + float(i * 37 % 101) / 8.0f; }  // (0, 13]
}  // namespace

XTEST(xor_int16_forms) {
    auto x = [](uint32_t i) { return int16_t(i * 2654435761u); };
    auto y = [](uint32_t i) { return int16_t(i * 40503u + 7); };
    auto ref = [&](uint32_t i) { return double(int16_t(x(i) ^ y(i))); };
    // 64 B of tmp: chunks of 32 and a tail of 12
    check<int16_t>(300, 64, x, y, [](auto& d, auto& s0, auto& s1, auto& t, uint32_t n) { Xor(d, s0, s1, t, n); },
                   ref, 0);
    check<int16_t>(300, 0, x, y, [](auto& d, auto& s0, auto& s1, auto&, uint32_t) { Xor(d, s0, s1); }, ref, 0);
}

XTEST(log_family) {
    auto ln = [](uint32_t i) { return std::log(double(positive(i))); };
    check<float>(300, 0, positive, positive, [](auto& d, auto& s, auto&, auto&, uint32_t n) { Log(d, s, n); }, ln,
                 1e-6);
    check<half>(300, 0, [](uint32_t i) { return half(positive(i)); }, [](uint32_t i) { return half(positive(i)); },
                [](auto& d, auto& s, auto&, auto&, uint32_t) { Log(d, s); },
                [](uint32_t i) { return std::log(double(float(half(positive(i))))); }, 2e-3);
    check<float>(300, 0, positive, positive, [](auto& d, auto& s, auto&, auto&, uint32_t n) { Log10(d, s, n); },
                 [](uint32_t i) { return std::log10(double(positive(i))); }, 1e-6);
    check<float>(300, 0, positive, positive, [](auto& d, auto& s, auto&, auto&, uint32_t n) { Log2(d, s, n); },
                 [](uint32_t i) { return std::log2(double(positive(i))); }, 1e-6);
    // half Log2 through 128 B of tmp: 32 floats a chunk
    check<half>(300, 128, [](uint32_t i) { return half(positive(i)); }, [](uint32_t i) { return half(positive(i)); },
                [](auto& d, auto& s, auto&, auto& t, uint32_t n) { Log2(d, s, t, n); },
                [](uint32_t i) { return std::log2(double(float(half(positive(i))))); }, 2e-3);
}

XTEST(erf_exp_acosh) {
    check<float>(300, 3 * 128, spread, spread, [](auto& d, auto& s, auto&, auto& t, uint32_t n) { Erf(d, s, t, n); },
                 [](uint32_t i) { return std::erf(double(spread(i))); }, 1e-5);
    check<half>(200, 0, [](uint32_t i) { return half(spread(i)); }, [](uint32_t i) { return half(spread(i)); },
                [](auto& d, auto& s, auto&, auto&, uint32_t n) { Erf(d, s, n); },
                [](uint32_t i) { return std::erf(double(float(half(spread(i))))); }, 1e-3);
    // 3 float slices of 32: chunks of 32, a tail of 12
    check<float>(300, 3 * 128, spread, spread,
                 [](auto& d, auto& s, auto&, auto& t, uint32_t n) { Exp<float, 10, false>(d, s, t, n); },
                 [](uint32_t i) { return std::exp(double(spread(i))); }, 1e-5);
    check<half>(200, 4 * 256, [](uint32_t i) { return half(spread(i)); }, [](uint32_t i) { return half(spread(i)); },
                [](auto& d, auto& s, auto&, auto& t, uint32_t n) { Exp<half, 12, false>(d, s, t, n); },
                [](uint32_t i) { return std::exp(double(float(half(spread(i))))); }, 1e-3);
    auto big = [](uint32_t i) { return 1.0f + positive(i); };
    check<float>(300, 128, big, big, [](auto& d, auto& s, auto&, auto& t, uint32_t n) { Acosh(d, s, t, n); },
                 [&](uint32_t i) { return std::acosh(double(big(i))); }, 1e-5);
    check<half>(300, 0, [&](uint32_t i) { return half(big(i)); }, [&](uint32_t i) { return half(big(i)); },
                [](auto& d, auto& s, auto&, auto&, uint32_t) { Acosh(d, s); },
                [&](uint32_t i) { return std::acosh(double(float(half(big(i))))); }, 2e-3);
}

XTEST(axpy_and_fmod) {
    auto h = [](uint32_t i) { return half(spread(i)); };
    auto acc = [](uint32_t i) { return float(i % 7) - 3.0f; };
    // (float, half): one float slice of 32 a chunk
    check<half, float>(300, 128, h, h, [](auto& d, auto& s, auto&, auto& t, uint32_t n) { Axpy(d, s, half(2.5), t, n); },
                       [&](uint32_t i) { return double(acc(i)) + 2.5 * double(float(h(i))); }, 1e-6, acc);
    check<half>(300, 256, h, h, [](auto& d, auto& s, auto&, auto& t, uint32_t n) { Axpy(d, s, half(-1.5), t, n); },
                [&](uint32_t i) { return double(float(half(acc(i) - 1.5f * float(h(i))))); }, 1e-3,
                [&](uint32_t i) { return half(acc(i)); });
    check<float>(300, 0, spread, spread, [](auto& d, auto& s, auto&, auto& t, uint32_t n) { Axpy(d, s, 0.5f, t, n); },
                 [&](uint32_t i) { return double(acc(i)) + 0.5 * double(spread(i)); }, 1e-6, acc);
    auto divisor = [](uint32_t i) { return float(int(i % 5) + 1) * (i % 2 ? -0.75f : 1.25f); };
    check<float>(300, 256, spread, divisor, [](auto& d, auto& a, auto& b, auto& t, uint32_t n) { Fmod(d, a, b, t, n); },
                 [&](uint32_t i) { return std::fmod(double(spread(i)), double(divisor(i))); }, 1e-5);
    // GetFmodMaxMinTmpSize's minimum for half: chunks of 128, the Trunc's 512 B after three float slices
    check<half>(300, 2048, h, [&](uint32_t i) { return half(divisor(i)); },
                [](auto& d, auto& a, auto& b, auto& t, uint32_t n) { Fmod(d, a, b, t, n); },
                [&](uint32_t i) { return std::fmod(double(float(h(i))), double(float(half(divisor(i))))); }, 2e-3);
}

namespace {
float wide(uint32_t i) { return spread(i) * 3.0f; }  // [-15, 15]: past Tanh's clip at 8.8
// Zeros of both signs, NaN and infinities among finite values.
float special(uint32_t i) {
    switch (i % 50) {
    case 0: return 0.0f;
    case 1: return -0.0f;
    case 2: return std::nanf("");
    case 3: return INFINITY;
    case 4: return -INFINITY;
    default: return spread(i);
    }
}
double sign_of(double x) { return x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0; }  // 0 for +-0 and NaN
}  // namespace

XTEST(tanh_half_and_float) {
    // 128 B of tmp: float chunks of 32, a tail of 12
    check<float>(300, 128, wide, wide, [](auto& d, auto& s, auto&, auto& t, uint32_t n) { Tanh(d, s, t, n); },
                 [](uint32_t i) { return std::tanh(double(wide(i))); }, 1e-6);
    check<float>(300, 0, wide, wide, [](auto& d, auto& s, auto&, auto&, uint32_t) { Tanh(d, s); },
                 [](uint32_t i) { return std::tanh(double(wide(i))); }, 1e-6);
    // GetTanhMaxMinTmpSize's half minimum, 1024 B: two float slices of 128
    auto h = [](uint32_t i) { return half(wide(i)); };
    check<half>(300, 1024, h, h, [](auto& d, auto& s, auto&, auto& t, uint32_t n) { Tanh(d, s, t, n); },
                [&](uint32_t i) { return std::tanh(double(float(h(i)))); }, 1e-3);
    check<half>(300, 0, h, h, [](auto& d, auto& s, auto&, auto&, uint32_t n) { Tanh(d, s, n); },
                [&](uint32_t i) { return std::tanh(double(float(h(i)))); }, 1e-3);
}

XTEST(sign_half_and_float) {
    auto ref = [](uint32_t i) { return sign_of(double(special(i))); };
    // 384 B of tmp: chunks of 32 floats, a tail of 12; 3 KiB: chunks of 256 (4 repeats)
    for (uint32_t tmp : {384u, 3072u})
        check<float>(300, tmp, special, special,
                     [](auto& d, auto& s, auto&, auto& t, uint32_t n) { Sign(d, s, t, n); }, ref, 0);
    check<float>(300, 0, special, special, [](auto& d, auto& s, auto&, auto&, uint32_t) { Sign(d, s); }, ref, 0);
    auto h = [](uint32_t i) { return half(special(i)); };
    check<half>(300, 768, h, h, [](auto& d, auto& s, auto&, auto& t, uint32_t n) { Sign(d, s, t, n); }, ref, 0);
    check<half>(300, 0, h, h, [](auto& d, auto& s, auto&, auto&, uint32_t n) { Sign(d, s, n); }, ref, 0);
}

// The initcheck and past-tensor levels (1 warning, 2 error) for one scope.
struct Levels {
    explicit Levels(int mode) : past(mode) { ascend_sim::set_initcheck(mode); }
    ~Levels() { ascend_sim::set_initcheck(-1); }
    Levels(const Levels&) = delete;
    Levels& operator=(const Levels&) = delete;
    sim_test::PastTensor past;
};

// Sign(dst, src, tmp, n) on float tensors of `size` elements whose src[0, n) is
// written except src[hole] and the rest never; returns how many of dst[0, n) but
// dst[hole] differ from the reference.
uint32_t sign_partial(uint32_t n, uint32_t size, uint32_t tmpBytes, uint32_t hole) {
    uint32_t wrong = 0;
    one([&] {
        sim_test::Calc c(24 * 1024);
        auto src = c.get<float>(), dst = c.get<float>()[1024];
        auto tmp = c.get<uint8_t>()[16384];
        src.SetSize(size), dst.SetSize(size), tmp.SetSize(tmpBytes);
        for (uint32_t i = 0; i < n; ++i)
            if (i != hole) src.SetValue(i, special(i));
        sync<HardEvent::S_V>();
        Sign(dst, src, tmp, n);
        sync<HardEvent::V_S>();
        for (uint32_t i = 0; i < n; ++i)
            if (i != hole && double(dst.GetValue(i)) != sign_of(double(special(i)))) ++wrong;
    });
    return wrong;
}

// A calCount that is not a whole repeat: Sign's own Compares read whole 256 B repeats
// of src and of its zeroed dst (past the written elements, or past tensors of calCount
// elements), its SetCmpMask 16 B of a tmp holding fewer; none of it is the kernel's
// read. At error levels any such report would throw; at warning levels nothing prints.
XTEST(sign_partial_repeat_reports_nothing) {
    const auto all = [] {
        uint32_t wrong = 0;
        for (uint32_t size : {64u, 40u})
            for (uint32_t tmp : {3072u, 384u}) wrong += sign_partial(40, size, tmp, 40);
        return wrong + sign_partial(3, 3, 384, 3);  // 12 B of a 16 B CMPMASK load
    };
    {
        const Levels errors(2);
        XCHECK_EQ(all(), 0u);
    }
    const Levels warnings(1);
    uint32_t wrong = 0;
    XCHECK_EQ(sim_test::captured(stderr, [&] { wrong = all(); }), std::string());
    XCHECK_EQ(wrong, 0u);
}

// What the caller must provide is still checked: a src element within calCount never
// written is reported, as Sign's read.
XTEST(sign_unwritten_src_reported) {
    const Levels warnings(1);
    const std::string err = sim_test::captured(stderr, [] { sign_partial(40, 64, 3072, 10); });
    XCHECK(err.find("[ascend_sim] warning: Sign (block 0): uninitialised read: srcTensor UB [0x0000, 0x00a0) (160 B) "
                    "was never written since InitBuffer (first unwritten byte at 0x0028)") != std::string::npos);
    XCHECK_EQ(err.find("Compare"), std::string::npos);
    const Levels errors(2);
    XCHECK_THROWS_WITH(sign_partial(40, 64, 3072, 10), "Sign (block 0)", "uninitialised read: srcTensor");
}

// Tanh's and Sign's CheckTmpBufferSize (no chunk fits) and Sign's type check (A2: half
// and float; other types compile and are refused when run, as ops-nn's foreach_sign
// instantiates Sign<int32_t>).
XTEST(tanh_and_sign_refusals) {
    XCHECK_THROWS_WITH(check<float>(64, 64, wide, wide,
                                    [](auto& d, auto& s, auto&, auto& t, uint32_t n) { Tanh(d, s, t, n); },
                                    [](uint32_t) { return 0.0; }, 0),
                       "Tanh (block 0)", "sharedTmpBuffer holds 64 B, too little for a slice of 32 floats");
    XCHECK_THROWS_WITH(check<float>(64, 256, wide, wide,
                                    [](auto& d, auto& s, auto&, auto& t, uint32_t n) { Sign(d, s, t, n); },
                                    [](uint32_t) { return 0.0; }, 0),
                       "Sign (block 0)", "sharedTmpBuffer holds 256 B, too little for 3 x 32 elements");
    auto i32 = [](uint32_t i) { return int32_t(i) - 5; };
    XCHECK_THROWS_WITH(check<int32_t>(64, 768, i32, i32,
                                      [](auto& d, auto& s, auto&, auto& t, uint32_t n) { Sign(d, s, t, n); },
                                      [](uint32_t) { return 0.0; }, 0),
                       "Sign (block 0)", "template parameter (T) is not half or float (4-byte T)");
}

XTEST(math_tmp_sizes) {
    uint32_t mx = 0, mn = 0;
    GetXorMaxMinTmpSize(TensorShape({1024}), 2, false, mx, mn);
    XCHECK_EQ(mn, 256u), XCHECK_EQ(mx, 2048u);
    XCHECK(GetExpMaxMinTmpSize(TensorShape({8192}), 4, false, mx, mn));
    XCHECK_EQ(mn, 768u), XCHECK_EQ(mx, 3u * 8192 * 4);
    GetExpMaxMinTmpSize(TensorShape({10}), 2, false, mx, mn);
    XCHECK_EQ(mn, 1024u), XCHECK_EQ(mx, 1024u);
    GetAcoshMaxMinTmpSize(TensorShape({1000}), 2, false, mx, mn);
    XCHECK_EQ(mn, 512u), XCHECK_EQ(mx, 4000u);
    GetAxpyMaxMinTmpSize(TensorShape({512}), 2, false, mx, mn);
    XCHECK_EQ(mn, 1024u), XCHECK_EQ(mx, 4096u);
    GetAxpyMaxMinTmpSize(TensorShape({512}), 4, false, mx, mn);
    XCHECK_EQ(mn + mx, 0u);
    GetFmodMaxMinTmpSize(TensorShape({159}), 4, false, mx, mn);
    XCHECK_EQ(mn, 256u), XCHECK_EQ(mx, 636u);
    GetFmodMaxMinTmpSize(TensorShape({100}), 2, false, mx, mn);
    XCHECK_EQ(mn, 2048u), XCHECK_EQ(mx, 2048u);
    GetTanhMaxMinTmpSize(TensorShape({1000}), 2, false, mx, mn);
    XCHECK_EQ(mn, 1024u), XCHECK_EQ(mx, 8000u);
    GetTanhMaxMinTmpSize(TensorShape({10}), 4, false, mx, mn);
    XCHECK_EQ(mn, 256u), XCHECK_EQ(mx, 256u);
    uint32_t live = 0, extra = 1;
    GetTanhTmpBufferFactorSize(2, live, extra);
    XCHECK_EQ(live, 4u), XCHECK_EQ(extra, 0u);
    GetSignMaxMinTmpSize(TensorShape({1000}), 2, false, mx, mn);
    XCHECK_EQ(mn, 768u), XCHECK_EQ(mx, 6000u);
    GetSignMaxMinTmpSize(TensorShape({10}), 2, false, mx, mn);
    XCHECK_EQ(mn, 768u), XCHECK_EQ(mx, 768u);
    GetSignTmpBufferFactorSize(4, live, extra);
    XCHECK_EQ(live, 3u), XCHECK_EQ(extra, 0u);
}

XTEST(math_refusals) {
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(4096);
                           auto t = c.get<uint8_t>()[2048];
                           t.SetSize(32);
                           Xor(c.get<int16_t>()[512], c.get<int16_t>(), c.get<int16_t>()[256], t, 64);
                       }),
                       "Xor (block 0): sharedTmpBuffer holds 32 B, less than the 64 B");
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(4096);
                           auto t = c.get<uint8_t>()[2048];
                           t.SetSize(64);  // three float slices of 8 need 96 B
                           Exp<float, 8, false>(c.get<float>()[256], c.get<float>(), t, 64);
                       }),
                       "Exp (block 0): sharedTmpBuffer holds 64 B, too little for 3 float slices");
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(4096);
                           auto a = c.get<float>(), b = c.get<float>()[128];
                           a.SetSize(64), b.SetSize(32);
                           Fmod(c.get<float>()[256], a, b, c.get<uint8_t>()[2048], 32);
                       }),
                       "Fmod (block 0): src0Tensor holds 64 elements, src1Tensor 32");
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(4096);
                           Log(c.get<float>(), c.get<float>()[32], 64);
                       }),
                       "Log (block 0): srcTensor", "overlap; the API does not allow it");
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(4096);
                           auto t = c.get<uint8_t>()[2048];
                           t.SetSize(256);  // half: four float slices of 32 need 512 B
                           Erf(c.get<half>()[256], c.get<half>(), t, 64);
                       }),
                       "Erf (block 0): sharedTmpBuffer holds 256 B, too little for four float slices");
}

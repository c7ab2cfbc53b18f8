// Power against std::pow (float, half) and an integer power loop (int32), the
// tensor-tensor, tensor-scalar and scalar-tensor forms, over several tmp chunks
// with a tail and through the forms without calCount or sharedTmpBuffer; the
// special values (0, 1, -1, inf, NaN, negative bases); GetPowerMaxMinTmpSize
// and GetPowerTmpBufferFactorSize; the refusals. Then the high-dimension Select
// forms, those reading CMPMASK included, and its initcheck.
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <type_traits>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "tiling/tiling_api.h"
#include "xtest.h"

using namespace AscendC;
using sim_test::sync;

namespace {
void one(const std::function<void()>& body) { ascend_sim::run_kernel("adv_math_power", 1, body); }

// api(dst, src0, src1, tmp, n) on a 64 KiB UB: src0 | src1 | dst | tmp (tmpBytes), dst[i] against ref(i).
template <class T, class In0, class In1, class Api, class Ref>
void check(uint32_t n, uint32_t tmpBytes, In0 in0, In1 in1, Api api, Ref ref, double tol) {
    for (int autoSync : {1, 0}) {
        const sim_test::AutoSync mode(autoSync);
        one([&] {
            sim_test::Calc c(64 * 1024);
            auto a = c.get<T>(), b = c.get<T>()[8192 / sizeof(T)];
            auto dst = c.get<T>()[16384 / sizeof(T)];
            auto tmp = c.get<uint8_t>()[24576];
            a.SetSize(n), b.SetSize(n), dst.SetSize(n), tmp.SetSize(tmpBytes);
            for (uint32_t i = 0; i < n; ++i) a.SetValue(i, in0(i)), b.SetValue(i, in1(i));
            sync<HardEvent::S_V>();
            api(dst, a, b, tmp, n);
            sync<HardEvent::V_S>();
            for (uint32_t i = 0; i < n; ++i) {
                const double got = double(dst.GetValue(i)), want = ref(i);
                if (std::isnan(want)) {
                    XCHECK(std::isnan(got));
                } else if (std::isinf(want)) {
                    XCHECK_EQ(got, want);
                } else {
                    XCHECK_NEAR(got, want, tol * (std::fabs(want) > 1 ? std::fabs(want) : 1));
                }
            }
        });
    }
}

const float kInf = std::numeric_limits<float>::infinity();
const float kNan = std::numeric_limits<float>::quiet_NaN();
// bases and exponents cycling through signs, integers, fractions and the special values
float base(uint32_t i) {
    const float v[] = {2.0f, -2.0f, 0.5f, -0.5f, 1.0f, -1.0f, 0.0f, 3.0f, -3.0f, 1.5f, kInf, -kInf, kNan, 7.25f};
    return v[i % 14];
}
float expo(uint32_t i) {
    const float v[] = {2.0f, 3.0f, -1.0f, 0.5f, 0.0f, kInf, -2.0f, 1.0f, 2.5f, -kInf, -3.0f, 4.0f};
    return v[(i / 14 + i) % 12];
}
// IEEE pow as std::pow gives it: the reference for every special case the kernel handles
double ref_pow(double x, double y) { return std::pow(x, y); }
int32_t ipow(int32_t x, int32_t y) {
    if (y < 0) return x == 0 ? 0 : int32_t(1.0f / float(x));  // trunc(1 / x): 1, -1 or 0
    int32_t r = 1;
    for (int32_t k = 0; k < y; ++k) r = int32_t(uint32_t(r) * uint32_t(x));
    return r;
}
}  // namespace

XTEST(power_float_tensor_tensor) {
    auto ref = [](uint32_t i) { return ref_pow(base(i), expo(i)); };
    // 2304 B of tmp: chunks of (2304 - 256) / 16 = 128, so 300 runs 128, 128, 44
    check<float>(300, 2304, base, expo, [](auto& d, auto& s0, auto& s1, auto& t, uint32_t n) { Power(d, s0, s1, t, n); },
                 ref, 2e-6);
    check<float>(300, 0, base, expo, [](auto& d, auto& s0, auto& s1, auto&, uint32_t) { Power(d, s0, s1); }, ref,
                 2e-6);
}

XTEST(power_float_with_a_scalar) {
    for (float s : {2.0f, -1.0f, 0.5f, 3.0f, 0.0f}) {
        check<float>(
            200, 1024, base, expo, [s](auto& d, auto& s0, auto&, auto& t, uint32_t n) { Power(d, s0, s, t, n); },
            [s](uint32_t i) { return ref_pow(base(i), s); }, 2e-6);
        check<float>(
            200, 0, base, expo, [s](auto& d, auto&, auto& s1, auto&, uint32_t n) { Power(d, s, s1, n); },
            [s](uint32_t i) { return ref_pow(s, expo(i)); }, 2e-6);
    }
}

XTEST(power_half) {
    auto hb = [](uint32_t i) { return half(base(i)); };
    auto he = [](uint32_t i) { return half(expo(i)); };
    auto hq = [](double v) { return double(float(half(float(v)))); };
    // 1152 B: chunks of 32
    check<half>(
        100, 1152, hb, he, [](auto& d, auto& s0, auto& s1, auto& t, uint32_t n) { Power(d, s0, s1, t, n); },
        [&](uint32_t i) { return hq(ref_pow(base(i), expo(i))); }, 2e-3);
    check<half>(
        100, 0, hb, he, [](auto& d, auto& s0, auto&, auto&, uint32_t) { Power(d, s0, half(2.0f)); },
        [&](uint32_t i) { return hq(ref_pow(base(i), 2.0)); }, 2e-3);
    check<half>(
        100, 1152, hb, he, [](auto& d, auto&, auto& s1, auto& t, uint32_t n) { Power(d, half(-2.0f), s1, t, n); },
        [&](uint32_t i) { return hq(ref_pow(-2.0, expo(i))); }, 2e-3);
}

XTEST(power_int32) {
    auto x = [](uint32_t i) { return int32_t(i % 9) - 4; };       // [-4, 4]
    auto y = [](uint32_t i) { return int32_t(i * 7 % 15) - 3; };  // [-3, 11]
    // 768 B of tmp: tensor-tensor chunks of 32 (768 / 4 / 6)
    check<int32_t>(
        150, 768, x, y, [](auto& d, auto& s0, auto& s1, auto& t, uint32_t n) { Power(d, s0, s1, t, n); },
        [&](uint32_t i) { return double(ipow(x(i), y(i))); }, 0);
    check<int32_t>(
        150, 0, x, y, [](auto& d, auto& s0, auto&, auto&, uint32_t) { Power(d, s0, int32_t(5)); },
        [&](uint32_t i) { return double(ipow(x(i), 5)); }, 0);
    check<int32_t>(
        150, 0, x, y, [](auto& d, auto&, auto& s1, auto&, uint32_t n) { Power(d, int32_t(3), s1, n); },
        [&](uint32_t i) { return double(ipow(3, y(i))); }, 0);
}

XTEST(power_tmp_sizes) {
    uint32_t mx = 0, mn = 0;
    const TensorShape t({1024}), s({1});
    GetPowerMaxMinTmpSize(t, t, false, 4, false, mx, mn);
    XCHECK_EQ(mx, 4096u * 4 + 256);
    XCHECK_EQ(mn, 256u * 4 + 256);
    GetPowerMaxMinTmpSize(t, s, false, 2, false, mx, mn);
    XCHECK_EQ(mx, 2048u * 14 + 256);
    XCHECK_EQ(mn, 128u * 14 + 256);
    GetPowerMaxMinTmpSize(s, t, true, 4, false, mx, mn);
    XCHECK_EQ(mx, 4096u * 7);
    XCHECK_EQ(mn, 256u * 7);
    uint32_t nodes = 0, extra = 0;
    GetPowerTmpBufferFactorSize(true, true, true, 4, nodes, extra);
    XCHECK_EQ(nodes, 6u);
    XCHECK_EQ(extra, 0u);
    GetPowerTmpBufferFactorSize(true, false, false, 4, nodes, extra);
    XCHECK_EQ(nodes, 5u);
    XCHECK_EQ(extra, 256u);
}

XTEST(power_refusals) {
    // float tensor-tensor: 256 + 16 x 32 B is the smallest chunk
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(8192);
                           auto a = c.get<float>(), dst = c.get<float>()[1024];
                           auto t = c.get<uint8_t>()[6144];
                           a.SetSize(64), dst.SetSize(64), t.SetSize(512);
                           Duplicate(a, 1.0f, 64);
                           Power(dst, a, a, t, 64);
                       }),
                       "Power", "sharedTmpBuffer holds 512 B", "32-element chunk (768 B)");
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(8192);
                           auto a = c.get<float>(), b = c.get<float>()[256];
                           auto t = c.get<uint8_t>()[4096];
                           a.SetSize(64), b.SetSize(64), t.SetSize(2048);
                           Power(a, a, b, t, 64);
                       }),
                       "Power", "dstTensor [0, +256 B) and src0Tensor", "does not allow it");
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(8192);
                           auto a = c.get<float>(), dst = c.get<float>()[256];
                           auto t = c.get<uint8_t>()[4096];
                           a.SetSize(64), dst.SetSize(32), t.SetSize(2048);
                           Power(dst, a, 2.0f, t, 64);
                       }),
                       "Power", "calCount 64 is larger than dstTensor's size 32");
}

// ---- the high-dimension Select ----
namespace {
// 2 repeats of float (128 elements) with selMask bits i % 3 == 0.
struct SelFixture {
    sim_test::Calc c{16384};
    LocalTensor<float> a = c.get<float>(), b = c.get<float>()[128], dst = c.get<float>()[256];
    LocalTensor<uint8_t> sel = c.get<uint8_t>()[2048], cmp = c.get<uint8_t>()[2304];
    SelFixture() {
        for (uint32_t i = 0; i < 128; ++i) a.SetValue(i, float(i)), b.SetValue(i, -float(i)), dst.SetValue(i, 9.0f);
        for (uint32_t k = 0; k < 32; ++k) {
            uint8_t v = 0;
            for (uint32_t j = 0; j < 8; ++j) v |= uint8_t((k * 8 + j) % 3 == 0) << j;
            sel.SetValue(k, v);
        }
        sync<HardEvent::S_V>();
    }
    static bool bit(uint32_t i) { return i % 3 == 0; }
};
}  // namespace

XTEST(select_highdim_modes) {
    one([] {
        SelFixture f;
        const BinaryRepeatParams p;
        uint64_t mask[2] = {0xffffffffull, 0};  // the first 32 elements of each repeat
        Select(f.dst, f.sel, f.a, f.b, SELMODE::VSEL_TENSOR_TENSOR_MODE, mask, 2, p);
        sync<HardEvent::V_S>();
        for (uint32_t i = 0; i < 128; ++i)
            XCHECK_EQ(f.dst.GetValue(i), i % 64 < 32 ? (SelFixture::bit(i) ? float(i) : -float(i)) : 9.0f);
        sync<HardEvent::S_V>();
        // mode 0: bit j of the first repeat's bits for element j of every repeat
        Select(f.dst, f.sel, f.a, f.b, SELMODE::VSEL_CMPMASK_SPR, 64, 2, p);
        Select(f.dst, f.sel, f.a, 5.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 64, 1, p);  // repeat 0 again, mode 1
        sync<HardEvent::V_S>();
        for (uint32_t i = 0; i < 128; ++i) {
            const float want = i < 64 ? (SelFixture::bit(i) ? float(i) : 5.0f)
                                      : (SelFixture::bit(i % 64) ? float(i) : -float(i));
            XCHECK_EQ(f.dst.GetValue(i), want);
        }
    });
}

XTEST(select_reads_cmpmask) {
    one([] {
        SelFixture f;
        const BinaryRepeatParams p;
        // mode 0: the bits SetCmpMask loaded
        SetCmpMask(f.sel);
        SetVectorMask<float>(0, ~0ull);
        Select<float, SELMODE::VSEL_CMPMASK_SPR>(f.dst, f.a, f.b, 2, p);
        sync<HardEvent::V_S>();
        for (uint32_t i = 0; i < 128; ++i)
            XCHECK_EQ(f.dst.GetValue(i), SelFixture::bit(i % 64) ? float(i) : -float(i));
        // mode 0 after a Compare into CMPMASK: a < 10
        auto ten = f.c.get<float>()[1024];
        for (uint32_t i = 0; i < 64; ++i) ten.SetValue(i, 10.0f);
        sync<HardEvent::S_V>();
        Compare(f.a, ten, CMPMODE::LT, 64, p);
        Select<float, SELMODE::VSEL_CMPMASK_SPR>(f.dst, f.b, f.a, 1, p);
        sync<HardEvent::V_S>();
        for (uint32_t i = 0; i < 64; ++i) XCHECK_EQ(f.dst.GetValue(i), i < 10 ? -float(i) : float(i));
        // mode 1: the scalar is CMPMASK's first float
        auto s = f.c.get<float>()[1536];
        for (uint32_t i = 0; i < 8; ++i) s.SetValue(i, 7.5f);
        sync<HardEvent::S_V>();
        SetCmpMask(s);
        Select(f.dst, f.sel, f.a, 2, p);
        sync<HardEvent::V_S>();
        for (uint32_t i = 0; i < 128; ++i) XCHECK_EQ(f.dst.GetValue(i), SelFixture::bit(i) ? float(i) : 7.5f);
        // mode 2: selMask's address in CMPMASK, its bits consumed repeat after repeat
        f.cmp.ReinterpretCast<int64_t>().SetValue(0, int64_t(reinterpret_cast<uintptr_t>(f.sel.GetPhyAddr())));
        f.cmp.ReinterpretCast<int64_t>().SetValue(1, 0);
        sync<HardEvent::S_V>();
        SetCmpMask(f.cmp);
        Select<float, SELMODE::VSEL_TENSOR_TENSOR_MODE>(f.dst, f.b, f.a, 2, p);
        sync<HardEvent::V_S>();
        for (uint32_t i = 0; i < 128; ++i) XCHECK_EQ(f.dst.GetValue(i), SelFixture::bit(i) ? -float(i) : float(i));
    });
}

XTEST(select_cmpmask_refusals) {
    XCHECK_THROWS_WITH(one([] {
                           SelFixture f;
                           Select<float, SELMODE::VSEL_CMPMASK_SPR>(f.dst, f.a, f.b, 1, BinaryRepeatParams{});
                       }),
                       "Select", "uninitialised read", "CMPMASK");
    // a Select with selMask leaves its own value: a later mask-less Select may not rely on it
    XCHECK_THROWS_WITH(one([] {
                           SelFixture f;
                           SetCmpMask(f.sel);
                           Select(f.dst, f.sel, f.a, f.b, SELMODE::VSEL_CMPMASK_SPR, 64, 1, BinaryRepeatParams{});
                           Select<float, SELMODE::VSEL_CMPMASK_SPR>(f.dst, f.a, f.b, 1, BinaryRepeatParams{});
                       }),
                       "Select", "uninitialised read", "CMPMASK");
    XCHECK_THROWS_WITH(one([] {
                           SelFixture f;
                           f.cmp.ReinterpretCast<int64_t>().SetValue(0, 64);
                           f.cmp.ReinterpretCast<int64_t>().SetValue(1, 0);
                           sync<HardEvent::S_V>();
                           SetCmpMask(f.cmp);
                           Select<float, SELMODE::VSEL_TENSOR_TENSOR_MODE>(f.dst, f.a, f.b, 1, BinaryRepeatParams{});
                       }),
                       "Select", "reads selMask's address from CMPMASK", "holds 0x40");
    // mode 2's selMask bits are initchecked: 2 repeats read 16 B of which 8 were never written
    XCHECK_THROWS_WITH(one([] {
                           SelFixture f;
                           auto sel = f.c.get<uint8_t>()[4096];
                           for (uint32_t k = 0; k < 8; ++k) sel.SetValue(k, 0xff);
                           sync<HardEvent::S_V>();
                           Select(f.dst, sel, f.a, f.b, SELMODE::VSEL_TENSOR_TENSOR_MODE, 64, 2, BinaryRepeatParams{});
                       }),
                       "Select", "uninitialised read", "selMask");
}

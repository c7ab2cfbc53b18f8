// GeGLU against src0 * x / (1 + exp(c0 x (x^2 + c1))) in float64 (GeGLU.md's
// tanh form of gelu), for float (one pass, no tmp) and half (chunks of tmp / 8
// elements in 16s, a tail), with and without a sharedTmpBuffer, in both
// auto-sync modes; the tmp-size helpers; an undersized tmp and overlapping
// operands reported.
// Tolerances: float relative 1e-5 plus 1e-6 absolute (seven ops of a few ulp,
// Exp's error growing with its argument up to |x| = 4); half relative 2e-3 plus
// 1e-4 absolute (computed in float from exact half inputs, narrowed once).
#include <cmath>
#include <cstdint>
#include <functional>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "tiling/tiling_api.h"
#include "xtest.h"

using namespace AscendC;

namespace {
void one(const std::function<void()>& body) { ascend_sim::run_kernel("adv_geglu", 1, body); }

float in0(uint32_t i) { return float(int(i * 13 % 97) - 48) / 12.0f; }
float in1(uint32_t i) { return float(int(i * 29 % 89) - 44) / 11.0f; }

double geglu(double a, double x) {
    const double c0 = -0.0713548162726, c1 = 2.2363860002236e1;
    return a * x / (1 + std::exp(c0 * x * (x * x + c1)));
}

// n elements; tmpBytes 0 takes the form without sharedTmpBuffer.
template <class T>
void check_geglu(uint32_t n, uint32_t tmpBytes) {
    for (int autoSync : {1, 0}) {
        const sim_test::AutoSync mode(autoSync);
        one([&] {
            sim_test::Calc c(4 * 8192);
            auto src0 = c.get<T>(), src1 = c.get<T>()[8192 / sizeof(T)], dst = c.get<T>()[2 * 8192 / sizeof(T)];
            auto tmp = c.get<uint8_t>()[3 * 8192];
            src0.SetSize(n), src1.SetSize(n), dst.SetSize(n), tmp.SetSize(tmpBytes);
            sim_test::fill(src0, n, in0);
            sim_test::fill(src1, n, in1);
            sim_test::sync<HardEvent::S_V>();
            if (tmpBytes)
                GeGLU<T>(dst, src0, src1, tmp, n);
            else
                GeGLU<T>(dst, src0, src1, n);
            sim_test::sync<HardEvent::V_S>();
            for (uint32_t i = 0; i < n; ++i) {
                const double ref = geglu(double(float(T(in0(i)))), double(float(T(in1(i)))));
                const double tol = sizeof(T) == 2 ? 2e-3 * std::fabs(ref) + 1e-4 : 1e-5 * std::fabs(ref) + 1e-6;
                XCHECK_NEAR(double(float(dst.GetValue(i))), ref, tol);
            }
        });
    }
}
}  // namespace

XTEST(geglu_float_one_pass) {
    check_geglu<float>(1000, 256);
    check_geglu<float>(2000, 0);  // no tmp needed, none taken from the stack's bytes
}

XTEST(geglu_half_in_tmp_chunks) {
    check_geglu<half>(300, 1024);   // chunks of 128, a tail of 44
    check_geglu<half>(4000, 8192);  // chunks of 1024
    check_geglu<half>(1000, 0);     // the tmp from the UB the TPipe left free: one chunk
}

XTEST(geglu_tmp_size_helpers) {
    uint32_t maxV = 0, minV = 0;
    GetGeGLUMaxMinTmpSize(TensorShape({4, 100}), 2, false, maxV, minV);
    XCHECK_EQ(minV, 1024u), XCHECK_EQ(maxV, 4u * 800);
    GetGeGLUMaxMinTmpSize(TensorShape({16}), 2, false, maxV, minV);
    XCHECK_EQ(maxV, 1024u);
    GetGeGLUMaxMinTmpSize(TensorShape({1000}), 4, false, maxV, minV);
    XCHECK_EQ(minV, 0u), XCHECK_EQ(maxV, 0u);
    uint32_t live = 9, extra = 9;
    GetGeGLUTmpBufferFactorSize(2, live, extra);
    XCHECK_EQ(live, 4u), XCHECK_EQ(extra, 0u);
    XCHECK_THROWS_WITH(GetGeGLUTmpBufferFactorSize(1, live, extra), "GetGeGLUTmpBufferFactorSize: typeSize 1");
}

XTEST(geglu_undersized_tmp_or_overlap_is_reported) {
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(3 * 1024);
                           auto src = c.get<half>(), dst = c.get<half>()[512];
                           auto tmp = c.get<uint8_t>()[2048];
                           src.SetSize(256), dst.SetSize(256), tmp.SetSize(512);
                           GeGLU<half>(dst, src, src, tmp, 256);
                       }),
                       "GeGLU (block 0): sharedTmpBuffer holds 512 B, less than the 1024 B minimum "
                       "GetGeGLUMaxMinTmpSize gives");
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(2 * 1024);
                           auto a = c.get<float>(), b = c.get<float>()[256];
                           a.SetSize(256), b.SetSize(256);
                           GeGLU<float>(a, a, b, c.get<uint8_t>(), 256);
                       }),
                       "GeGLU (block 0): dstTensor [0, +1024 B) and srcTensor0 [0, +1024 B) overlap");
}

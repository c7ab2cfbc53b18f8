// SoftmaxFlashV2 and SoftmaxFlashV3 against float64 goldens of their formulas,
// in both auto-sync modes. V2: a first call on one block of columns, then an
// update call on the next with the max/sum of the first passed back in (the
// same tensors, as FlashAttention uses them); float and half rows, the general
// path (chunks with a tail) and the basic block. V3: half rows, float
// mean/sum/max, first call and update with given inMean/inSum/inMax.
// Host tiling sizes against softmax_tiling.cpp's formulas; refusals.
// Tolerances: max exact for V2 (a max of the inputs); float relative 2e-6
// (Exp a few ulp, sums of <= 1024 terms of <= 1) plus 1e-9; half relative 1e-3
// (one rounding to 11 bits) plus 6e-8; V3 shifts the row in float first, so its
// float results get 2e-5 relative plus 1e-6.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <type_traits>
#include <vector>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "tiling/tiling_api.h"
#include "xtest.h"

using namespace AscendC;
using sim_test::sync;

namespace {
void one(const std::function<void()>& body) { ascend_sim::run_kernel("adv_softmax_flash", 1, body); }

// Two blocks of columns: the second has larger values in some rows, smaller in others.
float input(uint32_t blk, uint32_t r, uint32_t c) {
    const float v = float(int((r * 37 + c * 11 + blk * 5) % 61) - 30) / 7.5f;
    return blk == 0 ? v : v * 1.25f + float(int(r % 3) - 1);
}

template <class T>
double tol(double ref) {
    return sizeof(T) == 2 ? 1e-3 * std::fabs(ref) + 6e-8 : 2e-6 * std::fabs(ref) + 1e-9;
}
uint32_t align32(uint32_t bytes) { return (bytes + 31) / 32 * 32; }

// The tensors of the calls carved out of one VECCALC buffer.
template <class T1, class T2>
struct Operands {
    sim_test::Calc calc;
    LocalTensor<T1> src, dst, expMax;
    LocalTensor<T2> sum, max, mean, inSum, inMax, inMean;
    LocalTensor<uint8_t> tmp;
    uint32_t at = 0;
    template <class T>
    LocalTensor<T> take(uint32_t n) {
        auto t = calc.get<uint8_t>()[at].template ReinterpretCast<T>();
        t.SetSize(n);
        at += align32(n * sizeof(T));
        return t;
    }
    Operands(uint32_t m, uint32_t k, uint32_t tmpBytes) : calc(2 * align32(m * k * 4) + 8 * m * 64 + tmpBytes) {
        src = take<T1>(m * k), dst = take<T1>(m * k), expMax = take<T1>(m * 16);
        sum = take<T2>(m * 8), max = take<T2>(m * 8), mean = take<T2>(m * 8);
        inSum = take<T2>(m * 8), inMax = take<T2>(m * 8), inMean = take<T2>(m * 8);
        tmp = take<uint8_t>(tmpBytes);
    }
    void load(uint32_t blk, uint32_t m, uint32_t k) {
        for (uint32_t r = 0; r < m; ++r)
            for (uint32_t c = 0; c < k; ++c) src.SetValue(r * k + c, T1(input(blk, r, c)));
    }
};

// V2 on m x k with tmpBytes of tmp (basic: isBasicBlock), first then update.
// dav_c220's float first call starts a chunk's row max in the tmp the last
// chunk's row sum was read from, with no PipeBarrier: without auto-sync a
// tiling of more than one chunk is a WAR hazard (rows of 64 or more: shorter
// ones reduce straight into the max).
template <class T1, bool basic = false>
void check_v2(uint32_t m, uint32_t k, uint32_t tmpBytes) {
    SoftMaxTiling tiling;
    SoftMaxFlashV2TilingFunc(TensorShape({int64_t(m), int64_t(k)}), sizeof(T1), 4, tmpBytes, tiling, true, basic);
    const bool chunkRace = std::is_same_v<T1, float> && !basic && k >= 64 && tiling.rangeM + (tiling.tailM != 0) > 1;
    for (int autoSync : {1, 0}) {
        const sim_test::AutoSync mode(autoSync);
        if (!autoSync && chunkRace) {
            XCHECK_THROWS_WITH(one([&] {
                                   Operands<T1, float> o(m, k, tmpBytes);
                                   o.load(0, m, k);
                                   sync<HardEvent::S_V>();
                                   SoftmaxFlashV2<T1>(o.dst, o.sum, o.max, o.src, o.expMax, o.sum, o.max, o.tmp,
                                                      tiling, {m, k, m, k});
                               }),
                               "pipe hazard (block 0): WAR on UB");
            continue;
        }
        one([&] {
            Operands<T1, float> o(m, k, tmpBytes);
            const SoftMaxShapeInfo shape{m, k, m, k};
            auto x = [&](uint32_t blk, uint32_t r, uint32_t c) { return double(float(T1(input(blk, r, c)))); };
            o.load(0, m, k);
            sync<HardEvent::S_V>();
            SoftmaxFlashV2<T1, false, false, basic>(o.dst, o.sum, o.max, o.src, o.expMax, o.sum, o.max, o.tmp,
                                                    tiling, shape);
            sync<HardEvent::V_S>();
            std::vector<double> max1(m), sum1(m);
            for (uint32_t r = 0; r < m; ++r) {
                double mx = -1e300, s = 0;
                for (uint32_t c = 0; c < k; ++c) mx = std::fmax(mx, x(0, r, c));
                for (uint32_t c = 0; c < k; ++c) {
                    const double e = std::exp(x(0, r, c) - mx);
                    s += e;
                    XCHECK_NEAR(double(float(o.dst.GetValue(r * k + c))), e, tol<T1>(e));
                }
                for (uint32_t j = 0; j < 8; ++j) {
                    XCHECK_EQ(double(o.max.GetValue(r * 8 + j)), mx);
                    XCHECK_NEAR(double(o.sum.GetValue(r * 8 + j)), s, tol<float>(s) * 4);
                }
                max1[r] = o.max.GetValue(r * 8), sum1[r] = o.sum.GetValue(r * 8);
            }
            o.load(1, m, k);
            sync<HardEvent::S_V>();
            SoftmaxFlashV2<T1, true, false, basic>(o.dst, o.sum, o.max, o.src, o.expMax, o.sum, o.max, o.tmp, tiling,
                                                   shape);
            sync<HardEvent::V_S>();
            const uint32_t emCopies = 32 / sizeof(T1);
            for (uint32_t r = 0; r < m; ++r) {
                double mx = max1[r], s = 0;
                for (uint32_t c = 0; c < k; ++c) mx = std::fmax(mx, x(1, r, c));
                for (uint32_t c = 0; c < k; ++c) {
                    const double e = std::exp(x(1, r, c) - mx);
                    s += e;
                    XCHECK_NEAR(double(float(o.dst.GetValue(r * k + c))), e, tol<T1>(e));
                }
                const double em = std::exp(max1[r] - mx), total = em * sum1[r] + s;
                for (uint32_t j = 0; j < emCopies; ++j)
                    XCHECK_NEAR(double(float(o.expMax.GetValue(r * emCopies + j))), em, tol<T1>(em));
                for (uint32_t j = 0; j < 8; ++j) {
                    XCHECK_EQ(double(o.max.GetValue(r * 8 + j)), mx);
                    XCHECK_NEAR(double(o.sum.GetValue(r * 8 + j)), total, tol<float>(total) * 4);
                }
            }
        });
    }
}
}  // namespace

XTEST(flash_v2_float_general_path_in_chunks_with_a_tail) {
    check_v2<float>(20, 96, (8 + 64) * 4 * 8);   // chunks of 8 rows, a tail of 4
    check_v2<float>(3, 600, 4096);               // rows of >= 512 with a partial repeat
    check_v2<float>(9, 40, 2048);                // rows shorter than a repeat
}

XTEST(flash_v2_half_rows_float_max_sum) {
    check_v2<half>(12, 128, (16 + 128 + 64) * 4 * 8 + 64 * 4);  // chunks of 8 and a tail
    check_v2<half>(5, 512, 64 * 1024);
}

XTEST(flash_v2_float_basic_block) {
    check_v2<float, true>(16, 512, GetSoftMaxFlashV2MinTmpSize(TensorShape({16, 512}), 4, 4, true, true));
    check_v2<float, true>(32, 128, 32 * 1024);
}

namespace {
// V3 (half rows, float outputs) on m x k: the float64 formula of the row's
// segment-mean shift and FlashV2 on the shifted row.
struct V3Ref {
    std::vector<double> xs;  // the shifted row
    double rowMean;
};
V3Ref v3_shift(const std::vector<double>& x, uint32_t k, double s) {
    // The row's 64 partials: block sums of the first 512, then whole repeats folded in.
    std::vector<double> part(64, 0.0);
    for (uint32_t j = 0; j < 64; ++j)
        for (uint32_t t = 0; t < 8; ++t) part[j] += x[j * 8 + t];
    for (uint32_t r = 0; r < k / 64 - 8; ++r)
        for (uint32_t e = 0; e < 64; ++e) part[e] += x[512 + r * 64 + e];
    const uint32_t baseK = k / 8;
    std::vector<double> seg(8, 0.0);
    double rowMean = 0;
    for (uint32_t g = 0; g < 8; ++g) {
        for (uint32_t j = 0; j < 8; ++j) seg[g] += part[g * 8 + j];
        seg[g] /= baseK;
        rowMean += seg[g] / 8;
    }
    V3Ref ref{x, rowMean};
    for (uint32_t c = 0; c < k; ++c) ref.xs[c] -= (rowMean - seg[c / baseK]) * s;
    return ref;
}

template <bool update>
void check_v3(uint32_t m, uint32_t k, uint32_t tmpBytes, float alpha, uint32_t loopCnt) {
    SoftMaxTiling tiling;
    SoftMaxFlashV3TilingFunc(TensorShape({int64_t(m), int64_t(k)}), 2, 4, tmpBytes, tiling, update);
    const SoftMaxParams params{m, k, m, k, loopCnt, 8, alpha};
    const double s = double(alpha / (1.0f - alpha));
    auto inMean = [](uint32_t r) { return 0.25 * double(int(r % 5) - 2); };
    auto inMax = [](uint32_t r) { return 2.0 + 0.5 * double(r % 4); };
    auto inSum = [](uint32_t r) { return 10.0 + double(r); };
    for (int autoSync : {1, 0}) {
        const sim_test::AutoSync mode(autoSync);
        one([&] {
            Operands<half, float> o(m, k, tmpBytes);
            o.load(0, m, k);
            for (uint32_t i = 0; i < m * 8; ++i) {
                o.inMean.SetValue(i, float(inMean(i / 8)));
                o.inMax.SetValue(i, float(inMax(i / 8)));
                o.inSum.SetValue(i, float(inSum(i / 8)));
            }
            sync<HardEvent::S_V>();
            SoftmaxFlashV3<half, float, update>(o.dst, o.mean, o.sum, o.max, o.src, o.expMax, o.inMean, o.inSum,
                                                o.inMax, o.tmp, tiling, params);
            sync<HardEvent::V_S>();
            auto near = [](double got, double ref) { XCHECK_NEAR(got, ref, 2e-5 * std::fabs(ref) + 1e-6); };
            for (uint32_t r = 0; r < m; ++r) {
                std::vector<double> x(k);
                for (uint32_t c = 0; c < k; ++c) x[c] = double(float(half(input(0, r, c))));
                const V3Ref v = v3_shift(x, k, s);
                const double mean = update ? (inMean(r) * (loopCnt - 1) + v.rowMean) / loopCnt : v.rowMean;
                const double shiftCurr = (v.rowMean - mean) * s;
                double mx = *std::max_element(v.xs.begin(), v.xs.end()) + shiftCurr, em = 0;
                if (update) {
                    const double shiftPrev = (inMean(r) - mean) * s;
                    mx = std::fmax(mx, inMax(r) + shiftPrev);
                    em = std::exp(inMax(r) - mx + shiftPrev);
                }
                double sum = update ? em * inSum(r) : 0;
                for (uint32_t c = 0; c < k; ++c) {
                    const double e = std::exp(v.xs[c] - (mx - shiftCurr));
                    sum += e;
                    XCHECK_NEAR(double(float(o.dst.GetValue(r * k + c))), e, 2e-3 * e + 1e-6);
                }
                for (uint32_t j = 0; j < 8; ++j) {
                    near(o.mean.GetValue(r * 8 + j), mean);
                    near(o.max.GetValue(r * 8 + j), mx);
                    near(o.sum.GetValue(r * 8 + j), sum);
                }
                if (update)
                    for (uint32_t j = 0; j < 16; ++j)
                        XCHECK_NEAR(double(float(o.expMax.GetValue(r * 16 + j))), em, tol<half>(em));
            }
        });
    }
}
}  // namespace

XTEST(flash_v3_first_call) {
    check_v3<false>(8, 512, 96 * 1024, 0.5f, 1);
    check_v3<false>(3, 1024, 64 * 1024, 0.75f, 1);
}

XTEST(flash_v3_update_in_chunks_with_a_tail) {
    uint32_t maxTmp = 0, minTmp = 0;
    GetSoftMaxFlashV3MaxMinTmpSize(TensorShape({12, 1024}), 2, 4, maxTmp, minTmp, true);
    check_v3<true>(12, 1024, minTmp * 8 + 1024, 0.5f, 2);  // chunks of 8, a tail of 4
    check_v3<true>(2, 2048, 96 * 1024, 0.9375f, 3);
}

XTEST(flash_host_tiling) {
    XCHECK_EQ(GetSoftMaxFlashV2MinTmpSize(TensorShape({16, 512}), 4, 4, true, true), 8u * (8 + 64) * 4);
    XCHECK_EQ(GetSoftMaxFlashV2MinTmpSize(TensorShape({16, 512}), 4, 4, true, false), (8u + 64) * 4);
    XCHECK_EQ(GetSoftMaxFlashV2MinTmpSize(TensorShape({16, 512}), 2, 4, true, false), (16u + 512 + 64) * 4);
    XCHECK_EQ(GetSoftMaxFlashV2MaxTmpSize(TensorShape({16, 512}), 4, 4, true, true), 16u * (8 + 64) * 4);
    XCHECK_EQ(GetSoftMaxFlashV2MaxTmpSize(TensorShape({64, 512}), 4, 4, true, true), 16u * (8 + 64) * 4);
    XCHECK_EQ(GetSoftMaxFlashV2MaxTmpSize(TensorShape({16, 1024}), 4, 4, true, true), 8u * (8 + 128) * 4);
    SoftMaxTiling t;
    SoftMaxFlashV2TilingFunc(TensorShape({16, 512}), 4, 4, 8 * 72 * 4, t, true, true);
    XCHECK_EQ(t.splitM, 8u), XCHECK_EQ(t.rangeM, 2u), XCHECK_EQ(t.tailM, 0u), XCHECK_EQ(t.reduceK, 8u);
    SoftMaxFlashV2TilingFunc(TensorShape({20, 96}), 4, 4, 10 * 72 * 4, t, true, false);
    XCHECK_EQ(t.splitM, 8u), XCHECK_EQ(t.rangeM, 2u), XCHECK_EQ(t.tailM, 4u);
    // The kernel's own retiling of the 448-column tail block with the 512's tmp.
    t = SoftMaxFlashV2TilingFunc(SoftMaxShapeInfo{16, 448, 16, 448}, 4, 4, 8 * 72 * 4, true, true);
    XCHECK_EQ(t.splitM, 8u), XCHECK_EQ(t.rangeM, 2u), XCHECK_EQ(t.splitSize, 8u * 448);
    t = SoftMaxFlashV2TilingFunc(SoftMaxShapeInfo{20, 128, 20, 128}, 2, 4, 10 * (16 + 128 + 64) * 4);
    XCHECK_EQ(t.splitM, 8u), XCHECK_EQ(t.tailM, 4u);
    uint32_t maxTmp = 0, minTmp = 0;
    GetSoftMaxFlashV3MaxMinTmpSize(TensorShape({8, 2048}), 2, 4, maxTmp, minTmp, true);
    XCHECK_EQ(minTmp, (5u * 8 + 2 * 2048 + 64) * 4), XCHECK_EQ(maxTmp, 8 * minTmp);
    SoftMaxFlashV3TilingFunc(TensorShape({12, 1024}), 2, 4, 9 * (40 + 2048 + 64) * 4, t, true);
    XCHECK_EQ(t.splitM, 8u), XCHECK_EQ(t.tailM, 4u), XCHECK_EQ(t.reduceSize, 64u);
    XCHECK_THROWS_WITH(GetSoftMaxFlashV3MaxMinTmpSize(TensorShape({8, 512}), 4, 4, maxTmp, minTmp, true),
                       "GetSoftMaxFlashV3MaxMinTmpSize: dataTypeSize1 4 must be sizeof(half)");
    XCHECK_THROWS_WITH(SoftMaxFlashV2TilingFunc(TensorShape({8, 512}), 4, 3, 4096, t, true),
                       "SoftMaxFlashV2TilingFunc: dataTypeSize2 3 is not 2 (half) or 4 (float)");
}

XTEST(flash_refusals_name_the_argument) {
    auto v2 = [](uint32_t m, uint32_t k, uint32_t tmpBytes, uint32_t tilingTmp, SoftMaxShapeInfo shape,
                 bool basic, int32_t tmpAt = -1) {
        SoftMaxTiling tiling;
        SoftMaxFlashV2TilingFunc(TensorShape({int64_t(m), int64_t(k)}), 4, 4, tilingTmp, tiling, false, basic);
        one([&] {
            Operands<float, float> o(m, k, tmpBytes);
            auto tmp = o.tmp;
            if (tmpAt >= 0) tmp = o.calc.get<uint8_t>()[uint32_t(tmpAt)], tmp.SetSize(tmpBytes);
            if (basic)
                SoftmaxFlashV2<float, false, false, true>(o.dst, o.sum, o.max, o.src, o.expMax, o.sum, o.max, tmp,
                                                          tiling, shape);
            else
                SoftmaxFlashV2<float>(o.dst, o.sum, o.max, o.src, o.expMax, o.sum, o.max, tmp, tiling, shape);
        });
    };
    XCHECK_THROWS_WITH(v2(16, 64, 1024, 8 * 1024, {16, 64, 16, 64}, false),
                       "SoftmaxFlashV2 (block 0): the tiling's chunk needs 1024 floats of sharedTmpBuffer, it holds 256");
    XCHECK_THROWS_WITH(v2(16, 64, 8 * 1024, 8 * 1024, {16, 64, 16, 60}, false),
                       "SoftmaxFlashV2 (block 0): softmaxShapeInfo has oriSrcM x oriSrcK 16 x 60");
    XCHECK_THROWS_WITH(v2(12, 64, 8 * 1024, 8 * 1024, {12, 64, 12, 64}, true),
                       "SoftmaxFlashV2 (block 0): isBasicBlock needs srcK a multiple of 64 below 2048 and srcM a "
                       "multiple of 8");
    XCHECK_THROWS_WITH(v2(16, 64, 8 * 1024, 8 * 1024, {16, 64, 16, 64}, false, 32),
                       "SoftmaxFlashV2 (block 0): sharedTmpBuffer [32, +8192 B) and srcTensor");
    auto v3 = [](uint32_t k, uint32_t splitMeanCnt) {
        SoftMaxTiling tiling;
        SoftMaxFlashV3TilingFunc(TensorShape({8, int64_t(k)}), 2, 4, 96 * 1024, tiling, false);
        one([&] {
            Operands<half, float> o(8, k, 96 * 1024);
            SoftmaxFlashV3<half, float>(o.dst, o.mean, o.sum, o.max, o.src, o.expMax, o.mean, o.sum, o.max, o.tmp,
                                        tiling, {8, k, 8, k, 1, splitMeanCnt, 0.5f});
        });
    };
    XCHECK_THROWS_WITH(v3(256, 8), "SoftmaxFlashV3 (block 0): params.srcK 256 is below 512");
    XCHECK_THROWS_WITH(v3(512, 4), "SoftmaxFlashV3 (block 0): params.splitMeanCnt 4");
}

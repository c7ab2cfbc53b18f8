// SoftMax over ND rows, against a float64 softmax of the same (half-rounded)
// inputs, in both auto-sync modes; row lengths chosen to take each of the
// reduction's paths (< 64, [64, 128), [128, 512) with rows both more and fewer
// than repeats, >= 512, partial last repeats, rows past the 192 below which
// Sub/Div walk columns), tmp sizes that split the rows into chunks with a tail;
// the host tiling against the sizes softmax_tiling.cpp computes; undersized
// tmp buffers, a tiling beyond its tmp, overlaps reported; SimpleSoftMax with
// given max/sum; LogSoftMax (log10, LogSoftMax.md).
// Tolerances: max exact (a max of the inputs); float results relative 2e-6 plus
// 1e-9 absolute (Exp and Div each a few ulp, sums of <= 1024 terms of <= 1);
// half results relative 1e-3 (computed in float, rounded once to 11 bits) plus
// 6e-8 absolute (the spacing of half's subnormals).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <functional>
#include <vector>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "tiling/tiling_api.h"
#include "xtest.h"

using namespace AscendC;
using sim_test::sync;

namespace {
void one(const std::function<void()>& body) { ascend_sim::run_kernel("adv_softmax", 1, body); }

float input(uint32_t r, uint32_t c) { return float(int((r * 37 + c * 11) % 61) - 30) / 7.5f; }

template <class T>
double tol(double ref) {
    return sizeof(T) == 2 ? 1e-3 * std::fabs(ref) + 6e-8 : 2e-6 * std::fabs(ref) + 1e-9;
}

uint32_t align32(uint32_t bytes) { return (bytes + 31) / 32 * 32; }

// The tensors of one call carved out of one VECCALC buffer.
template <class T1, class T2>
struct Operands {
    sim_test::Calc calc;
    LocalTensor<T1> src, dst;
    LocalTensor<T2> sum, max;
    LocalTensor<uint8_t> tmp;
    Operands(uint32_t m, uint32_t k, uint32_t tmpBytes) : calc(4 * align32(m * k * 4) + 2 * m * 64 + tmpBytes) {
        const uint32_t rows = align32(m * k * sizeof(T1)), rowv = align32(m * 16 * sizeof(T2));
        auto bytes = calc.get<uint8_t>();
        src = bytes.ReinterpretCast<T1>(), src.SetSize(m * k);
        dst = bytes[rows].template ReinterpretCast<T1>(), dst.SetSize(m * k);
        sum = bytes[2 * rows].template ReinterpretCast<T2>(), sum.SetSize(m * 16);
        max = bytes[2 * rows + rowv].template ReinterpretCast<T2>(), max.SetSize(m * 16);
        tmp = bytes[2 * rows + 2 * rowv], tmp.SetSize(tmpBytes);
        for (uint32_t r = 0; r < m; ++r)
            for (uint32_t c = 0; c < k; ++c) src.SetValue(r * k + c, T1(input(r, c)));
    }
};

// SoftMax on m x k with tmpBytes of tmp (the tiling made for tilingM rows),
// in both sync modes; dst, and with outputs max and sum, against float64.
// `stack`: the forms without sharedTmpBuffer (the tmp taken from the UB left free).
// `basic`: isBasicBlock (float rows, float max/sum).
enum class Form { outputs, plain, reuse, log, stack, stack_plain, basic };

template <class T1, class T2>
void check_softmax(uint32_t m, uint32_t k, uint32_t tmpBytes, Form form = Form::outputs, uint32_t tilingM = 0) {
    const bool outputs = form == Form::outputs || form == Form::log || form == Form::stack || form == Form::basic;
    SoftMaxTiling tiling;
    SoftMaxTilingFunc(TensorShape({int64_t(tilingM ? tilingM : m), int64_t(k)}), sizeof(T2), tmpBytes, tiling);
    for (int autoSync : {1, 0}) {
        const sim_test::AutoSync mode(autoSync);
        one([&] {
            Operands<T1, T2> o(m, k, tmpBytes);
            const SoftMaxShapeInfo shape{m, k, m, k};
            sync<HardEvent::S_V>();
            if (form == Form::log) {
                if constexpr (std::is_same_v<T1, T2>)  // LogSoftMax has max/sum of T only
                    LogSoftMax<T1>(o.dst, o.sum, o.max, o.src, o.tmp, LogSoftMaxTiling{}, shape);
            } else if (outputs)
                SoftMax<T1>(o.dst, o.sum, o.max, o.src, o.tmp, tiling, shape);
            else if (form == Form::plain)
                SoftMax<T1>(o.dst, o.src, o.tmp, tiling, shape);
            else if (form == Form::basic) {
                if constexpr (std::is_same_v<T1, float> && std::is_same_v<T2, float>)
                    SoftMax<T1, false, true>(o.dst, o.sum, o.max, o.src, o.tmp, tiling, shape);
            } else if (form == Form::stack)
                SoftMax<T1>(o.dst, o.sum, o.max, o.src, tiling, shape);
            else if (form == Form::stack_plain)
                SoftMax<T1>(o.dst, o.src, tiling, shape);
            else
                SoftMax<T1, true>(o.dst, o.src, o.tmp, tiling, shape);
            sync<HardEvent::V_S>();
            // The inputs as T1 holds them (with isReuseSource src is overwritten).
            auto x = [](uint32_t r, uint32_t c) { return double(float(T1(input(r, c)))); };
            const uint32_t copies = outputs ? 32 / sizeof(T2) : 0;  // reduceK: a block a row
            for (uint32_t r = 0; r < m; ++r) {
                double mx = -1e300, s = 0;
                for (uint32_t c = 0; c < k; ++c) mx = std::fmax(mx, x(r, c));
                for (uint32_t c = 0; c < k; ++c) s += std::exp(x(r, c) - mx);
                for (uint32_t c = 0; c < k; ++c) {
                    const double p = std::exp(x(r, c) - mx) / s;
                    // LogSoftMax.md: np.log10 of the softmax; its error is the
                    // softmax's relative one over ln 10, plus Ln's own.
                    const double ref = form == Form::log ? std::log10(p) : p;
                    const double err = form == Form::log ? tol<T1>(1.0) + tol<T1>(ref) : tol<T1>(ref);
                    XCHECK_NEAR(double(float(o.dst.GetValue(r * k + c))), ref, err);
                }
                for (uint32_t j = 0; j < copies; ++j) {
                    XCHECK_EQ(double(float(o.max.GetValue(r * copies + j))), mx);
                    XCHECK_NEAR(double(float(o.sum.GetValue(r * copies + j))), s, tol<T2>(s) * 4);
                }
            }
        });
    }
}
}  // namespace

namespace {
// SimpleSoftMax on m x k with max and sum given (rounded to T2, reduceK copies
// a row), in both sync modes, against exp(x - max) / sum in float64.
template <class T1, class T2>
void check_simple(uint32_t m, uint32_t k, uint32_t tmpBytes) {
    SoftMaxTiling tiling;
    SoftMaxTilingFunc(TensorShape({int64_t(m), int64_t(k)}), sizeof(T2), tmpBytes, tiling);
    auto x = [](uint32_t r, uint32_t c) { return double(float(T1(input(r, c)))); };
    std::vector<double> mx(m, -1e300), sm(m, 0);
    for (uint32_t r = 0; r < m; ++r) {
        for (uint32_t c = 0; c < k; ++c) mx[r] = std::fmax(mx[r], x(r, c));
        for (uint32_t c = 0; c < k; ++c) sm[r] += std::exp(x(r, c) - mx[r]);
        sm[r] = double(float(T2(float(sm[r]))));
    }
    const uint32_t copies = 32 / sizeof(T2);
    for (int autoSync : {1, 0}) {
        const sim_test::AutoSync mode(autoSync);
        one([&] {
            Operands<T1, T2> o(m, k, tmpBytes);
            for (uint32_t r = 0; r < m; ++r)
                for (uint32_t j = 0; j < copies; ++j) {
                    o.max.SetValue(r * copies + j, T2(float(mx[r])));
                    o.sum.SetValue(r * copies + j, T2(float(sm[r])));
                }
            sync<HardEvent::S_V>();
            SimpleSoftMax<T1>(o.dst, o.sum, o.max, o.src, o.tmp, tiling, {m, k, m, k});
            sync<HardEvent::V_S>();
            for (uint32_t r = 0; r < m; ++r)
                for (uint32_t c = 0; c < k; ++c) {
                    const double ref = std::exp(x(r, c) - mx[r]) / sm[r];
                    XCHECK_NEAR(double(float(o.dst.GetValue(r * k + c))), ref, tol<T1>(ref));
                }
        });
    }
}
}  // namespace

XTEST(simple_softmax_with_given_max_and_sum) {
    check_simple<float, float>(20, 32, 2048);    // one pass over all rows, no tmp used
    check_simple<float, float>(6, 200, 2048);    // rows past 192
    check_simple<half, half>(4, 64, 2048);       // a chunk of 3 rows, a tail of 1
    check_simple<half, float>(7, 48, 2048);      // a chunk of 4 rows, a tail of 3
}

XTEST(simple_softmax_half_chunks_race_without_auto_sync) {
    // dav_c220 puts no PipeBarrier<PIPE_V> between two full half chunks: the
    // next chunk's widening Cast overwrites what the last one's narrowing Cast reads.
    const sim_test::AutoSync strict(0);
    SoftMaxTiling tiling;
    SoftMaxTilingFunc(TensorShape({6, 64}), 2, 2048, tiling);
    XCHECK_EQ(tiling.rangeM, 2u);
    XCHECK_THROWS_WITH(one([&] {
                           Operands<half, half> o(6, 64, 2048);
                           sync<HardEvent::S_V>();
                           Duplicate(o.max, half(0), 6 * 16);
                           Duplicate(o.sum, half(1), 6 * 16);
                           PipeBarrier<PIPE_V>();
                           SimpleSoftMax<half>(o.dst, o.sum, o.max, o.src, o.tmp, tiling, {6, 64, 6, 64});
                       }),
                       "WAR on UB", "PIPE_V Cast", "writes bytes read by PIPE_V Cast");
}

XTEST(softmax_float_over_each_row_length_path) {
    check_softmax<float, float>(16, 32, 16 * 1024);   // rows < 64
    check_softmax<float, float>(16, 96, 16 * 1024);   // [64, 128) with a partial repeat
    check_softmax<float, float>(8, 136, 16 * 1024);   // two repeats and a partial one
    check_softmax<float, float>(8, 320, 32 * 1024);   // [128, 512), more rows than repeats
    check_softmax<float, float>(3, 320, 16 * 1024);   // fewer rows than repeats
    check_softmax<float, float>(4, 1000, 32 * 1024);  // >= 512, a partial last repeat
    check_softmax<float, float>(1, 1024, 8 * 1024);   // one row: no broadcast
}

XTEST(softmax_float_in_chunks_with_a_tail) {
    // 2 KiB of tmp: 4 rows of (8 + 32 + 64) floats a chunk, a tail of 3.
    check_softmax<float, float>(11, 32, 2048);
    // 8 KiB: 19 rows of 104 floats -> 16 a chunk, a tail of 4.
    check_softmax<float, float>(20, 32, 8 * 1024);
}

XTEST(softmax_half_with_half_and_float_outputs) {
    check_softmax<half, half>(16, 64, 32 * 1024);
    check_softmax<half, half>(12, 208, 32 * 1024);  // > 192: Sub/Div row by row
    check_softmax<half, float>(16, 64, 32 * 1024);
    check_softmax<half, float>(5, 528, 32 * 1024);
}

XTEST(softmax_without_outputs_and_reusing_source) {
    check_softmax<float, float>(16, 96, 16 * 1024, Form::plain);
    check_softmax<half, float>(16, 96, 32 * 1024, Form::plain);
    check_softmax<float, float>(20, 200, 16 * 1024, Form::reuse);  // the exp kept in src
}

XTEST(logsoftmax_splits_rows_by_its_tmp) {
    check_softmax<float, float>(16, 32, 16 * 1024, Form::log);
    check_softmax<float, float>(11, 32, 2048, Form::log);   // 4 rows a chunk, a tail of 3
    check_softmax<float, float>(4, 200, 8 * 1024, Form::log);  // rows past 192: Ln row by row
    check_softmax<half, half>(12, 64, 4096, Form::log);
    XCHECK_EQ(GetLogSoftMaxMinTmpSize(TensorShape({128, 128}), 4, false), (8u + 128 + 64) * 4);
    XCHECK_EQ(GetLogSoftMaxMaxTmpSize(TensorShape({128, 128}), 4, false), 128u * (8 + 128 + 64) * 4);
    LogSoftMaxTiling t;
    LogSoftMaxTilingFunc(TensorShape({20, 32}), 4, 8 * 1024, t);
    XCHECK_EQ(t.splitM, 16u), XCHECK_EQ(t.tailM, 4u);
}

XTEST(softmax_recomputes_a_tiling_made_for_another_shape) {
    check_softmax<float, float>(12, 32, 2048, Form::outputs, 64);  // 7 rows of 8 + 64 floats, a tail of 5
    check_softmax<half, half>(12, 64, 16 * 1024, Form::outputs, 3);
}

XTEST(softmax_host_tiling) {
    XCHECK_EQ(GetSoftMaxMinTmpSize(TensorShape({32, 32}), 4, false), (8u + 32 + 64) * 4);
    XCHECK_EQ(GetSoftMaxMaxTmpSize(TensorShape({32, 32}), 4, false), 32u * (8 + 32 + 64) * 4);
    XCHECK_EQ(GetSoftMaxMinTmpSize(TensorShape({2, 3, 64}), 2, false), (16u + 64 + 64) * 4);
    SoftMaxTiling t;
    SoftMaxTilingFunc(TensorShape({20, 32}), 4, 8 * 1024, t);
    XCHECK_EQ(t.splitM, 16u), XCHECK_EQ(t.rangeM, 1u), XCHECK_EQ(t.tailM, 4u);
    XCHECK_EQ(t.reduceK, 8u), XCHECK_EQ(t.splitSize, 16u * 32), XCHECK_EQ(t.tailReduceSize, 32u);
    // A basic-block shape: rows a divisor of srcM in multiples of 8.
    SoftMaxTilingFunc(TensorShape({48, 64}), 2, 16 * 1024, t);  // 28 rows fit
    XCHECK_EQ(t.splitM, 24u), XCHECK_EQ(t.rangeM, 2u), XCHECK_EQ(t.tailM, 0u), XCHECK_EQ(t.reduceK, 16u);
    XCHECK_THROWS_WITH(GetSoftMaxMinTmpSize(TensorShape({4, 12}), 2, false),
                       "GetSoftMaxMinTmpSize: the last axis (12 elements of 2 B) is not a multiple of 32 B");
}

XTEST(softmax_one_row_chunk_with_half_outputs_is_reported) {
    // dav_c220 completes a one-row 64 B max/sum with a UB-to-UB DataCopy.
    SoftMaxTiling tiling;
    SoftMaxTilingFunc(TensorShape({1, 64}), 2, 4096, tiling);
    XCHECK_THROWS_WITH(one([&] {
                           Operands<half, half> o(1, 64, 4096);
                           sync<HardEvent::S_V>();
                           SoftMax<half>(o.dst, o.sum, o.max, o.src, o.tmp, tiling, {1, 64, 1, 64});
                       }),
                       "SoftMax (block 0): a chunk of one row with half max/sum tensors copies a block UB to UB");
}

XTEST(softmax_undersized_or_overlapping_tmp_is_reported) {
    auto run = [](uint32_t tmpBytes, uint32_t tilingTmp, uint32_t tmpAt) {
        SoftMaxTiling tiling;
        SoftMaxTilingFunc(TensorShape({16, 32}), 4, tilingTmp, tiling);
        one([&] {
            Operands<float, float> o(16, 32, tmpBytes);
            auto tmp = tmpAt ? o.calc.get<uint8_t>()[tmpAt] : o.tmp;
            tmp.SetSize(tmpBytes);
            SoftMax<float>(o.dst, o.sum, o.max, o.src, tmp, tiling, {16, 32, 16, 32});
        });
    };
    XCHECK_THROWS_WITH(run(256, 256, 0), "SoftMax (block 0): sharedTmpBuffer holds 256 B, less than the 416 B minimum "
                                         "GetSoftMaxMinTmpSize gives");
    XCHECK_THROWS_WITH(run(1024, 8 * 1024, 0), "SoftMax (block 0): the tiling's chunk needs 1024 floats");
    XCHECK_THROWS_WITH(run(8 * 1024, 8 * 1024, 64), "SoftMax (block 0): sharedTmpBuffer [64, +8192 B) and srcTensor");
}

XTEST(softmax_without_tmp_takes_the_free_ub) {
    check_softmax<float, float>(16, 96, 2048, Form::stack);  // the tiling's chunks, from the stack's bytes
    check_softmax<half, half>(12, 64, 4096, Form::stack);
    check_softmax<half, float>(16, 96, 32 * 1024, Form::stack_plain);
}

XTEST(softmax_without_tmp_and_too_little_ub_is_reported) {
    // With 184 KiB of 2201's UB in InitBuffers, the stack (it ends 128 B before the
    // 192 KiB) holds 8064 B: less than a row of 2048 floats needs.
    constexpr uint32_t kUsable = 184 * 1024, k = 2048, rows = (2 * k + 2 * 8) * 4;
    SoftMaxTiling tiling;
    SoftMaxTilingFunc(TensorShape({1, int64_t(k)}), 4, 16 * 1024, tiling);
    XCHECK_THROWS_WITH(one([&] {
                           TPipe pipe;
                           TBuf<TPosition::VECCALC> buf, rest;
                           pipe.InitBuffer(buf, rows);
                           pipe.InitBuffer(rest, kUsable - rows);
                           auto b = buf.Get<float>();
                           auto src = b, dst = b[k], sum = b[2 * k], max = b[2 * k + 8];
                           src.SetSize(k), dst.SetSize(k), sum.SetSize(8), max.SetSize(8);
                           Duplicate(src, 1.0f, k);
                           PipeBarrier<PIPE_V>();
                           SoftMax<float>(dst, sum, max, src, tiling, {1, k, 1, k});
                       }),
                       "SoftMax (block 0): sharedTmpBuffer holds 8064 B, less than the 8480 B minimum");
}

XTEST(softmax_basic_block_float) {
    check_softmax<float, float>(16, 64, 16 * 1024, Form::basic);    // one repeat a row
    check_softmax<float, float>(8, 256, 16 * 1024, Form::basic);    // more rows than repeats: Max/Add over rows
    check_softmax<float, float>(8, 1024, 40 * 1024, Form::basic);   // fewer rows than the 16 repeats
    check_softmax<float, float>(32, 128, 8 * 800, Form::basic);     // 8 rows of 200 floats a chunk: 4 chunks
}

XTEST(softmax_basic_block_outside_its_shape_is_reported) {
    auto run = [](uint32_t m, uint32_t k, uint32_t tmpBytes) {
        SoftMaxTiling tiling;
        SoftMaxTilingFunc(TensorShape({int64_t(m), int64_t(k)}), 4, tmpBytes, tiling);
        one([&] {
            Operands<float, float> o(m, k, tmpBytes);
            sync<HardEvent::S_V>();
            SoftMax<float, false, true>(o.dst, o.sum, o.max, o.src, o.tmp, tiling, {m, k, m, k});
        });
    };
    XCHECK_THROWS_WITH(run(12, 64, 16 * 1024), "SoftMax (block 0): isBasicBlock needs srcK a multiple of 64 below 2048 "
                                               "and srcM a multiple of 8; the shape is 12 x 64");
    XCHECK_THROWS_WITH(run(16, 96, 16 * 1024), "the shape is 16 x 96");
    // 2720 B hold 5 rows of 136 floats: chunks of 5 and a tail.
    XCHECK_THROWS_WITH(run(16, 64, 2720), "SoftMax (block 0): isBasicBlock needs chunks of a multiple of 8 rows and no "
                                          "tail; the tiling has 5 rows a chunk, a tail of 1");
}

XTEST(softmax_host_tiling_into_the_tiling_data_class) {
    SoftMaxTiling direct, saved;
    SoftMaxTilingFunc(TensorShape({20, 32}), 4, 8 * 1024, direct);
    optiling::SoftMaxTiling data;
    SoftMaxTilingFunc(TensorShape({20, 32}), 4, 8 * 1024, data);
    XCHECK_EQ(data.GetDataSize(), sizeof(SoftMaxTiling));
    data.SaveToBuffer(&saved, sizeof(saved));
    XCHECK_EQ(saved.splitM, 16u), XCHECK_EQ(saved.tailM, 4u), XCHECK_EQ(saved.reduceK, 8u);
    XCHECK(std::memcmp(&saved, &direct, sizeof(saved)) == 0);
}

namespace {
// AdjustSoftMaxRes on m rows of k results 0.5, rows in `hit` with max bits
// `from` (the others a max of 1): those rows become `to`, the rest stay.
template <class T1, class T2, uint8_t stepSizeMode = 0>
void check_adjust(uint32_t m, uint32_t k, const std::vector<uint32_t>& hit, uint32_t from, float to) {
    const uint32_t step = stepSizeMode ? 1 : 32 / sizeof(T2);
    one([&] {
        Operands<T1, T2> o(m, k, 0);
        for (uint32_t i = 0; i < m * k; ++i) o.dst.SetValue(i, T1(0.5f));
        for (uint32_t r = 0; r < m; ++r) {
            T2 v = T2(1.0f);
            if (std::find(hit.begin(), hit.end(), r) != hit.end()) std::memcpy(&v, &from, sizeof(T2));
            for (uint32_t j = 0; j < step; ++j) o.max.SetValue(r * step + j, v);
        }
        sync<HardEvent::S_V>();
        const bool any = AdjustSoftMaxRes<T1, T2, false, stepSizeMode>(o.dst, o.max, from, T1(to), {m, k, m, k});
        XCHECK_EQ(any, !hit.empty());
        sync<HardEvent::V_S>();
        for (uint32_t r = 0; r < m; ++r) {
            const bool h = std::find(hit.begin(), hit.end(), r) != hit.end();
            for (uint32_t c = 0; c < k; ++c) XCHECK_EQ(float(o.dst.GetValue(r * k + c)), h ? to : 0.5f);
        }
    });
}
}  // namespace

XTEST(adjust_softmax_res_sets_the_rows_whose_max_matches) {
    check_adjust<float, float>(6, 32, {1, 4}, 0xFF7FFFFFu, 0.0f);  // -FLT_MAX, as SoftMax of all -inf leaves it
    check_adjust<float, float>(4, 96, {}, 0xFF7FFFFFu, 0.0f);
    check_adjust<half, half>(5, 64, {0, 2, 3}, 0xFBFFu, -1.0f);  // half -65504
    check_adjust<half, float, 1>(7, 48, {6}, 0x7F800000u, 2.0f);  // one max a row
}

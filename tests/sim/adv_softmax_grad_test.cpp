// SoftmaxGrad and SoftmaxGradFront over ND rows against float64: with y the
// softmax and g its gradient, front = sum_c y g a row (a 32 B block of copies),
// grad = (g - front) y. Row lengths take each reduction path (below 64: the
// tail alone; whole repeats; whole repeats and a tail), row counts both whole
// groups of 8 (Brcb) and a remainder (the scalar Duplicate), tmp sizes that
// split the rows into chunks with a tail, in both auto-sync modes where the
// real sequence allows; the host tiling against softmax_tiling.cpp's sizes; an
// undersized tmp, and the barrier dav_c220 leaves out between float chunks, reported.
// Tolerances: float 2e-6 of sum_c |y g| plus 1e-6 (sums of <= 200 terms of a
// few ulp each); half 1e-3 relative plus 2e-4 (float steps on exact half
// inputs, narrowed once; the sum's own error scaled by y <= 1).
#include <cmath>
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
void one(const std::function<void()>& body) { ascend_sim::run_kernel("adv_softmax_grad", 1, body); }

float y_at(uint32_t r, uint32_t c) { return float((r * 7 + c * 3) % 23 + 1) / 32.0f; }
float g_at(uint32_t r, uint32_t c) { return float(int((r * 11 + c * 5) % 37) - 18) / 8.0f; }

enum class Form { grad, front, grad_as_front, stack };

// m x k rows; the tiling made for tmpBytes (on the shape tilingM x k when given).
template <class T>
void check_grad(uint32_t m, uint32_t k, uint32_t tmpBytes, Form form, const std::vector<int>& syncModes = {1, 0},
                uint32_t tilingM = 0) {
    const bool front = form == Form::front || form == Form::grad_as_front;
    const uint32_t perBlock = 32 / sizeof(T), rowBytes = (m * k * sizeof(T) + 31) / 32 * 32;
    SoftMaxTiling tiling;
    SoftMaxGradTilingFunc(TensorShape({int64_t(tilingM ? tilingM : m), int64_t(k)}), sizeof(T), tmpBytes, tiling,
                          front);
    for (int autoSync : syncModes) {
        const sim_test::AutoSync mode(autoSync);
        one([&] {
            sim_test::Calc c(3 * rowBytes + tmpBytes);
            auto bytes = c.get<uint8_t>();
            auto y = bytes.ReinterpretCast<T>(), g = bytes[rowBytes].template ReinterpretCast<T>();
            auto dst = bytes[2 * rowBytes].template ReinterpretCast<T>();
            auto tmp = bytes[3 * rowBytes];
            y.SetSize(m * k), g.SetSize(m * k), dst.SetSize(m * k), tmp.SetSize(tmpBytes);
            for (uint32_t r = 0; r < m; ++r)
                for (uint32_t j = 0; j < k; ++j) y.SetValue(r * k + j, T(y_at(r, j))), g.SetValue(r * k + j, T(g_at(r, j)));
            sync<HardEvent::S_V>();
            const SoftMaxShapeInfo shape{m, k, m, k};
            if (form == Form::grad)
                SoftmaxGrad<T>(dst, g, y, tmp, tiling, false, shape);
            else if (form == Form::front)
                SoftmaxGradFront<T>(dst, g, y, tmp, tiling, shape);
            else if (form == Form::grad_as_front)
                SoftmaxGrad<T>(dst, g, y, tmp, tiling, true, shape);
            else
                SoftmaxGrad<T>(dst, g, y, tiling, false, shape);
            sync<HardEvent::V_S>();
            for (uint32_t r = 0; r < m; ++r) {
                double s = 0, mag = 0;
                for (uint32_t j = 0; j < k; ++j) {
                    const double p = double(float(T(y_at(r, j)))) * double(float(T(g_at(r, j))));
                    s += p, mag += std::fabs(p);
                }
                auto tol = [&](double ref) {
                    return sizeof(T) == 2 ? 1e-3 * std::fabs(ref) + 2e-4 : 2e-6 * mag + 1e-6;
                };
                if (front) {
                    for (uint32_t j = 0; j < perBlock; ++j)
                        XCHECK_NEAR(double(float(dst.GetValue(r * perBlock + j))), s, tol(s));
                    continue;
                }
                for (uint32_t j = 0; j < k; ++j) {
                    const double yv = double(float(T(y_at(r, j)))), gv = double(float(T(g_at(r, j))));
                    const double ref = (gv - s) * yv;
                    XCHECK_NEAR(double(float(dst.GetValue(r * k + j))), ref, tol(ref));
                }
            }
        });
    }
}
uint32_t grad_tmp(uint32_t rows, uint32_t k, uint32_t typeSize, bool front) {
    return rows * GetSoftMaxGradMinTmpSize(TensorShape({1, int64_t(k)}), typeSize, front, false);
}
}  // namespace

XTEST(softmax_grad_float_row_lengths) {
    // One chunk: dav_c220's float loop has no barrier between chunks.
    check_grad<float>(4, 64, grad_tmp(4, 64, 4, false), Form::grad);
    check_grad<float>(9, 40, grad_tmp(9, 40, 4, false), Form::grad);    // tail alone; a group of 8 and one row
    check_grad<float>(3, 136, grad_tmp(3, 136, 4, false), Form::grad);  // two repeats and a tail of 8
    check_grad<float>(16, 200, grad_tmp(16, 200, 4, false), Form::grad);
}

XTEST(softmax_grad_float_chunks_with_a_tail) {
    // 4 rows a chunk, a tail of 2; with auto-sync on only (see below).
    check_grad<float>(10, 96, grad_tmp(4, 96, 4, false), Form::grad, {1});
    check_grad<float>(10, 96, grad_tmp(4, 96, 4, false), Form::stack, {1});  // the tiling's chunks in the free UB
}

XTEST(softmax_grad_float_chunks_race_without_auto_sync) {
    // The next chunk's Mul into the product buffer follows the last one's Mul
    // reading it with no PipeBarrier<PIPE_V> (dav_c220's sequence).
    XCHECK_THROWS_WITH(check_grad<float>(10, 96, grad_tmp(4, 96, 4, false), Form::grad, {0}),
                       "WAR on UB", "PIPE_V Mul", "writes bytes read by PIPE_V Mul");
}

XTEST(softmax_grad_front_float_and_half) {
    check_grad<float>(12, 64, grad_tmp(5, 64, 4, true), Form::front);  // chunks of 5, a tail of 2
    check_grad<float>(9, 40, grad_tmp(9, 40, 4, true), Form::grad_as_front);
    check_grad<half>(7, 48, grad_tmp(7, 48, 2, true), Form::front);
    check_grad<half>(12, 64, grad_tmp(5, 64, 2, true), Form::grad_as_front);
}

XTEST(softmax_grad_half) {
    check_grad<half>(5, 48, grad_tmp(5, 48, 2, false), Form::grad);
    check_grad<half>(12, 144, grad_tmp(5, 144, 2, false), Form::grad);  // chunks of 5, a tail of 2
}

XTEST(softmax_grad_recomputes_a_tiling_made_for_another_shape) {
    check_grad<float>(6, 64, grad_tmp(6, 64, 4, false), Form::grad, {1}, 32);
}

XTEST(softmax_grad_host_tiling) {
    XCHECK_EQ(GetSoftMaxGradMinTmpSize(TensorShape({16, 960}), 4, false, false), (16u + 960 + 64) * 4);
    XCHECK_EQ(GetSoftMaxGradMinTmpSize(TensorShape({16, 960}), 4, true, false), (8u + 960 + 64) * 4);
    XCHECK_EQ(GetSoftMaxGradMinTmpSize(TensorShape({4, 64}), 2, false, false), (32u + 3 * 64 + 64) * 4);
    XCHECK_EQ(GetSoftMaxGradMaxTmpSize(TensorShape({4, 64}), 2, false, false), 4u * (32 + 3 * 64 + 64) * 4);
    SoftMaxTiling t;
    SoftMaxGradTilingFunc(TensorShape({10, 96}), 4, 4 * (16 + 96 + 64) * 4, t, false);
    XCHECK_EQ(t.splitM, 4u), XCHECK_EQ(t.rangeM, 2u), XCHECK_EQ(t.tailM, 2u), XCHECK_EQ(t.reduceK, 8u);
    // A basic-block shape: a divisor of the rows in multiples of 8.
    SoftMaxGradTilingFunc(TensorShape({48, 64}), 4, 20 * (16 + 64 + 64) * 4, t, false);
    XCHECK_EQ(t.splitM, 16u), XCHECK_EQ(t.tailM, 0u);
    optiling::SoftMaxTiling data;
    SoftMaxGradTilingFunc(TensorShape({10, 96}), 4, 4 * (16 + 96 + 64) * 4, data, false);
    XCHECK_EQ(data.get_splitM(), 4u), XCHECK_EQ(data.get_tailM(), 2u);
}

XTEST(softmax_grad_undersized_tmp_is_reported) {
    SoftMaxTiling tiling;
    SoftMaxGradTilingFunc(TensorShape({4, 64}), 4, 4096, tiling, false);
    XCHECK_THROWS_WITH(one([&] {
                           sim_test::Calc c(4096);
                           auto f = c.get<float>();
                           auto tmp = c.get<uint8_t>()[3072];
                           tmp.SetSize(512);
                           SoftmaxGrad<float>(f, f[256], f, tmp, tiling, false, {4, 64, 4, 64});
                       }),
                       "SoftmaxGrad (block 0): sharedTmpBuffer holds 512 B, less than the 576 B minimum "
                       "GetSoftMaxGradMinTmpSize gives");
}

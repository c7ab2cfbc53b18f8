// The advanced ReduceMax against std::max: RA (the max of each column over the
// first axis) for first axes with and without a part past a power of two, one
// row, padded and unpadded rows; AR (the max of each row) for each row-length
// path, the padding filled with a value above every input; in src (isReuseSource) and
// in tmp (given or taken from the free UB), half and float, in both auto-sync
// modes; the host helper's sizes and refusals; srcInnerPad false, an
// undersized tmp and a short dst reported. Max is exact: compared bitwise.
#include <algorithm>
#include <cstdint>
#include <functional>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "tiling/tiling_api.h"
#include "xtest.h"

using namespace AscendC;

namespace {
void one(const std::function<void()>& body) { ascend_sim::run_kernel("adv_reduce_max", 1, body); }

float x_at(uint32_t r, uint32_t c) { return float(int((r * 53 + c * 17) % 101) - 50) / 4.0f; }

enum class Form { reuse, tmp, stack };

template <class T>
void check_ra(uint32_t first, uint32_t last, Form form) {
    const uint32_t perBlock = 32 / sizeof(T), padLast = (last + perBlock - 1) / perBlock * perBlock;
    uint32_t maxTmp = 0, minTmp = 0;
    GetReduceMaxMaxMinTmpSize(TensorShape({int64_t(first), int64_t(last)}),
                              sizeof(T) == 4 ? ge::DT_FLOAT : ge::DT_FLOAT16, ReducePattern::RA, true,
                              form == Form::reuse, maxTmp, minTmp);
    for (int autoSync : {1, 0}) {
        const sim_test::AutoSync mode(autoSync);
        one([&] {
            const uint32_t srcBytes = first * padLast * sizeof(T), dstBytes = (padLast * sizeof(T) + 31) / 32 * 32;
            sim_test::Calc c(srcBytes + dstBytes + minTmp + 32);
            auto src = c.get<T>(), dst = c.get<T>()[srcBytes / sizeof(T)];
            auto tmp = c.get<uint8_t>()[srcBytes + dstBytes];
            src.SetSize(first * padLast), dst.SetSize(padLast), tmp.SetSize(minTmp);
            for (uint32_t r = 0; r < first; ++r)
                for (uint32_t j = 0; j < padLast; ++j) src.SetValue(r * padLast + j, T(j < last ? x_at(r, j) : 0.0f));
            sim_test::sync<HardEvent::S_V>();
            const uint32_t shape[2] = {first, last};
            if (form == Form::reuse)
                ReduceMax<T, Pattern::Reduce::RA, true>(dst, src, shape, true);
            else if (form == Form::tmp)
                ReduceMax<T, Pattern::Reduce::RA, false>(dst, src, tmp, shape, true);
            else
                ReduceMax<T, Pattern::Reduce::RA, false>(dst, src, shape, true);
            sim_test::sync<HardEvent::V_S>();
            for (uint32_t j = 0; j < last; ++j) {
                float ref = float(T(x_at(0, j)));
                for (uint32_t r = 1; r < first; ++r) ref = std::max(ref, float(T(x_at(r, j))));
                XCHECK_EQ(float(dst.GetValue(j)), ref);
            }
        });
    }
}
}  // namespace

XTEST(reduce_max_ra_float) {
    for (Form f : {Form::reuse, Form::tmp, Form::stack}) {
        check_ra<float>(32, 136, f);  // a power of two: halved from the start
        check_ra<float>(37, 20, f);   // 5 rows past 32 folded first; rows padded to 24
        check_ra<float>(1, 16, f);    // one row: copied
        check_ra<float>(3, 64, f);
    }
}

namespace {
template <class T>
void check_ar(uint32_t first, uint32_t last, Form form) {
    const uint32_t perBlock = 32 / sizeof(T), padLast = (last + perBlock - 1) / perBlock * perBlock;
    uint32_t maxTmp = 0, minTmp = 0;
    GetReduceMaxMaxMinTmpSize(TensorShape({int64_t(first), int64_t(last)}),
                              sizeof(T) == 4 ? ge::DT_FLOAT : ge::DT_FLOAT16, ReducePattern::AR, true,
                              form == Form::reuse, maxTmp, minTmp);
    for (int autoSync : {1, 0}) {
        const sim_test::AutoSync mode(autoSync);
        one([&] {
            const uint32_t srcBytes = first * padLast * sizeof(T), dstBytes = (first * sizeof(T) + 31) / 32 * 32;
            sim_test::Calc c(srcBytes + dstBytes + minTmp + 32);
            auto src = c.get<T>(), dst = c.get<T>()[srcBytes / sizeof(T)];
            auto tmp = c.get<uint8_t>()[srcBytes + dstBytes];
            src.SetSize(first * padLast), dst.SetSize(dstBytes / sizeof(T)), tmp.SetSize(minTmp);
            for (uint32_t r = 0; r < first; ++r)
                for (uint32_t j = 0; j < padLast; ++j) src.SetValue(r * padLast + j, T(j < last ? x_at(r, j) : 99.0f));
            sim_test::sync<HardEvent::S_V>();
            const uint32_t shape[2] = {first, last};
            if (form == Form::reuse)
                ReduceMax<T, Pattern::Reduce::AR, true>(dst, src, shape, true);
            else if (form == Form::tmp)
                ReduceMax<T, Pattern::Reduce::AR, false>(dst, src, tmp, shape, true);
            else
                ReduceMax<T, Pattern::Reduce::AR, false>(dst, src, shape, true);
            sim_test::sync<HardEvent::V_S>();
            for (uint32_t r = 0; r < first; ++r) {
                float ref = float(T(x_at(r, 0)));
                for (uint32_t j = 1; j < last; ++j) ref = std::max(ref, float(T(x_at(r, j))));
                XCHECK_EQ(float(dst.GetValue(r)), ref);  // the padding (99) must not count
            }
        });
    }
}
}  // namespace

XTEST(reduce_max_ar_float_row_lengths) {
    for (Form f : {Form::reuse, Form::tmp, Form::stack}) {
        check_ar<float>(13, 5, f);    // below a block: 8 rows a repeat, a masked tail repeat
        check_ar<float>(6, 8, f);     // a block a row
        check_ar<float>(5, 20, f);    // blocks folded, a partial block masked
        check_ar<float>(4, 136, f);   // repeats folded, a partial repeat masked
        check_ar<float>(2, 2100, f);  // beyond 255 blocks: row by row
    }
}

XTEST(reduce_max_ar_half) {
    check_ar<half>(20, 10, Form::tmp);
    check_ar<half>(3, 300, Form::tmp);  // WholeReduceMax per row
    check_ar<half>(3, 300, Form::reuse);
    check_ar<half>(7, 40, Form::reuse);
}

XTEST(reduce_max_ra_half) {
    check_ra<half>(7, 40, Form::tmp);
    check_ra<half>(16, 48, Form::reuse);
}

XTEST(reduce_max_host_tmp_sizes) {
    uint32_t maxV = 1, minV = 1;
    GetReduceMaxMaxMinTmpSize(TensorShape({32, 136}), ge::DT_FLOAT, ReducePattern::RA, true, false, maxV, minV);
    XCHECK_EQ(minV, 16u * 136 * 4), XCHECK_EQ(maxV, minV);
    GetReduceMaxMaxMinTmpSize(TensorShape({37, 20}), ge::DT_FLOAT, ReducePattern::RA, true, false, maxV, minV);
    XCHECK_EQ(minV, 32u * 96);
    GetReduceMaxMaxMinTmpSize(TensorShape({37, 20}), ge::DT_FLOAT, ReducePattern::RA, true, true, maxV, minV);
    XCHECK_EQ(minV, 0u);
    GetReduceMaxMaxMinTmpSize(TensorShape({4, 40}), ge::DT_FLOAT16, ReducePattern::AR, true, false, maxV, minV);
    XCHECK_EQ(minV, 4u * 16 * 2);  // more than a block, less than a repeat a row
    GetReduceMaxMaxMinTmpSize(TensorShape({4, 200}), ge::DT_FLOAT, ReducePattern::AR, true, false, maxV, minV);
    XCHECK_EQ(minV, 4u * 64 * 4);
    XCHECK_THROWS_WITH(GetReduceMaxMaxMinTmpSize(TensorShape({4, 40}), ge::DT_FLOAT, ReducePattern::RA, false,
                                                 true, maxV, minV),
                       "GetReduceMaxMaxMinTmpSize: isSrcInnerPad must be true on A2/A3");
    XCHECK_THROWS_WITH(GetReduceMaxMaxMinTmpSize(TensorShape({4, 40}), ge::DT_INT32, ReducePattern::RA, true, true,
                                                 maxV, minV),
                       "GetReduceMaxMaxMinTmpSize: A2/A3 support float and half");
}

XTEST(reduce_max_refusals) {
    auto run = [](uint32_t tmpBytes, uint32_t dstSize, bool pad) {
        one([&] {
            sim_test::Calc c(8192);
            auto src = c.get<float>(), dst = c.get<float>()[1024];
            auto tmp = c.get<uint8_t>()[6144];
            src.SetSize(5 * 64), dst.SetSize(dstSize), tmp.SetSize(tmpBytes);
            const uint32_t shape[2] = {5, 64};
            ReduceMax<float, Pattern::Reduce::RA>(dst, src, tmp, shape, pad);
        });
    };
    XCHECK_THROWS_WITH(run(1024, 64, false), "ReduceMax (block 0): srcInnerPad must be true on A2/A3");
    XCHECK_THROWS_WITH(run(512, 64, true), "ReduceMax (block 0): sharedTmpBuffer holds 512 B, less than the 1024 B "
                                           "minimum GetReduceMaxMaxMinTmpSize gives");
    XCHECK_THROWS_WITH(run(1024, 32, true), "ReduceMax (block 0): calCount 64 is larger than dstTensor's size 32");
}

// TopK, TOPK_NORMAL (TopK.md, TopK-Tiling.md): the k largest or smallest of
// each row with their indices, equal values in index order, against a plain
// stable sort, over shapes that take every merge path (one group; pairwise
// merges only; four-way merges with a tail; inner 4096), generated or given
// indices, the finish flag, both tmp forms; the host sizes; the refusals.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <numeric>
#include <vector>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "tiling/tiling_api.h"
#include "xtest.h"

using namespace AscendC;
using sim_test::sync;

namespace {
void one(const std::function<void()>& body) { ascend_sim::run_kernel("adv_topk", 1, body); }
const platform_ascendc::PlatformAscendC& plat() {
    return *platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1");
}

// Small integers with many repeats, so ties are common and exact in half.
double value(uint32_t row, uint32_t i) { return double(int((i * 37 + row * 11) % 23) - 11); }

struct Case {
    int32_t inner, outter, k;
    bool largest;
};

template <class T, bool isInitIndex, bool isHasfinish, bool stackTmp = false>
void run_topk(const Case& c) {
    const int32_t inner = c.inner, outter = c.outter, k = c.k;
    const uint32_t perBlk = 32 / sizeof(T), kPad = (k + perBlk - 1) / perBlk * perBlk, kPadIx = (k + 7) / 8 * 8;
    TopkTiling tiling;
    XCHECK(TopKTilingFunc(plat(), inner, outter, k, sizeof(T), isInitIndex, TopKMode::TOPK_NORMAL, c.largest, tiling));
    uint32_t mx = 0, mn = 0;
    GetTopKMaxMinTmpSize(plat(), inner, outter, false, isInitIndex, TopKMode::TOPK_NORMAL, c.largest, sizeof(T), mx, mn);
    one([&] {
        const uint32_t srcB = (inner * outter * sizeof(T) + 127) / 128 * 128, ixB = inner * 4, finB = 32;
        const uint32_t dvB = (kPad * outter * sizeof(T) + 31) / 32 * 32, diB = kPadIx * outter * 4;
        // the tmp first: Sort32.md wants its proposals 256 B and its index 128 B aligned
        const uint32_t tmpB = stackTmp ? 0 : (mn + 255) / 256 * 256;
        sim_test::Calc calc((tmpB + srcB + ixB + finB + dvB + diB + 255) / 256 * 256);  // the stack tmp after it
        auto all = calc.get<uint8_t>();
        auto b = all[tmpB];
        auto src = b[0].ReinterpretCast<T>();
        auto ix = b[srcB].ReinterpretCast<int32_t>();
        auto fin = b[srcB + ixB].ReinterpretCast<bool>();
        auto dv = b[srcB + ixB + finB].ReinterpretCast<T>();
        auto di = b[srcB + ixB + finB + dvB].ReinterpretCast<int32_t>();
        src.SetSize(inner * outter), ix.SetSize(inner), fin.SetSize(32), dv.SetSize(kPad * outter);
        di.SetSize(kPadIx * outter);
        for (int32_t r = 0; r < outter; ++r)
            for (int32_t i = 0; i < inner; ++i) src.SetValue(r * inner + i, T(value(r, i)));
        for (int32_t i = 0; i < inner; ++i) ix.SetValue(i, 5000 + 3 * i);
        for (uint32_t r = 0; r < 32; ++r) fin.SetValue(r, r % 3 == 1);
        for (uint32_t i = 0; i < kPad * outter; ++i) dv.SetValue(i, T(0));
        for (uint32_t i = 0; i < kPadIx * outter; ++i) di.SetValue(i, 0);
        sync<HardEvent::S_V>();
        TopKInfo info;
        info.outter = outter, info.inner = inner, info.n = inner;
        if constexpr (stackTmp) {
            TopK<T, isInitIndex, isHasfinish>(dv, di, src, ix, fin, k, tiling, info, c.largest);
        } else {
            auto tmp = all[0];
            tmp.SetSize(mn);
            TopK<T, isInitIndex, isHasfinish>(dv, di, src, ix, fin, tmp, k, tiling, info, c.largest);
        }
        sync<HardEvent::V_S>();
        for (int32_t r = 0; r < outter; ++r) {
            std::vector<int32_t> order(inner);
            std::iota(order.begin(), order.end(), 0);
            std::stable_sort(order.begin(), order.end(), [&](int32_t x, int32_t y) {
                return c.largest ? value(r, x) > value(r, y) : value(r, x) < value(r, y);
            });
            const bool done = isHasfinish && r % 3 == 1;
            for (int32_t j = 0; j < k; ++j) {
                XCHECK_EQ(double(dv.GetValue(r * (sizeof(T) == 4 ? kPadIx : kPad) + j)), value(r, order[j]));
                XCHECK_EQ(di.GetValue(r * kPadIx + j), done ? inner : isInitIndex ? 5000 + 3 * order[j] : order[j]);
            }
        }
    });
}

// TopK over one 32-element row of float with the given k, n and tmp bytes.
void misuse(int32_t k, int32_t n, uint32_t tmpBytes) {
    TopkTiling tiling;
    TopKTilingFunc(plat(), 32, 1, 1, 4, false, TopKMode::TOPK_NORMAL, true, tiling);
    one([&] {
        sim_test::Calc calc(1024 + 128 + 128 + 32 + 32 + 32);
        auto b = calc.get<uint8_t>();
        auto tmp = b[0];
        auto src = b[1024].ReinterpretCast<float>();
        auto ix = b[1152].ReinterpretCast<int32_t>();
        auto fin = b[1280].ReinterpretCast<bool>();
        auto dv = b[1312].ReinterpretCast<float>();
        auto di = b[1344].ReinterpretCast<int32_t>();
        src.SetSize(32), ix.SetSize(32), fin.SetSize(32), dv.SetSize(8), di.SetSize(8), tmp.SetSize(tmpBytes);
        for (uint32_t i = 0; i < 32; ++i) src.SetValue(i, float(i));
        sync<HardEvent::S_V>();
        TopKInfo info;
        info.inner = 32, info.n = n;
        TopK<float>(dv, di, src, ix, fin, tmp, k, tiling, info);
    });
}
}  // namespace

XTEST(topk_float_generated_indices_every_merge_path) {
    for (const Case& c : {Case{32, 2, 1, false}, Case{32, 1, 32, true}, Case{64, 3, 5, true}, Case{96, 2, 9, false},
                          Case{128, 1, 20, true}, Case{160, 2, 17, false}, Case{288, 1, 40, true},
                          Case{544, 1, 33, false}, Case{4096, 1, 100, true}})
        run_topk<float, false, false>(c);
}

XTEST(topk_half_and_given_indices) {
    for (const Case& c : {Case{32, 2, 3, true}, Case{96, 2, 16, false}, Case{544, 1, 33, true}})
        run_topk<half, false, false>(c);
    run_topk<float, true, false>(Case{160, 2, 7, true});
    run_topk<half, true, false>(Case{224, 1, 12, false});
}

XTEST(topk_finish_flag_and_stack_tmp) {
    run_topk<float, false, true>(Case{64, 4, 3, false});
    run_topk<half, true, true>(Case{128, 3, 10, true});
    run_topk<float, false, false, true>(Case{160, 2, 5, true});
}

XTEST(topk_host_sizes) {
    uint32_t mx = 0, mn = 0;
    GetTopKMaxMinTmpSize(plat(), 32, 2, false, false, TopKMode::TOPK_NORMAL, false, 4, mx, mn);
    XCHECK_EQ(mn, 640u);  // two halves of 32 proposals, then 32 indices
    XCHECK_EQ(mx, mn);
    GetTopKMaxMinTmpSize(plat(), 128, 3, false, true, TopKMode::TOPK_NORMAL, true, 2, mx, mn);
    XCHECK_EQ(mn, 16u * 128);
    GetTopKMaxMinTmpSize(plat(), 32, 4, false, false, TopKMode::TOPK_NSMALL, false, 4, mx, mn);
    XCHECK_EQ(mn, 32u * 4 * (8 + 4 + 4) + 64);
    TopkTiling t;
    TopKTilingFunc(plat(), 64, 3, 5, 2, false, TopKMode::TOPK_NORMAL, true, t);
    XCHECK_EQ(t.tmpLocalSize, 8 * 64 + 2 * 64);
    XCHECK_EQ(t.srcIndexOffset, 8 * 64);
    XCHECK_EQ(t.maskOffset, 3 * 16);
    TopKTilingFunc(plat(), 32, 2, 6, 2, true, TopKMode::TOPK_NSMALL, true, t);
    XCHECK_EQ(uint32_t(t.vreducehalfValMask0), 0x1111u);
    XCHECK_EQ(uint32_t(t.vreducehalfValMask1), 0x0011u);
    XCHECK_EQ(t.vreduceIdxMask0, 0xAAAu);
    optiling::TopkTiling o;
    TopKTilingFunc(plat(), 64, 3, 5, 4, false, TopKMode::TOPK_NORMAL, true, o);
    XCHECK_EQ(o.get_tmpLocalSize(), 5 * 64);
    XCHECK_EQ(o.GetDataSize(), sizeof(TopkTiling));
}

XTEST(topk_refusals) {
    uint32_t mx = 0, mn = 0;
    XCHECK_THROWS_WITH(GetTopKMaxMinTmpSize(plat(), 48, 1, false, false, TopKMode::TOPK_NORMAL, true, 4, mx, mn),
                       "TopK GetTopKMaxMinTmpSize: inner 48 is not a multiple of 32");
    TopkTiling t;
    XCHECK_THROWS_WITH(TopKTilingFunc(plat(), 64, 1, 65, 4, false, TopKMode::TOPK_NORMAL, true, t),
                       "TopK TopKTilingFunc: k 65 is outside [1, 64]");
    XCHECK_THROWS_WITH(TopKTilingFunc(plat(), 64, 1, 4, 4, false, TopKMode::TOPK_NSMALL, true, t),
                       "in TOPK_NSMALL the inner axis must be 32, not 64");
    XCHECK_THROWS_WITH(misuse(9, 8, 640), "k 9 is outside [1, topKInfo.n 8]");
    XCHECK_THROWS_WITH(misuse(1, 33, 640), "topKInfo.n 33 is outside [1, topKInfo.inner 32]");
    XCHECK_THROWS_WITH(misuse(1, 32, 600), "the tmp has 600 B, TopK needs tiling.tmpLocalSize 160 elements = 640 B");
    XCHECK_THROWS_WITH(one([] {
                           TopkTiling tt;
                           LocalTensor<float> f;
                           LocalTensor<int32_t> i;
                           LocalTensor<bool> b;
                           LocalTensor<uint8_t> u;
                           TopK<float, false, false, false, TopKMode::TOPK_NSMALL>(f, i, f, i, b, u, 1, tt, TopKInfo());
                       }),
                       "TOPK_NSMALL is not provided");
}

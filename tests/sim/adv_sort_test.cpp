// The sort family (Sort.md, Concat.md, Extract.md, MrgSort-93.md, GetSortLen.md):
// Concat + Sort<T, true> + Extract give all scores descending with their
// indices for 1 to 33 groups of 32 (every shape of the four-way merge's tail),
// Sort<T, false> sorts each group alone, the MrgSort form with sortedNum; the
// host sizes; the refusals.
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
void one(const std::function<void()>& body) { ascend_sim::run_kernel("adv_sort", 1, body); }

// Distinct scores in a scrambled order (i * 97 mod n is a permutation for n not a multiple of 97).
double score(uint32_t i, uint32_t n) { return double(int(i * 97 % n) - int(n / 2)) / 4; }

// Sorts n = 32 * groups scores whose indices are 1000 + i, full or group by group,
// and checks Extract's values and indices against a reference order.
template <class T, bool full>
void sort_and_extract(uint32_t groups) {
    const uint32_t n = 32 * groups;
    one([&] {
        // src | index | dst proposals | tmp | values | indices (half's index pass reads twice the proposals)
        const uint32_t propBytes = n * 8;
        sim_test::Calc c(n * 4 + n * 4 + 2 * propBytes + propBytes + n * 4 + 2 * n * 4);
        auto bytes = c.get<uint8_t>();
        auto src = bytes[0].ReinterpretCast<T>();
        auto ix = bytes[n * 4].ReinterpretCast<uint32_t>();
        auto dst = bytes[n * 8].ReinterpretCast<T>();
        auto tmp = bytes[n * 8 + 2 * propBytes].ReinterpretCast<T>();
        auto val = bytes[n * 8 + 3 * propBytes].ReinterpretCast<T>();
        auto outIx = bytes[n * 12 + 3 * propBytes].ReinterpretCast<uint32_t>();
        src.SetSize(n), ix.SetSize(n), dst.SetSize(2 * propBytes / sizeof(T)), tmp.SetSize(propBytes / sizeof(T));
        val.SetSize(n), outIx.SetSize(2 * n);
        for (uint32_t i = 0; i < n; ++i) src.SetValue(i, T(score(i, n))), ix.SetValue(i, 1000 + i);
        // the half index pass reads past the n proposals: give those bytes a value
        for (uint32_t i = n * 8 / sizeof(T); i < 2 * propBytes / sizeof(T); ++i) dst.SetValue(i, T(0));
        sync<HardEvent::S_V>();
        LocalTensor<T> concat;
        Concat(concat, src, tmp, int32_t(n / 16));
        Sort<T, full>(dst, concat, ix, tmp, int32_t(groups));
        PipeBarrier<PIPE_V>();
        Extract(val, outIx, dst, int32_t(groups));
        sync<HardEvent::V_S>();
        std::vector<uint32_t> order(n);
        std::iota(order.begin(), order.end(), 0u);
        for (uint32_t g = 0; g < (full ? 1 : groups); ++g) {
            auto b = order.begin() + (full ? 0 : 32 * g), e = full ? order.end() : b + 32;
            std::sort(b, e, [&](uint32_t x, uint32_t y) { return score(x, n) > score(y, n); });
        }
        for (uint32_t k = 0; k < n; ++k) {
            XCHECK_EQ(double(val.GetValue(k)), score(order[k], n));
            XCHECK_EQ(outIx.GetValue(k), 1000 + order[k]);
        }
    });
}
}  // namespace

XTEST(full_sort_float_every_tail_shape) {
    for (uint32_t g : {1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 9u, 16u, 17u, 21u, 33u}) sort_and_extract<float, true>(g);
}

XTEST(full_sort_half) {
    for (uint32_t g : {1u, 3u, 6u, 13u}) sort_and_extract<half, true>(g);
}

XTEST(sort_without_full_sort_orders_each_group) {
    sort_and_extract<float, false>(3);
    sort_and_extract<half, false>(2);
}

XTEST(sort_len_and_offset_count_t_elements_of_proposals) {
    XCHECK_EQ(GetSortLen<float>(128), 256u);
    XCHECK_EQ(GetSortLen<half>(128), 512u);
    XCHECK_EQ(GetSortOffset<float>(3), 6u);
    XCHECK_EQ(GetSortOffset<half>(3), 12u);
}

XTEST(mrgsort_form_reports_sorted_num_when_exhausted) {
    one([] {
        sim_test::Calc c(4096);
        auto a = c.get<float>(), b = c.get<float>()[64], d = c.get<float>()[256];
        auto au = a.ReinterpretCast<uint32_t>(), bu = b.ReinterpretCast<uint32_t>();
        // queue 1: 9, 7, 5 (3 proposals); queue 2: 8, 6, 4, 2 (4)
        for (uint32_t i = 0; i < 3; ++i) a.SetValue(2 * i, float(9 - 2 * i)), au.SetValue(2 * i + 1, i);
        for (uint32_t i = 0; i < 4; ++i) b.SetValue(2 * i, float(8 - 2 * i)), bu.SetValue(2 * i + 1, 10 + i);
        sync<HardEvent::S_V>();
        const uint16_t len[4] = {3, 4, 0, 0};
        uint32_t done[4] = {99, 99, 99, 99};
        MrgSort<float, true>(d, MrgSortSrcList<float>(a, b, a, a), len, done, 0b0011, 1);
        sync<HardEvent::V_S>();
        // 9 8 7 6 5: queue 1 runs out after 3, queue 2 gave 2
        XCHECK_EQ(done[0], 3u);
        XCHECK_EQ(done[1], 2u);
        const float want[5] = {9, 8, 7, 6, 5};
        for (uint32_t k = 0; k < 5; ++k) XCHECK_EQ(d.GetValue(2 * k), want[k]);
    });
}

XTEST(sort_family_host_sizes) {
    auto& p = *platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1");
    XCHECK_EQ(GetConcatTmpSize(p, 128, 4), 0u);
    XCHECK_EQ(GetSortTmpSize(p, 128, 4), 1024u);
    XCHECK_EQ(GetSortTmpSize(p, 128, 2), 1024u);
    XCHECK_THROWS_WITH(GetSortTmpSize(p, 128, 8), "GetSortTmpSize: dataTypeSize 8 is not 2 or 4");
    XCHECK_THROWS_WITH(GetConcatTmpSize(p, 0, 4), "GetConcatTmpSize: elemCount must be greater than 0");
    XCHECK_THROWS_WITH(GetSortTmpSize(p, 60000, 4), "GetSortTmpSize: 240000 B of source is not less than the UB size");
    uint32_t mx = 0, mn = 0;
    SortConfig config;
    XCHECK_THROWS_WITH(GetSortMaxMinTmpSize(TensorShape({128}), ge::DT_FLOAT, ge::DT_UINT32, false, config, mx, mn),
                       "GetSortMaxMinTmpSize: the Sort with SortConfig exists only on the 950 family");
}

XTEST(sort_family_refusals) {
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(8192);
                           auto s = c.get<float>(), t = c.get<float>()[1024];
                           LocalTensor<float> concat;
                           Concat(concat, s, t, 256);
                       }),
                       "Concat (block 0): repeatTime 256 is outside [0, 255]");
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(8192);
                           auto s = c.get<float>(), d = c.get<float>()[256], t = c.get<float>()[1024];
                           auto ix = c.get<uint32_t>()[128];
                           Sort<float, true>(d, s, ix, t, -1);
                       }),
                       "Sort (block 0): repeatTime -1 is outside [0, 255]");
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(8192);
                           auto s = c.get<float>(), d = c.get<float>()[256];
                           auto ix = c.get<uint32_t>()[128];
                           Extract(s, ix, d, 300);
                       }),
                       "Extract (block 0): repeatTime 300 is outside [0, 255]");
    // the full sort's tmp holds the proposals: a smaller one is caught by the copy into it
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(8192);
                           auto s = c.get<float>(), d = c.get<float>()[256], t = c.get<float>()[1024];
                           auto ix = c.get<uint32_t>()[128];
                           t.SetSize(64);
                           Duplicate(s, 1.0f, 64);
                           Duplicate(ix, 0u, 64);
                           PipeBarrier<PIPE_V>();
                           Sort<float, true>(d, s, ix, t, 2);
                       }),
                       "DataCopy (block 0)");
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(8192);
                           auto s = c.get<float>(), d = c.get<float>()[256];
                           auto di = c.get<uint32_t>()[512];
                           Sort<float>(d, di, s, 32u);
                       }),
                       "Sort (block 0): the Sort with SortConfig exists only on the 950 family");
}

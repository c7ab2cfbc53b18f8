// DataCopy with SliceInfo (DataCopy切片数据搬运.md, dav_c220 as
// kernel_operator_data_copy_intf_impl.h): slices of a 2-D GM tensor into UB and
// back, values checked against the documented index arithmetic computed here.
#include <cstdint>
#include <vector>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "xtest.h"

using namespace AscendC;
using ascend_sim::run_kernel;
using sim_test::global;
using sim_test::Gm;

namespace {
constexpr uint32_t kW = 40, kH = 4;  // GM shape: dimension 0 (contiguous) x dimension 1

// Element j of the slice, as the documentation defines it: burst b of row k of
// `s`, burstLen x 8 floats each, bursts burstLen x 8 + stride apart.
std::vector<uint32_t> slice_index(const SliceInfo s[2]) {
    std::vector<uint32_t> at;
    const uint32_t per = s[0].burstLen * 8, bursts = (s[0].endIndex - s[0].startIndex + 1 + s[0].stride) / (per + s[0].stride);
    for (uint32_t k = s[1].startIndex; k <= s[1].endIndex; k += 1 + s[1].stride)
        for (uint32_t b = 0; b < bursts; ++b)
            for (uint32_t e = 0; e < per; ++e) at.push_back(k * s[0].shapeValue + s[0].startIndex + b * (per + s[0].stride) + e);
    return at;
}

void round_trip(const SliceInfo gmSlice[2], const SliceInfo ubSlice[2], uint32_t ubFloats) {
    Gm<float> in(kW * kH, "in"), out(kW * kH, "out");
    for (uint32_t i = 0; i < kW * kH; ++i) in.p[i] = float(i) + 0.25f;
    std::vector<float> ub(ubFloats);
    run_kernel("slice", 1, [&] {
        sim_test::Calc c(ubFloats * sizeof(float));
        auto t = c.get<float>();
        DataCopy(t, global(in.p, kW * kH), ubSlice, gmSlice, 2);
        sim_test::sync<HardEvent::MTE2_MTE3>();
        DataCopy(global(out.p, kW * kH), t, gmSlice, ubSlice, 2);
        sim_test::sync<HardEvent::MTE3_S>();
        for (uint32_t i = 0; i < ubFloats; ++i) ub[i] = t.GetValue(i);
    });
    const std::vector<uint32_t> src = slice_index(gmSlice), dst = slice_index(ubSlice);
    XCHECK_EQ(src.size(), dst.size());
    std::vector<float> want(kW * kH, 0.0f);
    for (size_t j = 0; j < src.size(); ++j) {
        XCHECK_EQ(ub[dst[j]], in.p[src[j]]);
        want[src[j]] = in.p[src[j]];
    }
    for (uint32_t i = 0; i < kW * kH; ++i) XCHECK_EQ(out.p[i], want[i]);
}
}  // namespace

XTEST(slices_with_block_aligned_gaps_copy_the_documented_elements) {
    // Rows 1 and 3; in each, two bursts of 8 floats 8 floats apart from column 8.
    const SliceInfo gm[2] = {{8, 31, 8, 1, kW}, {1, 3, 1, 1, kH}};
    const SliceInfo ub[2] = {{0, 15, 0, 1, 16}, {0, 1, 0, 1, 2}};
    round_trip(gm, ub, 32);
}

XTEST(slices_with_unaligned_gaps_take_the_byte_form) {
    // From column 5 (a GM address not 32 B aligned), bursts 3 floats apart: the DataCopyPad form.
    const SliceInfo gm[2] = {{5, 23, 3, 1, kW}, {0, 3, 2, 1, kH}};  // rows 0 and 3
    const SliceInfo ub[2] = {{0, 15, 0, 1, 16}, {0, 1, 0, 1, 2}};
    round_trip(gm, ub, 32);
}

XTEST(slice_refusals) {
    Gm<float> in(kW * kH, "in");
    const auto copy = [&](const SliceInfo* d, const SliceInfo* s, uint32_t dims) {
        run_kernel("slice_bad", 1, [&] {
            sim_test::Calc c(64 * sizeof(float));
            DataCopy(c.get<float>(), global(in.p, kW * kH), d, s, dims);
        });
    };
    const SliceInfo noShape[2] = {{0, 7, 0, 1}, {0, 0, 0, 1}};
    const SliceInfo ub[2] = {{0, 7, 0, 1, 8}, {0, 0, 0, 1, 1}};
    XCHECK_THROWS_WITH(copy(ub, noShape, 2), "DataCopy", "srcSliceInfo[0].shapeValue is 0");
    XCHECK_THROWS_WITH(copy(ub, ub, 0), "DataCopy", "dimValue 0 is outside [1, 8]");
    const SliceInfo twoRows[2] = {{0, 7, 0, 1, kW}, {0, 1, 0, 1, kH}};
    XCHECK_THROWS_WITH(copy(ub, twoRows, 2), "DataCopy", "dstSliceInfo gives 1 transfers, srcSliceInfo 2");
    const SliceInfo ubOddGap[2] = {{0, 15, 3, 1, 19}, {0, 0, 0, 1, 1}};
    const SliceInfo gmTwo[2] = {{0, 15, 0, 1, kW}, {0, 0, 0, 1, kH}};
    XCHECK_THROWS_WITH(copy(ubOddGap, gmTwo, 2), "DataCopy", "dstSliceInfo[0].stride 3 x 4 B is not a multiple of 32 B");
    // A slice reaching past the UB tensor is the strided copy's bounds violation.
    const SliceInfo wide[2] = {{0, 79, 0, 10, kW * kH}, {0, 0, 0, 1, 1}};
    const SliceInfo ubWide[2] = {{0, 79, 0, 10, 80}, {0, 0, 0, 1, 1}};
    XCHECK_THROWS_WITH(copy(ubWide, wide, 2), "DataCopy", "UB destination");
}

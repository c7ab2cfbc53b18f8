// TransData's four conversions against the element placement of each format
// computed here (NCDHW with H x W padded to 16; FRACTAL_Z_3D D C1 HW N1 N0
// C0 and NDC1HWC0 with the rows past n or c zero), for n and c that do and
// do not fill 16 and H x W with and without padding, int16_t (exact) and
// half, with and without sharedTmpBuffer; GetTransDataMaxMinTmpSize against
// transdata_tiling.cpp; the checks' reports.
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <vector>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "tiling/tiling_api.h"
#include "xtest.h"

using namespace AscendC;
using sim_test::sync;

namespace {
constexpr TransDataConfig kToFractal = {DataFormat::NCDHW, DataFormat::FRACTAL_Z_3D};
constexpr TransDataConfig kFromFractal = {DataFormat::FRACTAL_Z_3D, DataFormat::NCDHW};
constexpr TransDataConfig kTo6hd = {DataFormat::NCDHW, DataFormat::NDC1HWC0};
constexpr TransDataConfig kFrom6hd = {DataFormat::NDC1HWC0, DataFormat::NCDHW};
constexpr TransDataConfig kBad = {DataFormat::ND, DataFormat::NZ};

void one(const std::function<void()>& body) { ascend_sim::run_kernel("adv_transdata", 1, body); }

struct Dims {
    int n, c, d, h, w;
    int n1() const { return (n + 15) / 16; }
    int c1() const { return (c + 15) / 16; }
    int hw() const { return h * w; }
    int pad() const { return (h * w + 15) / 16 * 16; }
    int ncdhw() const { return n * c * d * pad(); }
    int fractal() const { return d * c1() * hw() * n1() * 256; }
    int sixhd() const { return n * d * c1() * hw() * 16; }
    // NCDHW element (n, c, d, hw), hw < h x w.
    int at(int in, int ic, int id, int ihw) const { return ((in * c + ic) * d + id) * pad() + ihw; }
};

int16_t value(int i) { return int16_t(i % 2039 - 1000); }  // distinct enough, exact in half too

// For each element of the other format: the NCDHW index it holds, or -1 for a zero.
std::vector<int> other_index(const Dims& s, bool fractal) {
    std::vector<int> idx;
    if (fractal) {
        for (int id = 0; id < s.d; ++id)
            for (int j = 0; j < s.c1(); ++j)
                for (int ihw = 0; ihw < s.hw(); ++ihw)
                    for (int in = 0; in < s.n1() * 16; ++in)
                        for (int k = 0; k < 16; ++k) {
                            const int ic = j * 16 + k;
                            idx.push_back(in < s.n && ic < s.c ? s.at(in, ic, id, ihw) : -1);
                        }
    } else {
        for (int in = 0; in < s.n; ++in)
            for (int id = 0; id < s.d; ++id)
                for (int j = 0; j < s.c1(); ++j)
                    for (int ihw = 0; ihw < s.hw(); ++ihw)
                        for (int k = 0; k < 16; ++k) {
                            const int ic = j * 16 + k;
                            idx.push_back(ic < s.c ? s.at(in, ic, id, ihw) : -1);
                        }
    }
    return idx;
}

template <class T, const TransDataConfig& cfg>
void check(const Dims& s, bool withTmp) {
    constexpr bool fromNcdhw = cfg.srcFormat == DataFormat::NCDHW;
    constexpr bool fractal = cfg.srcFormat == DataFormat::FRACTAL_Z_3D || cfg.dstFormat == DataFormat::FRACTAL_Z_3D;
    const std::vector<int> idx = other_index(s, fractal);
    const uint32_t ncdhwN = uint32_t(s.ncdhw()), otherN = uint32_t(idx.size());
    const uint32_t tmpBytes = sim_adv::transdata_tmp_bytes(cfg, s.n, s.c, s.d, s.h, s.w);
    one([&] {
        const uint32_t srcN = fromNcdhw ? ncdhwN : otherN, dstN = fromNcdhw ? otherN : ncdhwN;
        const uint32_t srcBytes = (srcN * 2 + 31) / 32 * 32, dstBytes = (dstN * 2 + 31) / 32 * 32;
        // with withTmp false the TPipe ends at dst: the stack buffer is the rest of UB
        sim_test::Calc c(srcBytes + dstBytes + (withTmp ? tmpBytes : 0));
        auto src = c.get<T>(), dst = c.get<T>()[srcBytes / 2];
        auto tmp = c.get<uint8_t>()[srcBytes + dstBytes];
        src.SetSize(srcN), dst.SetSize(dstN);
        if (withTmp) tmp.SetSize(tmpBytes);
        for (uint32_t i = 0; i < srcN; ++i) src.SetValue(i, T(value(int(i))));
        sync<HardEvent::S_V>();
        auto ncdhw = MakeLayout(MakeShape(s.n, s.c, s.d, s.h, s.w), MakeStride());
        auto six = MakeLayout(MakeShape(s.n, s.d, s.c1(), s.h, s.w, 16), MakeStride());
        auto fz = MakeLayout(MakeShape(s.d, s.c1(), s.h, s.w, s.n1(), 16, 16), MakeStride());
        auto run = [&](auto srcLayout, auto dstLayout) {
            TransDataParams<decltype(srcLayout), decltype(dstLayout)> p = {srcLayout, dstLayout};
            if (withTmp) TransData<cfg>(dst, src, tmp, p);
            else TransData<cfg>(dst, src, p);
        };
        if constexpr (fromNcdhw && fractal) run(ncdhw, fz);
        else if constexpr (fractal) run(fz, ncdhw);
        else if constexpr (fromNcdhw) run(ncdhw, six);
        else run(six, ncdhw);
        sync<HardEvent::V_S>();
        if constexpr (fromNcdhw) {
            for (uint32_t i = 0; i < otherN; ++i)
                XCHECK_EQ(float(dst.GetValue(i)), idx[i] < 0 ? 0.0f : float(value(idx[i])));
        } else {
            for (uint32_t i = 0; i < otherN; ++i)
                if (idx[i] >= 0) XCHECK_EQ(float(dst.GetValue(uint32_t(idx[i]))), float(value(int(i))));
        }
    });
}

template <const TransDataConfig& cfg>
void check_all(const Dims& s) {
    check<int16_t, cfg>(s, true);
    check<half, cfg>(s, false);
}
}  // namespace

XTEST(ncdhw_to_fractal_z_3d) {
    check_all<kToFractal>({16, 16, 1, 3, 5});  // the asc-devkit example's shape
    check_all<kToFractal>({20, 19, 1, 2, 8});  // n, c past 16, H x W already 16
    check_all<kToFractal>({5, 33, 2, 3, 3});
}

XTEST(fractal_z_3d_to_ncdhw) {
    check_all<kFromFractal>({16, 16, 1, 3, 5});  // whole n1, c1: the short path
    check_all<kFromFractal>({20, 19, 1, 2, 8});
    check_all<kFromFractal>({5, 33, 2, 3, 3});
}

XTEST(ncdhw_to_ndc1hwc0) {
    check_all<kTo6hd>({16, 16, 1, 3, 5});
    check_all<kTo6hd>({2, 19, 2, 2, 8});
    check_all<kTo6hd>({3, 40, 2, 3, 3});
}

XTEST(ndc1hwc0_to_ncdhw) {
    check_all<kFrom6hd>({16, 16, 1, 3, 5});
    check_all<kFrom6hd>({2, 19, 2, 2, 8});
    check_all<kFrom6hd>({3, 40, 2, 3, 3});
}

XTEST(tmp_size_on_the_host) {
    platform_ascendc::PlatformAscendC plat(ascend_sim::profiles().front());
    uint32_t mx = 0, mn = 0;
    // 16 x 16 x 1 x 3 x 5: padHw 16; (max(256, 240) + 256 x 16) halves
    XCHECK(GetTransDataMaxMinTmpSize(plat, TensorShape({16, 16, 1, 3, 5}), TensorShape({1, 1, 3, 5, 1, 16, 16}),
                                     ge::DT_FLOAT16, kToFractal, mx, mn));
    XCHECK_EQ(mx, (256u + 4096u) * 2), XCHECK_EQ(mn, mx);
    XCHECK(GetTransDataMaxMinTmpSize(plat, TensorShape({1, 1, 3, 5, 1, 16, 16}), TensorShape({16, 16, 1, 3, 5}),
                                     ge::DT_INT16, kFromFractal, mx, mn));
    XCHECK_EQ(mx, 4096u * 2);
    XCHECK(GetTransDataMaxMinTmpSize(plat, TensorShape({5, 33, 2, 3, 3}), TensorShape({2, 3, 3, 3, 1, 16, 16}),
                                     ge::DT_FLOAT16, kToFractal, mx, mn));
    XCHECK_EQ(mx, (33u * 2 * 16 + 16u * 2 * 48 * 16) * 2);  // max(c d padHw, d h w n1 16) = 1056
    XCHECK(GetTransDataMaxMinTmpSize(plat, TensorShape({2, 3, 3, 3, 1, 16, 16}), TensorShape({5, 33, 2, 3, 3}),
                                     ge::DT_BF16, kFromFractal, mx, mn));
    XCHECK_EQ(mx, 16u * 48 * 2 * 16 * 2 * 2);  // n, c not whole: two stages
    XCHECK(GetTransDataMaxMinTmpSize(plat, TensorShape({3, 40, 2, 3, 3}), TensorShape({3, 2, 3, 3, 3, 16}),
                                     ge::DT_UINT16, kTo6hd, mx, mn));
    XCHECK_EQ(mx, (2u * 16 + 2 * 48 * 16) * 2);
    XCHECK(GetTransDataMaxMinTmpSize(plat, TensorShape({3, 2, 3, 3, 3, 16}), TensorShape({3, 40, 2, 3, 3}),
                                     ge::DT_FLOAT16, kFrom6hd, mx, mn));
    XCHECK_EQ(mx, 2u * 48 * 16 * 2 + 512);
    // float, a bad pair, a wrong c1, a wrong dims count: false
    XCHECK(!GetTransDataMaxMinTmpSize(plat, TensorShape({3, 40, 2, 3, 3}), TensorShape({3, 2, 3, 3, 3, 16}),
                                      ge::DT_FLOAT, kTo6hd, mx, mn));
    XCHECK(!GetTransDataMaxMinTmpSize(plat, TensorShape({3, 40, 2, 3, 3}), TensorShape({3, 2, 3, 3, 3, 16}),
                                      ge::DT_FLOAT16, kBad, mx, mn));
    XCHECK(!GetTransDataMaxMinTmpSize(plat, TensorShape({3, 40, 2, 3, 3}), TensorShape({3, 2, 2, 3, 3, 16}),
                                      ge::DT_FLOAT16, kTo6hd, mx, mn));
    XCHECK(!GetTransDataMaxMinTmpSize(plat, TensorShape({3, 40, 2, 3, 3}), TensorShape({3, 2, 3, 3, 3, 16, 1}),
                                      ge::DT_FLOAT16, kTo6hd, mx, mn));
}

namespace {
// NCDHW 16 x 16 x 1 x 3 x 5 -> NDC1HWC0 with the given pieces.
template <const TransDataConfig& cfg>
void misuse(int c1, uint32_t tmpBytes, uint32_t dstAt) {
    one([&] {
        sim_test::Calc c(65536);
        auto src = c.get<half>(), dst = c.get<half>()[dstAt];
        auto tmp = c.get<uint8_t>()[32768];
        src.SetSize(4096), dst.SetSize(4096), tmp.SetSize(tmpBytes);
        auto ncdhw = MakeLayout(MakeShape(16, 16, 1, 3, 5), MakeStride());
        auto six = MakeLayout(MakeShape(16, 1, c1, 3, 5, 16), MakeStride());
        TransDataParams<decltype(ncdhw), decltype(six)> p = {ncdhw, six};
        TransData<cfg>(dst, src, tmp, p);
    });
}
}  // namespace

XTEST(the_checks_report) {
    XCHECK_THROWS_WITH(misuse<kBad>(1, 1024, 4096),
                       "TransData (block 0): config srcFormat/dstFormat is (ND, NZ); expected");
    XCHECK_THROWS_WITH(misuse<kTo6hd>(2, 1024, 4096),
                       "NDC1HWC0 c1 2, c0 16 do not give c 16 as c1 = (c + c0 - 1) / c0");
    // d padHw + d c1 16 padHw halves = 544 B
    XCHECK_THROWS_WITH(misuse<kTo6hd>(1, 512, 4096),
                       "sharedTmpBuffer holds 512 B, less than the 544 B minimum GetTransDataMaxMinTmpSize gives");
    XCHECK_THROWS_WITH(misuse<kTo6hd>(1, 1024, 2048), "dstTensor [4096, +7680 B) and srcTensor [0, +8192 B) overlap");
}

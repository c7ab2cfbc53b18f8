// The TransposeParamsExt forms of Transpose and TransDataTo5HD (Transpose.md,
// TransDataTo5HD.md): results checked against the documented index maps
// computed here, and the refusals.
#include <cstdint>
#include <vector>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "xtest.h"

using namespace AscendC;
using ascend_sim::run_kernel;

namespace {
// A kernel with one VECCALC buffer of `bytes`, its tensors made by `body`.
template <class F>
void with_ub(uint32_t bytes, F body) {
    run_kernel("transpose_ext", 1, [&] {
        sim_test::Calc c(bytes);
        body(c);
    });
}

template <class T>
void four_d_round_trip(uint16_t n, uint16_t c, uint16_t h, uint16_t w) {
    const uint32_t total = uint32_t(n) * c * h * w, hw = uint32_t(h) * w;
    const uint32_t tBytes = (uint32_t(c) * 2 + 1) * (sizeof(T) == 1 ? 1024 : 512);
    const uint32_t al = (total * sizeof(T) + 31) / 32 * 32;
    std::vector<T> nhwc(total), back(total);
    with_ub(3 * al + tBytes, [&](sim_test::Calc& u) {
        auto all = u.get<uint8_t>();
        auto src = all.ReinterpretCast<T>(), mid = all[al].ReinterpretCast<T>(), out = all[2 * al].ReinterpretCast<T>();
        auto tmp = all[3 * al];
        sim_test::fill(src, total, [](uint32_t i) { return (i * 7 + 3) % 101; });
        sim_test::sync<HardEvent::S_V>();
        Transpose(mid, src, tmp, TransposeParamsExt(n, c, h, w, TransposeType::TRANSPOSE_NCHW2NHWC));
        PipeBarrier<PIPE_V>();
        Transpose(out, mid, tmp, TransposeParamsExt(n, c, h, w, TransposeType::TRANSPOSE_NHWC2NCHW));
        sim_test::sync<HardEvent::V_S>();
        for (uint32_t i = 0; i < total; ++i) {
            nhwc[i] = mid.GetValue(i);
            back[i] = out.GetValue(i);
        }
    });
    for (uint32_t b = 0; b < n; ++b)
        for (uint32_t k = 0; k < c; ++k)
            for (uint32_t p = 0; p < hw; ++p) {
                const uint32_t chw = (b * c + k) * hw + p, hwc = (b * hw + p) * c + k;
                XCHECK_EQ(float(nhwc[hwc]), float(T((chw * 7 + 3) % 101)));
                XCHECK_EQ(float(back[chw]), float(T((chw * 7 + 3) % 101)));
            }
}
}  // namespace

XTEST(nchw_and_nhwc_convert_both_ways_for_each_width) {
    four_d_round_trip<half>(3, 3, 2, 8);    // the transpose sample's shape
    four_d_round_trip<float>(2, 5, 1, 8);
    four_d_round_trip<int8_t>(1, 4, 2, 16);
}

XTEST(one_channel_is_a_plain_copy) {
    std::vector<float> out(64);
    with_ub(2 * 256, [&](sim_test::Calc& u) {
        auto src = u.get<float>(), dst = src[64];
        sim_test::fill(src, 64, [](uint32_t i) { return float(i) * 0.5f; });
        sim_test::sync<HardEvent::S_V>();
        Transpose(dst, src, src.ReinterpretCast<uint8_t>(), TransposeParamsExt(2, 1, 4, 8, TransposeType::TRANSPOSE_NCHW2NHWC));
        sim_test::sync<HardEvent::V_S>();
        for (int i = 0; i < 64; ++i) out[i] = dst.GetValue(i);
    });
    for (int i = 0; i < 64; ++i) XCHECK_EQ(out[i], float(i) * 0.5f);
}

XTEST(nd2nd_b16_is_the_16x16_transpose_for_uint16) {
    std::vector<uint16_t> out(256);
    with_ub(2 * 512, [&](sim_test::Calc& u) {
        auto src = u.get<uint16_t>(), dst = src[256];
        sim_test::fill(src, 256, [](uint32_t i) { return i; });
        sim_test::sync<HardEvent::S_V>();
        Transpose(dst, src, src.ReinterpretCast<uint8_t>(), TransposeParamsExt(0, 0, 16, 16, TransposeType::TRANSPOSE_ND2ND_B16));
        sim_test::sync<HardEvent::V_S>();
        for (int i = 0; i < 256; ++i) out[i] = dst.GetValue(i);
    });
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 16; ++c) XCHECK_EQ(out[c * 16 + r], uint16_t(r * 16 + c));
}

XTEST(transpose_ext_refusals) {
    const auto run = [](TransposeParamsExt p, uint32_t tmpBytes, bool alias) {
        with_ub(8192 + tmpBytes, [&](sim_test::Calc& u) {
            auto all = u.get<half>();
            auto src = all, dst = alias ? all : all[2048];
            Duplicate(src, half(1), 2048);
            Transpose(dst, src, all[4096].ReinterpretCast<uint8_t>()[0], p);
        });
    };
    const auto nchw = [](uint16_t c, uint16_t h, uint16_t w) {
        return TransposeParamsExt(1, c, h, w, TransposeType::TRANSPOSE_NCHW2NHWC);
    };
    XCHECK_THROWS_WITH(run(nchw(3, 2, 8), 2048, false), "Transpose", "sharedTmpBuffer holds", "needs 2560 B");
    XCHECK_THROWS_WITH(run(nchw(3, 3, 5), 4096, false), "Transpose", "hSize * wSize * sizeof(T) = 30 B");
    XCHECK_THROWS_WITH(run(nchw(3, 2, 8), 4096, true), "Transpose", "dst", "src");
    XCHECK_THROWS_WITH(run(TransposeParamsExt(0, 0, 16, 16, TransposeType::TRANSPOSE_ND2ND_B16), 0, false),
                       "Transpose", "uint16_t only");
    XCHECK_THROWS_WITH(run(TransposeParamsExt(1, 2, 4, 4, TransposeType::TRANSPOSE_NZ2ND_0213), 0, false),
                       "Transpose", "dav_c220 does nothing for it");
}

XTEST(trans_data_to_5hd_b16_b32_b8_follow_the_documented_maps) {
    std::vector<int16_t> o16(256);
    std::vector<int32_t> o32(128 * 2);
    std::vector<uint8_t> o8(16 * 32);
    with_ub(4096, [&](sim_test::Calc& u) {
        auto all = u.get<uint8_t>();
        // b16: 16 source blocks at a 64 B pitch (not contiguous), destination contiguous.
        auto s16 = all.ReinterpretCast<int16_t>(), d16 = all[1024].ReinterpretCast<int16_t>();
        sim_test::fill(s16, 512, [](uint32_t i) { return int16_t(i); });
        // b32: contiguous 16 x 8 source.
        auto s32 = all[1536].ReinterpretCast<int32_t>(), d32 = all[2048].ReinterpretCast<int32_t>();
        sim_test::fill(s32, 128, [](uint32_t i) { return int32_t(1000 + i); });
        // b8: high source halves into low destination halves.
        auto s8 = all[2560], d8 = all[3072];
        sim_test::fill(s8, 512, [](uint32_t i) { return uint8_t(i * 3); });
        sim_test::fill(d8, 512, [](uint32_t) { return uint8_t(0xEE); });
        sim_test::sync<HardEvent::S_V>();
        uint64_t dl[16], sl[16];
        for (int i = 0; i < 16; ++i) {
            dl[i] = uint64_t(d16[16 * i].GetPhyAddr());
            sl[i] = uint64_t(s16[32 * i].GetPhyAddr());
        }
        TransDataTo5HD<int16_t>(dl, sl, TransDataTo5HDParams(false, false, 1, 0, 0));
        LocalTensor<int32_t> d32l[16], s32l[16];
        for (int i = 0; i < 16; ++i) {
            d32l[i] = d32[8 * i];
            s32l[i] = s32[8 * i];
        }
        TransDataTo5HD<int32_t>(d32l, s32l, TransDataTo5HDParams(false, false, 1, 0, 0));
        for (int i = 0; i < 16; ++i) {
            dl[i] = uint64_t(d8[32 * i].GetPhyAddr());
            sl[i] = uint64_t(s8[32 * i].GetPhyAddr());
        }
        TransDataTo5HD<uint8_t>(dl, sl, TransDataTo5HDParams(false, true, 1, 0, 0));
        sim_test::sync<HardEvent::V_S>();
        for (int i = 0; i < 256; ++i) o16[i] = d16.GetValue(i);
        for (int i = 0; i < 128; ++i) o32[i] = d32.GetValue(i);
        for (int i = 0; i < 512; ++i) o8[i] = d8.GetValue(i);
    });
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) XCHECK_EQ(o16[i * 16 + j], int16_t(32 * j + i));  // dst[i][j] = src[j][i]
    for (int k = 0; k < 8; ++k)
        for (int e = 0; e < 16; ++e) XCHECK_EQ(o32[k * 16 + e], int32_t(1000 + e * 8 + k));  // row k: column k
    for (int i = 0; i < 16; ++i) {
        for (int j = 0; j < 16; ++j) XCHECK_EQ(o8[i * 32 + j], uint8_t((32 * j + 16 + i) * 3));
        for (int j = 16; j < 32; ++j) XCHECK_EQ(o8[i * 32 + j], uint8_t(0xEE));  // the other half untouched
    }
}

XTEST(trans_data_to_5hd_repeats_move_by_the_strides) {
    // NCHW -> NC1HWC0 for C = 16, H * W = 32 halves: two repeats, src stride 1 block, dst stride 16 blocks.
    std::vector<half> out(512);
    with_ub(2048 + 256, [&](sim_test::Calc& u) {
        auto all = u.get<half>();
        auto src = all, dst = all[512];
        auto lists = all[1024].ReinterpretCast<uint64_t>();
        sim_test::fill(src, 512, [](uint32_t i) { return float(i % 1000); });
        for (uint32_t i = 0; i < 16; ++i) {
            lists.SetValue(i, uint64_t(dst[16 * i].GetPhyAddr()));
            lists.SetValue(16 + i, uint64_t(src[32 * i].GetPhyAddr()));
        }
        sim_test::sync<HardEvent::S_V>();
        TransDataTo5HD<half>(lists, lists[16], TransDataTo5HDParams(false, false, 2, 16, 1));
        sim_test::sync<HardEvent::V_S>();
        for (int i = 0; i < 512; ++i) out[i] = dst.GetValue(i);
    });
    for (int hw = 0; hw < 32; ++hw)
        for (int c = 0; c < 16; ++c) XCHECK_EQ(float(out[hw * 16 + c]), float((c * 32 + hw) % 1000));
}

XTEST(trans_data_to_5hd_checks_its_blocks) {
    XCHECK_THROWS_WITH(with_ub(1024, [](sim_test::Calc& u) {
                           auto t = u.get<half>();
                           uint64_t dl[16], sl[16];
                           for (int i = 0; i < 16; ++i) {
                               dl[i] = uint64_t(t[16 * i].GetPhyAddr());
                               sl[i] = uint64_t(t[256 + 16 * i].GetPhyAddr());
                           }
                           TransDataTo5HD<half>(dl, sl, TransDataTo5HDParams());  // src never written
                       }),
                       "TransDataTo5HD", "uninitialised");
    XCHECK_THROWS_WITH(with_ub(1024, [](sim_test::Calc& u) {
                           auto t = u.get<half>();
                           Duplicate(t, half(0), 512);
                           uint64_t dl[16], sl[16];
                           for (int i = 0; i < 16; ++i) {
                               dl[i] = uint64_t(t[16 * i + 1].GetPhyAddr());
                               sl[i] = uint64_t(t[256 + 16 * i].GetPhyAddr());
                           }
                           TransDataTo5HD<half>(dl, sl, TransDataTo5HDParams());
                       }),
                       "TransDataTo5HD", "not 32-byte aligned");
}

// DropOut against src * mask / keepProb in float64, for half and float, in both
// auto-sync modes: byte masks as long as the src row (several tmp chunks) and
// longer (packed in place), bit masks dense and with padded rows, isInitBitMode
// with the kernel's CMPMASK; its checks, its tmp-size helpers and an undersized
// sharedTmpBuffer reported.
// Tolerances: float 1e-6 relative (1 / keepProb and the two products each
// round once); half 2e-3 (the same three roundings to 11 bits).
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
void one(const std::function<void()>& body) { ascend_sim::run_kernel("adv_filter", 1, body); }

float input(uint32_t i) { return float(int(i % 113) - 56) / 8.0f; }
uint8_t keep(uint32_t r, uint32_t j) { return (r * 7 + j * 3) % 5 != 0; }

// bits: maskLocal holds bit j of row r at byte r * maskRow + j / 8 (bit j % 8); else one byte per element.
template <class T, bool bits = false, bool isInitBitMode = false>
void check_dropout(uint32_t rows, uint32_t srcRow, uint32_t maskRow, uint32_t tmpBytes, float keepProb) {
    for (int autoSync : {1, 0}) {
        const sim_test::AutoSync mode(autoSync);
        one([&] {
            sim_test::Calc c(4 * 8192);
            auto src = c.get<T>(), dst = c.get<T>()[8192 / sizeof(T)];
            auto mask = c.get<uint8_t>()[2 * 8192];
            auto tmp = c.get<uint8_t>()[3 * 8192];
            tmp.SetSize(tmpBytes);
            sim_test::fill(src, rows * srcRow, input);
            for (uint32_t r = 0; r < rows; ++r)
                for (uint32_t j = 0; j < maskRow; ++j) {
                    uint8_t v = keep(r, j);
                    if (bits) {
                        v = 0;
                        for (uint32_t k = 0; k < 8; ++k) v |= uint8_t(keep(r, j * 8 + k) << k);
                    }
                    mask.SetValue(r * maskRow + j, v);
                }
            if (isInitBitMode) {  // the kernel's own CMPMASK of 0
                auto zeros = c.get<int16_t>()[(3 * 8192 + 4096) / 2];
                for (uint32_t i = 0; i < 8; ++i) zeros.SetValue(i, 0);
                sim_test::sync<HardEvent::S_V>();
                SetCmpMask(zeros);
            }
            sim_test::sync<HardEvent::S_V>();
            DropOutShapeInfo info;
            info.firstAxis = rows, info.srcLastAxis = srcRow, info.maskLastAxis = maskRow;
            DropOut<T, isInitBitMode>(dst, src, mask, tmp, keepProb, info);
            sim_test::sync<HardEvent::V_S>();
            const double rel = sizeof(T) == 2 ? 2e-3 : 1e-6;
            for (uint32_t r = 0; r < rows; ++r)
                for (uint32_t j = 0; j < srcRow; ++j) {
                    const uint32_t i = r * srcRow + j;
                    const double ref = double(float(src.GetValue(i))) * keep(r, j) / keepProb;
                    XCHECK_NEAR(double(float(dst.GetValue(i))), ref, rel * std::fabs(ref) + 1e-6);
                }
        });
    }
}
}  // namespace

XTEST(dropout_byte_mask_same_row_length) {
    // 512 B of tmp: 256 halves or 64 floats a chunk; 1200 elements end in a tail.
    check_dropout<half>(10, 120, 120, 512, 0.8f);
    check_dropout<float>(10, 120, 120, 512, 0.6f);
    check_dropout<float>(3, 64, 64, 8192, 0.5f);  // one chunk
}

XTEST(dropout_byte_mask_longer_rows) {
    // mode 1: 96-byte mask rows packed in place to their first 64
    check_dropout<float>(3, 64, 96, 1024, 0.5f);
    check_dropout<half>(5, 32, 64, 512, 0.8f);
}

XTEST(dropout_bit_mask) {
    // mode 3: 128 elements a row from 16 mask bytes; 4 and 8 repeats of Select
    check_dropout<float, true>(4, 128, 16, 512, 0.5f);
    check_dropout<half, true>(4, 128, 16, 512, 0.75f);
    // mode 4: 64 elements from the first 8 of 32 mask bytes a row
    check_dropout<float, true>(3, 64, 32, 512, 0.6f);
    check_dropout<half, true>(6, 64, 32, 512, 0.6f);
    // isInitBitMode: CMPMASK as the kernel set it
    check_dropout<float, true, true>(4, 128, 16, 512, 0.5f);
}

XTEST(dropout_refusals) {
    auto run = [](float keepProb, uint32_t srcRow, uint32_t maskRow, uint32_t tmpBytes) {
        return [=] {
            sim_test::Calc c(16384);
            auto src = c.get<float>(), dst = c.get<float>()[1024];
            auto mask = c.get<uint8_t>()[8192];
            auto tmp = c.get<uint8_t>()[12288];
            tmp.SetSize(tmpBytes);
            DropOutShapeInfo info;
            info.firstAxis = 2, info.srcLastAxis = srcRow, info.maskLastAxis = maskRow;
            DropOut(dst, src, mask, tmp, keepProb, info);
        };
    };
    XCHECK_THROWS_WITH(one(run(1.0f, 64, 64, 1024)), "DropOut (block 0): keepProb 1.000000 is not in (0, 1)");
    XCHECK_THROWS_WITH(one(run(0.5f, 64, 64, 256)),
                       "DropOut (block 0): sharedTmpBuffer holds 256 B, less than the 512 B minimum "
                       "GetDropOutMaxMinTmpSize gives");
    // isInitBitMode without a CMPMASK the kernel set
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(16384);
                           auto src = c.get<float>(), dst = c.get<float>()[1024];
                           auto mask = c.get<uint8_t>()[8192];
                           auto tmp = c.get<uint8_t>()[12288];
                           tmp.SetSize(1024);
                           Duplicate(src, 1.0f, 128);
                           Duplicate(mask.ReinterpretCast<uint16_t>(), uint16_t(0xffff), 16);
                           DropOutShapeInfo info;
                           info.firstAxis = 1, info.srcLastAxis = 128, info.maskLastAxis = 16;
                           DropOut<float, true>(dst, src, mask, tmp, 0.5f, info);
                       }),
                       "Select", "uninitialised read: CMPMASK");
}

XTEST(dropout_tmp_size_helpers) {
    uint32_t maxV = 0, minV = 0;
    GetDropOutMaxMinTmpSize(TensorShape({10, 120}), 2, false, maxV, minV);
    XCHECK_EQ(minV, 512u);
    XCHECK_EQ(maxV, 9600u);
    GetDropOutMaxMinTmpSize(TensorShape({16}), 4, false, maxV, minV);
    XCHECK_EQ(maxV, 512u);
    XCHECK_THROWS_WITH(GetDropOutMinTmpSize(TensorShape({16}), 1, false), "typeSize 1 is neither");
}

// The advanced Select with a byte mask against the element-wise choice (exact:
// each element is one of the two operands, bit for bit), for half and float,
// 1, 2 and 4 B masks (nonzero values other than 1 included), both operand
// orders, mask rows as long as the source rows (several passes of the tmp) and
// longer (packed into the tmp, or in place with isReuseMask), in both auto-sync
// modes; its checks and its tmp minimums refused by name.
#include <cstdint>
#include <functional>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "tiling/tiling_api.h"
#include "xtest.h"

using namespace AscendC;

namespace {
void one(const std::function<void()>& body) { ascend_sim::run_kernel("adv_select_bytes_mask", 1, body); }

float input(uint32_t i) { return float(int(i % 97) - 48) / 4.0f; }
// Nonzero values of several magnitudes (the 4 B ones read as float denormals by the widening).
template <class U>
U mask_value(uint32_t r, uint32_t j) {
    const uint32_t k = (r * 5 + j * 3) % 7;
    if (k < 3) return U(0);
    if constexpr (std::is_same_v<U, bool>) return true;
    else return U(k == 3 ? 1 : k == 4 ? 3 : k == 5 ? 100 : sizeof(U) == 1 ? 255 : 12345);
}

template <class T, class U, bool isReuseMask = true, bool scalarFirst = false>
void check_select(uint32_t rows, uint32_t srcRow, uint32_t maskRow, uint32_t tmpBytes) {
    for (int autoSync : {1, 0}) {
        const sim_test::AutoSync mode(autoSync);
        one([&] {
            sim_test::Calc c(4 * 8192);
            auto src = c.get<T>(), dst = c.get<T>()[8192 / sizeof(T)];
            auto mask = c.get<U>()[2 * 8192 / sizeof(U)];
            auto tmp = c.get<uint8_t>()[3 * 8192];
            src.SetSize(rows * srcRow);
            mask.SetSize(rows * maskRow);
            tmp.SetSize(tmpBytes);
            sim_test::fill(src, rows * srcRow, input);
            for (uint32_t r = 0; r < rows; ++r)
                for (uint32_t j = 0; j < maskRow; ++j) mask.SetValue(r * maskRow + j, mask_value<U>(r, j));
            sim_test::sync<HardEvent::S_V>();
            SelectWithBytesMaskShapeInfo info;
            info.firstAxis = rows, info.srcLastAxis = srcRow, info.maskLastAxis = maskRow;
            const T scalar = T(1.234f);
            if constexpr (scalarFirst) Select<T, U, isReuseMask>(dst, scalar, src, mask, tmp, info);
            else Select<T, U, isReuseMask>(dst, src, scalar, mask, tmp, info);
            sim_test::sync<HardEvent::V_S>();
            for (uint32_t r = 0; r < rows; ++r)
                for (uint32_t j = 0; j < srcRow; ++j) {
                    const uint32_t i = r * srcRow + j;
                    const bool set = mask_value<U>(r, j) != U(0);
                    const float ref = float(set != scalarFirst ? scalar : src.GetValue(i));
                    XCHECK_EQ(float(dst.GetValue(i)), ref);
                }
        });
    }
}

void refused(uint32_t srcRow, uint32_t maskRow, uint32_t tmpBytes, bool reuse, const char* msg) {
    XCHECK_THROWS_WITH(one([&] {
                           sim_test::Calc c(4 * 8192);
                           auto src = c.get<float>(), dst = c.get<float>()[2048];
                           auto mask = c.get<uint8_t>()[2 * 8192];
                           auto tmp = c.get<uint8_t>()[3 * 8192];
                           src.SetSize(2 * srcRow);
                           mask.SetSize(2 * maskRow);
                           tmp.SetSize(tmpBytes);
                           SelectWithBytesMaskShapeInfo info;
                           info.firstAxis = 2, info.srcLastAxis = srcRow, info.maskLastAxis = maskRow;
                           if (reuse) Select(dst, src, 0.5f, mask, tmp, info);
                           else Select<float, uint8_t, false>(dst, src, 0.5f, mask, tmp, info);
                       }),
                       msg);
}
}  // namespace

XTEST(select_bytes_mask_same_rows) {
    // 1024 B of tmp: 384 elements a pass; 4 x 128 floats take two passes
    check_select<float, uint8_t>(4, 128, 128, 1024);
    check_select<float, uint8_t>(2, 32, 32, 1024);  // the example's shape
    check_select<half, uint8_t>(3, 160, 160, 2048);
    check_select<half, bool>(2, 64, 64, 1024);
    check_select<float, int8_t>(2, 64, 64, 4096);
}

XTEST(select_bytes_mask_wide_masks) {
    check_select<half, int16_t>(3, 64, 64, 1024);
    check_select<float, uint16_t>(2, 48, 48, 1024);
    check_select<float, int32_t>(4, 96, 96, 1024);
    check_select<half, uint32_t>(2, 128, 128, 1024);
}

XTEST(select_bytes_mask_scalar_first) {
    check_select<float, uint8_t, true, true>(4, 128, 128, 1024);
    check_select<half, int32_t, true, true>(2, 64, 64, 1024);
}

XTEST(select_bytes_mask_longer_mask_rows) {
    // packed into the tmp's head (isReuseMask false): 1024 B and the packed mask
    check_select<float, uint8_t, false>(3, 32, 64, 1024 + 96);
    check_select<half, int16_t, false>(4, 32, 48, 1024 + 256);
    // packed in place
    check_select<float, uint8_t, true>(3, 32, 64, 1024);
    check_select<half, uint8_t, true, true>(2, 64, 96, 1024);
}

XTEST(select_bytes_mask_refusals) {
    refused(32, 32, 512, true,
            "Select (block 0): sharedTmpBuffer holds 512 B, less than the 1024 B minimum GetSelectMaxMinTmpSize gives");
    refused(32, 64, 1024, false,
            "Select (block 0): sharedTmpBuffer holds 1024 B; with mask rows longer than the source rows and "
            "isReuseMask false it needs 1088 B");
    refused(64, 32, 1024, true, "info.maskLastAxis 32 must be at least info.srcLastAxis 64");
    refused(32, 40, 1024, true, "info.maskLastAxis 40 x 1 B must be 32 B aligned");
    refused(12, 32, 1024, true, "info.srcLastAxis 12 x 4 B must be 32 B aligned");
    // 8 four-byte elements are 32 B but not a multiple of 16
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(4 * 8192);
                           auto src = c.get<float>(), dst = c.get<float>()[2048];
                           auto mask = c.get<int32_t>()[2 * 2048];
                           auto tmp = c.get<uint8_t>()[3 * 8192];
                           src.SetSize(16), mask.SetSize(16), tmp.SetSize(1024);
                           SelectWithBytesMaskShapeInfo info;
                           info.firstAxis = 2, info.srcLastAxis = 8, info.maskLastAxis = 8;
                           Select(dst, src, 0.5f, mask, tmp, info);
                       }),
                       "info.maskLastAxis 8 must be a multiple of 16");
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(4 * 8192);
                           auto src = c.get<float>(), dst = c.get<float>()[2048];
                           auto mask = c.get<uint8_t>()[2 * 8192];
                           auto tmp = c.get<uint8_t>()[3 * 8192];
                           src.SetSize(64), mask.SetSize(96), tmp.SetSize(1024);
                           SelectWithBytesMaskShapeInfo info;
                           info.firstAxis = 2, info.srcLastAxis = 32, info.maskLastAxis = 32;
                           Select(dst, src, 0.5f, mask, tmp, info);
                       }),
                       "info.firstAxis * info.maskLastAxis is 64; it must equal mask's size 96");
    // the mask not written: the widening reads it
    XCHECK_THROWS_WITH(one([] {
                           sim_test::Calc c(4 * 8192);
                           auto src = c.get<float>(), dst = c.get<float>()[2048];
                           auto mask = c.get<uint8_t>()[2 * 8192];
                           auto tmp = c.get<uint8_t>()[3 * 8192];
                           src.SetSize(64), mask.SetSize(64), tmp.SetSize(1024);
                           Duplicate(src, 1.0f, 64);
                           SelectWithBytesMaskShapeInfo info;
                           info.firstAxis = 2, info.srcLastAxis = 32, info.maskLastAxis = 32;
                           Select(dst, src, 0.5f, mask, tmp, info);
                       }),
                       "Cast", "uninitialised read");
}

XTEST(select_bytes_mask_example_tiling) {
    // the example's host: src {2, 32} float, scalar src1 {1}, mask {2, 32} of 1 B
    uint32_t maxV = 0, minV = 0;
    GetSelectMaxMinTmpSize(TensorShape({2, 32}), TensorShape({1}), 4, TensorShape({2, 32}), 1, false, maxV, minV);
    XCHECK_EQ(minV, 1024u);
    XCHECK_EQ(maxV, 1024u);
}

// The host tmp sizes of the advanced Select (GetSelectMaxMinTmpSize.md) and of
// UnPad (UnPad-Tiling.md), worked out here from the pages' rules, and their refusals.
#include <cstdint>

#include "ascend_sim/sim.h"
#include "tiling/tiling_api.h"
#include "xtest.h"

using namespace AscendC;

XTEST(select_tmp_size_half_mask_per_pass_and_packed_mask) {
    uint32_t mx = 0, mn = 0;
    // 512 elements: 1024 B of half mask + 512 B; uint8 mask rows of 96 packed to 64: + 512 B
    GetSelectMaxMinTmpSize(TensorShape({8, 64}), TensorShape({1}), 2, TensorShape({8, 96}), 1, false, mx, mn);
    XCHECK_EQ(mx, 2048u);
    XCHECK_EQ(mn, 2048u);
    // a reused mask is packed in place
    GetSelectMaxMinTmpSize(TensorShape({8, 64}), TensorShape({1}), 2, TensorShape({8, 96}), 1, true, mx, mn);
    XCHECK_EQ(mx, 1536u);
    // 8192 elements: the minimum is a 4096-element pass
    GetSelectMaxMinTmpSize(TensorShape({64, 128}), TensorShape({1}), 4, TensorShape({64, 128}), 1, false, mx, mn);
    XCHECK_EQ(mx, 8192u * 2 + 512);
    XCHECK_EQ(mn, 4096u * 2 + 512);
    // a scalar src0 takes src1's shape; never less than 1024 B
    XCHECK_EQ(GetSelectWithBytesMaskMaxTmpSize(TensorShape({1}), TensorShape({2, 16}), 2, TensorShape({2, 16}), 2,
                                               false),
              1024u);
    // 4 B mask rows of 40 against rows of 32: 64 elements' mask of 4 B, aligned
    XCHECK_EQ(GetSelectMinTmpSize(TensorShape({2, 32}), TensorShape({1}), 4, TensorShape({2, 40}), 4, false),
              1024u + 256);
}

XTEST(select_tmp_size_refusals) {
    uint32_t mx = 0, mn = 0;
    XCHECK_THROWS_WITH(
        GetSelectMaxMinTmpSize(TensorShape({8, 64}), TensorShape({1}), 2, TensorShape({8, 64}), 8, false, mx, mn),
        "GetSelectMaxMinTmpSize: maskTypeSize 8 is not 1, 2 or 4");
    XCHECK_THROWS_WITH(
        GetSelectMaxMinTmpSize(TensorShape({512}), TensorShape({1}), 2, TensorShape({8, 64}), 1, false, mx, mn),
        "GetSelectMaxMinTmpSize: src0Shape has 1 dims and src1Shape 1: one of them must have 2");
    XCHECK_THROWS_WITH(GetSelectMaxTmpSize(TensorShape({8, 64}), TensorShape({1}), 2, TensorShape({512}), 1, false),
                       "GetSelectMaxTmpSize: maskShape has 1 dims; it must have 2");
}

XTEST(unpad_tmp_size_is_zero_on_a2) {
    auto& p = *platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1");
    uint32_t mx = 7, mn = 7;
    GetUnPadMaxMinTmpSize(p, TensorShape({16, 48}), 2, mx, mn);
    XCHECK_EQ(mx, 0u);
    XCHECK_EQ(mn, 0u);
    XCHECK_THROWS_WITH(GetUnPadMaxMinTmpSize(p, TensorShape({16, 48}), 1, mx, mn),
                       "GetUnPadMaxMinTmpSize: typeSize 1 is neither 2 (half) nor 4 (float)");
    XCHECK_THROWS_WITH(GetUnPadMaxMinTmpSize(p, TensorShape({768}), 2, mx, mn),
                       "GetUnPadMaxMinTmpSize: srcShape has 1 dims; it must have 2");
}

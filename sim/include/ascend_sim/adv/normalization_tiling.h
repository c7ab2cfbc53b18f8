// The host tiling of RmsNorm (asc-devkit include/adv_api/normalization/
// rmsnorm_tiling.h; impl/adv_api/tiling/normalization/rmsnorm_tiling_impl.cpp
// GetRmsNormMaxMinTmpSize, GetRmsNormTilingInfo): the scratch for one row (min)
// or all rows (max) plus their row sums, and the rows a chunk takes from a
// given stack buffer. As there, the optiling class is filled and the
// AscendC::tiling struct is its saved bytes.
#pragma once
#include <cstdint>
#include <string>

#include "../../register/tilingdata_base.h"
#include "../sim.h"
#include "normalization_tiling_data.h"
#include "tensor_shape.h"

namespace optiling {
// include/adv_api/normalization/rmsnorm_tilingdata.h
BEGIN_TILING_DATA_DEF(RmsNormTiling)
TILING_DATA_FIELD_DEF(uint32_t, bLength);
TILING_DATA_FIELD_DEF(uint32_t, sLength);
TILING_DATA_FIELD_DEF(uint32_t, hLength);
TILING_DATA_FIELD_DEF(uint32_t, originalHLength);
TILING_DATA_FIELD_DEF(float, reciprocalOfHLength);
TILING_DATA_FIELD_DEF(uint32_t, mainBshLength);
TILING_DATA_FIELD_DEF(uint32_t, mainBsLength);
TILING_DATA_FIELD_DEF(uint32_t, mainBsLengthAlign);
TILING_DATA_FIELD_DEF(uint32_t, loopRound);
TILING_DATA_FIELD_DEF(uint32_t, inputTailPos);
TILING_DATA_FIELD_DEF(uint32_t, tailBshLength);
TILING_DATA_FIELD_DEF(uint32_t, tailBsLength);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(RmsNormTilingOpApi, RmsNormTiling)
}  // namespace optiling

namespace AscendC {
namespace sim_adv {
// [B, S, H]; asc-devkit reads the three dims unchecked.
inline void rmsnorm_dims(const char* api, const TensorShape& shape, uint32_t& b, uint32_t& s, uint32_t& h) {
    if (shape.GetDimNum() != 3)
        throw ascend_sim::SimViolation(api, -1, "srcShape not [B, S, H]",
                                       std::string("[ascend_sim] ") + api + ": srcShape has " +
                                           std::to_string(shape.GetDimNum()) + " dims; it must be [B, S, H]");
    b = uint32_t(shape.GetDim(0)), s = uint32_t(shape.GetDim(1)), h = uint32_t(shape.GetDim(2));
}
// The basic-block form wants H a multiple of 64 below 2048 and B x S a multiple of 8.
inline bool rmsnorm_not_basic_block(uint32_t b, uint32_t s, uint32_t h) {
    return h % 64 != 0 || b * s % 8 != 0 || h >= 2048;
}
inline uint32_t rmsnorm_min_tmp(uint32_t h, uint32_t typeSize) { return ((typeSize == 2 ? 2 : 1) * h + 8) * 4; }
}  // namespace sim_adv

inline bool GetRmsNormMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                    uint32_t& minValue, const bool isBasicBlock = false) {
    uint32_t b, s, h;
    sim_adv::rmsnorm_dims("GetRmsNormMaxMinTmpSize", srcShape, b, s, h);
    if (isBasicBlock && sim_adv::rmsnorm_not_basic_block(b, s, h)) return false;
    const uint32_t perBlock = 32 / typeSize, bsAligned = (b * s + perBlock - 1) / perBlock * perBlock;
    maxValue = ((typeSize == 2 ? 2 : 1) * b * s * h + bsAligned) * 4;
    minValue = sim_adv::rmsnorm_min_tmp(h, typeSize);
    return true;
}

inline bool GetRmsNormTilingInfo(const TensorShape& srcShape, const TensorShape& originSrcShape,
                                 const uint32_t stackBufferByteSize, const uint32_t typeSize,
                                 optiling::RmsNormTiling& tiling, const bool isBasicBlock = false) {
    // RmsNormCheckShape: both [B, S, H] with the same B and S, 0 < originalH <= H, whole-block rows.
    if (srcShape.GetDimNum() != 3 || originSrcShape.GetDimNum() != 3) return false;
    const uint32_t b = uint32_t(srcShape.GetDim(0)), s = uint32_t(srcShape.GetDim(1)), h = uint32_t(srcShape.GetDim(2));
    const uint32_t oh = uint32_t(originSrcShape.GetDim(2));
    if (uint32_t(originSrcShape.GetDim(0)) != b || uint32_t(originSrcShape.GetDim(1)) != s || h < oh || oh == 0)
        return false;
    if (h * typeSize % 32 != 0) return false;
    if (isBasicBlock && sim_adv::rmsnorm_not_basic_block(b, s, h)) return false;
    if (stackBufferByteSize < sim_adv::rmsnorm_min_tmp(h, typeSize)) return false;
    tiling.set_bLength(b), tiling.set_sLength(s), tiling.set_hLength(h), tiling.set_originalHLength(oh);
    tiling.set_reciprocalOfHLength(float(1.0 / double(float(oh))));
    // As many rows as fit with their (block-aligned) sums, at most all of them.
    const uint32_t floats = stackBufferByteSize / 4, coeff = typeSize == 4 ? 1 : 2;
    uint32_t bs = 1;
    while (floats >= (bs + 1) * h * coeff + (bs + 1 + 7) / 8 * 8) ++bs;
    const uint32_t all = b * s * h;
    bs = (bs * h > all ? all : bs * h) / h;
    if (isBasicBlock) bs = bs < 8 ? bs : bs / 8 * 8;
    else if (bs > 255) bs = 255;
    const uint32_t chunk = bs * h;
    tiling.set_mainBshLength(chunk);
    tiling.set_mainBsLength(bs);
    tiling.set_mainBsLengthAlign((bs + 7) / 8 * 8);
    tiling.set_loopRound(all / chunk);
    tiling.set_tailBshLength(all % chunk);
    tiling.set_inputTailPos(all - all % chunk);
    tiling.set_tailBsLength(all % chunk / h);
    return true;
}
inline bool GetRmsNormTilingInfo(const TensorShape& srcShape, const TensorShape& originSrcShape,
                                 const uint32_t stackBufferByteSize, const uint32_t typeSize,
                                 tiling::RmsNormTiling& tiling, const bool isBasicBlock = false) {
    optiling::RmsNormTiling data;
    const bool ok = GetRmsNormTilingInfo(srcShape, originSrcShape, stackBufferByteSize, typeSize, data, isBasicBlock);
    data.SaveToBuffer(&tiling, sizeof(tiling));
    return ok;
}

}  // namespace AscendC

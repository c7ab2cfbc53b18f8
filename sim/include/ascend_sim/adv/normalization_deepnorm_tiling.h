// The host tiling of DeepNorm (asc-devkit include/adv_api/normalization/
// deepnorm_tiling.h; impl/adv_api/tiling/normalization/deepnorm_tiling_impl.cpp
// GetDeepNormMaxMinTmpSize, GetDeepNormTilingInfo): three fp32 slices of one
// row (min) or of all rows (max), two fewer-rows slices for float with
// isReuseSource, plus two B x S slices; the rows a round takes from a given
// stack buffer. The host asserts of CheckDeepNormHostCommon are reported.
#pragma once
#include <cstdint>
#include <string>

#include "../../register/tilingdata_base.h"
#include "../sim.h"
#include "normalization_tiling_data.h"
#include "tensor_shape.h"

namespace optiling {
// include/adv_api/normalization/deepnorm_tilingdata.h
#define ASCEND_SIM_NORM_FIELD(type, name) TILING_DATA_FIELD_DEF(type, name);
BEGIN_TILING_DATA_DEF(DeepNormTiling)
ASCEND_SIM_NORM_TILING_FIELDS(ASCEND_SIM_NORM_FIELD)
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(DeepNormTilingOpApi, DeepNormTiling)
#undef ASCEND_SIM_NORM_FIELD
}  // namespace optiling

namespace AscendC {
namespace sim_adv {
namespace deepnorm {
inline uint32_t align32(uint32_t bytes) { return (bytes + 31) / 32 * 32; }

// CheckDeepNormHostCommon: a [B, S, H] of half or float, H 32 B aligned and at
// most 2040, and for the basic block H % 64 == 0 and B x S % 8 == 0.
inline void host_check(const char* api, const TensorShape& shape, uint32_t typeSize, bool isBasicBlock) {
    auto refuse = [&](const char* rule, const std::string& what) {
        throw ascend_sim::SimViolation(api, -1, rule, std::string("[ascend_sim] ") + api + ": " + what);
    };
    if (shape.GetShapeSize() <= 0) refuse("empty shape", "srcShape's size must be greater than 0");
    if (typeSize != 2 && typeSize != 4) refuse("typeSize not supported", "typeSize must be 2 (half) or 4 (float)");
    if (shape.GetDimNum() != 3)
        refuse("srcShape not [B, S, H]",
               "srcShape has " + std::to_string(shape.GetDimNum()) + " dims; it must be [B, S, H]");
    const uint32_t bs = uint32_t(shape.GetDim(0) * shape.GetDim(1)), h = uint32_t(shape.GetDim(2));
    if (h * typeSize % 32 != 0) refuse("H not 32 B aligned", "the last axis H must be 32 B aligned");
    if (h > 2040) refuse("H above 2040", "the last axis H " + std::to_string(h) + " is greater than 2040");
    if (isBasicBlock && (h % 64 != 0 || bs % 8 != 0))
        refuse("not a basic block", "with isBasicBlock, H must be a multiple of 64 and B x S of 8");
}
}  // namespace deepnorm
}  // namespace sim_adv

inline bool GetDeepNormMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                     const bool isBasicBlock, uint32_t& maxValue, uint32_t& minValue) {
    namespace dn = sim_adv::deepnorm;
    dn::host_check("GetDeepNormMaxMinTmpSize", srcShape, typeSize, isBasicBlock);
    const uint32_t bs = uint32_t(srcShape.GetDim(0) * srcShape.GetDim(1)), h = uint32_t(srcShape.GetDim(2));
    // Reusing the float source saves one slice.
    const uint32_t slices = isReuseSource && typeSize == 4 ? 2 : 3;
    const uint32_t bsBytes = dn::align32(bs * 4);
    maxValue = slices * dn::align32(bs * h * 4) + 2 * bsBytes;
    minValue = slices * dn::align32(h * 4) + 2 * bsBytes;
    return true;
}

inline bool GetDeepNormTilingInfo(const TensorShape& srcShape, const TensorShape& originSrcShape,
                                  const uint32_t stackBufferSize, const uint32_t typeSize, const bool isReuseSource,
                                  const bool isBasicBlock, optiling::DeepNormTiling& tiling) {
    constexpr const char* api = "GetDeepNormTilingInfo";
    sim_adv::deepnorm::host_check(api, srcShape, typeSize, isBasicBlock);
    const uint32_t b = uint32_t(srcShape.GetDim(0)), s = uint32_t(srcShape.GetDim(1)), h = uint32_t(srcShape.GetDim(2));
    if (originSrcShape.GetDimNum() != 3)
        throw ascend_sim::SimViolation(api, -1, "originSrcShape not [B, S, H]",
                                       std::string("[ascend_sim] ") + api + ": originSrcShape must be [B, S, H]");
    const uint32_t oh = uint32_t(originSrcShape.GetDim(2));
    // CheckDeepNormTilingInfo: 0 < originH <= H, and originH == H for the basic block.
    if (oh == 0 || oh > h || (isBasicBlock && oh != h))
        throw ascend_sim::SimViolation(api, -1, "originH out of range",
                                       std::string("[ascend_sim] ") + api + ": originH " + std::to_string(oh) +
                                           (isBasicBlock ? " must equal H " : " must be in (0, H] for H ") +
                                           std::to_string(h));
    uint32_t maxSize = 0, minSize = 0;
    GetDeepNormMaxMinTmpSize(srcShape, typeSize, isReuseSource, isBasicBlock, maxSize, minSize);
    if (stackBufferSize < minSize) return false;
    if (uint32_t(originSrcShape.GetDim(0)) != b || uint32_t(originSrcShape.GetDim(1)) != s) return false;

    const uint32_t all = b * s * h, bs = b * s;
    const uint32_t slices = isReuseSource && typeSize == 4 ? 2 : 3;
    const uint32_t mvSize = (bs + 7) / 8 * 8;
    // float keeps its mean and variance in the outputs; half has fp32 slices for them first.
    const uint32_t mvTotal = typeSize == 4 ? 0 : 2 * mvSize;
    const uint32_t floats = stackBufferSize / 4;
    uint32_t one = (floats - mvTotal) / slices / h * h;
    if (one > all) one = all;
    // Whole groups of 8 rows let the basic block broadcast by Brcb.
    if (isBasicBlock && one / (8 * h) > 0) one = one / (8 * h) * (8 * h);
    if (one == 0) return false;
    tiling.set_bLength(b), tiling.set_sLength(s), tiling.set_hLength(h), tiling.set_originalHLength(oh);
    tiling.set_inputXSize(all), tiling.set_meanVarSize(bs), tiling.set_numberOfTmpBuf(slices);
    tiling.set_meanTmpTensorPos(0), tiling.set_meanTmpTensorSize(mvSize);
    tiling.set_varianceTmpTensorPos(mvSize), tiling.set_varianceTmpTensorSize(mvSize);
    tiling.set_tmpBufSize(floats), tiling.set_oneTmpSize(one);
    tiling.set_firstTmpStartPos(mvTotal), tiling.set_secondTmpStartPos(mvTotal + one);
    tiling.set_thirdTmpStartPos(mvTotal + 2 * one);
    tiling.set_loopRound(all / one), tiling.set_inputRoundSize(one);
    tiling.set_inputTailSize(all % one), tiling.set_inputTailPos(all - all % one);
    tiling.set_meanVarRoundSize(one / h), tiling.set_meanVarTailSize(all % one / h);
    tiling.set_meanVarTailPos(bs - all % one / h);
    tiling.set_bshCurLength(one), tiling.set_bsCurLength(one / h);
    tiling.set_lastDimValueBack(1.0f / float(oh));
    return true;
}
inline bool GetDeepNormTilingInfo(const TensorShape& srcShape, const TensorShape& originSrcShape,
                                  const uint32_t stackBufferSize, const uint32_t typeSize, const bool isReuseSource,
                                  const bool isBasicBlock, tiling::DeepNormTiling& tiling) {
    optiling::DeepNormTiling data;
    const bool ok =
        GetDeepNormTilingInfo(srcShape, originSrcShape, stackBufferSize, typeSize, isReuseSource, isBasicBlock, data);
    data.SaveToBuffer(&tiling, sizeof(tiling));
    return ok;
}

}  // namespace AscendC

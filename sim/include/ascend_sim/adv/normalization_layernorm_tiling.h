// The host tiling of LayerNorm and Normalize on A2/A3 (asc-devkit
// include/adv_api/normalization/layernorm_tiling.h, normalize_tiling.h;
// impl/adv_api/tiling/normalization/layernorm_tiling_impl.cpp
// GetLayerNormMaxMinTmpSize, GetLayerNormNDTilingInfo, normalize_tiling_impl.cpp
// GetNormalizeMaxMinTmpSize). The older form over [B, S, H, originH]: three
// fp32 slices of one row (min) or all rows (max), two for float reusing the
// source, plus two B x S slices; the rows a round takes. The rstd form over
// [A, R]: a variance slice and two fp32 slices of rows padded to 32 B, at least
// what Normalize needs. The real CheckLayerNormHostCommon wants 4 dims for
// both forms but only logs; the simulator refuses a shape a form reads past.
#pragma once
#include <cstdint>
#include <string>

#include "../../register/tilingdata_base.h"
#include "../sim.h"
#include "normalization_tiling_data.h"
#include "tensor_shape.h"

namespace optiling {
// include/adv_api/normalization/layernorm_tilingdata.h
#define ASCEND_SIM_NORM_FIELD(type, name) TILING_DATA_FIELD_DEF(type, name);
BEGIN_TILING_DATA_DEF(LayerNormTiling)
ASCEND_SIM_NORM_TILING_FIELDS(ASCEND_SIM_NORM_FIELD)
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(LayerNormTilingOpApi, LayerNormTiling)
#undef ASCEND_SIM_NORM_FIELD

BEGIN_TILING_DATA_DEF(LayerNormSeparateTiling)
TILING_DATA_FIELD_DEF(uint32_t, aLength);
TILING_DATA_FIELD_DEF(uint32_t, rLength);
TILING_DATA_FIELD_DEF(uint32_t, halfAddRepeatTimes);
TILING_DATA_FIELD_DEF(uint32_t, rHeadLength);
TILING_DATA_FIELD_DEF(float, k2Rec);
TILING_DATA_FIELD_DEF(float, k2RRec);
TILING_DATA_FIELD_DEF(uint32_t, inputXSize);
TILING_DATA_FIELD_DEF(uint32_t, meanVarSize);
TILING_DATA_FIELD_DEF(uint32_t, numberOfTmpBuf);
TILING_DATA_FIELD_DEF(uint32_t, varianceTmpTensorPos);
TILING_DATA_FIELD_DEF(uint32_t, varianceTmpTensorSize);
TILING_DATA_FIELD_DEF(uint32_t, tmpBufSize);
TILING_DATA_FIELD_DEF(uint32_t, oneTmpSize);
TILING_DATA_FIELD_DEF(uint32_t, firstTmpStartPos);
TILING_DATA_FIELD_DEF(uint32_t, secondTmpStartPos);
TILING_DATA_FIELD_DEF(uint32_t, thirdTmpStartPos);
TILING_DATA_FIELD_DEF(uint32_t, loopRound);
TILING_DATA_FIELD_DEF(uint32_t, inputRoundSize);
TILING_DATA_FIELD_DEF(uint32_t, inputTailSize);
TILING_DATA_FIELD_DEF(uint32_t, inputTailPos);
TILING_DATA_FIELD_DEF(uint32_t, meanVarRoundSize);
TILING_DATA_FIELD_DEF(uint32_t, meanVarTailSize);
TILING_DATA_FIELD_DEF(uint32_t, meanVarTailPos);
TILING_DATA_FIELD_DEF(uint32_t, arCurLength);
TILING_DATA_FIELD_DEF(uint32_t, aCurLength);
TILING_DATA_FIELD_DEF(float, rValueBack);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(LayerNormSeparateTilingOpApi, LayerNormSeparateTiling)
}  // namespace optiling

namespace AscendC {
namespace sim_adv {
namespace lnorm {
inline uint32_t align32(uint32_t bytes) { return (bytes + 31) / 32 * 32; }

[[noreturn]] inline void host_refuse(const char* api, const char* rule, const std::string& what) {
    throw ascend_sim::SimViolation(api, -1, rule, std::string("[ascend_sim] ") + api + ": " + what);
}

// The dims a form reads ([B, S, H, originH] or [A, R]) and the type sizes it has.
inline void host_check(const char* api, const TensorShape& shape, uint32_t typeSize, size_t dims) {
    if (shape.GetShapeSize() <= 0) host_refuse(api, "empty shape", "srcShape's size must be greater than 0");
    if (shape.GetDimNum() != dims)
        host_refuse(api, dims == 4 ? "srcShape not [B, S, H, originH]" : "srcShape not [A, R]",
                    "srcShape has " + std::to_string(shape.GetDimNum()) + " dims; it must be " +
                        (dims == 4 ? "[B, S, storageH, originH]" : "[A, R]"));
    if (typeSize != 2 && typeSize != 4) host_refuse(api, "typeSize not supported", "typeSize must be 2 or 4");
}

inline uint32_t padded(uint32_t r, uint32_t typeSize) {
    const uint32_t per = 32 / typeSize;
    return (r + per - 1) / per * per;
}
}  // namespace lnorm
}  // namespace sim_adv

inline void GetNormalizeMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSizeU, const uint32_t typeSizeT,
                                      const bool isReuseSource, const bool isComputeRstd, const bool isOnlyOutput,
                                      uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    namespace ln = sim_adv::lnorm;
    constexpr const char* api = "GetNormalizeMaxMinTmpSize";
    if (!isComputeRstd) ln::host_refuse(api, "isComputeRstd false", "isComputeRstd must be true");
    if (isOnlyOutput) ln::host_refuse(api, "isOnlyOutput true", "isOnlyOutput must be false");
    if (typeSizeU == 0 || typeSizeT == 0) ln::host_refuse(api, "typeSize 0", "typeSizeU and typeSizeT must not be 0");
    if (srcShape.GetDimNum() < 2) ln::host_refuse(api, "srcShape not [A, R]", "srcShape must be [A, R]");
    const uint32_t a = uint32_t(srcShape.GetDim(0)), rwp = ln::padded(uint32_t(srcShape.GetDim(1)), typeSizeT);
    const uint32_t rBytes = ln::align32(rwp * 4), aBytes = ln::align32(a * 4);
    // Max: fp32 gamma and beta plus two slices of all rows (A padded to 8).
    maxValue = 2 * rBytes + 2 * ln::align32((a + 7) / 8 * 8 * rwp * 4);
    // Min: the A floats of rstd or two slices of one row (after fp32 gamma and beta for half ones).
    const uint32_t rows = (typeSizeU == 4 ? 2 : 4) * rBytes;
    minValue = aBytes >= rows ? aBytes : rows;
}

inline void GetLayerNormMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      uint32_t& maxValue, uint32_t& minValue) {
    namespace ln = sim_adv::lnorm;
    ln::host_check("GetLayerNormMaxMinTmpSize", srcShape, typeSize, 4);
    const uint32_t bs = uint32_t(srcShape.GetDim(0) * srcShape.GetDim(1)), h = uint32_t(srcShape.GetDim(2));
    const uint32_t slices = isReuseSource && typeSize == 4 ? 2 : 3, mv = ln::align32(bs * 4);
    maxValue = slices * ln::align32(bs * h * 4) + 2 * mv;
    minValue = slices * ln::align32(h * 4) + 2 * mv;
}

inline void GetLayerNormNDTilingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const bool isReuseSource,
                                     optiling::LayerNormTiling& tiling) {
    namespace ln = sim_adv::lnorm;
    ln::host_check("GetLayerNormNDTilingInfo", srcShape, typeSize, 4);
    const uint32_t b = uint32_t(srcShape.GetDim(0)), s = uint32_t(srcShape.GetDim(1)), h = uint32_t(srcShape.GetDim(2));
    const uint32_t oh = uint32_t(srcShape.GetDim(3));
    const uint32_t all = b * s * h, bs = b * s;
    const uint32_t slices = isReuseSource && typeSize == 4 ? 2 : 3;
    const uint32_t mvSize = (bs + 7) / 8 * 8;
    // float keeps its mean and variance in the outputs; half has fp32 slices for them first.
    const uint32_t mvTotal = typeSize == 4 ? 0 : 2 * mvSize;
    const uint32_t floats = stackBufferSize / 4;
    uint32_t one = floats > mvTotal ? (floats - mvTotal) / slices / h * h : 0;
    if (one > all) one = all;
    // Without a row's room the real function returns with the tiling untouched.
    if (one == 0) return;
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
}
inline void GetLayerNormNDTilingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const bool isReuseSource,
                                     tiling::LayerNormTiling& tiling) {
    optiling::LayerNormTiling data;
    GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, data);
    data.SaveToBuffer(&tiling, sizeof(tiling));
}
[[deprecated("GetLayerNormNDTillingInfo is deprecated, please use GetLayerNormNDTilingInfo instead!")]]
inline void GetLayerNormNDTillingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize,
                                      const uint32_t typeSize, const bool isReuseSource,
                                      optiling::LayerNormTiling& tilling) {
    GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, tilling);
}

inline void GetLayerNormMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      const bool isComputeRstd, const bool isOnlyOutput, uint32_t& maxValue,
                                      uint32_t& minValue) {
    namespace ln = sim_adv::lnorm;
    constexpr const char* api = "GetLayerNormMaxMinTmpSize";
    if (isOnlyOutput) ln::host_refuse(api, "isOnlyOutput true", "isOnlyOutput must be false");
    ln::host_check(api, srcShape, typeSize, 2);
    const uint32_t a = uint32_t(srcShape.GetDim(0)), rwp = ln::padded(uint32_t(srcShape.GetDim(1)), typeSize);
    const uint32_t mv = ln::align32(a * 4);
    maxValue = 2 * ln::align32(a * rwp * 4) + mv;
    minValue = 2 * ln::align32(rwp * 4) + mv;
    uint32_t nMax = 0, nMin = 0;
    GetNormalizeMaxMinTmpSize(srcShape, typeSize, typeSize, isReuseSource, isComputeRstd, isOnlyOutput, nMax, nMin);
    // What follows the variance slice must hold Normalize's tmp too.
    if (minValue - mv <= nMin) minValue = nMin + mv;
    if (maxValue - mv <= nMax) maxValue = nMax + mv;
}

inline void GetLayerNormNDTilingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const bool isReuseSource, const bool isComputeRstd,
                                     optiling::LayerNormSeparateTiling& tiling) {
    (void)isReuseSource, (void)isComputeRstd;
    namespace ln = sim_adv::lnorm;
    ln::host_check("GetLayerNormNDTilingInfo", srcShape, typeSize, 2);
    const uint32_t a = uint32_t(srcShape.GetDim(0)), r = uint32_t(srcShape.GetDim(1));
    const uint32_t rwp = ln::padded(r, typeSize), all = a * rwp;
    const uint32_t varSize = (a + 7) / 8 * 8, floats = stackBufferSize / 4;
    uint32_t one = floats > varSize ? (floats - varSize) / 2 / rwp * rwp : 0;
    if (one > all) one = all;
    if (one == 0) return;
    tiling.set_aLength(a), tiling.set_rLength(r);
    tiling.set_inputXSize(all), tiling.set_meanVarSize(a), tiling.set_numberOfTmpBuf(2);
    tiling.set_varianceTmpTensorPos(0), tiling.set_varianceTmpTensorSize(varSize);
    tiling.set_tmpBufSize(floats), tiling.set_oneTmpSize(one);
    tiling.set_firstTmpStartPos(varSize), tiling.set_secondTmpStartPos(varSize + one);
    tiling.set_loopRound(all / one), tiling.set_inputRoundSize(one);
    tiling.set_inputTailSize(all % one), tiling.set_inputTailPos(all - all % one);
    tiling.set_meanVarRoundSize(one / rwp), tiling.set_meanVarTailSize(all % one / rwp);
    tiling.set_meanVarTailPos(a - all % one / rwp);
    tiling.set_arCurLength(one), tiling.set_aCurLength(one / rwp);
    tiling.set_rValueBack(1.0f / float(r));
}
inline void GetLayerNormNDTilingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const bool isReuseSource, const bool isComputeRstd,
                                     tiling::LayerNormSeparateTiling& tiling) {
    optiling::LayerNormSeparateTiling data;
    GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, isComputeRstd, data);
    data.SaveToBuffer(&tiling, sizeof(tiling));
}

}  // namespace AscendC

// The host tiling of LayerNormGrad and LayerNormGradBeta on A2/A3 (asc-devkit
// include/adv_api/normalization/layernorm_grad_tiling.h,
// layernorm_grad_beta_tiling.h; impl/adv_api/tiling/normalization/
// layernorm_grad_tiling_impl.cpp GetLayerNormGradMaxMinTmpSize,
// GetLayerNormGradNDTilingInfo, layernorm_grad_beta_tiling_impl.cpp
// GetLayerNormGradBetaMaxMinTmpSize, GetLayerNormGradBetaNDTilingInfo) over
// [B, S, H, originH]. Grad: six fp32 slices of a round (four for float reusing
// the sources, nine for half) of whole rows, the rows rounded up to a 32 B
// block of them; Beta: one fp32 slice of rows (half: two after fp32 gamma / beta rows).
#pragma once
#include <cstdint>
#include <cstring>
#include <string>

#include "../../register/tilingdata_base.h"
#include "../sim.h"
#include "normalization_tiling_data.h"
#include "tensor_shape.h"

namespace optiling {
// include/adv_api/normalization/layernorm_grad_tilingdata.h
BEGIN_TILING_DATA_DEF(LayerNormGradTiling)
TILING_DATA_FIELD_DEF(uint32_t, stackBufferSize);
TILING_DATA_FIELD_DEF(uint32_t, bLength);
TILING_DATA_FIELD_DEF(uint32_t, sLength);
TILING_DATA_FIELD_DEF(uint32_t, hLength);
TILING_DATA_FIELD_DEF(uint32_t, originalHLength);
TILING_DATA_FIELD_DEF(uint32_t, oneCalSize);
TILING_DATA_FIELD_DEF(uint32_t, nohCalSize);
TILING_DATA_FIELD_DEF(uint32_t, loopNum);
TILING_DATA_FIELD_DEF(uint32_t, tailSize);
TILING_DATA_FIELD_DEF(uint32_t, nohTailSize);
TILING_DATA_FIELD_DEF(uint32_t, tmpTensorBSHPos);
TILING_DATA_FIELD_DEF(uint32_t, tmpTensorBSHSize);
TILING_DATA_FIELD_DEF(uint32_t, pdVarTensorPos);
TILING_DATA_FIELD_DEF(uint32_t, pdVarTensorSize);
TILING_DATA_FIELD_DEF(uint32_t, pdMeanTensorPos);
TILING_DATA_FIELD_DEF(uint32_t, pdMeanTensorSize);
TILING_DATA_FIELD_DEF(uint32_t, x1TensorPos);
TILING_DATA_FIELD_DEF(uint32_t, x1TensorSize);
TILING_DATA_FIELD_DEF(uint32_t, x2TensorPos);
TILING_DATA_FIELD_DEF(uint32_t, x2TensorSize);
TILING_DATA_FIELD_DEF(uint32_t, x3TensorPos);
TILING_DATA_FIELD_DEF(uint32_t, x3TensorSize);
TILING_DATA_FIELD_DEF(uint32_t, tmpTensorPos);
TILING_DATA_FIELD_DEF(uint32_t, tmpTensorSize);
TILING_DATA_FIELD_DEF(uint32_t, tmpTensor1Pos);
TILING_DATA_FIELD_DEF(uint32_t, tmpTensor1Size);
TILING_DATA_FIELD_DEF(uint32_t, tmpTensor2Pos);
TILING_DATA_FIELD_DEF(uint32_t, tmpTensor2Size);
TILING_DATA_FIELD_DEF(uint32_t, lastDimValueBack);
TILING_DATA_FIELD_DEF(uint32_t, lastDimValueBackMulTwo);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(LayerNormGradTilingOpApi, LayerNormGradTiling)

// include/adv_api/normalization/layernorm_grad_beta_tilingdata.h
BEGIN_TILING_DATA_DEF(LayerNormGradBetaTiling)
TILING_DATA_FIELD_DEF(uint32_t, stackBufferSize);
TILING_DATA_FIELD_DEF(uint32_t, bLength);
TILING_DATA_FIELD_DEF(uint32_t, sLength);
TILING_DATA_FIELD_DEF(uint32_t, hLength);
TILING_DATA_FIELD_DEF(uint32_t, originalHLength);
TILING_DATA_FIELD_DEF(uint32_t, bshLength);
TILING_DATA_FIELD_DEF(uint32_t, bsLength);
TILING_DATA_FIELD_DEF(uint32_t, oneCalSize);
TILING_DATA_FIELD_DEF(uint32_t, numberOfTmpBuf);
TILING_DATA_FIELD_DEF(uint32_t, loopRound);
TILING_DATA_FIELD_DEF(uint32_t, inputTailSize);
TILING_DATA_FIELD_DEF(uint32_t, inputTailPos);
TILING_DATA_FIELD_DEF(uint32_t, bsTailSize);
TILING_DATA_FIELD_DEF(uint32_t, bshCurLength);
TILING_DATA_FIELD_DEF(uint32_t, bsCurLength);
TILING_DATA_FIELD_DEF(uint32_t, gammaTempTensorPos);
TILING_DATA_FIELD_DEF(uint32_t, betaTempTensorPos);
TILING_DATA_FIELD_DEF(uint32_t, inputDyTmpTensorPos);
TILING_DATA_FIELD_DEF(uint32_t, resForGammaTmpTensorPos);
TILING_DATA_FIELD_DEF(uint32_t, reserved);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(LayerNormGradBetaTilingOpApi, LayerNormGradBetaTiling)
}  // namespace optiling

namespace AscendC {
namespace sim_adv {
namespace lngrad {
[[noreturn]] inline void host_refuse(const char* api, const char* rule, const std::string& what) {
    throw ascend_sim::SimViolation(api, -1, rule, std::string("[ascend_sim] ") + api + ": " + what);
}
// CheckLayerNormGradHostCommon / CheckSrcShape (logged there, refused here).
inline void host_check(const char* api, const TensorShape& shape, uint32_t typeSize) {
    if (typeSize != 2 && typeSize != 4) host_refuse(api, "typeSize not supported", "typeSize must be 2 or 4");
    if (shape.GetDimNum() != 4)
        host_refuse(api, "srcShape not [B, S, H, originH]",
                    "srcShape has " + std::to_string(shape.GetDimNum()) + " dims; it must be [B, S, storageH, originH]");
    for (size_t i = 0; i < 4; ++i)
        if (shape.GetDim(i) <= 0) host_refuse(api, "empty shape", "srcShape's dims must be greater than 0");
}
inline uint32_t float_bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}
inline uint32_t grad_buffers(uint32_t typeSize, bool isReuseSource) { return typeSize == 2 ? 9 : isReuseSource ? 4 : 6; }
}  // namespace lngrad
}  // namespace sim_adv

inline void GetLayerNormGradMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                                          const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
    namespace lg = sim_adv::lngrad;
    lg::host_check("GetLayerNormGradMaxMinTmpSize", srcShape, typeSize);
    const uint32_t h = uint32_t(srcShape.GetDim(2)), n = uint32_t(srcShape.GetDim(0) * srcShape.GetDim(1)) * h;
    const uint32_t big = n > h * h ? n : h * h, small = n < h * h ? n : h * h;
    // In typeSize units, as there (a half tmp is counted in halves).
    maxValue = lg::grad_buffers(typeSize, isReuseSource) * big * typeSize;
    minValue = lg::grad_buffers(typeSize, isReuseSource) * small * typeSize;
}

inline void GetLayerNormGradNDTilingInfo(const TensorShape srcShape, const uint32_t stackBufferSize,
                                         const uint32_t typeSize, const bool isReuseSource,
                                         optiling::LayerNormGradTiling& tiling) {
    namespace lg = sim_adv::lngrad;
    constexpr const char* api = "GetLayerNormGradNDTilingInfo";
    lg::host_check(api, srcShape, typeSize);
    const uint32_t b = uint32_t(srcShape.GetDim(0)), s = uint32_t(srcShape.GetDim(1)), h = uint32_t(srcShape.GetDim(2));
    const uint32_t oh = uint32_t(srcShape.GetDim(3)), n = b * s * h;
    uint32_t one = stackBufferSize / 4 / lg::grad_buffers(typeSize, isReuseSource) / h * h;
    if (one == 0) lg::host_refuse(api, "stackBufferSize too small", "stackBufferSize does not hold one row a slice");
    const uint32_t perBlock = typeSize == 4 ? 8 : 16;
    const uint32_t rows = (one / h + perBlock - 1) / perBlock * perBlock;
    one = rows * h;
    // Slices: BSH scratch, pdVar, pdMean, [x1, x2], x3, [half: tmp, tmp1, tmp2].
    const bool reuse = isReuseSource && typeSize == 4;
    const uint32_t pdVar = one, pdMean = 2 * one, x1 = reuse ? 0 : 3 * one, x2 = reuse ? 0 : 4 * one;
    const uint32_t x3 = reuse ? 3 * one : 5 * one;
    const uint32_t t0 = typeSize == 2 ? x3 + one : 0, t1 = typeSize == 2 ? x3 + 2 * one : 0,
                   t2 = typeSize == 2 ? x3 + 3 * one : 0;
    tiling.set_tmpTensorBSHPos(0), tiling.set_pdVarTensorPos(pdVar), tiling.set_pdMeanTensorPos(pdMean);
    tiling.set_x1TensorPos(x1), tiling.set_x2TensorPos(x2), tiling.set_x3TensorPos(x3);
    tiling.set_tmpTensorPos(t0), tiling.set_tmpTensor1Pos(t1), tiling.set_tmpTensor2Pos(t2);
    tiling.set_tmpTensorBSHSize(one), tiling.set_pdVarTensorSize(one), tiling.set_pdMeanTensorSize(one);
    tiling.set_x1TensorSize(one), tiling.set_x2TensorSize(one), tiling.set_x3TensorSize(one);
    tiling.set_tmpTensorSize(one), tiling.set_tmpTensor1Size(one), tiling.set_tmpTensor2Size(one);
    tiling.set_stackBufferSize(stackBufferSize);
    tiling.set_bLength(b), tiling.set_sLength(s), tiling.set_hLength(h), tiling.set_originalHLength(oh);
    tiling.set_oneCalSize(one), tiling.set_nohCalSize(rows);
    tiling.set_loopNum(n / one), tiling.set_tailSize(n % one), tiling.set_nohTailSize(n % one / h);
    tiling.set_lastDimValueBack(lg::float_bits(1.0f / float(oh)));
    tiling.set_lastDimValueBackMulTwo(lg::float_bits(2.0f / float(oh)));
}
inline void GetLayerNormGradNDTilingInfo(const TensorShape srcShape, const uint32_t stackBufferSize,
                                         const uint32_t typeSize, const bool isReuseSource,
                                         tiling::LayerNormGradTiling& tiling) {
    optiling::LayerNormGradTiling data;
    GetLayerNormGradNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, data);
    data.SaveToBuffer(&tiling, sizeof(tiling));
}

inline void GetLayerNormGradBetaMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                                              const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    namespace lg = sim_adv::lngrad;
    lg::host_check("GetLayerNormGradBetaMaxMinTmpSize", srcShape, typeSize);
    const uint32_t h = uint32_t(srcShape.GetDim(2)), n = uint32_t(srcShape.GetDim(0) * srcShape.GetDim(1)) * h;
    const uint32_t k = typeSize == 2 ? 4 : 2;
    maxValue = k * n * 4;
    minValue = k * h * 4;
}

inline void GetLayerNormGradBetaNDTilingInfo(const TensorShape srcShape, const uint32_t stackBufferSize,
                                             const uint32_t typeSize, const bool isReuseSource,
                                             optiling::LayerNormGradBetaTiling& tiling) {
    (void)isReuseSource;
    namespace lg = sim_adv::lngrad;
    constexpr const char* api = "GetLayerNormGradBetaNDTilingInfo";
    lg::host_check(api, srcShape, typeSize);
    const uint32_t b = uint32_t(srcShape.GetDim(0)), s = uint32_t(srcShape.GetDim(1)), h = uint32_t(srcShape.GetDim(2));
    const uint32_t oh = uint32_t(srcShape.GetDim(3)), n = b * s * h, floats = stackBufferSize / 4;
    if (floats < 2 * h) lg::host_refuse(api, "stackBufferSize too small", "stackBufferSize must hold 2 x H floats");
    uint32_t one = floats;
    const uint32_t bufs = typeSize == 2 ? 2 : 1;
    if (typeSize == 2) one = (one - 2 * h) / 2;
    one = one / h * h;
    if (one == 0) lg::host_refuse(api, "stackBufferSize too small", "stackBufferSize does not hold one row");
    if (one >= n) one = n;
    tiling.set_stackBufferSize(floats);
    tiling.set_bLength(b), tiling.set_sLength(s), tiling.set_hLength(h), tiling.set_originalHLength(oh);
    tiling.set_bshLength(n), tiling.set_bsLength(b * s), tiling.set_oneCalSize(one), tiling.set_numberOfTmpBuf(bufs);
    tiling.set_loopRound(n / one), tiling.set_inputTailSize(n % one), tiling.set_inputTailPos(n - n % one);
    tiling.set_bsTailSize(n % one / h), tiling.set_bshCurLength(one), tiling.set_bsCurLength(one / h);
    tiling.set_gammaTempTensorPos(0);
    tiling.set_betaTempTensorPos(typeSize == 2 ? h : 0);
    tiling.set_inputDyTmpTensorPos(typeSize == 2 ? 2 * h : 0);
    tiling.set_resForGammaTmpTensorPos(typeSize == 2 ? 2 * h + one : 0);
}
inline void GetLayerNormGradBetaNDTilingInfo(const TensorShape srcShape, const uint32_t stackBufferSize,
                                             const uint32_t typeSize, const bool isReuseSource,
                                             tiling::LayerNormGradBetaTiling& tiling) {
    optiling::LayerNormGradBetaTiling data;
    GetLayerNormGradBetaNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, data);
    data.SaveToBuffer(&tiling, sizeof(tiling));
}

}  // namespace AscendC

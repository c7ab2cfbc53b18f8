// The tiling structs of the normalization APIs, shared by the kernel and host
// headers (asc-devkit include/adv_api/normalization/*_tilingdata.h, whose fields
// the generated AscendC::tiling structs carry in this order; exported at file
// scope as CANN's kernel_tiling.h has them).
#pragma once
#include <cstdint>

namespace AscendC {
namespace tiling {
struct RmsNormTiling {
    uint32_t bLength = 0;
    uint32_t sLength = 0;
    uint32_t hLength = 0;
    uint32_t originalHLength = 0;
    float reciprocalOfHLength = 0;
    uint32_t mainBshLength = 0;
    uint32_t mainBsLength = 0;
    uint32_t mainBsLengthAlign = 0;
    uint32_t loopRound = 0;
    uint32_t inputTailPos = 0;
    uint32_t tailBshLength = 0;
    uint32_t tailBsLength = 0;
};
// DeepNorm's (deepnorm_tilingdata.h) and the older LayerNorm form's
// (layernorm_tilingdata.h) fields, the same list in both: the chunk of rows a round
// takes from the tmp (bshCurLength / bsCurLength, rewritten by the kernel for the
// tail round), the three fp32 slices' offsets and, for half, the fp32 mean /
// variance slices'. The host structs (optiling) are made from the same list.
#define ASCEND_SIM_NORM_TILING_FIELDS(X) \
    X(uint32_t, bLength) X(uint32_t, sLength) X(uint32_t, hLength) X(uint32_t, originalHLength) \
    X(uint32_t, inputXSize) X(uint32_t, meanVarSize) X(uint32_t, numberOfTmpBuf) X(uint32_t, meanTmpTensorPos) \
    X(uint32_t, meanTmpTensorSize) X(uint32_t, varianceTmpTensorPos) X(uint32_t, varianceTmpTensorSize) \
    X(uint32_t, tmpBufSize) X(uint32_t, oneTmpSize) X(uint32_t, firstTmpStartPos) \
    X(uint32_t, secondTmpStartPos) X(uint32_t, thirdTmpStartPos) X(uint32_t, loopRound) \
    X(uint32_t, inputRoundSize) X(uint32_t, inputTailSize) X(uint32_t, inputTailPos) \
    X(uint32_t, meanVarRoundSize) X(uint32_t, meanVarTailSize) X(uint32_t, meanVarTailPos) \
    X(uint32_t, bshCurLength) X(uint32_t, bsCurLength) X(float, lastDimValueBack)
#define ASCEND_SIM_NORM_MEMBER(type, name) type name = 0;
struct DeepNormTiling {
    ASCEND_SIM_NORM_TILING_FIELDS(ASCEND_SIM_NORM_MEMBER)
};
struct LayerNormTiling {
    ASCEND_SIM_NORM_TILING_FIELDS(ASCEND_SIM_NORM_MEMBER)
};
#undef ASCEND_SIM_NORM_MEMBER
// LayerNorm's rstd form's: its round is arCurLength / aCurLength (the A2 host leaves
// halfAddRepeatTimes, rHeadLength, k2Rec, k2RRec and thirdTmpStartPos 0).
struct LayerNormSeparateTiling {
    uint32_t aLength = 0;
    uint32_t rLength = 0;
    uint32_t halfAddRepeatTimes = 0;
    uint32_t rHeadLength = 0;
    float k2Rec = 0;
    float k2RRec = 0;
    uint32_t inputXSize = 0;
    uint32_t meanVarSize = 0;
    uint32_t numberOfTmpBuf = 0;
    uint32_t varianceTmpTensorPos = 0;
    uint32_t varianceTmpTensorSize = 0;
    uint32_t tmpBufSize = 0;
    uint32_t oneTmpSize = 0;
    uint32_t firstTmpStartPos = 0;
    uint32_t secondTmpStartPos = 0;
    uint32_t thirdTmpStartPos = 0;
    uint32_t loopRound = 0;
    uint32_t inputRoundSize = 0;
    uint32_t inputTailSize = 0;
    uint32_t inputTailPos = 0;
    uint32_t meanVarRoundSize = 0;
    uint32_t meanVarTailSize = 0;
    uint32_t meanVarTailPos = 0;
    uint32_t arCurLength = 0;
    uint32_t aCurLength = 0;
    float rValueBack = 0;
};
// LayerNormGrad's (layernorm_grad_tilingdata.h: the slices of the tmp, in
// floats, and 1 / originH, 2 / originH as float bits) and LayerNormGradBeta's
// (layernorm_grad_beta_tilingdata.h; its stackBufferSize in floats).
struct LayerNormGradTiling {
    uint32_t stackBufferSize = 0;
    uint32_t bLength = 0;
    uint32_t sLength = 0;
    uint32_t hLength = 0;
    uint32_t originalHLength = 0;
    uint32_t oneCalSize = 0;
    uint32_t nohCalSize = 0;
    uint32_t loopNum = 0;
    uint32_t tailSize = 0;
    uint32_t nohTailSize = 0;
    uint32_t tmpTensorBSHPos = 0;
    uint32_t tmpTensorBSHSize = 0;
    uint32_t pdVarTensorPos = 0;
    uint32_t pdVarTensorSize = 0;
    uint32_t pdMeanTensorPos = 0;
    uint32_t pdMeanTensorSize = 0;
    uint32_t x1TensorPos = 0;
    uint32_t x1TensorSize = 0;
    uint32_t x2TensorPos = 0;
    uint32_t x2TensorSize = 0;
    uint32_t x3TensorPos = 0;
    uint32_t x3TensorSize = 0;
    uint32_t tmpTensorPos = 0;
    uint32_t tmpTensorSize = 0;
    uint32_t tmpTensor1Pos = 0;
    uint32_t tmpTensor1Size = 0;
    uint32_t tmpTensor2Pos = 0;
    uint32_t tmpTensor2Size = 0;
    uint32_t lastDimValueBack = 0;
    uint32_t lastDimValueBackMulTwo = 0;
};
struct LayerNormGradBetaTiling {
    uint32_t stackBufferSize = 0;
    uint32_t bLength = 0;
    uint32_t sLength = 0;
    uint32_t hLength = 0;
    uint32_t originalHLength = 0;
    uint32_t bshLength = 0;
    uint32_t bsLength = 0;
    uint32_t oneCalSize = 0;
    uint32_t numberOfTmpBuf = 0;
    uint32_t loopRound = 0;
    uint32_t inputTailSize = 0;
    uint32_t inputTailPos = 0;
    uint32_t bsTailSize = 0;
    uint32_t bshCurLength = 0;
    uint32_t bsCurLength = 0;
    uint32_t gammaTempTensorPos = 0;
    uint32_t betaTempTensorPos = 0;
    uint32_t inputDyTmpTensorPos = 0;
    uint32_t resForGammaTmpTensorPos = 0;
    uint32_t reserved = 0;
};
}  // namespace tiling
using tiling::DeepNormTiling;
using tiling::LayerNormGradBetaTiling;
using tiling::LayerNormGradTiling;
using tiling::LayerNormSeparateTiling;
using tiling::LayerNormTiling;
using tiling::RmsNormTiling;
}  // namespace AscendC

using AscendC::tiling::DeepNormTiling;
using AscendC::tiling::LayerNormGradBetaTiling;
using AscendC::tiling::LayerNormGradTiling;
using AscendC::tiling::LayerNormSeparateTiling;
using AscendC::tiling::LayerNormTiling;
using AscendC::tiling::RmsNormTiling;

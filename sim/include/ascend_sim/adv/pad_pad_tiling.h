// The host tiling of Pad (asc-devkit include/adv_api/pad/pad_tiling.h;
// impl/adv_api/tiling/pad/pad_tiling_impl.cpp :: GetPadMaxMinTmpSize,
// PadTilingFunc): the aligned path's row blocks and 255-row repeats, and with
// a stack buffer the unaligned path's 16-row Brcb / TransDataTo5HD blocks.
// As there, the optiling class is filled and the AscendC::tiling struct is
// its saved bytes.
#pragma once
#include <cstdint>
#include <string>

#include "../../register/tilingdata_base.h"
#include "../sim.h"
#include "pad_pad_params.h"
#include "tensor_shape.h"

namespace optiling {
// include/adv_api/pad/pad_tilingdata.h
BEGIN_TILING_DATA_DEF(PadTiling)
TILING_DATA_FIELD_DEF(uint32_t, srcHeight);
TILING_DATA_FIELD_DEF(uint32_t, srcWidth);
TILING_DATA_FIELD_DEF(uint32_t, srcOriWidth);
TILING_DATA_FIELD_DEF(uint32_t, widthWithoutLastBlock);
TILING_DATA_FIELD_DEF(uint32_t, blocksPerRow);
TILING_DATA_FIELD_DEF(uint32_t, heightTiling);
TILING_DATA_FIELD_DEF(uint32_t, heightFractal);
TILING_DATA_FIELD_DEF(uint32_t, heightFractalTail);
TILING_DATA_FIELD_DEF(uint32_t, mainLoopOffset);
TILING_DATA_FIELD_DEF(uint32_t, tailBlockOffset);
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer1BlockNum);
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer1RowNum);
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer2Offset);
TILING_DATA_FIELD_DEF(uint32_t, widthTiling);
TILING_DATA_FIELD_DEF(uint32_t, widthFractal);
TILING_DATA_FIELD_DEF(uint32_t, widthFractalTail);
TILING_DATA_FIELD_DEF(uint32_t, widthFractalTailAlingned);
TILING_DATA_FIELD_DEF(uint32_t, brcbTiling);
TILING_DATA_FIELD_DEF(uint32_t, brcbFractal);
TILING_DATA_FIELD_DEF(uint32_t, brcbFractalTail);
TILING_DATA_FIELD_DEF(uint32_t, maxRepeatTimes);
TILING_DATA_FIELD_DEF(uint32_t, brcbTilingRepeatTimes);
TILING_DATA_FIELD_DEF(uint32_t, brcbTilingRepeatTimesTail);
TILING_DATA_FIELD_DEF(uint32_t, brcbFractalTailRepeatTimes);
TILING_DATA_FIELD_DEF(uint32_t, brcbFractalTailRepeatTimesTail);
TILING_DATA_FIELD_DEF(uint32_t, reserved);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(PadTilingOpApi, PadTiling)
}  // namespace optiling

namespace AscendC {
namespace sim_adv {
// CheckPadMaxMinTmpSizeParams: half- or float-sized elements, a 2-D shape.
inline void check_pad_shape(const char* api, const TensorShape& shape, uint32_t typeSize) {
    if (typeSize != 2 && typeSize != 4)
        throw ascend_sim::SimViolation(api, -1, "typeSize not supported",
                                       std::string("[ascend_sim] ") + api + ": typeSize " +
                                           std::to_string(typeSize) + " is neither 2 nor 4");
    if (shape.GetDimNum() != 2)
        throw ascend_sim::SimViolation(api, -1, "shape not 2-D",
                                       std::string("[ascend_sim] ") + api + ": the shape has " +
                                           std::to_string(shape.GetDimNum()) + " dims; it must have 2");
}
}  // namespace sim_adv

// Two buffers of 16-row blocks of 32 B for every 16 elements (at least one).
inline void GetPadMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                uint32_t& minValue) {
    sim_adv::check_pad_shape("GetPadMaxMinTmpSize", srcShape, typeSize);
    const uint32_t n = uint32_t(srcShape.GetDim(0) * srcShape.GetDim(1));
    minValue = 16 * 32 * 2;
    maxValue = ((n - 1) / 16 + 1) * minValue;
}

inline void PadTilingFunc(const TensorShape srcShape, const TensorShape oriSrcShape, const uint32_t stackBufferSize,
                          const uint32_t typeSize, optiling::PadTiling& tiling) {
    constexpr const char* api = "PadTilingFunc";
    sim_adv::check_pad_shape(api, srcShape, typeSize);
    sim_adv::check_pad_shape(api, oriSrcShape, typeSize);
    if (oriSrcShape.GetShapeSize() > srcShape.GetShapeSize())
        throw ascend_sim::SimViolation(api, -1, "oriSrcShape larger",
                                       std::string("[ascend_sim] ") + api +
                                           ": oriSrcShape holds more elements than srcShape");
    const uint32_t height = uint32_t(srcShape.GetDim(0)), width = uint32_t(srcShape.GetDim(1));
    const uint32_t perBlock = 32 / typeSize;
    tiling.set_srcHeight(height);
    tiling.set_srcWidth(width);
    tiling.set_srcOriWidth(uint32_t(oriSrcShape.GetDim(1)));
    const uint32_t withoutLast = width - perBlock, heightTiling = 255;
    tiling.set_widthWithoutLastBlock(withoutLast);
    tiling.set_blocksPerRow(width * typeSize / 32);
    tiling.set_heightTiling(heightTiling);
    tiling.set_heightFractal(height / heightTiling);
    tiling.set_heightFractalTail(height % heightTiling);
    tiling.set_mainLoopOffset(heightTiling * width);
    tiling.set_tailBlockOffset(height / heightTiling * heightTiling * width + withoutLast);
    if (stackBufferSize == 0) return;
    const uint32_t blockElems = 16 * 32 / typeSize;
    const uint32_t blocks = stackBufferSize / typeSize / blockElems / 2;
    const uint32_t widthTiling = 16 * blocks;
    // asc-devkit divides by widthTiling; a buffer too small for it is stopped here.
    if (widthTiling == 0)
        throw ascend_sim::SimViolation(api, -1, "stackBufferSize too small",
                                       std::string("[ascend_sim] ") + api + ": stackBufferSize " +
                                           std::to_string(stackBufferSize) + " B holds no pair of 16-row blocks");
    tiling.set_tmpBuffer1RowNum(widthTiling);
    tiling.set_tmpBuffer1BlockNum(blocks);
    tiling.set_tmpBuffer2Offset(blocks * blockElems);
    const uint32_t tail = width % widthTiling;
    tiling.set_widthTiling(widthTiling);
    tiling.set_widthFractal(width / widthTiling);
    tiling.set_widthFractalTail(tail);
    tiling.set_widthFractalTailAlingned(((tail - 1) / perBlock + 1) * perBlock);
    const uint32_t brcbTiling = widthTiling, brcbTail = height * width % brcbTiling;
    tiling.set_brcbTiling(brcbTiling);
    tiling.set_brcbFractal(height * width / brcbTiling);
    tiling.set_brcbFractalTail(brcbTail);
    constexpr uint32_t maxRepeat = 254;  // 255 x 8 is not 32 B aligned
    tiling.set_maxRepeatTimes(maxRepeat);
    tiling.set_brcbTilingRepeatTimes(brcbTiling / 8 / maxRepeat);
    tiling.set_brcbTilingRepeatTimesTail(brcbTiling / 8 % maxRepeat);
    tiling.set_brcbFractalTailRepeatTimes(brcbTail / 8 / maxRepeat);
    tiling.set_brcbFractalTailRepeatTimesTail(brcbTail / 8 % maxRepeat);
}
inline void PadTilingFunc(const TensorShape srcShape, const TensorShape oriSrcShape, const uint32_t stackBufferSize,
                          const uint32_t typeSize, tiling::PadTiling& tiling) {
    optiling::PadTiling data;
    PadTilingFunc(srcShape, oriSrcShape, stackBufferSize, typeSize, data);
    data.SaveToBuffer(&tiling, sizeof(tiling));
}

}  // namespace AscendC

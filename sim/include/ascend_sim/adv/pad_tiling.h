// The host tiling of UnPad (asc-devkit include/adv_api/pad/pad_tiling.h;
// impl/adv_api/tiling/pad/pad_tiling_impl.cpp UnPadTilingFunc): the shape's
// two dims, and with a stack buffer the split into 16-row blocks that only the
// older NPUs' path reads. Only the AscendC::tiling overload: the optiling one
// needs BEGIN_TILING_DATA_DEF, which the simulator does not have.
#pragma once
#include <cstdint>
#include <string>

#include "../sim.h"
#include "activation_tiling.h"
#include "pad_params.h"
#include "tensor_shape.h"

namespace AscendC {

inline void UnPadTilingFunc(const TensorShape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                            tiling::UnPadTiling& tiling) {
    constexpr const char* api = "UnPadTilingFunc";
    sim_adv::check_type_size(api, typeSize);
    if (srcShape.GetDimNum() != 2)
        throw ascend_sim::SimViolation(api, -1, "srcShape not 2-D",
                                       std::string("[ascend_sim] ") + api + ": srcShape has " +
                                           std::to_string(srcShape.GetDimNum()) + " dims; it must have 2");
    tiling = {};
    tiling.srcHeight = uint32_t(srcShape.GetDim(0));
    tiling.srcWidth = uint32_t(srcShape.GetDim(1));
    if (stackBufferSize == 0) return;
    constexpr uint32_t rowsPerBlock = 16, blockBytes = rowsPerBlock * 32;
    const uint32_t blocks = stackBufferSize / typeSize / (blockBytes / typeSize) / 2;
    tiling.tmpBuffer1BlockNum = blocks;
    tiling.tmpBuffer1RowNum = rowsPerBlock * blocks;
    tiling.tmpBuffer2Offset = blocks * (blockBytes / typeSize);
    tiling.widthTiling = rowsPerBlock * blocks;
    // asc-devkit's code divides by this; a buffer too small for it is stopped here.
    if (tiling.widthTiling == 0)
        throw ascend_sim::SimViolation(api, -1, "stackBufferSize too small",
                                       std::string("[ascend_sim] ") + api + ": stackBufferSize " +
                                           std::to_string(stackBufferSize) + " B holds no pair of 16-row blocks");
    tiling.widthFractal = tiling.srcWidth / tiling.widthTiling;
    tiling.widthFractalTail = tiling.srcWidth % tiling.widthTiling;
    if (tiling.widthFractalTail != 0) ++tiling.widthFractal;
    else tiling.widthFractalTail = tiling.widthTiling;
}

}  // namespace AscendC

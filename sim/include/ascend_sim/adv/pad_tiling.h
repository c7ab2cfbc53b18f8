// The host tiling of UnPad (asc-devkit include/adv_api/pad/pad_tiling.h;
// impl/adv_api/tiling/pad/pad_tiling_impl.cpp UnPadTilingFunc,
// GetUnPadMaxMinTmpSize): the shape's two dims, and with a stack buffer the
// split into 16-row blocks that only the older NPUs' path reads (A2's tmp size is 0). As there, the optiling class is filled and the
// AscendC::tiling struct is its saved bytes.
#pragma once
#include <cstdint>
#include <string>

#include "../../register/tilingdata_base.h"
#include "../sim.h"
#include "activation_tiling.h"
#include "pad_params.h"
#include "tensor_shape.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// include/adv_api/pad/pad_tilingdata.h
BEGIN_TILING_DATA_DEF(UnPadTiling)
TILING_DATA_FIELD_DEF(uint32_t, srcHeight);
TILING_DATA_FIELD_DEF(uint32_t, srcWidth);
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer1BlockNum);
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer1RowNum);
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer2Offset);
TILING_DATA_FIELD_DEF(uint32_t, widthTiling);
TILING_DATA_FIELD_DEF(uint32_t, widthFractal);
TILING_DATA_FIELD_DEF(uint32_t, widthFractalTail);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(UnPadTilingOpApi, UnPadTiling)
}  // namespace optiling

namespace AscendC {

namespace sim_adv {
// CheckUnPadParams: half or float, a 2-D shape.
inline void check_unpad_host(const char* api, const TensorShape& srcShape, uint32_t typeSize) {
    check_type_size(api, typeSize);
    if (srcShape.GetDimNum() != 2)
        throw ascend_sim::SimViolation(api, -1, "srcShape not 2-D",
                                       std::string("[ascend_sim] ") + api + ": srcShape has " +
                                           std::to_string(srcShape.GetDimNum()) + " dims; it must have 2");
}
}  // namespace sim_adv

// A2 and 950 unpad with GatherMask and no tmp (the 16-row transposes of the older NPUs need it).
inline void GetUnPadMaxMinTmpSize(const platform_ascendc::PlatformAscendC&, const TensorShape& srcShape,
                                  const uint32_t typeSize, uint32_t& maxValue, uint32_t& minValue) {
    sim_adv::check_unpad_host("GetUnPadMaxMinTmpSize", srcShape, typeSize);
    maxValue = minValue = 0;
}

inline void UnPadTilingFunc(const TensorShape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                            optiling::UnPadTiling& tiling) {
    constexpr const char* api = "UnPadTilingFunc";
    sim_adv::check_unpad_host(api, srcShape, typeSize);
    const uint32_t width = uint32_t(srcShape.GetDim(1));
    tiling.set_srcHeight(uint32_t(srcShape.GetDim(0)));
    tiling.set_srcWidth(width);
    if (stackBufferSize == 0) return;
    constexpr uint32_t rowsPerBlock = 16, blockBytes = rowsPerBlock * 32;
    const uint32_t blocks = stackBufferSize / typeSize / (blockBytes / typeSize) / 2;
    const uint32_t widthTiling = rowsPerBlock * blocks;
    tiling.set_tmpBuffer1BlockNum(blocks);
    tiling.set_tmpBuffer1RowNum(widthTiling);
    tiling.set_tmpBuffer2Offset(blocks * (blockBytes / typeSize));
    tiling.set_widthTiling(widthTiling);
    // asc-devkit's code divides by widthTiling; a buffer too small for it is stopped here.
    if (widthTiling == 0)
        throw ascend_sim::SimViolation(api, -1, "stackBufferSize too small",
                                       std::string("[ascend_sim] ") + api + ": stackBufferSize " +
                                           std::to_string(stackBufferSize) + " B holds no pair of 16-row blocks");
    const uint32_t tail = width % widthTiling;
    tiling.set_widthFractal(width / widthTiling + (tail != 0));
    tiling.set_widthFractalTail(tail != 0 ? tail : widthTiling);
}
inline void UnPadTilingFunc(const TensorShape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                            tiling::UnPadTiling& tiling) {
    optiling::UnPadTiling data;
    UnPadTilingFunc(srcShape, stackBufferSize, typeSize, data);
    data.SaveToBuffer(&tiling, sizeof(tiling));
}

}  // namespace AscendC

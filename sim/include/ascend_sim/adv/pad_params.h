// The parameter and tiling structs of Pad/UnPad, shared by the kernel and host
// headers (asc-devkit impl/basic_api/utils/kernel_utils_struct_confusion_pad.h
// PadParams, UnPadParams; include/adv_api/pad/pad_tilingdata.h, whose fields
// the generated AscendC::tiling structs carry in this order).
#pragma once
#include <cstdint>

namespace AscendC {

struct PadParams {
    PadParams() = default;
    PadParams(const uint16_t leftPadIn, const uint16_t rightPadIn, const int32_t padValueIn)
        : leftPad(leftPadIn), rightPad(rightPadIn), padValue(padValueIn) {}
    uint16_t leftPad = 0;
    uint16_t rightPad = 0;
    int32_t padValue = 0;
};

struct UnPadParams {
    UnPadParams() = default;
    UnPadParams(const uint16_t leftPadIn, const uint16_t rightPadIn) : leftPad(leftPadIn), rightPad(rightPadIn) {}
    uint16_t leftPad = 0;
    uint16_t rightPad = 0;
};

namespace tiling {
struct UnPadTiling {
    uint32_t srcHeight = 0;
    uint32_t srcWidth = 0;
    uint32_t tmpBuffer1BlockNum = 0;
    uint32_t tmpBuffer1RowNum = 0;
    uint32_t tmpBuffer2Offset = 0;
    uint32_t widthTiling = 0;
    uint32_t widthFractal = 0;
    uint32_t widthFractalTail = 0;
};
}  // namespace tiling
using tiling::UnPadTiling;

}  // namespace AscendC

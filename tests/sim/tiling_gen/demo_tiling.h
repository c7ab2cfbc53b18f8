// The host tiling header of a demo op, written as ops-nn's op_host/*_tiling.h are:
// fields of several sizes (so the layout needs placeholders), an array, a nested
// struct of the op's own, an advanced API's struct, and a class for one tiling key.
#pragma once
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DemoShape)
TILING_DATA_FIELD_DEF(uint16_t, rows);
TILING_DATA_FIELD_DEF(uint32_t, cols);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(DemoShapeOp, DemoShape)

BEGIN_TILING_DATA_DEF(DemoTilingData)
TILING_DATA_FIELD_DEF(uint8_t, mode);
TILING_DATA_FIELD_DEF(float, scale);
TILING_DATA_FIELD_DEF_ARR(int16_t, 3, dims);
TILING_DATA_FIELD_DEF(int64_t, total);
TILING_DATA_FIELD_DEF_STRUCT(DemoShape, shape);
TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, softmax);
TILING_DATA_FIELD_DEF(uint32_t, tail);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(TilingDemo, DemoTilingData)

BEGIN_TILING_DATA_DEF(DemoKeyTiling)
TILING_DATA_FIELD_DEF(uint32_t, only);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(TilingDemo_7, DemoKeyTiling)
}  // namespace optiling

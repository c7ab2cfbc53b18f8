// CANN's enums for Cast round modes, Compare modes and Select modes, spelled
// and numbered as CANN spells them (kernels name them directly).
#pragma once
#include <cstdint>

namespace AscendC {

enum class RoundMode { CAST_NONE = 0, CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC, CAST_ODD, CAST_HYBRID };

enum class CMPMODE : uint8_t { LT = 0, GT, GE, EQ, NE, LE };

enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };

}  // namespace AscendC

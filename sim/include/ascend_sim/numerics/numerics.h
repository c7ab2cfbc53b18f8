// Umbrella header of the simulator's pure numeric layer (no checks, no API
// state): 16-bit float types, casts, exp/ln and elementwise ops, reductions,
// compare/select/gather. Everything but the types and enums lives in
// namespace ascend_sim::numerics.
#pragma once
#include "enums.h"
#include "types.h"
#include "int4.h"
#include "convert.h"
#include "exp.h"
#include "vec_math.h"
#include "reduce.h"
#include "compare.h"
#include "elementwise.h"
#include "reduce_repeat.h"

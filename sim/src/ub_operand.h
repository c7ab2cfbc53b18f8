// The UB operand check shared by the count forms (access.cpp) and the repeated
// forms (vec_repeat.cpp).
#pragma once
#include "ascend_sim/runtime_state.h"

namespace ascend_sim::detail {

// A UB position, inside this block's UB, `align`-byte aligned; returns its UB offset.
uint64_t check_ub_operand(const char* api, Block& b, const UbRef& t, const char* role, uint32_t align = 32);

}  // namespace ascend_sim::detail

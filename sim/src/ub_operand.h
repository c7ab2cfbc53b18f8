// The UB operand and GM range checks shared by the count forms (access.cpp), the
// repeated forms (vec_repeat.cpp) and the inter-core flags (ib_sync.cpp).
#pragma once
#include "ascend_sim/runtime_state.h"

namespace ascend_sim::detail {

// A UB position, inside this block's UB, `align`-byte aligned; returns its UB offset.
uint64_t check_ub_operand(const char* api, Block& b, const UbRef& t, const char* role, uint32_t align = 32);

// span bytes of GM at g inside the GlobalTensor's SetGlobalBuffer range and one
// GM allocation; dir names the access ("GM->UB read of").
void check_gm(const char* api, const char* dir, const GmRef& g, uint64_t span);

}  // namespace ascend_sim::detail

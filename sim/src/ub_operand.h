// The UB operand and GM range checks shared by the count forms (access.cpp), the
// repeated forms (vec_repeat.cpp) and the inter-core flags (ib_sync.cpp).
#pragma once
#include "ascend_sim/runtime_state.h"

namespace ascend_sim::detail {

// A UB position, inside this block's UB, `align`-byte aligned; returns its UB offset.
uint64_t check_ub_operand(const char* api, Block& b, const UbRef& t, const char* role, uint32_t align = 32);

// A vector source read of `bytes` from UB offset `off` (its tensor t's start): the
// bytes of it inside the tensor. A read past the tensor's end that stays in UB is
// reported at the launch's past-tensor level (the instruction reads whole repeats;
// the device has no rule against it); one past the end of UB stops.
uint64_t vec_read_in_tensor(const char* api, Block& b, const UbRef& t, const char* role, uint64_t off, uint64_t bytes);

// A repeated form's dst write of `bytes` from UB offset `off` (its tensor t's start):
// past the tensor's end inside UB it is reported at the past-tensor level (the write
// happens, and the checks keep its bytes: they now hold data); past UB it stops.
void vec_write_past_tensor(const char* api, Block& b, const UbRef& t, const char* role, uint64_t off, uint64_t bytes);

// span bytes of GM at g inside the GlobalTensor's SetGlobalBuffer range and one
// GM allocation; dir names the access ("GM->UB read of").
void check_gm(const char* api, const char* dir, const GmRef& g, uint64_t span);

}  // namespace ascend_sim::detail

// What differs between the two builds of ascend_xent._C. bindings.cpp (common to both)
// turns descriptors into aclTensors and runs the two-phase API; exactly one of
//   bindings_sim.cpp   the simulator build: profiles, set_soc/cores/threads, the
//                      simulator's launch counters, simulator violations
//   bindings_cann.cpp  the CANN build (ASCEND_XENT_WITH_CANN): tiling info only
// implements the functions below (python/CMakeLists.txt picks the file).
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <exception>
#include <optional>
#include <string>

#include "ascend_xent/launch_info.h"

namespace xent_py {

// "sim" or "cann": build_info()["backend"].
const char* backend_name();

// Whether the binding may allocate the workspace itself (alloc_owned_workspace, kept
// per calling thread) and launch on the default stream when the caller passes no launch
// callback: true where the launch is synchronous (simulator), false where phase 2
// only queues the kernel (CANN: freeing the workspace after phase 2 would race it).
bool binding_may_own_workspace();

// The memory of the workspace the binding owns (binding_may_own_workspace() only):
// nullptr when it cannot be had. Freed with free_owned_workspace(p, bytes).
void* alloc_owned_workspace(uint64_t bytes);
void free_owned_workspace(void* p, uint64_t bytes);

// Called on the launching thread, without the GIL, right after a successful phase 2.
void record_launch(double wallSeconds);

// A message for a backend-specific C++ exception raised during a launch (the
// simulator's SimViolation), or nullopt for any other exception.
std::optional<std::string> backend_error_message(const std::exception& e);

// Adds the build's own functions (last_launch_stats, and the simulator's profile
// functions in the simulator build) and exception translators to the module.
void register_backend(pybind11::module_& m);

// Common to both builds (bindings.cpp): the tiling keys of last_launch_stats().
pybind11::dict launch_info_dict(const ascend_xent::LaunchInfo& info);

}  // namespace xent_py

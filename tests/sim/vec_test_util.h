// Helpers of the vector-API tests: a one-block launch, and the first half of a
// missing-sync test (the kernel runs clean when the compiler inserts the sync).
#pragma once
#include <functional>

#include "ascend_sim/sim.h"
#include "sim_test_util.h"

namespace vec_test {

inline void one(const std::function<void()>& body) { ascend_sim::run_kernel("vec", 1, body); }

inline void clean_with_auto_sync(const std::function<void()>& body) {
    const sim_test::AutoSync on(1);
    one(body);
}

}  // namespace vec_test

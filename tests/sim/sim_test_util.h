// Helpers shared by the simulator tests: a GM allocation that frees itself and
// a SetFlag/WaitFlag pair on event 0.
#pragma once

#include <cstddef>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"

namespace sim_test {

// `n` elements of T in simulated GM; `name` is what violations call it.
template <class T>
struct Gm {
    T* p;
    explicit Gm(size_t n, const char* name = "gm")
        : p(static_cast<T*>(ascend_sim::gm_alloc(n * sizeof(T), name))) {}
    ~Gm() { ascend_sim::gm_free(p); }
    Gm(const Gm&) = delete;
    Gm& operator=(const Gm&) = delete;
};

// Orders the pipes of event `e` (set then wait on flag 0).
template <AscendC::HardEvent e>
void sync() {
    AscendC::SetFlag<e>(0);
    AscendC::WaitFlag<e>(0);
}

}  // namespace sim_test

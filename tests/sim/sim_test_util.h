// Helpers shared by the simulator tests: a GM allocation that frees itself, a
// pipe with one buffer, a GlobalTensor over it, a scoped auto-sync mode and past-tensor level, a
// SetFlag/WaitFlag pair on event 0, a scalar fill, what a body prints.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>

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

// A GlobalTensor over the n elements at p.
template <class T>
AscendC::GlobalTensor<T> global(T* p, uint64_t n) {
    AscendC::GlobalTensor<T> g;
    g.SetGlobalBuffer(p, n);
    return g;
}

// A pipe with one VECCALC buffer of `bytes`.
struct Calc {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    explicit Calc(uint32_t bytes) { pipe.InitBuffer(buf, bytes); }
    template <class T>
    AscendC::LocalTensor<T> get() { return buf.Get<T>(); }
};

// The hazard checker's auto-sync mode for one scope (1: --cce-auto-sync=on,
// 0: off), restored to the environment's/default after it.
struct AutoSync {
    explicit AutoSync(int on) { ascend_sim::set_auto_sync(on); }
    ~AutoSync() { ascend_sim::set_auto_sync(-1); }
    AutoSync(const AutoSync&) = delete;
    AutoSync& operator=(const AutoSync&) = delete;
};

// The level of an access past its tensor (0 off, 1 warning, 2 error) for one
// scope, restored to the environment's/default after it.
struct PastTensor {
    explicit PastTensor(int mode) { ascend_sim::set_past_tensor(mode); }
    ~PastTensor() { ascend_sim::set_past_tensor(-1); }
    PastTensor(const PastTensor&) = delete;
    PastTensor& operator=(const PastTensor&) = delete;
};

// Orders the pipes of event `e` (set then wait on flag 0).
template <AscendC::HardEvent e>
void sync() {
    AscendC::SetFlag<e>(0);
    AscendC::WaitFlag<e>(0);
}

// t[0, count) = v, written by the vector unit and ordered before a later MTE3 copy out.
template <class T>
void fill_for_mte3(const AscendC::LocalTensor<T>& t, T v, int32_t count) {
    AscendC::Duplicate(t, v, count);
    sync<AscendC::HardEvent::V_MTE3>();
}

// t[i] = f(i) for i < n, stored by the scalar unit (order it before the vector unit with S_V).
template <class T, class F>
void fill(const AscendC::LocalTensor<T>& t, uint32_t n, F f) {
    for (uint32_t i = 0; i < n; ++i) t.SetValue(i, T(f(i)));
}

// What `body` prints to `stream` (stdout or stderr).
inline std::string captured(std::FILE* stream, const std::function<void()>& body) {
    std::fflush(stream);
    std::FILE* f = std::tmpfile();
    const int saved = dup(fileno(stream));
    dup2(fileno(f), fileno(stream));
    body();
    std::fflush(stream);
    dup2(saved, fileno(stream));
    close(saved);
    std::rewind(f);
    std::string out;
    char buf[512];
    while (std::fgets(buf, sizeof buf, f)) out += buf;
    std::fclose(f);
    return out;
}

}  // namespace sim_test

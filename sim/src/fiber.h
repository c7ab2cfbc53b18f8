// A block's own stack and register context, so that a block waiting in SyncAll
// can step aside and its host thread can run another block (runtime.cpp). With
// one OS thread per block instead, every hand-over of a host thread was an OS
// wake-up, and the scheduler often queued the woken block behind the running one
// on the same CPU while the other CPU idled: 48-block launches ran at ~1.45 of 2
// CPUs. A fiber switch is a few hundred nanoseconds and stays on its CPU.
//
// A fiber runs only inside resume(), on the calling OS thread, until it calls
// yield() or its body returns; it may be resumed later on another OS thread, so
// code running in a fiber must not keep a thread_local's address across yield()
// (runtime.cpp reaches its thread_locals through out-of-line functions).
// The body must not let an exception escape (run_block catches everything).
//
// On x86-64 a switch saves the callee-saved registers and the FPU control words
// on the stack and swaps stack pointers: swapcontext also saves and restores the
// signal mask, two system calls per switch, which were most of a small launch's
// switching cost. Elsewhere ucontext is used.
#pragma once
#include <cstddef>
#include <functional>
#if !defined(__x86_64__)
#include <ucontext.h>
#endif

namespace ascend_sim::detail {

class Fiber {
public:
    explicit Fiber(std::function<void()> body);
    ~Fiber();
    Fiber(const Fiber&) = delete;
    Fiber& operator=(const Fiber&) = delete;

    // Runs the fiber until it yields or finishes. Not reentrant: one resumer at a time.
    void resume();
    // From inside the fiber: back to resume()'s caller.
    void yield();
    bool finished() const { return finished_; }

private:
    static void entry(Fiber* f);  // the fiber's first frame: the body, then back for good
    void start();                 // prepares the first switch into the fiber
    void switch_out();            // fiber -> resumer (yield, and the end of the body)

    std::function<void()> body_;
    void* stack_ = nullptr;
    size_t stackBytes_ = 0;
#if defined(__x86_64__)
    void* sp_ = nullptr;        // the fiber's stack pointer while it is switched out
    void* callerSp_ = nullptr;  // the resumer's while the fiber runs
#else
    ucontext_t self_{}, caller_{};
#endif
    bool started_ = false, finished_ = false;
    // AddressSanitizer's view of the stacks (unused without it).
    void* fakeStack_ = nullptr;
    const void* callerBottom_ = nullptr;
    size_t callerSize_ = 0;
};

}  // namespace ascend_sim::detail

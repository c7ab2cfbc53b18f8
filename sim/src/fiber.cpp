// Fibers for simulated blocks (see fiber.h).
#include "fiber.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <mutex>
#include <new>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
extern "C" void __sanitizer_start_switch_fiber(void** fakeStackSave, const void* bottom, size_t size);
extern "C" void __sanitizer_finish_switch_fiber(void* fakeStackSave, const void** bottomOld, size_t* sizeOld);
#endif

namespace ascend_sim::detail {

namespace {

// Kernel code, the simulator's checks and their messages, and (in the sanitizer
// build) ASan's larger frames: 2 MiB reserved, only touched pages become resident.
constexpr size_t kStackBytes = size_t(2) << 20;

// Stacks are reused across launches: mapping and first-touching 48 stacks per
// launch would cost more than a small kernel. The lowest page is a guard.
class StackPool {
public:
    void* take() {
        {
            std::lock_guard<std::mutex> lk(mu_);
            if (!free_.empty()) {
                void* p = free_.back();
                free_.pop_back();
                return p;
            }
        }
        void* p = mmap(nullptr, kStackBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                       -1, 0);
        if (p == MAP_FAILED) throw std::bad_alloc();
        mprotect(p, size_t(sysconf(_SC_PAGESIZE)), PROT_NONE);
        return p;
    }
    void give(void* p) {
        std::lock_guard<std::mutex> lk(mu_);
        if (free_.size() < kMaxCached) {
            free_.push_back(p);
            return;
        }
        munmap(p, kStackBytes);
    }

private:
    static constexpr size_t kMaxCached = 128;
    std::mutex mu_;
    std::vector<void*> free_;
};

StackPool& stack_pool() {
    static StackPool* pool = new StackPool;  // never destroyed: stacks may be returned during exit
    return *pool;
}

#if defined(__x86_64__)
// switch_stacks(from, to): pushes the callee-saved registers and the MXCSR and
// x87 control words, stores the stack pointer in *from, then pops the same from
// the stack `to` and returns into the code that saved it there. fiber_start is
// where a new fiber's first switch returns to: entry(rbx) from the address in r12.
extern "C" void ascend_sim_switch_stacks(void** from, void* to);
asm(R"(
    .pushsection .text
    .p2align 4
    .globl ascend_sim_switch_stacks
    .hidden ascend_sim_switch_stacks
    .type ascend_sim_switch_stacks, @function
ascend_sim_switch_stacks:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $8, %rsp
    stmxcsr (%rsp)
    fnstcw 4(%rsp)
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    ldmxcsr (%rsp)
    fldcw 4(%rsp)
    addq $8, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .size ascend_sim_switch_stacks, .-ascend_sim_switch_stacks

    .p2align 4
    .globl ascend_sim_fiber_start
    .hidden ascend_sim_fiber_start
    .type ascend_sim_fiber_start, @function
ascend_sim_fiber_start:
    movq %rbx, %rdi
    callq *%r12
    ud2
    .size ascend_sim_fiber_start, .-ascend_sim_fiber_start
    .popsection
)");
extern "C" void ascend_sim_fiber_start();
#endif

}  // namespace

Fiber::Fiber(std::function<void()> body) : body_(std::move(body)), stack_(stack_pool().take()), stackBytes_(kStackBytes) {}

Fiber::~Fiber() { stack_pool().give(stack_); }

void Fiber::entry(Fiber* f) {
#if defined(__SANITIZE_ADDRESS__)
    __sanitizer_finish_switch_fiber(nullptr, &f->callerBottom_, &f->callerSize_);
#endif
    f->body_();
    f->finished_ = true;
    f->switch_out();  // never returns: a finished fiber is not resumed
}

void Fiber::start() {
#if defined(__x86_64__)
    // The frame switch_stacks pops: control words, r15..r12, rbx, rbp, return
    // address; after the return the stack pointer is 16-byte aligned for the call.
    auto* top = reinterpret_cast<uint64_t*>((reinterpret_cast<uintptr_t>(stack_) + stackBytes_) & ~uintptr_t(15));
    uint64_t* sp = top - 16;
    uint32_t mxcsr;
    uint16_t fpucw;
    asm volatile("stmxcsr %0\n\tfnstcw %1" : "=m"(mxcsr), "=m"(fpucw));
    sp[0] = uint64_t(mxcsr) | uint64_t(fpucw) << 32;
    sp[1] = sp[2] = sp[3] = 0;                             // r15, r14, r13
    sp[4] = reinterpret_cast<uint64_t>(&Fiber::entry);     // r12
    sp[5] = reinterpret_cast<uint64_t>(this);              // rbx
    sp[6] = 0;                                             // rbp
    sp[7] = reinterpret_cast<uint64_t>(&ascend_sim_fiber_start);
    sp_ = sp;
#else
    getcontext(&self_);
    self_.uc_stack.ss_sp = stack_;
    self_.uc_stack.ss_size = stackBytes_;
    self_.uc_link = nullptr;
    const auto p = reinterpret_cast<uintptr_t>(this);
    void (*thunk)(unsigned, unsigned) = [](unsigned lo, unsigned hi) {
        entry(reinterpret_cast<Fiber*>((uintptr_t(hi) << 32) | uintptr_t(lo)));
    };
    makecontext(&self_, reinterpret_cast<void (*)()>(thunk), 2, unsigned(p & 0xffffffffu), unsigned(p >> 32));
#endif
}

void Fiber::resume() {
#if defined(__SANITIZE_ADDRESS__)
    void* fake = nullptr;
    __sanitizer_start_switch_fiber(&fake, stack_, stackBytes_);
#endif
    if (!started_) {
        started_ = true;
        start();
    }
#if defined(__x86_64__)
    ascend_sim_switch_stacks(&callerSp_, sp_);
#else
    swapcontext(&caller_, &self_);
#endif
#if defined(__SANITIZE_ADDRESS__)
    __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#endif
}

void Fiber::yield() {
    switch_out();
#if defined(__SANITIZE_ADDRESS__)
    __sanitizer_finish_switch_fiber(fakeStack_, &callerBottom_, &callerSize_);
#endif
}

void Fiber::switch_out() {
#if defined(__SANITIZE_ADDRESS__)
    // A finished fiber's fake stack is released (nullptr), a yielding one's kept.
    __sanitizer_start_switch_fiber(finished_ ? nullptr : &fakeStack_, callerBottom_, callerSize_);
#endif
#if defined(__x86_64__)
    ascend_sim_switch_stacks(&sp_, callerSp_);
#else
    swapcontext(&self_, &caller_);
#endif
}

}  // namespace ascend_sim::detail

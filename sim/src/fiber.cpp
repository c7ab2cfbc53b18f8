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

}  // namespace

Fiber::Fiber(std::function<void()> body) : body_(std::move(body)), stack_(stack_pool().take()), stackBytes_(kStackBytes) {}

Fiber::~Fiber() { stack_pool().give(stack_); }

void Fiber::entry(unsigned lo, unsigned hi) {
    auto* f = reinterpret_cast<Fiber*>((uintptr_t(hi) << 32) | uintptr_t(lo));
#if defined(__SANITIZE_ADDRESS__)
    __sanitizer_finish_switch_fiber(nullptr, &f->callerBottom_, &f->callerSize_);
#endif
    f->body_();
    f->finished_ = true;
    f->switch_out();  // never returns: a finished fiber is not resumed
}

void Fiber::resume() {
#if defined(__SANITIZE_ADDRESS__)
    void* fake = nullptr;
    __sanitizer_start_switch_fiber(&fake, stack_, stackBytes_);
#endif
    if (!started_) {
        started_ = true;
        getcontext(&self_);
        self_.uc_stack.ss_sp = stack_;
        self_.uc_stack.ss_size = stackBytes_;
        self_.uc_link = nullptr;
        const auto p = reinterpret_cast<uintptr_t>(this);
        makecontext(&self_, reinterpret_cast<void (*)()>(&Fiber::entry), 2, unsigned(p & 0xffffffffu),
                    unsigned(p >> 32));
    }
    swapcontext(&caller_, &self_);
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
    swapcontext(&self_, &caller_);
}

}  // namespace ascend_sim::detail

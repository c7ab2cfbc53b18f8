// The live executors of both two-phase APIs: phase 1 registers one, phase 2 (or
// aclDestroyAclOpExecutor) takes it out exactly once, so a used, freed or foreign
// handle is refused instead of being dereferenced. A handle is a number never handed
// out twice, not the executor's address: a used executor's handle stays refused even
// when a later executor is allocated where it was.
#pragma once
#include <memory>

#include "aclnn/acl_meta.h"

namespace xent {

struct ExecutorBase {
    virtual ~ExecutorBase() = default;
};

aclOpExecutor* RegisterExecutor(std::unique_ptr<ExecutorBase> e);

// The live executor `x` when `match` accepts it (then no longer live), else nullptr.
std::unique_ptr<ExecutorBase> TakeExecutorIf(aclOpExecutor* x, bool (*match)(const ExecutorBase*));

// The live executor `x` if it is an E (one API's phase 2 refuses another's executor).
template <class E>
std::unique_ptr<E> TakeExecutor(aclOpExecutor* x) {
    std::unique_ptr<ExecutorBase> e =
        TakeExecutorIf(x, [](const ExecutorBase* b) { return dynamic_cast<const E*>(b) != nullptr; });
    return std::unique_ptr<E>(static_cast<E*>(e.release()));
}

}  // namespace xent

#include "executor_registry.h"

#include <cstdint>
#include <mutex>
#include <unordered_map>

#include "aclnnop/aclnn_cross_entropy_loss_grad.h"  // ACLNN_* status codes

namespace xent {
namespace {
std::mutex g_mutex;
std::unordered_map<uintptr_t, std::unique_ptr<ExecutorBase>> g_live;  // by handle
uintptr_t g_lastHandle = 0;                                          // under g_mutex
}  // namespace

aclOpExecutor* RegisterExecutor(std::unique_ptr<ExecutorBase> e) {
    std::lock_guard<std::mutex> lock(g_mutex);
    const uintptr_t handle = ++g_lastHandle;
    g_live.emplace(handle, std::move(e));
    return reinterpret_cast<aclOpExecutor*>(handle);
}

std::unique_ptr<ExecutorBase> TakeExecutorIf(aclOpExecutor* x, bool (*match)(const ExecutorBase*)) {
    std::lock_guard<std::mutex> lock(g_mutex);
    auto it = g_live.find(reinterpret_cast<uintptr_t>(x));
    if (it == g_live.end() || !match(it->second.get())) return nullptr;
    std::unique_ptr<ExecutorBase> e = std::move(it->second);
    g_live.erase(it);
    return e;
}

}  // namespace xent

#ifndef ASCEND_XENT_WITH_CANN
// acl_meta.h's executor destructor (CANN's nnopbase provides it in a CANN build).
extern "C" aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor* executor) {
    if (!executor) return ACLNN_ERR_PARAM_NULLPTR;
    if (!xent::TakeExecutorIf(executor, [](const xent::ExecutorBase*) { return true; })) return ACLNN_ERR_PARAM_INVALID;
    return ACLNN_SUCCESS;
}
#endif

#include "executor_registry.h"

#include <mutex>
#include <unordered_set>

#include "aclnnop/aclnn_cross_entropy_loss_grad.h"  // ACLNN_* status codes

namespace xent {
namespace {
std::mutex g_mutex;
std::unordered_set<const ExecutorBase*> g_live;
}  // namespace

aclOpExecutor* RegisterExecutor(std::unique_ptr<ExecutorBase> e) {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_live.insert(e.get());
    return reinterpret_cast<aclOpExecutor*>(e.release());
}

std::unique_ptr<ExecutorBase> TakeExecutorIf(aclOpExecutor* x, bool (*match)(const ExecutorBase*)) {
    const auto* e = reinterpret_cast<const ExecutorBase*>(x);
    std::lock_guard<std::mutex> lock(g_mutex);
    auto it = g_live.find(e);
    if (it == g_live.end() || !match(*it)) return nullptr;
    g_live.erase(it);
    return std::unique_ptr<ExecutorBase>(const_cast<ExecutorBase*>(e));
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

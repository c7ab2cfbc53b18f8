// SimViolation, the fail() helper every check uses, warnings and the call site a report names.
#include <cstdarg>
#include <cstring>
#include <cstdio>
#include <mutex>
#include <set>

#include "ascend_sim/runtime_state.h"
#include "stack_site.h"

namespace ascend_sim {

SimViolation::SimViolation(std::string api, int64_t block, std::string rule, const std::string& what)
    : std::runtime_error(what), api_(std::move(api)), block_(block), rule_(std::move(rule)) {}

namespace detail {

thread_local Block* tls_block = nullptr;

int64_t block_idx_or_none() { return tls_block ? int64_t(tls_block->idx) : -1; }

Block& cur(const char* api) {
    if (!tls_block) fail(api, "outside a kernel", "called outside a kernel launch (run_kernel / ICPU_RUN_KF)");
    return *tls_block;
}

uint32_t block_num(const char* api) { return cur(api).num; }

bool site_enter(const CallSite& site) {
    // A call from the simulator's own headers (an API built on others) names no site.
    if (!tls_block || tls_block->site.file || std::strstr(site.file, "/ascend_sim/")) return false;
    tls_block->site = site;
    return true;
}

void site_leave() {
    if (tls_block) tls_block->site = CallSite{nullptr, 0};
}

std::string site_text(const char* api) {
    if (!tls_block) return std::string();
    std::string where, caller;
    if (tls_block->site.file) {  // an API that takes its call site
        where = std::string(tls_block->site.file) + ":" + std::to_string(tls_block->site.line);
        caller = tls_block->site.api ? tls_block->site.api : "";
    } else {  // a vector or advanced API: from the stack
        StackSite s = stack_site();
        where = std::move(s.where);
        caller = std::move(s.api);
    }
    if (where.empty()) return std::string();
    std::string t = " [at " + where;
    // A report from an API the kernel did not call itself: name the call it is part of.
    if (!caller.empty() && std::string(api).find(caller) == std::string::npos) t += ", in its " + caller + " call";
    return t + "]";
}

SimViolation violation(const char* api, const char* rule, const std::string& detail, const char* heading) {
    const int64_t b = block_idx_or_none();
    std::string what = "[ascend_sim] ";
    what += heading ? heading : api;
    if (b >= 0) what += " (block " + std::to_string(b) + ")";
    what += ": ";
    what += detail;
    if (b >= 0) what += site_text(api);
    return SimViolation(api, b, rule, what);
}

bool warn_first(const std::string& site) {
    static std::mutex mu;
    static std::set<std::string> seen;
    std::lock_guard<std::mutex> lk(mu);
    return seen.insert(site).second;
}

void print_warning(const std::string& message) { std::fprintf(stderr, "[ascend_sim] warning: %s\n", message.c_str()); }

void warn_once(const std::string& site, const std::string& message) {
    if (warn_first(site)) print_warning(message);
}

void fail(const char* api, const char* rule, const char* fmt, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    throw violation(api, rule, buf);
}

const char* pipe_name(int p) {
    static const char* n[] = {"PIPE_S", "PIPE_V", "PIPE_MTE2", "PIPE_MTE3"};
    return p >= 0 && p < P_COUNT ? n[p] : "PIPE_?";
}

std::string hex(uint64_t v) {
    char b[32];
    std::snprintf(b, sizeof b, "0x%04llx", (unsigned long long)v);
    return b;
}

const char* vec_op_name(VecOp op) {
    static const char* n[] = {"Exp",  "Ln",   "Add",       "Sub",       "Mul",       "Div",     "Max",
                              "Min",  "Adds", "Muls",      "Axpy",      "Duplicate", "Cast",    "ReduceSum",
                              "ReduceMax", "Compare", "CompareScalar", "Select", "Gather",
                              "Abs",  "Relu", "Sqrt", "Rsqrt", "Reciprocal", "Not", "And", "Or", "Maxs", "Mins",
                              "LeakyRelu", "Copy",
                              "WholeReduceSum", "WholeReduceMax", "WholeReduceMin", "BlockReduceSum", "BlockReduceMax",
                              "BlockReduceMin", "PairReduceSum", "ReduceRepeat", "ReduceDataBlock", "ReducePairElem", "Brcb", "GatherMask", "ReduceMin", "ShiftLeft", "ShiftRight",
                              "AddRelu", "SubRelu", "FusedMulAdd", "FusedMulAddRelu", "MulAddRelu", "MulAddDst", "CreateVecIndex", "Transpose", "Sort32", "MrgSort", "Gatherb", "TransDataTo5HD"};
    static_assert(sizeof(n) / sizeof(n[0]) == size_t(VecOp::COUNT), "names");
    return n[size_t(op)];
}

}  // namespace detail
}  // namespace ascend_sim

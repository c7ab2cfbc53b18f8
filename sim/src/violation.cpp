// SimViolation and the fail() helper every check uses.
#include <cstdarg>
#include <cstring>
#include <cstdio>
#include <mutex>
#include <set>

#include "ascend_sim/runtime_state.h"

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
    if (!tls_block || !tls_block->site.file) return std::string();
    const CallSite& s = tls_block->site;
    std::string t = std::string(" [at ") + s.file + ":" + std::to_string(s.line);
    // A report from an API the kernel did not call itself: name the call it is part of.
    if (s.api && std::string(api).find(s.api) == std::string::npos) t += std::string(", in its ") + s.api + " call";
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

void warn_once(const std::string& site, const std::string& message) {
    static std::mutex mu;
    static std::set<std::string> seen;
    {
        std::lock_guard<std::mutex> lk(mu);
        if (!seen.insert(site).second) return;
    }
    std::fprintf(stderr, "[ascend_sim] warning: %s\n", message.c_str());
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

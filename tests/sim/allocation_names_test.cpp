// Reports name a GM buffer by its allocation: aclrtMalloc#k and GmAlloc#k, the k-th
// call of each in the process, so that a report on one of several anonymous buffers
// says which.
#include <cstdint>
#include <regex>
#include <string>

#include "acl/acl.h"
#include "sim_test_util.h"
#include "tikicpulib.h"
#include "xtest.h"

using namespace AscendC;

namespace {
constexpr uint32_t kN = 64;

// Reads 2 * kN floats from a buffer of kN: past its end.
void read_past_end(float* x) {
    sim_test::Calc c(2 * kN * sizeof(float));
    auto t = c.get<float>();
    DataCopy(t, sim_test::global(x, 2 * kN), 2 * kN);
}

// The "<prefix>#<k>" the report on reading past x's end names, as k (-1 if none).
long long number_in_report(float* x, const std::string& prefix) {
    std::string what;
    try {
        ICPU_RUN_KF(read_past_end, 1, x);
    } catch (const ascend_sim::SimViolation& v) {
        what = v.what();
    }
    std::smatch m;
    if (!std::regex_search(what, m, std::regex(prefix + "#([0-9]+)\\+0x0000"))) return -1;
    return std::stoll(m[1].str());
}
}  // namespace

XTEST(reports_tell_anonymous_allocations_apart) {
    float *a = nullptr, *b = nullptr;
    XCHECK_EQ(aclrtMalloc((void**)&a, kN * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    XCHECK_EQ(aclrtMalloc((void**)&b, kN * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    const long long ka = number_in_report(a, "aclrtMalloc"), kb = number_in_report(b, "aclrtMalloc");
    XCHECK(ka > 0);
    XCHECK_EQ(kb, ka + 1);  // numbered in the order of the calls
    aclrtFree(a);
    aclrtFree(b);

    auto* x = (float*)GmAlloc(kN * 4);
    auto* y = (float*)GmAlloc(kN * 4);
    const long long kx = number_in_report(x, "GmAlloc"), ky = number_in_report(y, "GmAlloc");
    XCHECK(kx > 0);
    XCHECK_EQ(ky, kx + 1);
    GmFree(x);
    GmFree(y);
}

// bench_floor: CrossEntropyLossGrad against its floor on the timing model (a MODEL, not a
// measurement): the backward's modelled Task Duration (both launches when the sums run
// first) over that of a plain copy of the same bytes (floor_copy_kernel.h), per case; for
// one-row cases also over the model's launch cost alone.
//
// usage: bench_floor [--n N] [--c C] [--dtype fp32|fp16|bf16] [--ls X] [--weight] [--zloss]
//                    [--reduction mean|sum|none] [--cores K]  one case (--cores: at most K
//                    vector cores, as ascend_sim::set_cores)
//        bench_floor --table [--dtype D,...] [--classes C,...]
//                    the criterion's cases, markdown: N x C ~ 2^27 for each C, 131073 x 257,
//                    1 x C; every dtype (or those given) and option (plain, ls 0.1, weight,
//                    weight + ls 0.1)
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "ascend_sim/sim.h"
#include "floor_ratio.h"

namespace {

using xent_bench::BackwardCase;
using xent_bench::FloorRatio;

std::vector<std::string> Split(const std::string& s) {
    std::vector<std::string> v;
    for (size_t a = 0; a <= s.size();) {
        size_t b = s.find(',', a);
        if (b == std::string::npos) b = s.size();
        v.push_back(s.substr(a, b - a));
        a = b + 1;
    }
    return v;
}

std::string Launches(const FloorRatio& r) {
    std::string s;
    char buf[64];
    for (size_t i = 0; i < r.ours.size(); ++i) {
        std::snprintf(buf, sizeof buf, "%s%.1f", i ? " + " : "", r.ours[i].taskDurationUs);
        s += buf;
    }
    return s;
}

void PrintFloorRow(const BackwardCase& k, const FloorRatio& r) {
    std::printf("| %s | %u | %.1f | %.1f (%s) | %.3f |\n", xent_bench::CaseLabel(k).c_str(), r.ours.back().blockDim,
                r.floorUs, r.oursUs, Launches(r).c_str(), r.ratio);
    std::fflush(stdout);
}

void PrintLaunchRow(const BackwardCase& k, const FloorRatio& r) {
    std::printf("| %s | %u | %.2f | %.2f | %.2f | %.2f | %.2f |\n", xent_bench::CaseLabel(k).c_str(),
                r.ours.back().blockDim, r.oursLaunchCostUs, r.oneCoreLaunchCostUs, r.oursUs,
                r.oursUs / r.oursLaunchCostUs, r.oursUs / r.oneCoreLaunchCostUs);
    std::fflush(stdout);
}

const char* kFloorHead =
    "| case | cores | floor copy us | ours us (launches) | ours / floor |\n|---|---|---|---|---|\n";
const char* kLaunchHead =
    "| case | cores | launch cost us | one-core launch cost us | ours us | ours / launch cost | ours / one-core "
    "launch cost |\n|---|---|---|---|---|---|---|\n";

struct Variant {
    double ls;
    bool weight;
};
const Variant kVariants[] = {{0.0, false}, {0.1, false}, {0.0, true}, {0.1, true}};

int Table(const std::string& dtypes, const std::vector<int64_t>& classes) {
    std::vector<std::pair<int64_t, int64_t>> big;
    for (const int64_t cc : classes) big.push_back({std::llround(std::ldexp(1.0, 27) / double(cc)), cc});
    big.push_back({131073, 257});
    std::printf("MODEL (the simulator's timing model, not a measurement)\n\n%s", kFloorHead);
    for (const auto& [n, c] : big)
        for (const std::string& d : Split(dtypes))
            for (const Variant& v : kVariants) {
                BackwardCase k;
                k.n = n, k.c = c, k.dtype = d, k.labelSmoothing = v.ls, k.weight = v.weight;
                PrintFloorRow(k, xent_bench::ModelFloorRatio(k));
            }
    std::printf("\n%s", kLaunchHead);
    for (const int64_t c : classes)
        for (const std::string& d : Split(dtypes)) {
            BackwardCase k;
            k.n = 1, k.c = c, k.dtype = d;
            PrintLaunchRow(k, xent_bench::ModelFloorRatio(k));
        }
    return 0;
}

// The whole of `s` as an integer in [lo, hi], else an error naming the flag (atoll would take
// "abc" or "" as 0, which the case then divides by or indexes with).
int64_t ParseInt(const std::string& flag, const std::string& s, int64_t lo, int64_t hi = INT64_MAX) {
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(s.c_str(), &end, 10);
    if (s.empty() || std::isspace(static_cast<unsigned char>(s[0])) || *end != '\0' || errno == ERANGE || v < lo ||
        v > hi)
        throw std::invalid_argument(flag + ": expected an integer in [" + std::to_string(lo) + ", " +
                                    std::to_string(hi) + "], got \"" + s + "\"");
    return v;
}

double ParseReal(const std::string& flag, const std::string& s) {
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0') throw std::invalid_argument(flag + ": expected a number, got \"" + s + "\"");
    return v;
}

// --classes: a comma-separated list of class counts, each a whole number in [1, 2^27]
// (the table's case of C classes has N = 2^27 / C rows, at least one).
std::vector<int64_t> ParseClasses(const std::string& s) {
    std::vector<int64_t> v;
    for (const std::string& c : Split(s)) v.push_back(ParseInt("--classes", c, 1, int64_t(1) << 27));
    return v;
}

}  // namespace

int main(int argc, char** argv) {
    BackwardCase k;
    bool table = false;
    std::string dtypes = "fp32,fp16,bf16";
    std::vector<int64_t> classes = {257, 4096, 32000, 128256, 151936};
    try {
        for (int i = 1; i < argc; ++i) {
            const std::string a = argv[i];
            auto next = [&]() -> std::string {
                if (i + 1 >= argc) throw std::invalid_argument(a + ": expected a value");
                return argv[++i];
            };
            if (a == "--n") k.n = ParseInt(a, next(), 1);
            else if (a == "--c") k.c = ParseInt(a, next(), 1);
            else if (a == "--dtype") k.dtype = dtypes = next();
            else if (a == "--classes") classes = ParseClasses(next());
            else if (a == "--ls") k.labelSmoothing = ParseReal(a, next());
            else if (a == "--weight") k.weight = true;
            else if (a == "--zloss") k.zloss = true;
            else if (a == "--reduction") k.reduction = next();
            else if (a == "--table") table = true;
            else if (a == "--cores") ascend_sim::set_cores(uint32_t(ParseInt(a, next(), 0, UINT32_MAX)));
            else throw std::invalid_argument("unknown argument " + a);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_floor: %s\n", e.what());
        return 2;
    }
    aclInit(nullptr);
    int rc = 0;
    try {
        if (table) {
            rc = Table(dtypes, classes);
        } else {
            const FloorRatio r = xent_bench::ModelFloorRatio(k);
            std::printf("MODEL (the simulator's timing model, not a measurement)\n\n%s", kFloorHead);
            PrintFloorRow(k, r);
            if (k.n == 1) {
                std::printf("\n%s", kLaunchHead);
                PrintLaunchRow(k, r);
            }
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_floor: %s\n", e.what());
        rc = 1;
    }
    aclFinalize();
    return rc;
}

// The vendor's published Atlas A2 measurements and the configurations behind them
// (sources in timing_cases.h). Times in microseconds; -1: not published.
#include "timing_cases.h"

namespace {
constexpr double NA = -1;

TimingCase add(const char* name, const char* what, AddCase a, Measured m) {
    TimingCase c{name, what, true, a, {}, true, m};
    return c;
}
TimingCase copy(const char* name, const char* what, CopyCase k, Measured m) {
    TimingCase c{name, what, false, {}, k, false, m};
    return c;
}
}  // namespace

const std::vector<TimingCase>& timing_cases() {
    static const std::vector<TimingCase> cases = {
        // add_high_performance: z = x + y, half, 8192 x 8192.
        add("add 0", "1 core, scalar loop, 8 KB copies", {1, 4096, true, false, false, false},
            {1239689.1, 1239688.63, 0.015, 1233742.494, 5916.341, 2485.465}),
        add("add 1", "1 core, vector, 8 KB copies", {1, 4096, false, false, false, false},
            {6909.6, 6909.14, 761.65, 231.166, 6208.762, 2613.205}),
        add("add 2", "48 cores, 8 KB copies", {48, 4096, false, false, false, false, true},
            {306.58, 297.14, 15.885, 8.219, 215.485, 54.33}),
        add("add 3", "48 cores, 32 KB copies", {48, 16384, false, false, false, false, true},
            {268.5, 261.5, 12.845, 2.833, 184.369, 57.354}),
        add("add 4", "+ double buffer", {48, 16384, false, true, false, false},
            {264.02, 257.56, 12.846, 2.796, 250.528, 84.988}),
        add("add 5", "+ L2 bypass of x, y", {48, 16384, false, true, true, false},
            {187.68, 185.15, 12.846, 4.479, 175.997, 160.291}),
        add("add 6", "+ bank-group layout, 16256-element copies", {48, 16256, false, true, true, true},
            {184.52, 178.49, 6.954, 3.424, 171.611, 121.442}),
        // data_copy, GM -> UB, Atlas A2/A3 rows. aiv_time = aiv_total_cycles / (48 x 1.85 GHz);
        // scenarios 5 and 6 publish aiv_time, the others aiv_mte2_time.
        copy("copy 1", "12288 x 12288, tiles 1 x 64 (128 B)", {12288, 12288, 1, 64, 48},
             {564.84, 49222116 / 48 / 1850.0, NA, NA, 548.161, NA}),
        copy("copy 2", "12288 x 12288, tiles 64 x 64 (64 rows of 128 B)", {12288, 12288, 64, 64, 48},
             {233.54, 20167322 / 48 / 1850.0, NA, NA, 220.772, NA}),
        copy("copy 3", "12288 x 12288, tiles 64 x 1024 (64 rows of 2 KB)", {12288, 12288, 64, 1024, 48},
             {215.82, 18563430 / 48 / 1850.0, NA, NA, 202.657, NA}),
        copy("copy 4", "12288 x 12287 (unaligned rows), tiles 64 x 1024", {12288, 12287, 64, 1024, 48},
             {275.3, 23648813 / 48 / 1850.0, NA, NA, 259.047, NA}),
        copy("copy 5", "whole matrix read 4 times (L2 reuse)", {12288, 12288, 64, 1024, 48, 4, 0},
             {828.06, 816.05, NA, NA, NA, NA}),
        copy("copy 6", "each quarter of the columns read 4 times (L2 reuse)", {12288, 12288, 64, 1024, 48, 4, 4},
             {365.74, 354.56, NA, NA, NA, NA}),
        copy("copy 7", "6144 x 512, every core reads all of it, same order", {6144, 512, 128, 64, 48, 1, 0, true, false},
             {539.42, 42823246 / 48 / 1850.0, NA, NA, 474.717, NA}),
        copy("copy 8", "6144 x 512, every core reads all of it, staggered", {6144, 512, 128, 64, 48, 1, 0, true, true},
             {328.88, 28054500 / 48 / 1850.0, NA, NA, 307.38, NA}),
    };
    return cases;
}

ascend_sim::LaunchTiming run_case(const TimingCase& c) {
    ascend_sim::set_timing(1);
    ascend_sim::LaunchTiming t = c.isAdd ? run_add_case(c.add) : run_copy_case(c.copy);
    ascend_sim::set_timing(-1);
    return t;
}

// The timing model against the vendor's published Atlas A2 measurements
// (timing_cases.cpp): the add cases it was fitted on within 10% on Task Duration and
// aiv_mte2_time, and each held-out data_copy scenario within the error that
// docs/timing_model.md states for it: a change to the model that moves a prediction
// past its stated error fails here, and the table in the docs must be redone.
#include <cmath>
#include <cstdio>
#include <map>
#include <string>

#include "../cpp/xtest.h"
#include "timing_cases.h"

namespace {

// Held-out: the errors docs/timing_model.md states, per case, on Task Duration and
// aiv_mte2_time (or aiv_time where mte2 is not published), rounded up with 2 points to
// spare to the next 5. Scenarios 1, 4, 7 and 8 are the documented misses.
const std::map<std::string, double>& stated() {
    static const std::map<std::string, double> m = {
        {"copy 1", 0.70}, {"copy 2", 0.20}, {"copy 3", 0.10}, {"copy 4", 0.30},
        {"copy 5", 0.10}, {"copy 6", 0.20}, {"copy 7", 0.65}, {"copy 8", 0.40},
    };
    return m;
}

void check_case(const TimingCase& c) {
    const ascend_sim::LaunchTiming t = run_case(c);
    XCHECK(t.valid);
    const double bound = c.calibration ? 0.10 : stated().at(c.name);
    const double td = t.taskDurationUs / c.measured.taskDurationUs - 1;
    std::printf("%-7s Task Duration %+6.1f%%", c.name.c_str(), 100 * td);
    XCHECK(std::fabs(td) <= bound);
    if (c.measured.mte2Us > 0) {
        const double e = t.busy.mte2 / c.measured.mte2Us - 1;
        std::printf("  aiv_mte2_time %+6.1f%%", 100 * e);
        XCHECK(std::fabs(e) <= bound);
    } else {
        const double e = t.aivTimeUs / c.measured.aivTimeUs - 1;
        std::printf("  aiv_time %+6.1f%%", 100 * e);
        XCHECK(std::fabs(e) <= bound);
    }
    std::printf("  (bound %.0f%%)\n", 100 * bound);
}

}  // namespace

XTEST(calibration_cases_within_ten_percent) {
    for (const TimingCase& c : timing_cases())
        if (c.calibration) check_case(c);
}

XTEST(held_out_cases_within_their_stated_error) {
    for (const TimingCase& c : timing_cases())
        if (!c.calibration) check_case(c);
}

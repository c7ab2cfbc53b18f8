// The timing model against the vendor's published Atlas A2 measurements.
//
//   timing_validation              every case: measured, modelled, error (markdown)
//   timing_validation --calibrate  fits the fitted constants on the add cases only
//                                  and prints them (sim/src/timing_params.cpp)
//   --skip NAME                    leaves a case out (e.g. --skip "add 0": its scalar
//                                  loop takes about a minute on the simulator)
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "timing_cases.h"

namespace {

struct Field {
    const char* name;
    double Measured::*measured;
    std::function<double(const ascend_sim::LaunchTiming&)> model;
    double weight;  // in the calibration's loss
};

const std::vector<Field>& fields() {
    static const std::vector<Field> f = {
        {"Task Duration", &Measured::taskDurationUs, [](const auto& t) { return t.taskDurationUs; }, 3},
        {"aiv_time", &Measured::aivTimeUs, [](const auto& t) { return t.aivTimeUs; }, 1},
        {"aiv_mte2_time", &Measured::mte2Us, [](const auto& t) { return t.busy.mte2; }, 3},
        {"aiv_mte3_time", &Measured::mte3Us, [](const auto& t) { return t.busy.mte3; }, 0.5},
        {"aiv_vec_time", &Measured::vecUs, [](const auto& t) { return t.busy.vec; }, 0.5},
        {"aiv_scalar_time", &Measured::scalarUs, [](const auto& t) { return t.busy.scalar; }, 0.2},
    };
    return f;
}

double error(double model, double measured) { return model / measured - 1; }

struct Recorded {
    const TimingCase* c;
    std::shared_ptr<const ascend_sim::TimingRecording> rec;
};

double loss(const std::vector<Recorded>& runs, const ascend_sim::TimingParams& p) {
    double sum = 0;
    for (const Recorded& r : runs) {
        const ascend_sim::LaunchTiming t = ascend_sim::retime(*r.rec, p);
        for (const Field& f : fields()) {
            const double m = r.c->measured.*f.measured;
            if (m <= 0.02) continue;  // not published, or too small to weigh (case 0's vector time)
            const double e = std::log(std::max(f.model(t), 1e-9) / m);
            sum += f.weight * e * e;
        }
    }
    return sum;
}

// Coordinate descent in log space over the fitted constants.
ascend_sim::TimingParams fit(const std::vector<Recorded>& runs, ascend_sim::TimingParams p) {
    // coreReadBytesPerCycle and coreL2ReadBytesPerCycle are published (Ascend910B2.ini), not fitted.
    std::vector<double*> knobs = {&p.hbmBytesPerCycle, &p.coreWriteBytesPerCycle, &p.readLatencyCycles,
                                  &p.dmaIssueCycles,   &p.writeBackFactor,        &p.vecIssueCycles,
                                  &p.scalarIssueCycles, &p.scalarUbCycles,        &p.launchUs,
                                  &p.launchUsPerBlock};
    double best = loss(runs, p), step = 0.25;
    for (int round = 0; round < 200 && step > 0.01; ++round) {
        const double before = best;
        bool improved = false;
        for (double* k : knobs) {
            for (double f : {1 + step, 1 / (1 + step)}) {
                const double keep = *k;
                *k = keep == 0 ? (f > 1 ? 1.0 : 0.0) : keep * f;
                const double l = loss(runs, p);
                if (l < best - 1e-12) {
                    best = l;
                    improved = true;
                    break;
                }
                *k = keep;
            }
        }
        if (!improved || before - best < 1e-3 * before) step /= 2;  // converged at this step
        std::fprintf(stderr, "round %d: loss %.5f step %.3f\n", round, best, step);
    }
    return p;
}

void print_params(const ascend_sim::TimingParams& p) {
    std::printf("    p.hbmBytesPerCycle = %.4g;\n    p.coreReadBytesPerCycle = %.4g;\n    p.coreWriteBytesPerCycle = %.4g;\n"
                "    p.readLatencyCycles = %.4g;\n    p.dmaIssueCycles = %.4g;\n"
                "    p.writeBackFactor = %.4g;\n    p.vecIssueCycles = %.4g;\n    p.scalarIssueCycles = %.4g;\n"
                "    p.scalarUbCycles = %.4g;\n    p.launchUs = %.4g;\n    p.launchUsPerBlock = %.4g;\n",
                p.hbmBytesPerCycle, p.coreReadBytesPerCycle, p.coreWriteBytesPerCycle, p.readLatencyCycles, p.dmaIssueCycles, p.writeBackFactor, p.vecIssueCycles, p.scalarIssueCycles,
                p.scalarUbCycles, p.launchUs, p.launchUsPerBlock);
}

}  // namespace

int main(int argc, char** argv) {
    bool calibrate = false;
    std::vector<std::string> skip;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--calibrate")) calibrate = true;
        else if (!std::strcmp(argv[i], "--skip") && i + 1 < argc) skip.push_back(argv[++i]);
        else {
            std::fprintf(stderr, "usage: %s [--calibrate] [--skip NAME]...\n", argv[0]);
            return 2;
        }
    }
    const auto skipped = [&](const TimingCase& c) {
        for (const auto& s : skip)
            if (s == c.name) return true;
        return false;
    };
    ascend_sim::TimingParams p = ascend_sim::timing_params("ascend910b");
    if (calibrate) {
        std::vector<Recorded> runs;
        for (const TimingCase& c : timing_cases())
            if (c.calibration && !skipped(c)) {
                run_case(c);
                runs.push_back({&c, ascend_sim::last_launch_recording()});
                std::fprintf(stderr, "recorded %s\n", c.name.c_str());
            }
        p = fit(runs, p);
        print_params(p);
        for (const Recorded& r : runs) {
            const ascend_sim::LaunchTiming t = ascend_sim::retime(*r.rec, p);
            for (const Field& f : fields())
                if (r.c->measured.*f.measured > 0)
                    std::printf("%s %s %+.1f%%\n", r.c->name.c_str(), f.name,
                                100 * error(f.model(t), r.c->measured.*f.measured));
        }
        return 0;
    }
    std::printf("| case | what | field | measured (us) | model (us) | error |\n|---|---|---|---|---|---|\n");
    for (const TimingCase& c : timing_cases()) {
        if (skipped(c)) continue;
        const ascend_sim::LaunchTiming t = run_case(c);
        for (const Field& f : fields()) {
            const double m = c.measured.*f.measured;
            if (m < 0) continue;
            std::printf("| %s%s | %s | %s | %.2f | %.2f | %+.1f%% |\n", c.name.c_str(), c.calibration ? " (fit)" : "",
                        c.what.c_str(), f.name, m, f.model(t), 100 * error(f.model(t), m));
        }
        std::fflush(stdout);
    }
    return 0;
}

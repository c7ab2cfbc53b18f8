// The timing model's test suite: kernels of our own reproducing the configurations
// the vendor measured on Atlas A2, and those measurements.
//
// Sources (facts only, nothing copied): asc-devkit (mirror-cann/asc-devkit @82b89a15),
//   examples/01_simd_cpp_api/05_best_practices/00_vector_compute/add_high_performance/README_en.md
//     ("Performance Data" of cases 0-6, Atlas A2 Training Series);
//   examples/01_simd_cpp_api/05_best_practices/04_memory_access/data_copy/README_en.md
//     ("GM to UB Performance Data", Atlas A2/A3 rows, scenarios 1-8).
// The add cases calibrate the model (tests/timing/calibrate_timing.cpp); the data_copy
// scenarios are held out: the model never saw them.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include "ascend_sim/sim.h"
#include "ascend_sim/timing.h"

struct AddCase {
    uint32_t cores, copyLen;
    bool scalar, doubleBuffer, bypass, bankOffset;
    // Cases 2 and 3 (the guide's Process()) move data "serially": a chunk's copy-in
    // waits for the previous copy-out. Case 1 (ProcessSingle()) does not: its published
    // MTE2 + MTE3 + vector times exceed its aiv_time, so its copies overlapped.
    bool serial = false;
    uint32_t rows = 8192, cols = 8192;
};

struct CopyCase {
    uint32_t rows, cols, tileM, tileN, cores;
    uint32_t repeats = 1, slices = 0;  // slices > 0: each column slice repeated in turn
    bool everyCoreWholeMatrix = false, stagger = false;
};

// A published measurement; a field the source does not give is negative.
struct Measured {
    double taskDurationUs, aivTimeUs, vecUs, scalarUs, mte2Us, mte3Us;
};

struct TimingCase {
    std::string name;  // as the source numbers it
    std::string what;
    bool calibration;  // true: an add case the constants were fitted on
    AddCase add{};
    CopyCase copy{};
    bool isAdd;
    Measured measured;
};

const std::vector<TimingCase>& timing_cases();

// Host memory standing in for an HBM allocation: aligned as the device's are (2 MiB),
// so that rows fall on L2 lines as they would there.
template <class T>
class DeviceBuffer {
public:
    explicit DeviceBuffer(size_t n)
        : n_(n), p_(static_cast<T*>(std::aligned_alloc(kAlign, (n * sizeof(T) + kAlign - 1) / kAlign * kAlign))) {
        if (!p_) throw std::bad_alloc();
    }
    ~DeviceBuffer() { std::free(p_); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    T* data() const { return p_; }
    size_t size() const { return n_; }
    T& operator[](size_t i) const { return p_[i]; }

private:
    static constexpr size_t kAlign = 2u << 20;
    size_t n_;
    T* p_;
};

ascend_sim::LaunchTiming run_add_case(const AddCase& c);
ascend_sim::LaunchTiming run_copy_case(const CopyCase& c);
// Runs a case with timing on (its trace stays the thread's last launch).
ascend_sim::LaunchTiming run_case(const TimingCase& c);

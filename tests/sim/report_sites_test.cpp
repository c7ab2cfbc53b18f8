// Reports name the kernel's line that made the failing call (the APIs that take it:
// DataCopy, the queue and pipe calls, synchronisation, scalar accesses), and the
// queue or TBuf a UB range belongs to, by the InitBuffer line that made it; both at
// the end, after the rule's own text.
#include <functional>
#include <string>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "xtest.h"

using namespace AscendC;
using ascend_sim::run_kernel;

namespace {
std::string at(int line) { return std::string("[at ") + __FILE__ + ":" + std::to_string(line); }

std::string violation_of(const char* name, const std::function<void()>& body) {
    try {
        run_kernel(name, 1, body);
    } catch (const ascend_sim::SimViolation& v) {
        return v.what();
    }
    return "no violation";
}
}  // namespace

XTEST(a_violation_names_the_call_line) {
    int callLine = 0;
    const std::string what = violation_of("bad_copy", [&] {
        sim_test::Gm<float> x(64, "x");
        sim_test::Calc c(256);
        LocalTensor<float> t = c.get<float>();
        callLine = __LINE__ + 1;
        DataCopy(t, sim_test::global(x.p, 64), 1024);  // beyond the 64 floats of the TBuf
    });
    XCHECK(what.find("DataCopy (block 0): ") != std::string::npos);
    XCHECK(what.find(at(callLine) + "]") != std::string::npos);
}

// A queue call that breaks the queue's order: named at the kernel's line.
XTEST(a_queue_report_names_the_call_line) {
    int callLine = 0;
    const std::string what = violation_of("double_free", [&] {
        TPipe pipe;
        TQue<TPosition::VECIN, 1> que;
        pipe.InitBuffer(que, 1, 256);
        LocalTensor<float> t = que.AllocTensor<float>();
        que.FreeTensor(t);
        callLine = __LINE__ + 1;
        que.FreeTensor(t);
    });
    XCHECK(what.find("TQue::FreeTensor (block 0): ") != std::string::npos);
    XCHECK(what.find(at(callLine) + "]") != std::string::npos);
}

XTEST(ub_ranges_name_their_queue_and_initbuffer_line) {
    int initLine = 0;
    const std::string err = sim_test::captured(stderr, [&] {
        run_kernel("unwritten_read", 1, [&] {
            TPipe pipe;
            TQue<TPosition::VECIN, 2> que;
            initLine = __LINE__ + 1;
            pipe.InitBuffer(que, 2, 256);
            LocalTensor<float> a = que.AllocTensor<float>();
            LocalTensor<float> b = que.AllocTensor<float>();
            Duplicate(a, 0.0f, 64);
            PipeBarrier<PIPE_V>();
            Add(a, a, b, 64);  // b never written
            que.FreeTensor(a);
            que.FreeTensor(b);
        });
    });
    XCHECK(err.find("Add (block 0): uninitialised read: src1 UB [0x0100, 0x0200) (256 B) was never written since "
                    "InitBuffer (first unwritten byte at 0x0100); UB 0x0100 is in buffer 2 of 2 of the queue of "
                    "InitBuffer at " __FILE__ ":" + std::to_string(initLine) + " (at +0x0000)") != std::string::npos);
}

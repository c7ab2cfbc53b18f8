// Reports name the kernel's line that made the failing call (the APIs that take it:
// DataCopy, the queue and pipe calls, synchronisation, scalar accesses; the vector and
// advanced APIs from the stack, through a function pointer too), and the
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

// The vector and advanced APIs keep CANN's signatures (kernels take pointers to them):
// their reports find the kernel's line on the stack, from the debug info (this test is
// built with -g, as a CPU-twin debug build is).
namespace {
std::string line_of(int line) {
    const std::string file = __FILE__;
    return file.substr(file.find_last_of('/') + 1) + ":" + std::to_string(line) + "]";
}
}  // namespace

XTEST(a_vector_report_names_the_call_line) {
    const sim_test::PastTensor error(2);  // a write past the tensor stops
    int callLine = 0;
    const std::string what = violation_of("bad_exp", [&] {
        sim_test::Calc c(256);
        LocalTensor<float> t = c.get<float>();
        callLine = __LINE__ + 1;
        Exp(t, t, 1024);  // 4096 B into a 256 B dst
    });
    XCHECK(what.find("Exp (block 0): write past the tensor: dst writes UB [0x0000, 0x1000) (4096 B)") !=
           std::string::npos);
    XCHECK(what.find(line_of(callLine)) != std::string::npos);
}

XTEST(a_vector_api_called_through_a_pointer_names_the_call_line) {
    void (*exp)(const LocalTensor<float>&, const LocalTensor<float>&, const int32_t&) = &Exp<float>;
    const sim_test::PastTensor error(2);
    int callLine = 0;
    const std::string what = violation_of("bad_exp_pointer", [&] {
        sim_test::Calc c(256);
        LocalTensor<float> t = c.get<float>();
        callLine = __LINE__ + 1;
        exp(t, t, 1024);
        PipeBarrier<PIPE_V>();  // (a call in tail position may be a jump, which leaves no frame)
    });
    XCHECK(what.find("Exp (block 0): ") != std::string::npos);
    XCHECK(what.find(line_of(callLine)) != std::string::npos);
}

XTEST(an_advanced_api_report_names_the_kernel_line_and_its_call) {
    ascend_sim::set_initcheck(2);
    int callLine = 0;
    const std::string what = violation_of("unwritten_sigmoid", [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a, b, tmp;
        pipe.InitBuffer(a, 256);
        pipe.InitBuffer(b, 256);
        pipe.InitBuffer(tmp, 256);
        callLine = __LINE__ + 1;
        Sigmoid(a.Get<float>(), b.Get<float>(), tmp.Get<uint8_t>(), 64);  // b never written
    });
    ascend_sim::set_initcheck(-1);
    XCHECK(what.find("Muls (block 0): uninitialised read") != std::string::npos);
    XCHECK(what.find(line_of(callLine).substr(0, line_of(callLine).size() - 1) + ", in its Sigmoid call]") !=
           std::string::npos);
}

XTEST(a_vector_warning_names_the_call_line) {
    int callLine = 0;
    const std::string err = sim_test::captured(stderr, [&] {
        run_kernel("small_compare", 1, [&] {
            TPipe pipe;
            TBuf<TPosition::VECCALC> a, m;
            pipe.InitBuffer(a, 32);
            pipe.InitBuffer(m, 32);
            LocalTensor<float> x = a.Get<float>();
            Duplicate(x, 1.0f, 8);
            PipeBarrier<PIPE_V>();
            callLine = __LINE__ + 1;
            CompareScalar(m.Get<uint8_t>(), x, 0.5f, CMPMODE::GT, 64);  // 224 B past x
        });
    });
    XCHECK(err.find("warning: CompareScalar (block 0): read past the tensor") != std::string::npos);
    XCHECK(err.find(line_of(callLine)) != std::string::npos);
}

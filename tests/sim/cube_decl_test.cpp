// The compile-only cube declarations (kernel_cube_decl.h): a kernel that
// calls one stops with a violation naming the API.
#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "sim_test_util.h"
#include "xtest.h"

using namespace AscendC;
using ascend_sim::run_kernel;
using sim_test::global;
using sim_test::Gm;

XTEST(nd2nz_data_copy_is_a_violation_naming_the_cube_unit) {
    Gm<half> src(256, "src");
    XCHECK_THROWS_WITH(run_kernel("nd2nz", 1,
                                  [&] {
                                      sim_test::Calc c(512);
                                      const Nd2NzParams p{1, 16, 16, 0, 16, 16, 1, 0};
                                      XCHECK_EQ(p.dValue, 16);
                                      XCHECK_EQ(p.dstNzC0Stride, 16);
                                      DataCopy(c.get<half>(), global(src.p, 256), p);
                                  }),
                       "DataCopy (block 0)", "cube unit not modelled", "Nd2NzParams");
}

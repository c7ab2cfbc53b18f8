// ListTensorDesc / TensorDesc (kernel_operator_list_tensor_intf.h): a
// descriptor laid out in GM as the documentation describes, decoded in a kernel.
#include <cstdint>
#include <vector>

#include "ascend_sim/sim.h"
#include "kernel_operator.h"
#include "kernel_operator_list_tensor_intf.h"
#include "sim_test_util.h"
#include "xtest.h"

using namespace AscendC;
using ascend_sim::run_kernel;
using sim_test::Gm;

namespace {
// Three 2-D tensors [rows_i, 16]: the offset word, three (dim | index << 32,
// shape...) descriptors, three data pointers.
struct List {
    Gm<float> a{32, "a"}, b{48, "b"}, c{16, "c"};
    Gm<uint64_t> desc{1 + 3 * 3 + 3, "desc"};
    List() {
        uint64_t* w = desc.p;
        w[0] = (1 + 3 * 3) * 8;
        const uint64_t rows[3] = {2, 3, 1};
        for (uint64_t i = 0; i < 3; ++i) {
            w[1 + 3 * i] = 2 | (i << 32);
            w[2 + 3 * i] = rows[i];
            w[3 + 3 * i] = 16;
        }
        w[10] = uint64_t(a.p);
        w[11] = uint64_t(b.p);
        w[12] = uint64_t(c.p);
    }
};
}  // namespace

XTEST(a_list_descriptor_gives_its_tensors_and_shapes) {
    List l;
    uint32_t size = 0, dim = 0;
    uint64_t shape[2] = {0, 0}, index = 0, objSize = 0;
    float* ptrs[3] = {};
    run_kernel("list_tensor", 1, [&] {
        ListTensorDesc d(l.desc.p, (1 + 3 * 3 + 3) * 8, 3);
        size = d.GetSize();
        for (uint32_t i = 0; i < 3; ++i) ptrs[i] = d.GetDataPtr<float>(i);
        TensorDesc<float> t;
        uint64_t buf[2];
        t.SetShapeAddr(buf);
        d.GetDesc(t, 1);
        dim = uint32_t(t.GetDim());
        index = t.GetIndex();
        shape[0] = t.GetShape(0);
        shape[1] = t.GetShape(1);
        objSize = t.GetDataObj().GetSize();
    });
    XCHECK_EQ(size, 3u);
    XCHECK(ptrs[0] == l.a.p && ptrs[1] == l.b.p && ptrs[2] == l.c.p);
    XCHECK_EQ(dim, 2u);
    XCHECK_EQ(index, uint64_t(1));
    XCHECK_EQ(shape[0], uint64_t(3));
    XCHECK_EQ(shape[1], uint64_t(16));
    XCHECK_EQ(objSize, uint64_t(3 * 16 * sizeof(float)));  // dav_c220 passes bytes as the element count
}

XTEST(a_pointer_only_list_has_the_fixed_layout) {
    Gm<float> x(8, "x");
    Gm<uint64_t> desc(4, "desc");
    desc.p[0] = 24;
    desc.p[1] = uint64_t(1) << 32;  // dim 0, one tensor
    desc.p[2] = 0xffffffff;
    desc.p[3] = uint64_t(x.p);
    float* got = nullptr;
    run_kernel("list_ptrs", 1, [&] { got = ListTensorDesc(desc.p).GetDataPtr<float>(0); });
    XCHECK(got == x.p);
}

XTEST(list_descriptor_refusals) {
    List l;
    XCHECK_THROWS_WITH(run_kernel("list_bad_index", 1, [&] { ListTensorDesc(l.desc.p).GetDataPtr<float>(3); }),
                       "ListTensorDesc::GetDataPtr", "index 3 is not below the list's 3 tensors");
    XCHECK_THROWS_WITH(run_kernel("list_bad_len", 1, [&] { ListTensorDesc(l.desc.p, 96, 3); }), "ListTensorDesc",
                       "length differs");
    l.desc.p[0] = 12 * 8;  // one word too many before the pointers
    XCHECK_THROWS_WITH(run_kernel("list_bad_offset", 1, [&] { ListTensorDesc d(l.desc.p); }), "ListTensorDesc",
                       "does not match the data pointer offset");
    XCHECK_THROWS_WITH(run_kernel("list_no_shape", 1,
                                  [&] {
                                      l.desc.p[0] = 10 * 8;
                                      ListTensorDesc d(l.desc.p);
                                      TensorDesc<float> t;
                                      d.GetDesc(t, 0);
                                  }),
                       "ListTensorDesc::GetDesc", "SetShapeAddr");
}

// A device tensor of the acl API (aclrtMalloc'd memory and its aclTensor), and a float
// stored as any of the three element types: the benchmarks' inputs.
#pragma once
#include <cstdint>
#include <vector>

#include "acl/acl.h"
#include "kernel_operator.h"

namespace xent_bench {

struct Dev {
    void* p = nullptr;
    aclTensor* t = nullptr;
    size_t bytes = 0;
    Dev(std::vector<int64_t> shape, aclDataType dt) {
        int64_t numel = 1;
        for (int64_t d : shape) numel *= d;
        bytes = size_t(numel) * aclDataTypeSize(dt);
        if (bytes) aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
        std::vector<int64_t> strides(shape.size(), 1);
        for (int64_t i = int64_t(shape.size()) - 2; i >= 0; --i)
            strides[size_t(i)] = shape[size_t(i + 1)] * strides[size_t(i + 1)];
        t = aclCreateTensor(shape.data(), shape.size(), dt, strides.data(), 0, ACL_FORMAT_ND, shape.data(),
                            shape.size(), p);
    }
    ~Dev() {
        aclDestroyTensor(t);
        if (p) aclrtFree(p);
    }
    Dev(const Dev&) = delete;
    Dev& operator=(const Dev&) = delete;
};

inline void StoreAs(aclDataType t, void* dst, size_t i, float v) {
    if (t == ACL_FLOAT) static_cast<float*>(dst)[i] = v;
    else if (t == ACL_FLOAT16) static_cast<half*>(dst)[i] = half(v);
    else static_cast<bfloat16_t*>(dst)[i] = bfloat16_t(v);
}

}  // namespace xent_bench

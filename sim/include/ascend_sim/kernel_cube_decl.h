// Cube-unit declarations, compile-only: a program whose vector kernel the
// simulator runs may also define a cube kernel it launches only in another
// configuration (05_best_practices/04_memory_access/data_copy: the L1
// scenarios). Its source compiles against these; calling one is a violation
// "cube unit not modelled" naming the API (the simulator has no L1/L0).
// CANN: kernel_struct_data_copy.h :: Nd2NzParams,
// kernel_operator_data_copy_intf.h :: DataCopy(LocalTensor, GlobalTensor, Nd2NzParams).
#pragma once
#include <cstdint>

#include "device_runtime.h"
#include "kernel_tensor.h"

namespace AscendC {

struct Nd2NzParams {
    Nd2NzParams() {}
#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 3510)
    using Count = uint16_t;
    using Len = uint32_t;
    using SrcStride = uint64_t;
    using MatrixStride = uint32_t;
#else
    using Count = uint16_t;
    using Len = uint16_t;
    using SrcStride = uint16_t;
    using MatrixStride = uint16_t;
#endif
    Nd2NzParams(const Count ndNumIn, const Count nValueIn, const Len dValueIn, const SrcStride srcNdMatrixStrideIn,
                const SrcStride srcDValueIn, const uint16_t dstNzC0StrideIn, const uint16_t dstNzNStrideIn,
                const MatrixStride dstNzMatrixStrideIn)
        : ndNum(ndNumIn), nValue(nValueIn), dValue(dValueIn), srcNdMatrixStride(srcNdMatrixStrideIn),
          srcDValue(srcDValueIn), dstNzC0Stride(dstNzC0StrideIn), dstNzNStride(dstNzNStrideIn),
          dstNzMatrixStride(dstNzMatrixStrideIn) {}
    Count ndNum = 0;
    Count nValue = 0;
    Len dValue = 0;
    SrcStride srcNdMatrixStride = 0;
    SrcStride srcDValue = 0;
    uint16_t dstNzC0Stride = 0;
    uint16_t dstNzNStride = 0;
    MatrixStride dstNzMatrixStride = 0;
};

// GM -> L1 (A1/B1) with the ND-to-NZ layout change.
template <typename T>
void DataCopy(const LocalTensor<T>&, const GlobalTensor<T>&, const Nd2NzParams&) {
    ascend_sim::detail::fail("DataCopy", "cube unit not modelled",
                             "cube unit not modelled: DataCopy with Nd2NzParams (GM->L1) runs on the cube core's MTE2 into L1, which "
                             "the simulator does not model");
}

}  // namespace AscendC

// The checks the elementwise math APIs share (asc-devkit impl/adv_api/detail/
// api_check/kernel_check/math/math_common_check.h :: CheckFuncClassMathCommon::
// CommonVerifyingParameters): half or float, calCount within dst and src, and
// dst, src and the sharedTmpBuffer pairwise disjoint.
#pragma once
#include <cstdint>
#include <type_traits>

#include "../kernel_tensor.h"
#include "../kernel_vec_mask.h"
#include "adv_check.h"

namespace AscendC {
namespace sim_adv {

template <class T>
void math_checks(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                 const LocalTensor<uint8_t>& tmp, uint32_t count) {
    check_count(api, count, src, "srcTensor");
    check_count(api, count, dst, "dstTensor");
    check_disjoint(api, src, count, "srcTensor", dst, count, "dstTensor");
    check_disjoint(api, tmp, tmp.GetSize(), "sharedTmpBuffer", src, count, "srcTensor");
    check_disjoint(api, tmp, tmp.GetSize(), "sharedTmpBuffer", dst, count, "dstTensor");
}

// The Counter-mode loop the math APIs run: `split` elements a chunk, then the
// tail, each chunk(offset) under the matching count; Normal mode and a full
// mask after it.
template <class T, class Chunk>
void counter_chunks(uint32_t count, uint32_t split, Chunk&& chunk) {
    SetMaskCount();
    SetVectorMask<T, MaskMode::COUNTER>(0, split);
    uint32_t offset = 0;
    for (; split != 0 && offset + split <= count; offset += split) chunk(offset);
    if (offset < count) {
        SetVectorMask<T, MaskMode::COUNTER>(0, count - offset);
        chunk(offset);
    }
    SetMaskNorm();
    ResetMask();
}

}  // namespace sim_adv
}  // namespace AscendC

// Xor of int16_t/uint16_t (asc-devkit include/adv_api/math/xor.h; dav_c220:
// impl/adv_api/detail/math/xor/xor_membase_impl.h :: XorImpl,
// XorCalcSimplified; xor_common_impl.h :: IsXorParamValid): Counter-mode
// chunks of the tmp's elements rounded down to 32, each
// (x | y) & ~(x & y) through And, Or, Not, And with the tmp holding x | y.
// xor_check_common.h: dst disjoint from src0, src1 and the tmp, and the tmp
// from both sources.
#pragma once
#include <cstdint>
#include <type_traits>

#include "../kernel_sync.h"
#include "../kernel_vec_binary.h"
#include "../kernel_vec_unary.h"
#include "math_common.h"

namespace AscendC {

template <typename T, bool isReuseSource = false>
void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
         const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
    static_assert(std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t>, "Xor: A2/A3 support int16_t and uint16_t");
    constexpr const char* api = "Xor";
    sim_adv::check_count(api, calCount, src0Tensor, "src0Tensor");
    sim_adv::check_count(api, calCount, src1Tensor, "src1Tensor");
    sim_adv::check_count(api, calCount, dstTensor, "dstTensor");
    sim_adv::check_disjoint(api, src0Tensor, calCount, "src0Tensor", dstTensor, calCount, "dstTensor");
    sim_adv::check_disjoint(api, src1Tensor, calCount, "src1Tensor", dstTensor, calCount, "dstTensor");
    const uint32_t tmpBytes = sharedTmpBuffer.GetSize();
    sim_adv::check_disjoint(api, sharedTmpBuffer, tmpBytes, "sharedTmpBuffer", dstTensor, calCount, "dstTensor");
    sim_adv::check_disjoint(api, sharedTmpBuffer, tmpBytes, "sharedTmpBuffer", src0Tensor, calCount, "src0Tensor");
    sim_adv::check_disjoint(api, sharedTmpBuffer, tmpBytes, "sharedTmpBuffer", src1Tensor, calCount, "src1Tensor");
    // IsXorParamValid: at least 32 elements of tmp to split the work by.
    const uint32_t split = tmpBytes / sizeof(T) / ONE_BLK_SIZE * ONE_BLK_SIZE;
    if (split == 0)
        sim_adv::d::fail(api, "sharedTmpBuffer below the minimum",
                         "sharedTmpBuffer holds %u B, less than the %zu B of 32 elements the chunks need", tmpBytes,
                         ONE_BLK_SIZE * sizeof(T));
    const LocalTensor<T> orTmp = sharedTmpBuffer.ReinterpretCast<T>();
    const BinaryRepeatParams b;
    sim_adv::counter_chunks<T>(calCount, split, [&](uint32_t at) {
        const LocalTensor<T> dst = dstTensor[at], x = src0Tensor[at], y = src1Tensor[at];
        And<T, false>(dst, x, y, MASK_PLACEHOLDER, 1, b);
        Or<T, false>(orTmp, x, y, MASK_PLACEHOLDER, 1, b);
        PipeBarrier<PIPE_V>();
        Not<T, false>(dst, dst, MASK_PLACEHOLDER, 1, UnaryRepeatParams{});
        PipeBarrier<PIPE_V>();
        And<T, false>(dst, orTmp, dst, MASK_PLACEHOLDER, 1, b);
        PipeBarrier<PIPE_V>();
    });
}
// xor.h: without calCount src0's size (src0 and src1 the same size); without
// sharedTmpBuffer the stack buffer.
template <typename T, bool isReuseSource = false>
void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
         const LocalTensor<uint8_t>& sharedTmpBuffer) {
    if (src0Tensor.GetSize() != src1Tensor.GetSize())
        sim_adv::d::fail("Xor", "source sizes differ",
                         "src0Tensor holds %u elements and src1Tensor %u: without calCount they must be equal",
                         src0Tensor.GetSize(), src1Tensor.GetSize());
    Xor<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer, src0Tensor.GetSize());
}
template <typename T, bool isReuseSource = false>
void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
         const uint32_t calCount) {
    Xor<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, sim_adv::stack_tmp("Xor"), calCount);
}
template <typename T, bool isReuseSource = false>
void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor) {
    Xor<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, sim_adv::stack_tmp("Xor"));
}

}  // namespace AscendC

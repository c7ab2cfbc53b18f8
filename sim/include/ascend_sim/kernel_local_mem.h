// Static tensor programming without a TPipe (kernel_tensor.h of asc-devkit):
// LocalMemAllocator<Hardware::UB> hands out consecutive UB ranges from address
// 0 as LocalTensors. The simulator models the UB only: an allocator of another
// memory compiles (a file's cube kernel beside its vector ones) and stops at its
// first Alloc.
#pragma once
#include <cstdint>

#include "kernel_defs.h"
#include "kernel_tensor.h"

namespace AscendC {

constexpr Hardware GetPhyType(TPosition pos) {
    return pos == TPosition::GM                                                                  ? Hardware::GM
           : pos == TPosition::VECIN || pos == TPosition::VECOUT || pos == TPosition::VECCALC ? Hardware::UB
                                                                                                : Hardware::MAX;
}
constexpr TPosition GetDefaultPosition(Hardware hard) {
    return hard == Hardware::UB ? TPosition::VECCALC : TPosition::MAX;
}

template <Hardware hard = Hardware::UB>
class LocalMemAllocator {
public:
    LocalMemAllocator() = default;
    uint32_t GetCurAddr() const { return head_; }

    template <TPosition pos, class DataType, uint32_t tileSize>
    LocalTensor<DataType> Alloc() {
        static_assert(GetPhyType(pos) == hard, "logic pos and hardware pos not matched.");
        return take<DataType>(pos, tileSize);
    }
    template <TPosition pos, class DataType>
    LocalTensor<DataType> Alloc(uint32_t tileSize) {
        static_assert(GetPhyType(pos) == hard, "logic pos and hardware pos not matched.");
        return take<DataType>(pos, tileSize);
    }
    template <class DataType, uint32_t tileSize>
    LocalTensor<DataType> Alloc() {
        return take<DataType>(GetDefaultPosition(hard), tileSize);
    }
    template <class DataType>
    LocalTensor<DataType> Alloc(uint32_t tileSize) {
        return take<DataType>(GetDefaultPosition(hard), tileSize);
    }

private:
    template <class DataType>
    LocalTensor<DataType> take(TPosition pos, uint32_t tileSize) {
        if constexpr (hard != Hardware::UB)
            ascend_sim::detail::fail("LocalMemAllocator::Alloc", "memory not modelled",
                                     "LocalMemAllocator<Hardware::%s>: the simulator models the UB only",
                                     hard == Hardware::L1 ? "L1" : hard == Hardware::L0A ? "L0A"
                                     : hard == Hardware::L0B ? "L0B" : hard == Hardware::L0C ? "L0C" : "non-UB");
        LocalTensor<DataType> t(pos, head_, tileSize);
        head_ += uint32_t(ascend_sim::elem_bytes<PrimT<DataType>>(tileSize));
        return t;
    }
    uint32_t head_ = 0;
};

}  // namespace AscendC

// The vector mask register (CANN: kernel_common.h SetVectorMask, ResetMask,
// SetMaskCount, SetMaskNorm; kernel_utils_base.h AscendCUtils::SetMask) and the
// repeat-parameter structs of the high-dimension forms (kernel_struct_unary.h,
// kernel_struct_binary.h, kernel_struct_data_copy.h CopyRepeatParams).
// Normal mode: bit j of (maskHigh:maskLow) enables element j of every repeat.
// Counter mode: maskLow counts the elements of the whole instruction.
#pragma once
#include <cstdint>

#include "device_runtime.h"
#include "kernel_defs.h"

namespace AscendC {

enum class MaskMode : uint8_t { NORMAL = 0, COUNTER };

constexpr uint64_t MASK_PLACEHOLDER = 0;
constexpr uint64_t MASK_PLACEHOLDER_LIST[2] = {0, 0};
constexpr uint8_t DEFAULT_BLK_STRIDE = 1;
constexpr uint32_t DEFAULT_BLK_NUM = 8;

struct UnaryRepeatParams {
    UnaryRepeatParams() {}
    UnaryRepeatParams(uint16_t dstBlkStrideIn, uint16_t srcBlkStrideIn, uint8_t dstRepStrideIn, uint8_t srcRepStrideIn)
        : dstBlkStride(dstBlkStrideIn), srcBlkStride(srcBlkStrideIn), dstRepStride(dstRepStrideIn),
          srcRepStride(srcRepStrideIn) {}
    UnaryRepeatParams(uint16_t dstBlkStrideIn, uint16_t srcBlkStrideIn, uint8_t dstRepStrideIn, uint8_t srcRepStrideIn,
                      bool halfBlockIn)
        : dstBlkStride(dstBlkStrideIn), srcBlkStride(srcBlkStrideIn), dstRepStride(dstRepStrideIn),
          srcRepStride(srcRepStrideIn), halfBlock(halfBlockIn) {}
    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint16_t srcBlkStride = DEFAULT_BLK_STRIDE;
    uint8_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t srcRepStride = DEFAULT_REPEAT_STRIDE;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
    bool halfBlock = false;
};

struct BinaryRepeatParams {
    BinaryRepeatParams() {}
    BinaryRepeatParams(uint8_t dstBlkStrideIn, uint8_t src0BlkStrideIn, uint8_t src1BlkStrideIn,
                       uint8_t dstRepStrideIn, uint8_t src0RepStrideIn, uint8_t src1RepStrideIn)
        : dstBlkStride(dstBlkStrideIn), src0BlkStride(src0BlkStrideIn), src1BlkStride(src1BlkStrideIn),
          dstRepStride(dstRepStrideIn), src0RepStride(src0RepStrideIn), src1RepStride(src1RepStrideIn) {}
    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint8_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src1BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src0RepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src1RepStride = DEFAULT_REPEAT_STRIDE;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
};

struct CopyRepeatParams {
    CopyRepeatParams() {}
    CopyRepeatParams(uint16_t dstStrideIn, uint16_t srcStrideIn, uint16_t dstRepeatSizeIn, uint16_t srcRepeatSizeIn)
        : dstStride(dstStrideIn), srcStride(srcStrideIn), dstRepeatSize(dstRepeatSizeIn),
          srcRepeatSize(srcRepeatSizeIn) {}
    // DEFAULT_DATA_COPY_STRIDE: 0, as CANN's struct has it (set them for a contiguous copy).
    uint16_t dstStride = 0;
    uint16_t srcStride = 0;
    uint16_t dstRepeatSize = DEFAULT_REPEAT_STRIDE;
    uint16_t srcRepeatSize = DEFAULT_REPEAT_STRIDE;
};

namespace sim_vec {

// AscendCUtils::SetMask<T>(len): the continuous mask of the first len elements
// of a repeat as register bits (64 -> low word; the repeat's width or >= 128 -> all ones).
template <class T>
inline void mask_bits(int32_t len, uint64_t& hi, uint64_t& lo) {
    constexpr int32_t perRepeat = 256 / int32_t(sizeof(T));
    const uint64_t full = ~0ull;
    if (len == 64) hi = 0, lo = full;
    else if (len == perRepeat || len >= 128) hi = full, lo = full;
    else if (len > 64) hi = (1ull << uint32_t(len - 64)) - 1, lo = full;
    else hi = 0, lo = (1ull << uint32_t(len)) - 1;
}

// The mask argument of a high-dimension form: written to the register unless isSetMask is false.
template <class T, bool isSetMask>
inline void apply_mask(const char* api, uint64_t mask) {
    if constexpr (isSetMask) {
        uint64_t hi, lo;
        mask_bits<T>(int32_t(mask), hi, lo);
        ascend_sim::detail::vec_set_mask(api, hi, lo);
    }
}
template <class T, bool isSetMask>
inline void apply_mask(const char* api, const uint64_t mask[]) {
    if constexpr (isSetMask) ascend_sim::detail::vec_set_mask(api, mask[1], mask[0]);
}

}  // namespace sim_vec

template <class T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(const uint64_t maskHigh, const uint64_t maskLow) {
    ascend_sim::detail::vec_set_mask("SetVectorMask", maskHigh, maskLow);
}
template <class T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(int32_t len) {
    if constexpr (mode == MaskMode::COUNTER) {
        ascend_sim::detail::vec_set_mask("SetVectorMask", 0, uint64_t(int64_t(len)));
    } else {
        uint64_t hi, lo;
        sim_vec::mask_bits<T>(len, hi, lo);
        ascend_sim::detail::vec_set_mask("SetVectorMask", hi, lo);
    }
}
inline void ResetMask() { ascend_sim::detail::vec_set_mask("ResetMask", ~0ull, ~0ull); }
inline void SetMaskCount() { ascend_sim::detail::vec_set_mask_mode("SetMaskCount", true); }
inline void SetMaskNorm() { ascend_sim::detail::vec_set_mask_mode("SetMaskNorm", false); }

// impl/basic_api/kernel_utils_base.h AscendCUtils: the mask register's setters
// (SetMask<T>(len) as SetVectorMask's Normal form; isSetMask = false leaves the
// register alone), and SetOverflow: CTRL[48], 1 the inf/nan mode, 0 the
// saturated one. The simulator's float ops always give IEEE inf/nan; the
// saturated mode is not modelled, so that bit is not kept.
struct AscendCUtils {
    template <typename T, bool isSetMask = true>
    static inline void SetMask(const uint64_t& maskHigh, const uint64_t& maskLow) {
        if constexpr (isSetMask) ascend_sim::detail::vec_set_mask("AscendCUtils::SetMask", maskHigh, maskLow);
    }
    template <typename T, bool isSetMask = true>
    static inline void SetMask(int32_t len) {
        if constexpr (isSetMask) {
            uint64_t hi, lo;
            sim_vec::mask_bits<T>(len, hi, lo);
            ascend_sim::detail::vec_set_mask("AscendCUtils::SetMask", hi, lo);
        }
    }
    template <bool isSetMask = true>
    static inline void ResetMask() {
        if constexpr (isSetMask) ascend_sim::detail::vec_set_mask("AscendCUtils::ResetMask", ~0ull, ~0ull);
    }
    template <typename T>
    static inline void SetMaskCount() {
        ascend_sim::detail::vec_set_mask_mode("AscendCUtils::SetMaskCount", true);
    }
    template <typename T>
    static inline void SetMaskNorm() {
        ascend_sim::detail::vec_set_mask_mode("AscendCUtils::SetMaskNorm", false);
    }
    static inline void SetOverflow(uint64_t ctrlValue) { (void)ctrlValue; }
    // C0, the innermost dimension of a fractal layout: one 32 B block
    // (DEFAULT_C0_SIZE), GetC0Count elements of dtypeSize bytes. CANN asserts
    // dtypeSize != 0 in its CPU builds; the device would divide by zero.
    static inline int32_t GetC0Size() { return DEFAULT_C0_SIZE; }
    static inline int32_t GetC0Count(const int32_t dtypeSize) {
        if (dtypeSize == 0)
            ascend_sim::detail::fail("AscendCUtils::GetC0Count", "dtypeSize 0", "dtypeSize can not be 0");
        return GetC0Size() / dtypeSize;
    }
};

}  // namespace AscendC

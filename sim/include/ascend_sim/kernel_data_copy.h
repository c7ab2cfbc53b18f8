// DataCopy and DataCopyPad between GM and UB (CANN: kernel_struct_data_copy.h,
// kernel_operator_data_copy_intf.h). Units, as CANN has them:
//   DataCopy, DataCopyParams:  blockLen and both gaps in 32-byte blocks.
//   DataCopyPad GM->UB:        blockLen and srcStride in BYTES (GM side), dstStride in 32 B blocks (UB side).
//   DataCopyPad UB->GM:        blockLen in bytes, srcStride in 32 B blocks (UB), dstStride in BYTES (GM).
// The NPU silently rounds a DataCopy byte count down to 32 B; the simulator refuses it.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

#include "device_runtime.h"
#include "kernel_defs.h"
#include "kernel_tensor.h"

namespace AscendC {

struct DataCopyParams {
    DataCopyParams() = default;
    DataCopyParams(const uint16_t count, const uint16_t len, const uint16_t srcStrideIn, const uint16_t dstStrideIn)
        : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn) {}
    uint16_t blockCount = 1;
    uint16_t blockLen = 0;
    union {
        uint16_t srcStride = 0;
        uint16_t srcGap;
    };
    union {
        uint16_t dstStride = 0;
        uint16_t dstGap;
    };
};

struct DataCopyExtParams {
    DataCopyExtParams() = default;
    DataCopyExtParams(const uint16_t count, const uint32_t len, const uint32_t srcStrideIn, const uint32_t dstStrideIn,
                      const uint32_t rsvIn)
        : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn), rsv(rsvIn) {}
    uint16_t blockCount = 1;
    uint32_t blockLen = 0;
    uint32_t srcStride = 0;
    uint32_t dstStride = 0;
    uint32_t rsv = 0;
};

template <class T>
struct DataCopyPadExtParams {
    DataCopyPadExtParams() = default;
    DataCopyPadExtParams(const bool isPadValue, const uint8_t leftPadValue, const uint8_t rightPadValue, T padValue)
        : isPad(isPadValue), leftPadding(leftPadValue), rightPadding(rightPadValue), paddingValue(padValue) {}
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    T paddingValue = 0;
};

// Legacy form: blockLen in bytes for DataCopyPad.
struct DataCopyPadParams {
    DataCopyPadParams() = default;
    DataCopyPadParams(const bool isPadValue, const uint8_t leftPadValue, const uint8_t rightPadValue,
                      const uint64_t padValue)
        : isPad(isPadValue), leftPadding(leftPadValue), rightPadding(rightPadValue), paddingValue(padValue) {}
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    uint64_t paddingValue = 0;
};

namespace sim_copy {

constexpr uint64_t roundup32(uint64_t x) { return (x + 31) / 32 * 32; }

// The host side of an MTE3 write (UB -> GM). Long runs bypass the host cache with
// streaming stores: the kernel's output is not read back during the launch, and a
// cached store would first read every destination line from memory (a third of
// the memory traffic of a read-compute-write kernel). Streaming stores are weakly
// ordered: the block's host thread sees them, other threads only after an sfence,
// which the runtime issues where a block's GM writes become visible to others
// (SyncAll, the end of the block: publish_gm_writes in runtime.cpp), not per copy.
inline void store_to_gm(uint8_t* g, const uint8_t* u, size_t n) {
#if defined(__AVX512F__)
    constexpr size_t kStreamMin = 4096;
    if (n >= kStreamMin) {
        const size_t head = (64 - (reinterpret_cast<uintptr_t>(g) & 63)) & 63;
        std::memcpy(g, u, head);
        size_t i = head;
        for (; i + 64 <= n; i += 64)
            _mm512_stream_si512(reinterpret_cast<__m512i*>(g + i), _mm512_loadu_si512(u + i));
        std::memcpy(g + i, u + i, n - i);
        return;
    }
#endif
    std::memcpy(g, u, n);
}

// A UB->GM store: combined with GM under SetAtomicAdd/Max/Min, else a plain store.
inline void gm_store(const char* api, bool atomic, uint8_t* g, const uint8_t* u, size_t n) {
    if (atomic) ascend_sim::detail::atomic_store(api, g, u, n);
    else store_to_gm(g, u, n);
}

// The copies below read the GlobalTensor's address (raw()) first, on its own: the
// kernel usually passes a temporary it has just written field by field (gm[row]),
// and when the address and SetGlobalBuffer's address were read together for the
// GmRef, the compiler merged them into one 16-byte load, which cannot be forwarded
// from two 8-byte stores and waited for every older store to reach the cache
// (e.g. the previous tile's output copy). Two 8-byte loads forward.
inline void check_ub_fit(const char* api, const char* side, uint64_t span, uint32_t dataLen, uint16_t blockCount,
                         uint64_t pitch) {
    if (span > dataLen)
        ascend_sim::detail::fail(api, "UB side exceeds the tensor",
                                 "%s footprint %llu B (blockCount %u, UB pitch %llu B) exceeds the LocalTensor's %u B",
                                 side, (unsigned long long)span, unsigned(blockCount), (unsigned long long)pitch,
                                 dataLen);
}

// DataCopy（GM与UB连续数据搬运）.md: the GM address of a DataCopy is aligned to
// sizeof(T) (DataCopyPad's may be any byte).
template <class T>
void check_gm_aligned(const GlobalTensor<T>& gm) {
    const auto a = reinterpret_cast<uintptr_t>(gm.raw());
    if (a % sizeof(T) != 0)
        ascend_sim::detail::fail("DataCopy", "GM address not aligned to the element size",
                                 "GM address %s is not %u-byte aligned (sizeof(T)); DataCopyPad takes any GM address",
                                 ascend_sim::detail::gm_describe(a).c_str(), unsigned(sizeof(T)));
}

// DataCopyParams (32 B units) GM->UB or UB->GM.
template <class T>
void blocks32(const char* api, bool toUb, const LocalTensor<T>& ub, const GlobalTensor<T>& gm,
              const DataCopyParams& p) {
    auto* g = reinterpret_cast<uint8_t*>(gm.raw());
    check_gm_aligned(gm);
    if (p.blockCount > 4095)
        ascend_sim::detail::fail(api, "blockCount out of range", "blockCount %u is outside [0, 4095]",
                                 unsigned(p.blockCount));
    if (p.blockCount == 0 || p.blockLen == 0) return;  // NOP on the NPU
    const uint64_t blk = uint64_t(p.blockLen) * 32;
    const uint64_t srcPitch = blk + uint64_t(p.srcStride) * 32, dstPitch = blk + uint64_t(p.dstStride) * 32;
    const uint64_t ubPitch = toUb ? dstPitch : srcPitch, gmPitch = toUb ? srcPitch : dstPitch;
    const uint64_t ubSpan = (p.blockCount - 1) * ubPitch + blk, gmSpan = (p.blockCount - 1) * gmPitch + blk;
    check_ub_fit(api, toUb ? "UB destination" : "UB source", ubSpan, ub.ub_ref().dataLen, p.blockCount, ubPitch);
    ascend_sim::detail::dma(api, toUb, gm.gm_ref(), gmSpan, ub.ub_ref(), ubSpan, blk * p.blockCount,
                            {p.blockCount, ubPitch, blk, 0, blk, true});
    auto* u = reinterpret_cast<uint8_t*>(ub.GetPhyAddr());
    const bool atomic = !toUb && ascend_sim::detail::atomic_on(api);
    for (uint32_t i = 0; i < p.blockCount; ++i) {
        if (toUb) std::memcpy(u + i * ubPitch, g + i * gmPitch, blk);
        else gm_store(api, atomic, g + i * gmPitch, u + i * ubPitch, blk);
    }
}

template <class T>
void check_pad_common(const char* api, uint16_t blockCount, uint32_t blockLen) {
    if (blockCount > 4095)
        ascend_sim::detail::fail(api, "blockCount out of range", "blockCount %u is outside [0, 4095]",
                                 unsigned(blockCount));
    if (blockLen > 2097151)
        ascend_sim::detail::fail(api, "blockLen out of range", "blockLen %u B is outside [0, 2097151] (bytes)",
                                 blockLen);
    if (blockLen % sizeof(T) != 0)
        ascend_sim::detail::fail(api, "blockLen not a multiple of the element size",
                                 "blockLen %u B is not a multiple of sizeof(T) = %u B (blockLen is in bytes)",
                                 blockLen, unsigned(sizeof(T)));
}

// The element the MOV_PAD_VAL register fills with: its low sizeof(T) bytes (a
// 64-bit type is moved as pairs of 32-bit words, so twice the low word).
template <class T>
T pad_fill(uint64_t bits) {
    T v;
    if constexpr (sizeof(T) == 8) bits = (bits & 0xffffffffull) | (bits << 32);
    std::memcpy(&v, &bits, sizeof(T));
    return v;
}

template <class T>
uint64_t pad_bits(T v) {
    uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof(T));
    return bits;
}

// GM->UB DataCopyPad (dav_c220 DataCopyPadGm2UBImpl). isPad writes paddingValue
// into the core's MOV_PAD_VAL register, as SetPadValue does; the register keeps
// its value for later copies. Pads and the 32 B round-up tail hold the register's
// value once it was set; before that, the tail of a block without left/right
// padding repeats the block's first element, and any other fill is undefined.
template <class T>
void pad_gm_to_ub(const char* api, const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint16_t blockCount,
                  uint32_t blockLen, uint64_t srcStrideBytes, uint64_t dstStrideBlocks, bool isPad, uint8_t l,
                  uint8_t r, uint64_t padBits) {
    const auto* g = reinterpret_cast<const uint8_t*>(src.raw());
    check_pad_common<T>(api, blockCount, blockLen);
    if (uint32_t(l) * sizeof(T) > 32 || uint32_t(r) * sizeof(T) > 32)
        ascend_sim::detail::fail(api, "padding over 32 B",
                                 "leftPadding %u / rightPadding %u elements of %u B exceed 32 B on a side",
                                 unsigned(l), unsigned(r), unsigned(sizeof(T)));
    if constexpr (sizeof(T) == 8) {
        if (padBits != 0)
            ascend_sim::detail::fail(api, "64-bit padding value must be 0",
                                     "paddingValue must be 0 for a 64-bit type");
    }
    if (isPad) ascend_sim::detail::set_pad_register(api, padBits);
    if (blockCount == 0 || blockLen == 0) return;
    uint64_t regBits = 0;
    const bool reg = ascend_sim::detail::pad_register(api, &regBits);
    const uint64_t padded = uint64_t(blockLen) + (uint64_t(l) + r) * sizeof(T);
    const uint64_t ubBlock = roundup32(padded);
    const uint64_t ubPitch = ubBlock + dstStrideBlocks * 32, gmPitch = blockLen + srcStrideBytes;
    const uint64_t ubSpan = (blockCount - 1) * ubPitch + ubBlock, gmSpan = (blockCount - 1) * gmPitch + blockLen;
    check_ub_fit(api, "UB destination", ubSpan, dst.ub_ref().dataLen, blockCount, ubPitch);
    // initcheck: the whole 32 B-rounded block is defined (data, pads and tail)
    // unless its pads hold undefined bytes.
    const bool allDefined = reg || (l == 0 && r == 0);
    const uint64_t defLo = allDefined ? 0 : uint64_t(l) * sizeof(T);
    const uint64_t defHi = allDefined ? ubBlock : defLo + blockLen;
    ascend_sim::detail::dma(api, true, src.gm_ref(), gmSpan, dst.ub_ref(), ubSpan, uint64_t(blockLen) * blockCount,
                            {blockCount, ubPitch, ubBlock, defLo, defHi});
    auto* u = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
    const uint64_t n = blockLen / sizeof(T), total = ubBlock / sizeof(T);
    for (uint32_t i = 0; i < blockCount; ++i) {
        T* b = reinterpret_cast<T*>(u + i * ubPitch);
        std::memcpy(b + l, g + i * gmPitch, blockLen);
        if (allDefined) {
            const T v = reg ? pad_fill<T>(regBits) : b[l];
            for (uint64_t k = 0; k < l; ++k) b[k] = v;
            for (uint64_t k = l + n; k < total; ++k) b[k] = v;
        } else {  // undefined bytes (0xFF here)
            std::memset(b, 0xFF, l * sizeof(T));
            std::memset(b + l + n, 0xFF, (total - l - n) * sizeof(T));
        }
    }
}

template <class T>
void pad_ub_to_gm(const char* api, const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint16_t blockCount,
                  uint32_t blockLen, uint64_t srcStrideBlocks, uint64_t dstStrideBytes) {
    auto* g = reinterpret_cast<uint8_t*>(dst.raw());
    check_pad_common<T>(api, blockCount, blockLen);
    if (blockCount == 0 || blockLen == 0) return;
    const uint64_t ubPitch = roundup32(blockLen) + srcStrideBlocks * 32, gmPitch = blockLen + dstStrideBytes;
    const uint64_t ubSpan = (blockCount - 1) * ubPitch + blockLen, gmSpan = (blockCount - 1) * gmPitch + blockLen;
    check_ub_fit(api, "UB source", ubSpan, src.ub_ref().dataLen, blockCount, ubPitch);
    ascend_sim::detail::dma(api, false, dst.gm_ref(), gmSpan, src.ub_ref(), ubSpan, uint64_t(blockLen) * blockCount,
                            {blockCount, ubPitch, blockLen, 0, blockLen});
    const auto* u = reinterpret_cast<const uint8_t*>(src.GetPhyAddr());
    const bool atomic = ascend_sim::detail::atomic_on(api);
    for (uint32_t i = 0; i < blockCount; ++i) gm_store(api, atomic, g + i * gmPitch, u + i * ubPitch, blockLen);
}

// The count form of DataCopy, either direction: one contiguous block of
// count * sizeof(T) bytes, which must be a multiple of 32.
template <class T>
void count_form(bool toUb, const LocalTensor<T>& ub, const GlobalTensor<T>& gm, uint32_t count) {
    auto* g = reinterpret_cast<uint8_t*>(gm.raw());
    check_gm_aligned(gm);
    const uint64_t bytes = uint64_t(count) * sizeof(T);
    if (bytes % 32 != 0)
        ascend_sim::detail::fail("DataCopy", "byte count not a multiple of 32",
                                 "%s byte count %llu is not a multiple of 32 (count %u x %u B); the NPU would "
                                 "silently copy %llu B",
                                 toUb ? "GM->UB" : "UB->GM", (unsigned long long)bytes, count,
                                 unsigned(sizeof(T)), (unsigned long long)(bytes / 32 * 32));
    if (bytes == 0) return;
    check_ub_fit("DataCopy", toUb ? "UB destination" : "UB source", bytes, ub.ub_ref().dataLen, 1, bytes);
    ascend_sim::detail::dma("DataCopy", toUb, gm.gm_ref(), bytes, ub.ub_ref(), bytes, bytes,
                            {1, bytes, bytes, 0, bytes, true});
    if (toUb) std::memcpy(ub.GetPhyAddr(), g, bytes);
    else gm_store("DataCopy", ascend_sim::detail::atomic_on("DataCopy"), g,
                  reinterpret_cast<const uint8_t*>(ub.GetPhyAddr()), bytes);
}

// UB -> UB (any of VECIN, VECCALC, VECOUT to any), DataCopyParams in 32 B units:
// one PIPE_V instruction on A2 (ub_copy).
inline void ub_blocks32(const ascend_sim::detail::UbRef& dst, const ascend_sim::detail::UbRef& src,
                        const DataCopyParams& p) {
    if (p.blockCount > 4095)
        ascend_sim::detail::fail("DataCopy", "blockCount out of range", "blockCount %u is outside [0, 4095]",
                                 unsigned(p.blockCount));
    if (p.blockCount == 0 || p.blockLen == 0) return;  // NOP on the NPU
    const uint64_t blk = uint64_t(p.blockLen) * 32;
    const uint64_t srcPitch = blk + uint64_t(p.srcStride) * 32, dstPitch = blk + uint64_t(p.dstStride) * 32;
    const uint64_t last = uint64_t(p.blockCount - 1);
    check_ub_fit("DataCopy", "UB source", last * srcPitch + blk, src.dataLen, p.blockCount, srcPitch);
    check_ub_fit("DataCopy", "UB destination", last * dstPitch + blk, dst.dataLen, p.blockCount, dstPitch);
    ascend_sim::detail::ub_copy("DataCopy", dst, src, {p.blockCount, dstPitch, blk, 0, blk},
                                {p.blockCount, srcPitch, blk, 0, blk});
}

}  // namespace sim_copy

// ---- DataCopy ----

// UB -> UB: count elements, count * sizeof(T) a multiple of 32 (the NPU rounds down).
template <class T>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count, ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
    static_assert(!ascend_sim::is_nibble_v<T>,
                  "DataCopy of int4b_t by element count is not modelled; copy the bytes as int8_t or uint8_t");
    const uint64_t bytes = uint64_t(count) * sizeof(T);
    if (bytes % 32 != 0)
        ascend_sim::detail::fail("DataCopy", "byte count not a multiple of 32",
                                 "UB->UB byte count %llu is not a multiple of 32 (count %u x %u B); the NPU would "
                                 "silently copy %llu B",
                                 (unsigned long long)bytes, count, unsigned(sizeof(T)),
                                 (unsigned long long)(bytes / 32 * 32));
    // Before the 16-bit blockLen could wrap.
    sim_copy::check_ub_fit("DataCopy", "UB source", bytes, src.ub_ref().dataLen, 1, bytes);
    sim_copy::check_ub_fit("DataCopy", "UB destination", bytes, dst.ub_ref().dataLen, 1, bytes);
    sim_copy::ub_blocks32(dst.ub_ref(), src.ub_ref(), DataCopyParams(1, uint16_t(bytes / 32), 0, 0));
}

template <class T>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& repeatParams, ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
    sim_copy::ub_blocks32(dst.ub_ref(), src.ub_ref(), repeatParams);
}

template <class T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const uint32_t count, ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
    sim_copy::count_form(true, dst, src, count);
}

template <class T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count, ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
    sim_copy::count_form(false, src, dst, count);
}

template <class T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& repeatParams, ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
    sim_copy::blocks32("DataCopy", true, dst, src, repeatParams);
}

template <class T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& repeatParams, ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
    sim_copy::blocks32("DataCopy", false, src, dst, repeatParams);
}

// ---- DataCopyPad ----

template <class T>
void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& dataCopyParams,
                 const DataCopyPadExtParams<T>& padParams, ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
    sim_copy::pad_gm_to_ub("DataCopyPad", dst, src, dataCopyParams.blockCount, dataCopyParams.blockLen,
                           dataCopyParams.srcStride, dataCopyParams.dstStride, padParams.isPad,
                           padParams.leftPadding, padParams.rightPadding, sim_copy::pad_bits(padParams.paddingValue));
}

template <class T>
void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyExtParams& dataCopyParams, ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
    sim_copy::pad_ub_to_gm("DataCopyPad", dst, src, dataCopyParams.blockCount, dataCopyParams.blockLen,
                           dataCopyParams.srcStride, dataCopyParams.dstStride);
}

// Legacy overloads: DataCopyParams with blockLen in BYTES. CANN's debug check
// (CheckDataCopyPadPaddingCommon) accepts only paddingValue 0 here.
template <class T>
void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& dataCopyParams,
                 const DataCopyPadParams& padParams, ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
    if (padParams.paddingValue != 0)
        ascend_sim::detail::fail("DataCopyPad", "DataCopyPadParams.paddingValue must be 0",
                                 "DataCopyPadParams.paddingValue %llu: the legacy parameters support only 0 "
                                 "(use DataCopyPadExtParams<T> or SetPadValue for another fill)",
                                 (unsigned long long)padParams.paddingValue);
    sim_copy::pad_gm_to_ub("DataCopyPad", dst, src, dataCopyParams.blockCount, dataCopyParams.blockLen,
                           dataCopyParams.srcStride, dataCopyParams.dstStride, padParams.isPad,
                           padParams.leftPadding, padParams.rightPadding, 0);
}

template <class T>
void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& dataCopyParams, ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
    sim_copy::pad_ub_to_gm("DataCopyPad", dst, src, dataCopyParams.blockCount, dataCopyParams.blockLen,
                           dataCopyParams.srcStride, dataCopyParams.dstStride);
}

// The fill of later GM->UB DataCopyPad calls (dav_c220: set_mov_pad_val); pos
// VECIN, VECOUT or MAX (either).
template <class T, TPosition pos = TPosition::MAX>
void SetPadValue(T paddingValue, ASCEND_SIM_SITE) { ASCEND_SIM_ENTER;
    static_assert(pos == TPosition::VECIN || pos == TPosition::VECOUT || pos == TPosition::MAX,
                  "SetPadValue: pos is VECIN, VECOUT or MAX");
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
                  "SetPadValue: an 8/16/32/64-bit DataCopyPad type");
    ascend_sim::detail::set_pad_register("SetPadValue", sim_copy::pad_bits(paddingValue));
}

}  // namespace AscendC

// DataCopy with SliceInfo: a multi-dimensional slice between GM and UB (CANN:
// kernel_struct_data_copy.h :: SliceInfo, kernel_operator_data_copy_intf_impl.h
// :: DataCopy(..., SliceInfo[], SliceInfo[], dimValue),
// kernel_operator_data_copy_base_impl.h :: DataCopyGetOffsetList,
// DataCopyGetPhyStartIndex). As dav_c220 does it:
//   - the start element is sum(startIndex[i] x prod(shape[0..i))), per side;
//   - dimension 0 is one strided transfer: blockLen = src[0].burstLen blocks,
//     blockCount = (end - start + 1 + stride) / (burstLen x 32 / sizeof(T) + stride),
//     the gaps stride x sizeof(T): on GM in 32 B blocks where they divide, else
//     the DataCopyPad byte form; on UB always in blocks (a stride that is not
//     whole blocks, which dav_c220 rounds down, is refused);
//   - each higher dimension i repeats the transfers at (k x (1 + stride[i])) x
//     prod(shape[0..i)) for k < (end - start + 1 + stride) / (1 + stride).
// The transfers go through DataCopy / DataCopyPad, so every byte is checked
// as theirs. Shapes come from shapeValue: shapeValue 0 (take the tensors'
// ShapeInfo) is not modelled and is refused.
#pragma once
#include <cstdint>

#include "kernel_data_copy.h"
#include "kernel_tensor.h"

namespace AscendC {

constexpr int32_t K_MAX_DIM = 8;
constexpr uint32_t MAX_SLICE_SIZE = 6 * 256;

struct SliceInfo {
    SliceInfo() {}
    SliceInfo(const uint32_t startIndexIn, const uint32_t endIndexIn, const uint32_t strideIn,
              const uint32_t burstLenIn, const uint32_t shapeValueIn = 0)
        : startIndex(startIndexIn), endIndex(endIndexIn), stride(strideIn), burstLen(burstLenIn),
          shapeValue(shapeValueIn) {}
    uint32_t startIndex = 0;
    uint32_t endIndex = ONE_BLK_SIZE - 1;
    uint32_t stride = 0;
    uint32_t burstLen = ONE_BLK_SIZE;
    uint32_t shapeValue = 0;
};

namespace sim_slice {

// The element offsets of one side's transfers: the start index plus the
// offset list of dimensions 1 and up.
struct Offsets {
    uint32_t start = 0;
    uint32_t count = 0;
    uint32_t at[MAX_SLICE_SIZE];
};

inline void offsets(const char* side, const SliceInfo s[], uint32_t dimValue, Offsets& o) {
    uint64_t size = 1, start = 0;
    o.at[0] = 0;
    o.count = 1;
    for (uint32_t i = 0; i < dimValue; ++i) {
        if (s[i].shapeValue == 0)
            ascend_sim::detail::fail("DataCopy", "SliceInfo.shapeValue required",
                                     "%sSliceInfo[%u].shapeValue is 0: the shape then comes from the tensor's "
                                     "ShapeInfo, which this form does not read here; give every shapeValue",
                                     side, i);
        if (s[i].endIndex < s[i].startIndex)
            ascend_sim::detail::fail("DataCopy", "SliceInfo end before start",
                                     "%sSliceInfo[%u]: endIndex %u is before startIndex %u", side, i, s[i].endIndex,
                                     s[i].startIndex);
        if (i > 0) {
            size *= s[i - 1].shapeValue;
            const uint32_t n = (s[i].endIndex - s[i].startIndex + 1 + s[i].stride) / (1 + s[i].stride);
            const uint32_t prev = o.count;
            if (uint64_t(prev) * n > MAX_SLICE_SIZE)
                ascend_sim::detail::fail("DataCopy", "too many slices",
                                         "%sSliceInfo gives %llu transfers; the offset list holds MAX_SLICE_SIZE = %u",
                                         side, (unsigned long long)prev * n, MAX_SLICE_SIZE);
            for (uint32_t k = 1; k < n; ++k)
                for (uint32_t j = 0; j < prev; ++j)
                    o.at[o.count++] = o.at[j] + uint32_t(uint64_t(k) * (1 + s[i].stride) * size);
        }
        start += (i == 0 ? 1 : size) * s[i].startIndex;
    }
    o.start = uint32_t(start);
}

// The transfers follow the source's list; dav_c220 reads the destination's
// list at the same indices, past its end when it is shorter.
inline void check_counts(const Offsets& s, const Offsets& d) {
    if (d.count < s.count)
        ascend_sim::detail::fail("DataCopy", "dst slices fewer than src slices",
                                 "dstSliceInfo gives %u transfers, srcSliceInfo %u: each source transfer needs its "
                                 "destination",
                                 d.count, s.count);
}

// The UB side's gap is in 32 B blocks: dav_c220 rounds a stride that is not
// whole blocks down, so the transfers land elsewhere than the SliceInfo says.
template <class T>
uint16_t ub_gap(const char* side, const SliceInfo& s) {
    if ((uint64_t(s.stride) * sizeof(T)) % ONE_BLK_SIZE != 0)
        ascend_sim::detail::fail("DataCopy", "UB stride not whole blocks",
                                 "%sSliceInfo[0].stride %u x %u B is not a multiple of 32 B: the UB gap is in 32 B "
                                 "blocks and the NPU would round it down",
                                 side, s.stride, unsigned(sizeof(T)));
    return uint16_t(uint64_t(s.stride) * sizeof(T) / ONE_BLK_SIZE);
}

inline void check_dims(uint32_t dimValue) {
    if (dimValue == 0 || dimValue > uint32_t(K_MAX_DIM))
        ascend_sim::detail::fail("DataCopy", "dimValue out of range", "dimValue %u is outside [1, %d]", dimValue,
                                 K_MAX_DIM);
}

// blockLen and blockCount of dimension 0, from the source side (as dav_c220).
template <class T>
DataCopyParams dim0(const SliceInfo& src) {
    DataCopyParams p;
    p.blockLen = uint16_t(src.burstLen);
    const uint32_t oneSlice = src.burstLen * (ONE_BLK_SIZE / sizeof(T)) + src.stride;
    p.blockCount = uint16_t((src.endIndex - src.startIndex + 1 + src.stride) / oneSlice);
    return p;
}

// Both directions: the dimensions, each side's transfer offsets, and matching counts.
inline void plan(const SliceInfo dst[], const SliceInfo src[], uint32_t dimValue, Offsets& s, Offsets& d) {
    check_dims(dimValue);
    offsets("src", src, dimValue, s);
    offsets("dst", dst, dimValue, d);
    check_counts(s, d);
}

}  // namespace sim_slice

template <typename T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const SliceInfo dstSliceInfo[],
              const SliceInfo srcSliceInfo[], const uint32_t dimValue) {
    sim_slice::Offsets s, d;
    sim_slice::plan(dstSliceInfo, srcSliceInfo, dimValue, s, d);
    DataCopyParams p = sim_slice::dim0<T>(srcSliceInfo[0]);
    const uint32_t dstGap = sim_slice::ub_gap<T>("dst", dstSliceInfo[0]);
    const bool blocks = (srcSliceInfo[0].stride * sizeof(T)) % ONE_BLK_SIZE == 0;
    for (uint32_t i = 0; i < s.count; ++i) {
        const LocalTensor<T> u = dst[d.start + d.at[i]];
        const GlobalTensor<T> g = src[uint64_t(s.start) + s.at[i]];
        if (blocks) {
            p.srcStride = uint16_t(srcSliceInfo[0].stride * sizeof(T) / ONE_BLK_SIZE);
            p.dstStride = uint16_t(dstGap);
            sim_copy::blocks32("DataCopy", true, u, g, p);
        } else {
            sim_copy::pad_gm_to_ub("DataCopy", u, g, p.blockCount, uint32_t(p.blockLen) * ONE_BLK_SIZE,
                                   uint64_t(srcSliceInfo[0].stride) * sizeof(T), dstGap, false, 0, 0, 0);
        }
    }
}

template <typename T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const SliceInfo dstSliceInfo[],
              const SliceInfo srcSliceInfo[], const uint32_t dimValue) {
    sim_slice::Offsets s, d;
    sim_slice::plan(dstSliceInfo, srcSliceInfo, dimValue, s, d);
    DataCopyParams p = sim_slice::dim0<T>(srcSliceInfo[0]);
    const uint32_t srcGap = sim_slice::ub_gap<T>("src", srcSliceInfo[0]);
    const bool blocks = (dstSliceInfo[0].stride * sizeof(T)) % ONE_BLK_SIZE == 0;
    for (uint32_t i = 0; i < s.count; ++i) {
        const LocalTensor<T> u = src[s.start + s.at[i]];
        const GlobalTensor<T> g = dst[uint64_t(d.start) + d.at[i]];
        if (blocks) {
            p.srcStride = uint16_t(srcGap);
            p.dstStride = uint16_t(dstSliceInfo[0].stride * sizeof(T) / ONE_BLK_SIZE);
            sim_copy::blocks32("DataCopy", false, u, g, p);
        } else {
            sim_copy::pad_ub_to_gm("DataCopy", g, u, p.blockCount, uint32_t(p.blockLen) * ONE_BLK_SIZE, srcGap,
                                   uint64_t(dstSliceInfo[0].stride) * sizeof(T));
        }
    }
}

}  // namespace AscendC

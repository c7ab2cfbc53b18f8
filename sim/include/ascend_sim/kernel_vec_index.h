// CreateVecIndex (CANN: kernel_operator_vec_createvecindex_intf.h; dav_c220
// kernel_operator_vec_createvecindex_impl.h). A2 has no index instruction: the
// scalar unit stores the first block (or, for mask[], the first repeat), sets
// and waits S_V, then Adds copies block after block and repeat after repeat,
// adding the element distance, with a PipeBarrier<PIPE_V> after each Adds but
// the count form's last. Modelled as that sequence, so every store, flag,
// Adds and barrier is seen by the checks, and half values round where Adds rounds.
#pragma once
#include <cstdint>
#include <type_traits>

#include "kernel_vec_ops.h"
#include "kernel_vec_repeat.h"

namespace AscendC {

namespace sim_vec {

constexpr const char* kIndexApi = "CreateVecIndex";

// firstValue + offset: integers in 64 bits then narrowed, floating types in float.
template <class T>
inline T index_value(const T& firstValue, int32_t offset) {
    if constexpr (std::is_integral_v<T>) return T(int64_t(firstValue) + int64_t(offset));
    else return T(float(firstValue) + float(offset));
}

template <class T>
inline void index_store(const LocalTensor<T>& dst, uint32_t i, T v) {
    if (uint64_t(i + 1) * sizeof(T) > dst.ub_ref().dataLen)
        d::fail(kIndexApi, "index outside the tensor",
                "the scalar store of element %u (%llu B) is outside dst's %u B", i,
                (unsigned long long)(uint64_t(i + 1) * sizeof(T)), dst.ub_ref().dataLen);
    d::scalar_ub(kIndexApi, dst.GetPhyAddr() + i, sizeof(T), true);
    dst.GetPhyAddr()[i] = v;
}

// dst[to..] = dst[from..] + step under `mask`, one repeat (dav_c220's Adds step).
template <class T, class M>
inline void index_adds(const LocalTensor<T>& dst, uint32_t to, uint32_t from, uint32_t step, const M& mask,
                       const UnaryRepeatParams& p, bool barrier) {
    T s;
    if constexpr (std::is_integral_v<T>) s = T(step);
    else s = T(float(step));
    rep_scalar<T, true>(kIndexApi, d::VecOp::CreateVecIndex, dst[to], dst[from], s, mask, 1, p,
                        &num::adds<T>);
    if (barrier) d::pipe_barrier(kIndexApi, PIPE_V);
}

template <class T>
constexpr bool index_type_v = one_of_v<T, int16_t, half, int32_t, float>;
#define ASCEND_SIM_INDEX_TYPES "CreateVecIndex: A2/A3 support int16_t, half, int32_t and float"

}  // namespace sim_vec

template <class T>
void CreateVecIndex(LocalTensor<T> dst, const T& firstValue, uint32_t count) {
    static_assert(sim_vec::index_type_v<T>, ASCEND_SIM_INDEX_TYPES);
    constexpr uint32_t perBlock = 32 / sizeof(T), perRepeat = 256 / sizeof(T);
    const uint32_t first = count < perBlock ? count : perBlock;
    for (uint32_t i = 0; i < first; ++i) sim_vec::index_store(dst, i, sim_vec::index_value(firstValue, int32_t(i)));
    sim_vec::api_flag(sim_vec::kIndexApi, HardEvent::S_V);
    if (count <= perBlock) return;
    const UnaryRepeatParams p;
    const uint32_t blocks = count >= perRepeat ? 8 : count / perBlock;
    for (uint32_t i = 1; i < blocks; ++i) sim_vec::index_adds(dst, i * perBlock, (i - 1) * perBlock, perBlock, uint64_t(perBlock), p, true);
    if (count < perRepeat && count % perBlock) {
        const uint32_t at = count / perBlock * perBlock;
        sim_vec::index_adds(dst, at, at - perBlock, perBlock, uint64_t(count % perBlock), p, true);
    }
    if (count <= perRepeat) return;
    const uint32_t repeats = count / perRepeat, tail = count % perRepeat;
    for (uint32_t r = 1; r < repeats; ++r)
        sim_vec::index_adds(dst, r * perRepeat, (r - 1) * perRepeat, perRepeat, uint64_t(perRepeat), p, true);
    if (tail) sim_vec::index_adds(dst, repeats * perRepeat, (repeats - 1) * perRepeat, perRepeat, uint64_t(tail), p, false);
}

// The continuous mask: the first `mask` elements of each repeat.
template <class T>
void CreateVecIndex(LocalTensor<T>& dst, const T& firstValue, uint64_t mask, uint8_t repeatTime,
                    uint16_t dstBlkStride, uint8_t dstRepStride) {
    static_assert(sim_vec::index_type_v<T>, ASCEND_SIM_INDEX_TYPES);
    constexpr uint32_t perBlock = 32 / sizeof(T), perRepeat = 256 / sizeof(T);
    // Below one block dav_c220's tail Adds would read the block before dst.
    if (mask < perBlock || mask > perRepeat)
        sim_vec::d::fail(sim_vec::kIndexApi, "mask out of range",
                         "mask %llu is outside [%u, %u]: dav_c220 CreateVecIndexCalc stores one block of %u elements "
                         "and copies it forward, so a mask below a block reads before dst",
                         (unsigned long long)mask, perBlock, perRepeat, perBlock);
    for (uint32_t i = 0; i < perBlock; ++i) sim_vec::index_store(dst, i, sim_vec::index_value(firstValue, int32_t(i)));
    sim_vec::api_flag(sim_vec::kIndexApi, HardEvent::S_V);
    const uint32_t blkElems = uint32_t(dstBlkStride) * perBlock, repElems = uint32_t(dstRepStride) * perBlock;
    UnaryRepeatParams p;
    for (uint32_t i = 1; i < mask / perBlock; ++i)
        sim_vec::index_adds(dst, i * blkElems, (i - 1) * blkElems, perBlock, uint64_t(perBlock), p, true);
    p.dstBlkStride = p.srcBlkStride = dstBlkStride;
    if (mask % perBlock) {
        const uint32_t at = uint32_t(mask / perBlock) * blkElems;
        sim_vec::index_adds(dst, at, at - blkElems, perBlock, uint64_t(mask % perBlock), p, true);
    }
    for (uint32_t r = 1; r < repeatTime; ++r)
        sim_vec::index_adds(dst, r * repElems, (r - 1) * repElems, perRepeat, mask, p, true);
}

// The bit mask: bit j of mask[j / 64] enables element j of each repeat (32-bit types: mask[0] only).
template <class T>
void CreateVecIndex(LocalTensor<T>& dst, const T& firstValue, uint64_t mask[], uint8_t repeatTime,
                    uint16_t dstBlkStride, uint8_t dstRepStride) {
    static_assert(sim_vec::index_type_v<T>, ASCEND_SIM_INDEX_TYPES);
    constexpr uint32_t perBlock = 32 / sizeof(T), perRepeat = 256 / sizeof(T);
    for (uint32_t j = 0; j < (perRepeat < 128 ? perRepeat : 128); ++j)
        if ((mask[j / 64] >> (j % 64)) & 1u)
            sim_vec::index_store(dst, j / perBlock * perBlock * dstBlkStride + j % perBlock,
                                 sim_vec::index_value(firstValue, int32_t(j)));
    sim_vec::api_flag(sim_vec::kIndexApi, HardEvent::S_V);
    UnaryRepeatParams p;
    p.dstBlkStride = p.srcBlkStride = dstBlkStride;
    const uint32_t repElems = uint32_t(dstRepStride) * perBlock;
    for (uint32_t r = 1; r < repeatTime; ++r)
        sim_vec::index_adds(dst, r * repElems, (r - 1) * repElems, perRepeat, mask, p, true);
}
#undef ASCEND_SIM_INDEX_TYPES

}  // namespace AscendC

// Arange / ArithProgression (asc-devkit include/adv_api/index/arithprogression.h;
// dav_c220: impl/adv_api/detail/index/arithprogression/arithprogression_common_impl.h,
// ArithProgressionImpl): the scalar unit writes one 32 B block of the sequence,
// then Adds copies it forward a block at a time to one repeat and a repeat at a
// time after that, each step reading the step before it (hence the barriers).
#pragma once
#include <cstdint>
#include <type_traits>

#include "../kernel_sync.h"
#include "../kernel_tpipe.h"
#include "../kernel_vec_mask.h"
#include "../kernel_vec_scalar.h"
#include "adv_check.h"

namespace AscendC {
namespace sim_adv {

// dst[i] = first + diff * i by the scalar unit; half is computed in float first.
template <class T>
void arange_scalar(const LocalTensor<T>& dst, T first, T diff, int32_t n) {
    using C = std::conditional_t<std::is_same_v<T, half>, float, T>;
    for (int32_t i = 0; i < n; ++i) dst.SetValue(uint32_t(i), T(C(first) + C(diff) * C(i)));
}

// diff * k as the scalar operand of one Adds: in int64_t for integers, float otherwise.
template <class T>
T arange_step(T diff, int32_t k) {
    if constexpr (std::is_integral_v<T>) return T(int64_t(diff) * int64_t(k));
    else return T(float(diff) * float(k));
}

// One Adds of the current mask from src to dst, then the barrier the next step needs.
template <class T>
void arange_copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, T step, uint8_t repStride) {
    Adds<T, false>(dst, src, step, MASK_PLACEHOLDER, 1, UnaryRepeatParams(1, 1, repStride, repStride));
    PipeBarrier<PIPE_V>();
}

// The scalar unit's writes ordered before the vector unit reads them.
inline void scalar_to_vector() {
    const TEventID e = GetTPipePtr()->FetchEventID(HardEvent::S_V);
    SetFlag<HardEvent::S_V>(e);
    WaitFlag<HardEvent::S_V>(e);
}

}  // namespace sim_adv

// The mask register is left as the last step set it, as on A2.
template <typename T>
void ArithProgression(const LocalTensor<T>& dstLocal, const T firstValue, const T diffValue, const int32_t count) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float> || std::is_same_v<T, int16_t> ||
                      std::is_same_v<T, int32_t>,
                  "Arange: A2/A3 support half, float, int16_t and int32_t");
    constexpr const char* api = "Arange";
    namespace d = ascend_sim::detail;
    if (count <= 0) d::fail(api, "count not positive", "count %d must be greater than 0", count);
    if (float(diffValue) < 0.0f)
        d::fail(api, "diffValue negative", "diffValue %f must be greater than or equal to 0", double(float(diffValue)));
    sim_adv::check_count(api, uint32_t(count), dstLocal, "dstLocal");
    constexpr int32_t perBlock = ONE_BLK_SIZE / sizeof(T), perRepeat = ONE_REPEAT_BYTE_SIZE / sizeof(T);
    constexpr uint64_t blockMask = (uint64_t(1) << perBlock) - 1;
    if (count <= perBlock) {
        const TEventID e = GetTPipePtr()->FetchEventID(HardEvent::V_S);
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
        sim_adv::arange_scalar(dstLocal, firstValue, diffValue, count);
        sim_adv::scalar_to_vector();
        return;
    }
    sim_adv::arange_scalar(dstLocal, firstValue, diffValue, perBlock);
    sim_adv::scalar_to_vector();
    const T blockStep = sim_adv::arange_step(diffValue, perBlock);
    SetVectorMask<T>(0, blockMask);
    PipeBarrier<PIPE_V>();
    if (count <= perRepeat) {
        const int32_t blocks = (count + perBlock - 1) / perBlock;
        for (int32_t i = 1; i < blocks; ++i)
            sim_adv::arange_copy(dstLocal[i * perBlock], dstLocal[(i - 1) * perBlock], blockStep, 1);
        return;
    }
    for (int32_t i = 1; i < DEFAULT_BLK_NUM; ++i)
        sim_adv::arange_copy(dstLocal[i * perBlock], dstLocal[(i - 1) * perBlock], blockStep, 1);
    const int32_t repeats = count / perRepeat, tail = count % perRepeat;
    const T repeatStep = sim_adv::arange_step(diffValue, perRepeat);
    ResetMask();
    PipeBarrier<PIPE_V>();
    for (int32_t i = 1; i < repeats; ++i)
        sim_adv::arange_copy(dstLocal[i * perRepeat], dstLocal[(i - 1) * perRepeat], repeatStep, DEFAULT_REPEAT_STRIDE);
    if (tail > 0) {
        SetVectorMask<T>((tail + perBlock - 1) / perBlock * perBlock);
        PipeBarrier<PIPE_V>();
        sim_adv::arange_copy(dstLocal[repeats * perRepeat], dstLocal[(repeats - 1) * perRepeat], repeatStep,
                             DEFAULT_REPEAT_STRIDE);
    }
}

template <typename T>
void Arange(const LocalTensor<T>& dst, const T firstValue, const T diffValue, const int32_t count) {
    ArithProgression<T>(dst, firstValue, diffValue, count);
}

}  // namespace AscendC

// The sort family over Sort32 / MrgSort (asc-devkit include/basic_api/
// kernel_operator_proposal_intf.h, documented under 高阶API/排序操作;
// impl/basic_api/kernel_operator_proposal_intf_impl.h :: Concat, Extract,
// MrgSort, Sort, GetSortOffset, GetSortLen; dav_c220 kernel_operator_proposal_impl.h
// :: DoFullSort, FullSortInnerLoop(Tail), GetFullSortInnerLoopTimes). On A2
// Concat hands src back as the scores; Sort is Sort32 of 32-element groups, and
// with isFullSort the groups are merged four at a time (MrgSort, a DataCopy of
// the proposals to tmp between levels) until one descending run is left;
// Extract pulls scores and indices out of the proposals with GatherMask
// patterns. The SortConfig forms of Sort exist only on the 950 family (their
// A2 body is empty): refused when called.
#pragma once
#include <cstdint>
#include <type_traits>

#include "../kernel_data_copy.h"
#include "../kernel_sync.h"
#include "../kernel_vec_gather_mask.h"
#include "../kernel_vec_sort.h"
#include "adv_check.h"
#include "sort_tiling.h"

namespace AscendC {
namespace sim_adv {

template <class T>
void check_sort_args(const char* api, int32_t repeatTime) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "the sort APIs support half and float");
    if (repeatTime < 0 || repeatTime > 255)
        d::fail(api, "repeatTime out of range", "repeatTime %d is outside [0, 255]", repeatTime);
}

// One level of the full sort: four runs of `run` proposals at a time with one
// MrgSort repeat each, then the 2-4 runs left (the last one shorter) in one more,
// or a lone last run copied.
template <class T>
void full_sort_level(const LocalTensor<T>& dst, const LocalTensor<T>& tmp, uint32_t run, uint32_t tailRun,
                     int32_t fourRuns, int32_t tailRuns) {
    const uint32_t runElems = run * 8 / sizeof(T);
    if (fourRuns > 0) {
        const uint16_t len[4] = {uint16_t(run), uint16_t(run), uint16_t(run), uint16_t(run)};
        MrgSort(dst, MrgSortSrcList<T>(tmp, tmp[runElems], tmp[2 * runElems], tmp[3 * runElems]),
                MrgSort4Info(len, false, 0b1111, uint16_t(fourRuns)));
    }
    PipeBarrier<PIPE_V>();
    if (tailRuns > 0) {
        const uint32_t at = 4 * runElems * uint32_t(fourRuns);
        if (tailRuns == 1) {
            DataCopy(dst[at], tmp[at], tailRun * 8 / uint32_t(sizeof(T)));
        } else {
            uint16_t len[4] = {uint16_t(run), uint16_t(run), uint16_t(run), uint16_t(run)};
            LocalTensor<T> q[4] = {tmp[at], tmp[at + runElems], tmp, tmp};
            if (tailRuns >= 3) q[2] = tmp[at + 2 * runElems];
            if (tailRuns == 4) q[3] = tmp[at + 3 * runElems];
            len[tailRuns - 1] = uint16_t(tailRun);
            for (int32_t k = tailRuns; k < 4; ++k) len[k] = 0;
            const uint16_t validBit = tailRuns == 2 ? 0b0011 : tailRuns == 3 ? 0b0111 : 0b1111;
            MrgSort(dst[at], MrgSortSrcList<T>(q[0], q[1], q[2], q[3]), MrgSort4Info(len, false, validBit, 1));
        }
    }
    PipeBarrier<PIPE_V>();
}

template <class T>
void full_sort(const LocalTensor<T>& dst, LocalTensor<T>& tmp, int32_t repeatTime) {
    const uint32_t total = uint32_t(repeatTime) * 32, proposalElems = total * 8 / sizeof(T);
    int32_t runs = repeatTime, tailRuns = repeatTime % 4, fourRuns = repeatTime / 4;
    DataCopy(tmp, dst, proposalElems);
    PipeBarrier<PIPE_V>();
    for (uint32_t run = 32; runs > 1; run *= 4) {
        const uint32_t tailRun = total % run ? total % run : run;
        full_sort_level(dst, tmp, run, tailRun, fourRuns, tailRuns);
        DataCopy(tmp, dst, proposalElems);
        PipeBarrier<PIPE_V>();
        runs = (runs + 3) / 4;
        tailRuns = runs % 4;
        // a short last run keeps its group out of the repeated merge
        if (tailRuns == 0 && tailRun != run * 4) tailRuns = 4;
        fourRuns = (runs - tailRuns) / 4;
    }
}

}  // namespace sim_adv

template <typename T>
void Concat(LocalTensor<T>& concat, const LocalTensor<T>& src, const LocalTensor<T>&, const int32_t repeatTime) {
    sim_adv::check_sort_args<T>("Concat", repeatTime);
    concat = src;  // A2's proposals are built by Sort32 from the scores as they are
}

template <typename T>
void Extract(const LocalTensor<T>& dstValue, const LocalTensor<uint32_t>& dstIndex, const LocalTensor<T>& sorted,
             const int32_t repeatTime) {
    sim_adv::check_sort_args<T>("Extract", repeatTime);
    uint64_t kept = 0;
    const uint16_t reps = uint16_t(repeatTime);
    // The score is element 0 of a proposal's four halves / two floats, the index the second 4 B.
    GatherMask(dstValue, sorted, uint8_t(sizeof(T) == 2 ? 3 : 1), false, 0u,
               GatherMaskParams(1, reps, DEFAULT_REPEAT_STRIDE, 0), kept);
    PipeBarrier<PIPE_V>();
    // half: the index pass runs twice the repeats, as in dav_c220
    GatherMask(dstIndex, sorted.template ReinterpretCast<uint32_t>(), uint8_t(2), false, 0u,
               GatherMaskParams(1, uint16_t(sizeof(T) == 2 ? 2 * reps : reps), 8, 0), kept);
}

template <typename T, bool isExhaustedSuspension = false>
void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& sortList, const uint16_t elementCountList[4],
             uint32_t sortedNum[4], uint16_t validBit, const int32_t repeatTime) {
    MrgSort(dst, sortList, MrgSort4Info(elementCountList, isExhaustedSuspension, validBit, uint16_t(repeatTime)));
    if constexpr (isExhaustedSuspension) {
        uint16_t c[4];
        ascend_sim::detail::vec_vms4("MrgSort", c);
        for (int k = 0; k < 4; ++k) sortedNum[k] = c[k];
    }
}

template <typename T, bool isFullSort>
void Sort(const LocalTensor<T>& dst, const LocalTensor<T>& concat, const LocalTensor<uint32_t>& index,
          LocalTensor<T>& tmp, const int32_t repeatTime) {
    sim_adv::check_sort_args<T>("Sort", repeatTime);
    Sort32(dst, concat, index, repeatTime);
    if constexpr (isFullSort) {
        PipeBarrier<PIPE_V>();
        sim_adv::full_sort(dst, tmp, repeatTime);
    }
}

// Offsets and lengths, in T elements, of proposals (8 B each).
template <typename T>
uint32_t GetSortOffset(const uint32_t elemOffset) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "GetSortOffset: half or float");
    return elemOffset * (8 / sizeof(T));
}
template <typename T>
uint32_t GetSortLen(const uint32_t elemCount) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "GetSortLen: half or float");
    return elemCount * (8 / sizeof(T));
}

namespace sim_adv {
[[noreturn]] inline void sort_config_not_on_a2() {
    d::fail("Sort", "not on A2",
            "the Sort with SortConfig exists only on the 950 family; on A2 its body is empty (use "
            "Sort<T, isFullSort>(dst, concat, index, tmp, repeatTime))");
}
}  // namespace sim_adv

template <typename T, typename U, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
void Sort(const LocalTensor<T>&, const LocalTensor<U>&, const LocalTensor<T>&, const LocalTensor<U>&,
          const LocalTensor<uint8_t>&, const uint32_t) {
    sim_adv::sort_config_not_on_a2();
}
template <typename T, typename U, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
void Sort(const LocalTensor<T>&, const LocalTensor<U>&, const LocalTensor<T>&, const LocalTensor<U>&, const uint32_t) {
    sim_adv::sort_config_not_on_a2();
}
template <typename T, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
void Sort(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<uint8_t>&, const uint32_t) {
    sim_adv::sort_config_not_on_a2();
}
template <typename T, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
void Sort(const LocalTensor<T>&, const LocalTensor<T>&, const uint32_t) {
    sim_adv::sort_config_not_on_a2();
}
template <typename T, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
void Sort(const LocalTensor<T>&, const LocalTensor<uint32_t>&, const LocalTensor<T>&, const LocalTensor<uint8_t>&,
          const uint32_t) {
    sim_adv::sort_config_not_on_a2();
}
template <typename T, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
void Sort(const LocalTensor<T>&, const LocalTensor<uint32_t>&, const LocalTensor<T>&, const uint32_t) {
    sim_adv::sort_config_not_on_a2();
}

}  // namespace AscendC

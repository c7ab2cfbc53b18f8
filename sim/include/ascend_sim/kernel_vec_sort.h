// Sort32, MrgSort and GetMrgSortResult (CANN: kernel_operator_proposal_intf.h,
// kernel_struct_proposal.h; dav_c220 kernel_operator_proposal_impl.h
// VbitsortCal, MrgSortCal/Vmrgsort4Cal, GetMrgSortResultImpl). A proposal is 8 B:
// the score in the low bytes (float 4 B; half 2 B, then 2 B reserved), the index
// in the high 4 B. Sort32 repeat r sorts the 32 scores at src0[32r] descending,
// equal scores in index order, into dst + 256 r. MrgSort merges up to four
// descending queues the same way. (MrgSort4 and the other proposal APIs A2
// lacks: kernel_vec_not_on_a2.h.)
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "kernel_vec_ops.h"
#include "kernel_vec_repeat.h"

namespace AscendC {

template <class T>
void Sort32(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<uint32_t>& src1,
            const int32_t repeatTime) {
    static_assert(sim_vec::f16f32_v<T>, "Sort32: A2/A3 support half and float");
    namespace d = sim_vec::d;
    if (repeatTime < 0 || repeatTime > 255) d::fail("Sort32", "repeatTime out of range", "repeatTime %d is outside [0, 255]", repeatTime);
    constexpr uint32_t n = 32, scoreBytes = n * sizeof(T);
    const uint64_t reps = uint64_t(repeatTime);
    const auto* dp = static_cast<const uint8_t*>(dst.ub_ref().p);
    auto overlaps = [&](const void* p, uint64_t bytes) {
        const auto* q = static_cast<const uint8_t*>(p);
        return reps && dp < q + bytes && q < dp + reps * 256;
    };
    // 通用地址重叠约束: the 256 B of proposals cannot meet a source element for element.
    if (overlaps(src0.ub_ref().p, reps * scoreBytes) || overlaps(src1.ub_ref().p, reps * 128))
        d::fail("Sort32", "dst overlaps a source", "dst's %llu B of proposals overlap src0 or src1",
                (unsigned long long)(reps * 256));
    d::RepArg a[3] = {sim_vec::rep_arg(src0, 1, scoreBytes / 32, "src0", false),
                      sim_vec::rep_arg(src1, 1, 4, "src1", false), sim_vec::rep_arg(dst, 0, 1, "dst", true)};
    // Sort32.md's parameter table asks 32 B aligned starts (dav_c220 checks nothing;
    // asc-devkit's own TopK issues Sort32 at 0x320); its "128 B / 256 B" are the
    // per-repeat steps of src0, src1 and dst.
    a[2].repBytes = a[2].repUnit = 256;
    d::RepShape shape{n, uint32_t(repeatTime)};
    shape.ignoreMask = true;
    size_t runs = 0;
    d::vec_repeat("Sort32", d::VecOp::Sort32, a, 3, shape, &runs);
    if (!runs) return;
    const T* s = src0.GetPhyAddr();
    const uint32_t* ix = src1.GetPhyAddr();
    auto* out = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
    for (uint64_t r = 0; r < reps; ++r) {
        uint32_t order[n];
        for (uint32_t i = 0; i < n; ++i) {
            if (sim_vec::num::detail::wide(s[r * n + i]) != sim_vec::num::detail::wide(s[r * n + i]))
                d::fail("Sort32", "NaN score", "src0[%llu] is NaN; Sort32.md does not define where a NaN sorts",
                        (unsigned long long)(r * n + i));
            order[i] = i;
        }
        std::stable_sort(order, order + n, [&](uint32_t x, uint32_t y) {
            return sim_vec::num::detail::wide(s[r * n + x]) > sim_vec::num::detail::wide(s[r * n + y]);
        });
        for (uint32_t k = 0; k < n; ++k) {
            std::memcpy(out + r * 256 + k * 8, &s[r * n + order[k]], sizeof(T));
            std::memcpy(out + r * 256 + k * 8 + 4, &ix[r * n + order[k]], 4);
        }
    }
}

constexpr int32_t MRG_SORT_ELEMENT_LEN = 4;

struct MrgSort4Info {
    MrgSort4Info() {}
    MrgSort4Info(const uint16_t elementLengthsIn[MRG_SORT_ELEMENT_LEN], const bool ifExhaustedSuspensionIn,
                 const uint16_t validBitIn, const uint16_t repeatTimesIn)
        : ifExhaustedSuspension(ifExhaustedSuspensionIn), validBit(validBitIn), repeatTimes(uint8_t(repeatTimesIn)) {
        for (int32_t i = 0; i < MRG_SORT_ELEMENT_LEN; ++i) elementLengths[i] = elementLengthsIn[i];
    }
    uint16_t elementLengths[MRG_SORT_ELEMENT_LEN] = {0};
    bool ifExhaustedSuspension = false;
    uint16_t validBit = 0;
    uint8_t repeatTimes = 1;
};

template <class T>
struct MrgSortSrcList {
    MrgSortSrcList() {}
    MrgSortSrcList(const LocalTensor<T>& src1In, const LocalTensor<T>& src2In, const LocalTensor<T>& src3In,
                   const LocalTensor<T>& src4In)
        : src1(src1In[0]), src2(src2In[0]), src3(src3In[0]), src4(src4In[0]) {}
    LocalTensor<T> src1;
    LocalTensor<T> src2;
    LocalTensor<T> src3;
    LocalTensor<T> src4;
};

namespace sim_vec {
template <class T>
inline bool proposal_less(const uint8_t* a, const uint8_t* b) {
    T x, y;
    std::memcpy(&x, a, sizeof(T));
    std::memcpy(&y, b, sizeof(T));
    return num::detail::wide(x) < num::detail::wide(y);
}
template <class T>
inline void check_scores(const char* api, const uint8_t* p, uint32_t n) {
    for (uint32_t i = 0; i < n; ++i) {
        T x;
        std::memcpy(&x, p + 8 * i, sizeof(T));
        if (num::detail::wide(x) != num::detail::wide(x))
            d::fail(api, "NaN score", "a source proposal's score is NaN; MrgSort.md does not define where a NaN sorts");
    }
}
}  // namespace sim_vec

// MrgSort.md: validBit 3, 7 or 15 (the first 2, 3 or 4 queues), lengths in
// proposals [0, 4095]; repeatTimes > 1 needs four contiguous queues of one
// length, validBit 15 and no suspension; with ifExhaustedSuspension the merge
// stops when a queue runs out and GetMrgSortResult reads how many each gave.
template <class T>
void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& params) {
    static_assert(sim_vec::f16f32_v<T>, "MrgSort: A2/A3 support half and float");
    namespace d = sim_vec::d;
    const char* api = "MrgSort";
    const uint16_t v = params.validBit;
    if (v != 3 && v != 7 && v != 15) d::fail(api, "validBit not 3, 7 or 15", "validBit %u is not 3, 7 or 15", v);
    const uint32_t queues = v == 3 ? 2 : v == 7 ? 3 : 4, reps = params.repeatTimes;
    const LocalTensor<T>* q[4] = {&src.src1, &src.src2, &src.src3, &src.src4};
    const uint16_t* len = params.elementLengths;
    for (uint32_t k = 0; k < 4; ++k)
        if (len[k] > 4095) d::fail(api, "elementLengths out of range", "elementLengths[%u] = %u is outside [0, 4095]", k, len[k]);
    auto at = [&](uint32_t k) { return static_cast<const uint8_t*>(q[k]->ub_ref().p); };
    if (reps > 1) {
        bool ok = queues == 4 && !params.ifExhaustedSuspension;
        for (uint32_t k = 1; k < 4; ++k) ok = ok && len[k] == len[0] && at(k) == at(0) + uint64_t(k) * len[0] * 8;
        if (!ok)
            d::fail(api, "repeatTimes without its conditions",
                    "repeatTimes %u takes effect only with four contiguous queues of one length, validBit 15 and "
                    "ifExhaustedSuspension false (MrgSort.md)",
                    reps);
    }
    uint64_t total = 0;
    for (uint32_t k = 0; k < queues; ++k) total += len[k];
    total *= 8 * reps;
    if (params.ifExhaustedSuspension)
        for (uint32_t k = 0; k < queues; ++k)
            if (!len[k])
                d::fail(api, "empty queue with suspension",
                        "queue %u is empty with ifExhaustedSuspension = true; MrgSort.md does not say whether the "
                        "merge then stops at once",
                        k + 1);
    // One read operand a queue (a repeat takes the four queues as one block).
    d::RepArg a[4];
    int n = 0;
    for (uint32_t k = 0; k < (reps > 1 ? 1u : queues); ++k) {
        if (!len[k]) continue;
        a[n] = sim_vec::rep_arg(*q[k], 0, 1, k == 0 ? "src1" : k == 1 ? "src2" : k == 2 ? "src3" : "src4", false);
        a[n].repBytes = a[n].repUnit = uint32_t(len[k]) * 8 * (reps > 1 ? 4 : 1);
        a[n].align = 8;
        ++n;
    }
    const auto* dp = static_cast<const uint8_t*>(dst.ub_ref().p);
    for (int i = 0; i < n; ++i) {
        const auto* qp = static_cast<const uint8_t*>(a[i].t.p);
        const uint64_t bytes = uint64_t(a[i].repBytes) * reps;
        if (dp < qp + bytes && qp < dp + total)
            d::fail(api, "dst overlaps a source", "dst overlaps %s (MrgSort.md: no overlap of dst and src)", a[i].role);
    }
    d::RepShape shape{1, reps};
    shape.ignoreMask = true;
    size_t runs = 0;
    d::vec_repeat(api, d::VecOp::MrgSort, a, n, shape, &runs);
    if (!runs) return;  // repeatTimes 0: a NOP
    uint16_t taken[4] = {0, 0, 0, 0};
    auto* out = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
    uint64_t written = 0;
    for (uint32_t r = 0; r < reps; ++r) {
        const uint8_t* head[4];
        for (uint32_t k = 0; k < queues; ++k) {
            head[k] = at(k) + uint64_t(r) * 4 * len[0] * 8 * (reps > 1);
            sim_vec::check_scores<T>(api, head[k], len[k]);
            taken[k] = 0;
        }
        bool stop = false;
        for (;;) {
            int best = -1;
            for (uint32_t k = 0; k < queues; ++k)  // ties: the earlier queue first
                if (taken[k] < len[k] && (best < 0 || sim_vec::proposal_less<T>(head[best] + 8 * taken[best], head[k] + 8 * taken[k])))
                    best = int(k);
            if (best < 0) break;
            std::memcpy(out + written, head[best] + 8 * taken[best], 8);
            written += 8;
            if (++taken[best] == len[best] && params.ifExhaustedSuspension) stop = true;
            if (stop) break;
        }
    }
    d::vec_repeat_packed_write(api, dst.ub_ref(), "dst", written);
    d::vec_set_vms4(api, taken, params.ifExhaustedSuspension && n);
}

// The proposals each queue gave to the last MrgSort with ifExhaustedSuspension (VMS4_SR).
inline void GetMrgSortResult(uint16_t& mrgSortList1, uint16_t& mrgSortList2, uint16_t& mrgSortList3,
                             uint16_t& mrgSortList4) {
    uint16_t c[4];
    ascend_sim::detail::vec_vms4("GetMrgSortResult", c);
    mrgSortList1 = c[0], mrgSortList2 = c[1], mrgSortList3 = c[2], mrgSortList4 = c[3];
}

}  // namespace AscendC

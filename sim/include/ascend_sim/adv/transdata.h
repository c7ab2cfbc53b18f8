// TransData (asc-devkit include/adv_api/transpose/transdata.h; dav_c220:
// impl/adv_api/detail/transpose/transdata/transdata_impl.h :: TransDataImpl
// and its four conversions): 2-byte NCDHW <-> FRACTAL_Z_3D and NCDHW <->
// NDC1HWC0, H x W padded to 16 on the NCDHW side, as sequences of Duplicate
// (zero rows), TransDataTo5HD over uint64_t address lists (16 x 16 half
// transposes) and UB-to-UB DataCopy reorders with PipeBarrier<PIPE_V> between
// steps. transdata_check_common.h: the format pair, the shapes of the two
// layouts against each other and the tensors' sizes; TransData.md: dst, src
// and sharedTmpBuffer must not overlap. The sharedTmpBuffer must hold what
// GetTransDataMaxMinTmpSize gives (its steps address all of it).
#pragma once
#include <cstdint>
#include <type_traits>

#include "../kernel_data_copy.h"
#include "../kernel_sync.h"
#include "../kernel_tpipe.h"
#include "../kernel_vec_ops.h"
#include "../kernel_vec_transpose.h"
#include "adv_check.h"
#include "transdata_layout.h"
#include "transdata_params.h"

namespace AscendC {
namespace sim_adv {

struct TransDataDims {
    int32_t n, c, d, h, w, n1, c1, padHw;
};

// One vnchwconv over 16 destination and 16 source addresses.
struct NchwConvLists {
    uint64_t dst[NCHW_CONV_ADDR_LIST_SIZE];
    uint64_t src[NCHW_CONV_ADDR_LIST_SIZE];
    void run(uint32_t repeat, uint16_t dstRep, uint16_t srcRep) {
        // the code's repeatTimes field is 8 bits: a larger count would be cut
        if (repeat > 255)
            d::fail("TransData", "repeat count above 255",
                    "a TransDataTo5HD step needs %u repeats; its repeatTimes holds 255 (the shape is too large)",
                    repeat);
        const bool one = repeat == 1;
        TransDataTo5HD<half>(dst, src, TransDataTo5HDParams(false, false, uint8_t(repeat), one ? 0 : dstRep,
                                                             one ? 0 : srcRep));
    }
};

inline uint64_t addr_of(const void* p, int64_t elems) {
    return uint64_t(reinterpret_cast<uintptr_t>(p)) + uint64_t(elems) * 2;
}

inline DataCopyParams block_copy(int64_t count, int64_t lenElems, int64_t srcGapElems, int64_t dstGapElems) {
    return DataCopyParams(uint16_t(count), uint16_t(lenElems / 16), uint16_t(srcGapElems / 16),
                          uint16_t(dstGapElems / 16));
}

// NCDHW -> CDHW N1N0 (by n1 transposes, missing n rows from the zeros), the
// padded H x W squeezed out, then -> C1 DHW N1N0 C0 -> D C1 HW N1N0 C0.
template <typename T>
void transdata_ncdhw_to_fractal(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp,
                                const TransDataDims& p) {
    const int32_t hw = p.h * p.w, chan = p.c * p.d * p.padHw, spread = p.d * hw * p.n1 * 16;
    const int32_t zeros = chan > spread ? chan : spread;
    Duplicate<T>(tmp.ReinterpretCast<T>(), T(0), zeros);
    PipeBarrier<PIPE_V>();
    const LocalTensor<T> work = tmp[zeros * 2].ReinterpretCast<T>();
    const bool padded = p.padHw != hw;
    const void* zero = tmp.GetPhyAddr();
    NchwConvLists l;
    for (int32_t j = 0; j < p.n1; ++j) {
        const int32_t rows = j == p.n1 - 1 ? p.n - j * 16 : 16;
        for (int32_t i = 0; i < 16; ++i) {
            l.dst[i] = addr_of(padded ? work.GetPhyAddr() : dst.GetPhyAddr(), j * 16 + i * p.n1 * 16);
            l.src[i] = i < rows ? addr_of(src.GetPhyAddr(), int64_t(j) * chan * 16 + int64_t(i) * chan)
                                : addr_of(zero, 0);
        }
        l.run(uint32_t(chan / 16), uint16_t(p.n1 * 16), 1);
    }
    PipeBarrier<PIPE_V>();
    if (padded) {
        DataCopy(dst, work, block_copy(p.c * p.d, hw * p.n1 * 16, (p.padHw - hw) * p.n1 * 16, 0));
        PipeBarrier<PIPE_V>();
    }
    for (int32_t j = 0; j < p.c1; ++j) {
        const int32_t rows = j == p.c1 - 1 ? p.c - j * 16 : 16;
        for (int32_t i = 0; i < 16; ++i) {
            l.dst[i] = addr_of(work.GetPhyAddr(), int64_t(j) * spread * 16 + i * 16);
            l.src[i] = i < rows ? addr_of(dst.GetPhyAddr(), int64_t(j) * spread * 16 + int64_t(i) * spread)
                                : addr_of(zero, 0);
        }
        l.run(uint32_t(spread / 16), 16, 1);
    }
    PipeBarrier<PIPE_V>();
    const int32_t slab = 16 * hw * p.n1 * 16;
    for (int32_t i = 0; i < p.c1; ++i)
        DataCopy(dst[i * slab], work[i * p.d * slab], block_copy(p.d, slab, 0, (p.c1 - 1) * slab));
    PipeBarrier<PIPE_V>();
}

// D C1 HW N1N0 C0 -> C1 D HW1*16 N1N0 C0 (zero-filled pad) -> C1 C0 DHW N1N0
// -> N CDHW, the rows past n into the scratch at the tmp's start.
template <typename T>
void transdata_fractal_to_ncdhw(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp,
                                const TransDataDims& p) {
    const LocalTensor<half> s = src.template ReinterpretCast<half>(), o = dst.template ReinterpretCast<half>();
    const LocalTensor<half> t = tmp.ReinterpretCast<half>();
    const bool whole = p.c == p.c1 * 16 && p.n == p.n1 * 16;
    const LocalTensor<half> reordered = whole ? o : t;
    const LocalTensor<half> transposed = whole ? t : t[p.n1 * 16 * p.c1 * 16 * p.d * p.padHw];
    const int32_t hw = p.h * p.w, nc = p.n1 * 256, hwAlign = p.padHw * nc, line = hw * nc;
    Duplicate<half>(reordered, half(0), p.c1 * p.d * p.padHw * nc);
    PipeBarrier<PIPE_V>();
    const DataCopyParams cp = block_copy(p.c1, line, 0, (p.d - 1) * hwAlign + (p.padHw - hw) * nc);
    for (int32_t d0 = 0; d0 < p.d; ++d0) DataCopy(reordered[d0 * hwAlign], s[d0 * p.c1 * line], cp);
    PipeBarrier<PIPE_V>();
    NchwConvLists l;
    const int32_t plane = p.d * p.padHw * p.n1 * 16;  // DHW N1N0 of one c
    for (int32_t j = 0; j < p.c1; ++j) {
        for (int32_t i = 0; i < 16; ++i) {
            l.src[i] = addr_of(reordered.GetPhyAddr(), int64_t(j) * plane * 16 + i * 16);
            l.dst[i] = addr_of(transposed.GetPhyAddr(), int64_t(j) * plane * 16 + int64_t(i) * plane);
        }
        l.run(uint32_t(p.d * p.padHw * p.n1), 1, 16);
    }
    PipeBarrier<PIPE_V>();
    const int32_t image = p.c * p.d * p.padHw;
    int32_t left = p.n;
    for (int32_t j = 0; j < p.n1; ++j) {
        for (int32_t i = 0; i < 16; ++i) {
            l.dst[i] = i < left ? addr_of(o.GetPhyAddr(), int64_t(j) * image * 16 + int64_t(i) * image)
                                : addr_of(t.GetPhyAddr(), i * 32);
            l.src[i] = addr_of(transposed.GetPhyAddr(), j * 16 + i * 16 * p.n1);
        }
        l.run(uint32_t(image / 16), 1, uint16_t(16 * p.n1));
        left -= 16;
    }
    PipeBarrier<PIPE_V>();
}

// Per n: CDHW -> C1 DHW C0 by c1 transposes (missing c rows from the zeros),
// then the padded H x W dropped while the d slices move behind each other.
template <typename T>
void transdata_ncdhw_to_6hd(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp,
                            const TransDataDims& p) {
    const int32_t hw = p.h * p.w, plane = p.d * p.padHw, slab = plane * 16, line = hw * 16;
    Duplicate<T>(tmp.ReinterpretCast<T>(), T(0), plane);
    PipeBarrier<PIPE_V>();
    const LocalTensor<T> work = tmp[plane * 2].ReinterpretCast<T>();
    const DataCopyParams cp = block_copy(p.d, line, (p.padHw - hw) * 16, (p.c1 - 1) * line);
    NchwConvLists l;
    for (int32_t k = 0; k < p.n; ++k) {
        const int64_t from = int64_t(k) * plane * p.c, to = int64_t(k) * line * p.c1 * p.d;
        for (int32_t j = 0; j < p.c1; ++j) {
            const int32_t rows = j == p.c1 - 1 ? p.c - j * 16 : 16;
            for (int32_t i = 0; i < 16; ++i) {
                l.dst[i] = addr_of(work.GetPhyAddr(), int64_t(j) * slab + i * 16);
                l.src[i] = i < rows ? addr_of(src.GetPhyAddr(), from + int64_t(j) * slab + int64_t(i) * plane)
                                    : addr_of(tmp.GetPhyAddr(), 0);
            }
            l.run(uint32_t(plane / 16), 16, 1);
        }
        PipeBarrier<PIPE_V>();
        for (int32_t i = 0; i < p.c1; ++i) DataCopy(dst[to + i * line], work[i * slab], cp);
        PipeBarrier<PIPE_V>();
    }
}

// Per n: D C1 HW C0 -> C1 D HW1*16 C0, then C1 transposes to C DHW, the rows
// past c into the 512 B scratch at the tmp's start.
template <typename T>
void transdata_6hd_to_ncdhw(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp,
                            const TransDataDims& p) {
    constexpr int32_t scratch = 512;
    const int32_t hw = p.h * p.w, plane = p.d * p.padHw, slab = plane * 16, line = hw * 16;
    const LocalTensor<T> work = tmp[scratch].ReinterpretCast<T>();
    const DataCopyParams cp = block_copy(p.c1, line, 0, (plane - hw) * 16);
    NchwConvLists l;
    for (int32_t k = 0; k < p.n; ++k) {
        const int64_t from = int64_t(k) * line * p.c1 * p.d, to = int64_t(k) * plane * p.c;
        for (int32_t i = 0; i < p.d; ++i) DataCopy(work[i * p.padHw * 16], src[from + i * line * p.c1], cp);
        // The copies skip the rows that pad H x W to 16; their transposes land
        // in dst's padding, which TransData.md calls invalid data: they count
        // as defined so that the initcheck reports only reads reaching a result.
        if (k == 0 && hw != p.padHw)
            for (int32_t i = 0; i < p.c1 * p.d; ++i)
                d::ub_written("TransDataTo5HD", work[i * p.padHw * 16 + line].GetPhyAddr(),
                              uint64_t(p.padHw - hw) * 16 * sizeof(T));
        PipeBarrier<PIPE_V>();
        for (int32_t j = 0; j < p.c1; ++j) {
            const int32_t rows = j == p.c1 - 1 ? p.c - j * 16 : 16;
            for (int32_t i = 0; i < 16; ++i) {
                l.dst[i] = i < rows ? addr_of(dst.GetPhyAddr(), to + int64_t(j) * slab + int64_t(i) * plane)
                                    : uint64_t(reinterpret_cast<uintptr_t>(tmp.GetPhyAddr())) + i * 32;
                l.src[i] = addr_of(work.GetPhyAddr(), int64_t(j) * slab + i * 16);
            }
            l.run(uint32_t(plane / 16), 1, 16);
        }
        PipeBarrier<PIPE_V>();
    }
}

template <typename Shape>
constexpr uint32_t shape_rank() {
    return uint32_t(Std::tuple_size<Std::remove_cvref_t<Shape>>::value);
}

}  // namespace sim_adv

template <const TransDataConfig& config, typename T, typename U, typename S>
void TransData(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
               const LocalTensor<uint8_t>& sharedTmpBuffer, const TransDataParams<U, S>& params) {
    static_assert(sim_vec::one_of_v<T, half, bfloat16_t, uint16_t, int16_t>,
                  "TransData: A2/A3 support half, bfloat16_t, uint16_t and int16_t");
    static_assert(is_layout_v<U>, "TransData: srcLayout must be a layout");
    static_assert(is_layout_v<S>, "TransData: dstLayout must be a layout");
    constexpr const char* api = "TransData";
    namespace d = ascend_sim::detail;
    using SrcShape = decltype(params.srcLayout.GetShape());
    using DstShape = decltype(params.dstLayout.GetShape());
    constexpr uint32_t srcRank = sim_adv::shape_rank<SrcShape>(), dstRank = sim_adv::shape_rank<DstShape>();
    constexpr bool fromNcdhw = config.srcFormat == DataFormat::NCDHW;
    constexpr bool fractal =
        config.srcFormat == DataFormat::FRACTAL_Z_3D || config.dstFormat == DataFormat::FRACTAL_Z_3D;
    if constexpr (!sim_adv::transdata_pair_ok(config.srcFormat, config.dstFormat)) {
        d::fail(api, "format pair not supported",
                "config srcFormat/dstFormat is (%s, %s); expected (NCDHW, FRACTAL_Z_3D), (FRACTAL_Z_3D, NCDHW), "
                "(NCDHW, NDC1HWC0) or (NDC1HWC0, NCDHW)",
                sim_adv::data_format_name(config.srcFormat), sim_adv::data_format_name(config.dstFormat));
    } else {
        constexpr uint32_t otherRank = fractal ? 7 : 6;
        static_assert((fromNcdhw ? srcRank : dstRank) == 5, "TransData: the NCDHW layout's shape must have 5 dims");
        static_assert((fromNcdhw ? dstRank : srcRank) == otherRank,
                      "TransData: the FRACTAL_Z_3D layout's shape must have 7 dims, the NDC1HWC0 one's 6");
        const auto& ncdhw = [&]() -> decltype(auto) {
            if constexpr (fromNcdhw) return params.srcLayout.GetShape();
            else return params.dstLayout.GetShape();
        }();
        const auto& other = [&]() -> decltype(auto) {
            if constexpr (fromNcdhw) return params.dstLayout.GetShape();
            else return params.srcLayout.GetShape();
        }();
        const LocalTensor<T>& ncdhwTensor = fromNcdhw ? srcTensor : dstTensor;
        const LocalTensor<T>& otherTensor = fromNcdhw ? dstTensor : srcTensor;
        const int32_t n = int32_t(Std::get<0>(ncdhw)), c = int32_t(Std::get<1>(ncdhw)),
                      dd = int32_t(Std::get<2>(ncdhw)), h = int32_t(Std::get<3>(ncdhw)),
                      w = int32_t(Std::get<4>(ncdhw));
        const sim_adv::TransDataDims p{n, c, dd, h, w, (n + 15) / 16, (c + 15) / 16, (h * w + 15) / 16 * 16};
        const uint32_t ncdhwElems = uint32_t(n * c * dd * p.padHw);
        if (ncdhwTensor.GetSize() < ncdhwElems)
            d::fail(api, "NCDHW tensor too small",
                    "the NCDHW tensor holds %u elements; n x c x d x (h x w padded to 16) is %u", ncdhwTensor.GetSize(),
                    ncdhwElems);
        uint32_t otherElems = 1;
        if constexpr (fractal) {
            const int32_t fd = int32_t(Std::get<0>(other)), fc1 = int32_t(Std::get<1>(other)),
                          fh = int32_t(Std::get<2>(other)), fw = int32_t(Std::get<3>(other)),
                          fn1 = int32_t(Std::get<4>(other)), fn0 = int32_t(Std::get<5>(other)),
                          fc0 = int32_t(Std::get<6>(other));
            if (fd != dd || fh != h || fw != w)
                d::fail(api, "layouts disagree", "d, h, w are (%d, %d, %d) in NCDHW but (%d, %d, %d) in FRACTAL_Z_3D",
                        dd, h, w, fd, fh, fw);
            if (fc0 == 0 || fc1 != (c + fc0 - 1) / fc0)
                d::fail(api, "layouts disagree", "FRACTAL_Z_3D c1 %d, c0 %d do not give c %d as c1 = (c + c0 - 1) / c0",
                        fc1, fc0, c);
            if (fn0 == 0 || fn1 != (n + fn0 - 1) / fn0)
                d::fail(api, "layouts disagree", "FRACTAL_Z_3D n1 %d, n0 %d do not give n %d as n1 = (n + n0 - 1) / n0",
                        fn1, fn0, n);
            otherElems = uint32_t(fd * fc1 * fh * fw * fn1 * fn0 * fc0);
        } else {
            const int32_t en = int32_t(Std::get<0>(other)), ed = int32_t(Std::get<1>(other)),
                          ec1 = int32_t(Std::get<2>(other)), eh = int32_t(Std::get<3>(other)),
                          ew = int32_t(Std::get<4>(other)), ec0 = int32_t(Std::get<5>(other));
            if (en != n || ed != dd || eh != h || ew != w)
                d::fail(api, "layouts disagree",
                        "n, d, h, w are (%d, %d, %d, %d) in NCDHW but (%d, %d, %d, %d) in NDC1HWC0",
                        n, dd, h, w, en, ed, eh, ew);
            if (ec0 == 0 || ec1 != (c + ec0 - 1) / ec0)
                d::fail(api, "layouts disagree",
                        "NDC1HWC0 c1 %d, c0 %d do not give c %d as c1 = (c + c0 - 1) / c0", ec1, ec0, c);
            otherElems = uint32_t(en * ed * ec1 * eh * ew * ec0);
    }
    if (otherTensor.GetSize() < otherElems)
        d::fail(api, "tensor too small", "the %s tensor holds %u elements; its layout has %u",
                sim_adv::data_format_name(fromNcdhw ? config.dstFormat : config.srcFormat), otherTensor.GetSize(),
                otherElems);
    const uint32_t srcElems = fromNcdhw ? ncdhwElems : otherElems, dstElems = fromNcdhw ? otherElems : ncdhwElems;
    const uint32_t tmpBytes = sim_adv::transdata_tmp_bytes(config, n, c, dd, h, w);
    sim_adv::check_tmp(api, sharedTmpBuffer, tmpBytes, "GetTransDataMaxMinTmpSize");
    sim_adv::check_disjoint(api, dstTensor, dstElems, "dstTensor", srcTensor, srcElems, "srcTensor");
    sim_adv::check_disjoint(api, sharedTmpBuffer, tmpBytes, "sharedTmpBuffer", srcTensor, srcElems, "srcTensor");
    sim_adv::check_disjoint(api, sharedTmpBuffer, tmpBytes, "sharedTmpBuffer", dstTensor, dstElems, "dstTensor");
    if constexpr (fromNcdhw && fractal) sim_adv::transdata_ncdhw_to_fractal(dstTensor, srcTensor, sharedTmpBuffer, p);
    else if constexpr (fractal) sim_adv::transdata_fractal_to_ncdhw(dstTensor, srcTensor, sharedTmpBuffer, p);
    else if constexpr (fromNcdhw) sim_adv::transdata_ncdhw_to_6hd(dstTensor, srcTensor, sharedTmpBuffer, p);
    else sim_adv::transdata_6hd_to_ncdhw(dstTensor, srcTensor, sharedTmpBuffer, p);
    }
}

// transdata.h: without sharedTmpBuffer the stack buffer.
template <const TransDataConfig& config, typename T, typename U, typename S>
void TransData(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const TransDataParams<U, S>& params) {
    TransData<config, T, U, S>(dstTensor, srcTensor, sim_adv::stack_tmp("TransData"), params);
}

}  // namespace AscendC

// Transpose and TransDataTo5HD (CANN: kernel_operator_vec_transpose_intf.h,
// kernel_struct_transpose.h; dav_c220 kernel_operator_vec_transpose_impl.h).
//   Transpose(dst, src): the 16 x 16 two-byte form, one vtranspose on 512 B, no
//     mask; Transpose.md: src and dst may be the same tensor.
//   Transpose(dst, src, sharedTmpBuffer, TransposeParamsExt): TRANSPOSE_ND2ND_B16
//     (16 x 16, uint16_t on A2) as the plain form; TRANSPOSE_NCHW2NHWC and
//     TRANSPOSE_NHWC2NCHW: cSize 1 is one UB->UB DataCopy, otherwise the
//     transposed result of Transpose.md's reference, modelled as one PIPE_V
//     instruction reading src, writing dst and the sharedTmpBuffer bytes dav_c220
//     uses ((cSize + 2), resp. (2 cSize + 1), fractals of 512 B, 1024 B for 8-bit).
//   TransDataTo5HD: vnchwconv over 16 scattered source and 16 destination 32 B
//     blocks per repeat (b16: dst[i][j] = src[j][i]; b32: the pair dst[2k],
//     dst[2k + 1] is column k of the 16 x 8 source; b8: dst[i] half h_d element
//     j = src[j] half h_s element i), the block addresses moving by the repeat
//     strides (in 32 B blocks).
#pragma once
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "kernel_data_copy.h"
#include "kernel_vec_ops.h"

namespace AscendC {

constexpr int32_t NCHW_CONV_ADDR_LIST_SIZE = 16;

enum class TransposeType : uint8_t {
    TRANSPOSE_TYPE_NONE,
    TRANSPOSE_NZ2ND_0213,
    TRANSPOSE_NZ2NZ_0213,
    TRANSPOSE_NZ2NZ_012_WITH_N,
    TRANSPOSE_NZ2ND_012_WITH_N,
    TRANSPOSE_NZ2ND_012_WITHOUT_N,
    TRANSPOSE_NZ2NZ_012_WITHOUT_N,
    TRANSPOSE_ND2ND_ONLY,
    TRANSPOSE_ND_UB_GM,
    TRANSPOSE_GRAD_ND_UB_GM,
    TRANSPOSE_ND2ND_B16,
    TRANSPOSE_NCHW2NHWC,
    TRANSPOSE_NHWC2NCHW,
#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 3510)
    TRANSPOSE_ND2ND_021,
    TRANSPOSE_ND2ND_102,
    TRANSPOSE_ND2ND_210,
    TRANSPOSE_ND2NZ_WITH_INTLV
#endif
};

struct TransDataTo5HDParams {
    constexpr TransDataTo5HDParams() = default;
    constexpr TransDataTo5HDParams(const bool dstHighHalfIn, const bool srcHighHalfIn, const uint8_t repeatTimesIn,
                                   const uint16_t dstRepStrideIn, const uint16_t srcRepStrideIn)
        : dstHighHalf(dstHighHalfIn), srcHighHalf(srcHighHalfIn), repeatTimes(repeatTimesIn),
          dstRepStride(dstRepStrideIn), srcRepStride(srcRepStrideIn) {}
    bool dstHighHalf = false;
    bool srcHighHalf = false;
    uint8_t repeatTimes = 1;
    uint16_t dstRepStride = 0;
    uint16_t srcRepStride = 0;
};

struct TransposeParamsExt {
    constexpr TransposeParamsExt() = default;
    constexpr TransposeParamsExt(const uint16_t nSizeIn, const uint16_t cSizeIn, const uint16_t hSizeIn,
                                 const uint16_t wSizeIn, const TransposeType transposeTypeIn)
        : nSize(nSizeIn), cSize(cSizeIn), hSize(hSizeIn), wSize(wSizeIn), transposeType(transposeTypeIn) {}
    uint16_t nSize = 0;
    uint16_t cSize = 0;
    uint16_t hSize = 0;
    uint16_t wSize = 0;
    TransposeType transposeType = TransposeType::TRANSPOSE_ND2ND_B16;
};

template <class T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src) {
    static_assert(sim_vec::one_of_v<T, int16_t, uint16_t, half>, "Transpose: A2/A3 support int16_t, uint16_t and half");
    constexpr uint32_t n = 16, bytes = n * n * sizeof(T);
    const auto* d0 = static_cast<const uint8_t*>(dst.ub_ref().p);
    const auto* s0 = static_cast<const uint8_t*>(src.ub_ref().p);
    // Only the whole-tensor reuse is documented; any other overlap mixes rows being read and written.
    if (d0 != s0 && d0 < s0 + bytes && s0 < d0 + bytes)
        sim_vec::d::fail("Transpose", "partial overlap",
                         "dst and src overlap other than as the same 512 B (Transpose.md allows only src == dst)");
    const sim_vec::d::VecArg a[2] = {sim_vec::arg(src, n * n, "src", false), sim_vec::arg(dst, n * n, "dst", true)};
    sim_vec::d::vec_instr("Transpose", sim_vec::d::VecOp::Transpose, n * n, sizeof(T), a, 2, true);
    T tmp[n * n];
    std::memcpy(tmp, src.GetPhyAddr(), bytes);
    for (uint32_t r = 0; r < n; ++r)
        for (uint32_t c = 0; c < n; ++c) dst.GetPhyAddr()[c * n + r] = tmp[r * n + c];
}

namespace sim_transpose {
template <class T>
constexpr bool four_d_type_v = sim_vec::one_of_v<T, int8_t, uint8_t, int16_t, uint16_t, half, int32_t, uint32_t, float>;

// [N, C, H, W] <-> [N, H, W, C], as Transpose.md's numpy reference.
template <class T>
void four_d(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp,
            const TransposeParamsExt& p) {
    const char* api = "Transpose";
    if (!four_d_type_v<T>)
        sim_vec::d::fail(api, "type not supported",
                         "TRANSPOSE_NCHW2NHWC / TRANSPOSE_NHWC2NCHW support int8_t, uint8_t, int16_t, uint16_t, "
                         "half, int32_t, uint32_t and float on A2");
    const uint64_t image = uint64_t(p.hSize) * p.wSize, total = uint64_t(p.nSize) * p.cSize * image;
    if (p.cSize == 1) {  // dav_c220: one UB->UB copy of the whole tensor
        const uint64_t blocks = total * sizeof(T) / ONE_BLK_SIZE;
        if (blocks > 65535)
            sim_vec::d::fail(api, "copy too long", "the cSize 1 copy is %llu blocks; its blockLen holds 65535",
                             (unsigned long long)blocks);
        DataCopyParams c;
        c.blockLen = uint16_t(blocks);
        DataCopy(dst, src, c);
        return;
    }
    if (p.cSize > 4095)
        sim_vec::d::fail(api, "cSize out of range", "cSize %u is outside [0, 4095]", unsigned(p.cSize));
    if (image > 4095)
        sim_vec::d::fail(api, "hSize * wSize out of range", "hSize * wSize %llu is outside [0, 4095]",
                         (unsigned long long)image);
    if (image * sizeof(T) % ONE_BLK_SIZE != 0)
        sim_vec::d::fail(api, "hSize * wSize not 32 B aligned",
                         "hSize * wSize * sizeof(T) = %llu B is not a multiple of 32",
                         (unsigned long long)(image * sizeof(T)));
    const bool toHwc = p.transposeType == TransposeType::TRANSPOSE_NCHW2NHWC;
    const uint64_t fractal = sizeof(T) == 1 ? 1024 : 512;
    const uint64_t need = (toHwc ? uint64_t(p.cSize) + 2 : 2 * uint64_t(p.cSize) + 1) * fractal;
    if (tmp.GetSize() < need)
        sim_vec::d::fail(api, "sharedTmpBuffer too small",
                         "sharedTmpBuffer holds %u B; cSize %u needs %llu B (Transpose.md: %s)", tmp.GetSize(),
                         unsigned(p.cSize), (unsigned long long)need,
                         toHwc ? "(cSize + 2) * h0 * w0 * sizeof(T)" : "(cSize * 2 + 1) * h0 * w0 * sizeof(T)");
    const auto* d0 = static_cast<const uint8_t*>(dst.ub_ref().p);
    const auto* t0 = static_cast<const uint8_t*>(tmp.ub_ref().p);
    if (d0 < t0 + need && t0 < d0 + total * sizeof(T))
        sim_vec::d::fail(api, "sharedTmpBuffer overlaps dst", "the sharedTmpBuffer bytes it uses overlap dst");
    const sim_vec::d::VecArg a[3] = {sim_vec::arg(src, total, "src", false), sim_vec::arg(dst, total, "dst", true),
                                     sim_vec::arg(tmp, need, "sharedTmpBuffer", true)};
    // Transpose.md: src and dst may not be the same tensor here.
    if (!sim_vec::d::vec_instr(api, sim_vec::d::VecOp::Transpose, int64_t(total), sizeof(T), a, 3, false)) return;
    const T* s = src.GetPhyAddr();
    T* d = dst.GetPhyAddr();
    for (uint64_t n = 0; n < p.nSize; ++n)
        for (uint64_t c = 0; c < p.cSize; ++c)
            for (uint64_t hw = 0; hw < image; ++hw) {
                const uint64_t chw = (n * p.cSize + c) * image + hw, hwc = (n * image + hw) * p.cSize + c;
                if (toHwc) d[hwc] = s[chw];
                else d[chw] = s[hwc];
            }
}
}  // namespace sim_transpose

template <typename T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
               const TransposeParamsExt& transposeParams) {
    const TransposeType t = transposeParams.transposeType;
    if (t == TransposeType::TRANSPOSE_ND2ND_B16 && transposeParams.hSize == 16 && transposeParams.wSize == 16) {
        if constexpr (std::is_same_v<T, uint16_t>) {
            Transpose(dst, src);
        } else {
            sim_vec::d::fail("Transpose", "type not supported",
                             "TRANSPOSE_ND2ND_B16 supports uint16_t only on A2 (the plain Transpose takes int16_t and "
                             "half too)");
        }
    } else if (t == TransposeType::TRANSPOSE_NCHW2NHWC || t == TransposeType::TRANSPOSE_NHWC2NCHW) {
        sim_transpose::four_d(dst, src, sharedTmpBuffer, transposeParams);
    } else {
        sim_vec::d::fail("Transpose", "transposeType not supported",
                         "transposeType %u with hSize %u, wSize %u: dav_c220 does nothing for it (it takes "
                         "TRANSPOSE_ND2ND_B16 with 16 x 16, TRANSPOSE_NCHW2NHWC and TRANSPOSE_NHWC2NCHW)",
                         unsigned(t), unsigned(transposeParams.hSize), unsigned(transposeParams.wSize));
    }
}

namespace sim_transpose {
// One vnchwconv: 16 destination and 16 source block addresses per repeat.
template <class T>
void nchwconv(const char* api, uint8_t* const dstList[16], const uint8_t* const srcList[16],
              const TransDataTo5HDParams& p) {
    static_assert(four_d_type_v<T>,
                  "TransDataTo5HD: A2 supports int8_t, uint8_t, int16_t, uint16_t, half, int32_t, uint32_t, float");
    const uint32_t reps = p.repeatTimes;
    if (reps == 0) return;  // a NOP (TransDataTo5HD.md)
    constexpr bool b8 = sizeof(T) == 1;
    const uint8_t dLo = b8 && p.dstHighHalf ? 16 : 0, sLo = b8 && p.srcHighHalf ? 16 : 0;
    std::vector<const void*> at(size_t(reps) * 32);
    std::vector<uint8_t> lo(at.size());
    std::unique_ptr<bool[]> writes(new bool[at.size()]());
    for (uint32_t r = 0; r < reps; ++r)
        for (uint32_t i = 0; i < 16; ++i) {
            const size_t k = size_t(r) * 32 + i;
            at[k] = srcList[i] + uint64_t(r) * p.srcRepStride * 32;
            lo[k] = sLo;
            at[k + 16] = dstList[i] + uint64_t(r) * p.dstRepStride * 32;
            lo[k + 16] = dLo;
            writes[k + 16] = true;
        }
    sim_vec::d::vec_blocks(api, sim_vec::d::VecOp::TransDataTo5HD, at.data(), lo.data(), b8 ? 16 : 32, writes.get(),
                           at.size(), reps);
    for (uint32_t r = 0; r < reps; ++r) {
        uint8_t in[16][32];  // the repeat's sources first: a destination may be a source
        for (uint32_t j = 0; j < 16; ++j) std::memcpy(in[j], at[size_t(r) * 32 + j], 32);
        for (uint32_t i = 0; i < 16; ++i) {
            auto* out = static_cast<uint8_t*>(const_cast<void*>(at[size_t(r) * 32 + 16 + i]));
            for (uint32_t e = 0; e < 16; ++e) {
                if constexpr (sizeof(T) == 1) {
                    out[dLo + e] = in[e][sLo + i];
                } else if constexpr (sizeof(T) == 2) {
                    std::memcpy(out + e * 2, in[e] + i * 2, 2);
                } else if (e < 8) {  // b32: dst i is half (i % 2) of column i / 2
                    std::memcpy(out + e * 4, in[(i % 2) * 8 + e] + (i / 2) * 4, 4);
                }
            }
        }
    }
}
}  // namespace sim_transpose

template <typename T>
void TransDataTo5HD(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE], uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE],
                    const TransDataTo5HDParams& nchwconvParams) {
    uint8_t* d[16];
    const uint8_t* s[16];
    for (int i = 0; i < 16; ++i) {
        d[i] = reinterpret_cast<uint8_t*>(dstList[i]);
        s[i] = reinterpret_cast<const uint8_t*>(srcList[i]);
    }
    sim_transpose::nchwconv<T>("TransDataTo5HD", d, s, nchwconvParams);
}

template <typename T>
void TransDataTo5HD(const LocalTensor<T> (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
                    const LocalTensor<T> (&srcList)[NCHW_CONV_ADDR_LIST_SIZE],
                    const TransDataTo5HDParams& nchwconvParams) {
    uint8_t* d[16];
    const uint8_t* s[16];
    for (int i = 0; i < 16; ++i) {
        d[i] = reinterpret_cast<uint8_t*>(dstList[i].GetPhyAddr());
        s[i] = reinterpret_cast<const uint8_t*>(srcList[i].GetPhyAddr());
    }
    sim_transpose::nchwconv<T>("TransDataTo5HD", d, s, nchwconvParams);
}

// The address lists held in UB: the scalar unit reads the 16 + 16 addresses.
template <typename T>
void TransDataTo5HD(const LocalTensor<uint64_t>& dst, const LocalTensor<uint64_t>& src,
                    const TransDataTo5HDParams& nchwconvParams) {
    uint8_t* d[16];
    const uint8_t* s[16];
    for (uint32_t i = 0; i < 16; ++i) {
        d[i] = reinterpret_cast<uint8_t*>(dst.GetValue(i));
        s[i] = reinterpret_cast<const uint8_t*>(src.GetValue(i));
    }
    sim_transpose::nchwconv<T>("TransDataTo5HD", d, s, nchwconvParams);
}

}  // namespace AscendC

// TransDataConfig, TransDataParams and the tmp bytes of each conversion,
// shared by the kernel and host headers (asc-devkit include/adv_api/transpose/
// transdata_common.h, transdata_tiling.h; impl/adv_api/tiling/transpose/
// transdata_tiling.cpp :: GetTmpBufferSize).
#pragma once
#include <algorithm>
#include <cstdint>

#include "../kernel_tensor.h"  // DataFormat

namespace AscendC {

template <typename T, typename U>
struct TransDataParams {
    T srcLayout;
    U dstLayout;
};

struct TransDataConfig {
    DataFormat srcFormat;
    DataFormat dstFormat;
};

namespace sim_adv {

constexpr bool transdata_pair_ok(DataFormat s, DataFormat d) {
    return (s == DataFormat::NCDHW && (d == DataFormat::FRACTAL_Z_3D || d == DataFormat::NDC1HWC0)) ||
           (d == DataFormat::NCDHW && (s == DataFormat::FRACTAL_Z_3D || s == DataFormat::NDC1HWC0));
}

inline const char* data_format_name(DataFormat f) {
    static const char* const names[] = {"ND",   "NZ",    "NCHW",     "NC1HWC0",
                                        "NHWC", "NCDHW", "NDC1HWC0", "FRACTAL_Z_3D"};
    return unsigned(f) < 8 ? names[unsigned(f)] : "Unknown";
}

// The bytes each conversion's steps use (2-byte elements, H x W padded to 16):
// the zero rows and the transposed copy, or the reorder and transpose stages.
inline uint32_t transdata_tmp_bytes(const TransDataConfig& cfg, uint32_t n, uint32_t c, uint32_t d, uint32_t h,
                                    uint32_t w) {
    const uint32_t c1 = (c + 15) / 16, n1 = (n + 15) / 16, padHw = (h * w + 15) / 16 * 16, e = 2;
    if (cfg.srcFormat == DataFormat::NCDHW && cfg.dstFormat == DataFormat::NDC1HWC0)
        return d * padHw * e + d * c1 * 16 * padHw * e;
    if (cfg.srcFormat == DataFormat::NDC1HWC0 && cfg.dstFormat == DataFormat::NCDHW)
        return d * c1 * 16 * padHw * e + 512;
    if (cfg.srcFormat == DataFormat::NCDHW && cfg.dstFormat == DataFormat::FRACTAL_Z_3D)
        return std::max(c * d * padHw, d * h * w * n1 * 16) * e + n1 * 16 * d * c1 * 16 * padHw * e;
    if (cfg.srcFormat == DataFormat::FRACTAL_Z_3D && cfg.dstFormat == DataFormat::NCDHW)
        return n1 * 16 * c1 * 16 * d * padHw * e * (n == n1 * 16 && c == c1 * 16 ? 1 : 2);
    return 0;
}

}  // namespace sim_adv
}  // namespace AscendC

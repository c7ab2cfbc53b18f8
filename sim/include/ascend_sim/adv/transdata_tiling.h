// The host tmp size of TransData (asc-devkit include/adv_api/transpose/
// transdata_tiling.h; impl/adv_api/tiling/transpose/transdata_tiling.cpp ::
// GetTransDataMaxMinTmpSize, GenerateShapeInfo, GetTmpBufferSize): a 2-byte
// type, one of the four format pairs, an A2/3510 platform, the two shapes
// agreeing (dims count, n/d/h/w, c1 x 16 = c aligned to 16, the same for n on
// FRACTAL_Z_3D); max and min are the same size. Failures return false, as there.
#pragma once
#include <cstdint>
#include <vector>

#include "../sim.h"
#include "../../tiling/platform/platform_ascendc.h"
#include "tensor_shape.h"
#include "transdata_params.h"

namespace AscendC {
namespace sim_adv {
// n, c, d, h, w from the shapes, or false when they do not match the formats.
inline bool transdata_host_dims(const TransDataConfig& cfg, const std::vector<int64_t>& s,
                                const std::vector<int64_t>& t, int64_t (&ncdhw)[5]) {
    const bool fromNcdhw = cfg.srcFormat == DataFormat::NCDHW;
    const std::vector<int64_t>& a = fromNcdhw ? s : t;  // NCDHW
    const std::vector<int64_t>& b = fromNcdhw ? t : s;  // the other format
    const bool fractal = cfg.srcFormat == DataFormat::FRACTAL_Z_3D || cfg.dstFormat == DataFormat::FRACTAL_Z_3D;
    if (a.size() != 5 || b.size() != (fractal ? 7u : 6u)) return false;
    for (int i = 0; i < 5; ++i) ncdhw[i] = a[i];
    const int64_t n = a[0], c = a[1], d = a[2], h = a[3], w = a[4];
    auto align16 = [](int64_t x) { return (x + 15) / 16 * 16; };
    if (fractal)  // D C1 H W N1 N0 C0
        return d == b[0] && h == b[2] && w == b[3] && b[6] == 16 && b[1] * 16 == align16(c) && b[5] == 16 &&
               b[4] * 16 == align16(n);
    // N D C1 H W C0
    return n == b[0] && d == b[1] && h == b[3] && w == b[4] && b[5] == 16 && b[2] * 16 == align16(c);
}
}  // namespace sim_adv

inline bool GetTransDataMaxMinTmpSize(const platform_ascendc::PlatformAscendC& platform, const TensorShape& srcShape,
                                      const TensorShape& dstShape, const TensorDataType dataType,
                                      const TransDataConfig& config, uint32_t& maxValue, uint32_t& minValue) {
    if (dataType != ge::DT_FLOAT16 && dataType != ge::DT_BF16 && dataType != ge::DT_UINT16 &&
        dataType != ge::DT_INT16)
        return false;
    if (!sim_adv::transdata_pair_ok(config.srcFormat, config.dstFormat)) return false;
    const auto arch = platform.GetCurNpuArch();
    if (arch != NpuArch::DAV_2201 && arch != NpuArch::DAV_3510) return false;
    int64_t v[5];
    if (!sim_adv::transdata_host_dims(config, srcShape.GetDims(), dstShape.GetDims(), v)) return false;
    maxValue = minValue =
        sim_adv::transdata_tmp_bytes(config, uint32_t(v[0]), uint32_t(v[1]), uint32_t(v[2]), uint32_t(v[3]),
                                     uint32_t(v[4]));
    return true;
}

}  // namespace AscendC

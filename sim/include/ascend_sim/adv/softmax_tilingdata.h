// The host side's SoftMaxTiling (asc-devkit include/adv_api/activation/
// softmax_tilingdata.h): the tiling-data class of the same fields as the
// kernel's AscendC::tiling::SoftMaxTiling, for TILING_DATA_FIELD_DEF_STRUCT in a
// program's own tiling class; the SoftMax family's host helpers fill either.
#pragma once
#include "../../register/tilingdata_base.h"
#include "softmax_types.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SoftMaxTiling)
TILING_DATA_FIELD_DEF(uint32_t, srcM);
TILING_DATA_FIELD_DEF(uint32_t, srcK);
TILING_DATA_FIELD_DEF(uint32_t, srcSize);
TILING_DATA_FIELD_DEF(uint32_t, outMaxM);
TILING_DATA_FIELD_DEF(uint32_t, outMaxK);
TILING_DATA_FIELD_DEF(uint32_t, outMaxSize);
TILING_DATA_FIELD_DEF(uint32_t, splitM);
TILING_DATA_FIELD_DEF(uint32_t, splitK);
TILING_DATA_FIELD_DEF(uint32_t, splitSize);
TILING_DATA_FIELD_DEF(uint32_t, reduceM);
TILING_DATA_FIELD_DEF(uint32_t, reduceK);
TILING_DATA_FIELD_DEF(uint32_t, reduceSize);
TILING_DATA_FIELD_DEF(uint32_t, rangeM);
TILING_DATA_FIELD_DEF(uint32_t, tailM);
TILING_DATA_FIELD_DEF(uint32_t, tailSplitSize);
TILING_DATA_FIELD_DEF(uint32_t, tailReduceSize);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(SoftMaxTilingOpApi, SoftMaxTiling)
}  // namespace optiling

namespace AscendC {
namespace sim_adv {
// The kernel struct's values into the host class (the helpers compute the former).
inline void to_tiling_data(const SoftMaxTiling& t, optiling::SoftMaxTiling& o) {
    o.set_srcM(t.srcM), o.set_srcK(t.srcK), o.set_srcSize(t.srcSize);
    o.set_outMaxM(t.outMaxM), o.set_outMaxK(t.outMaxK), o.set_outMaxSize(t.outMaxSize);
    o.set_splitM(t.splitM), o.set_splitK(t.splitK), o.set_splitSize(t.splitSize);
    o.set_reduceM(t.reduceM), o.set_reduceK(t.reduceK), o.set_reduceSize(t.reduceSize);
    o.set_rangeM(t.rangeM), o.set_tailM(t.tailM), o.set_tailSplitSize(t.tailSplitSize);
    o.set_tailReduceSize(t.tailReduceSize);
}
}  // namespace sim_adv
}  // namespace AscendC

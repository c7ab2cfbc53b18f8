// AdjustSoftMaxRes (asc-devkit include/adv_api/activation/softmax.h; dav_c220:
// impl/adv_api/detail/activation/softmax/membase/common/softmax_common_impl.h ::
// AdjustSoftMaxResBaseImpl, AdjustSoftMaxResNDImpl): the rows whose max equals
// `from` (compared as bits) are set to `to`; true when any was. The max is read
// by the scalar unit after a V_S flag, each matching row filled by one
// Counter-mode Duplicate of srcK elements.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "../kernel_sync.h"
#include "../kernel_tpipe.h"
#include "../kernel_vec_mask.h"
#include "../kernel_vec_scalar.h"
#include "adv_check.h"
#include "softmax_types.h"

namespace AscendC {

template <typename T1, typename T2, bool isDataFormatNZ = false, uint8_t stepSizeMode = 0>
bool AdjustSoftMaxRes(const LocalTensor<T1>& softMaxRes, const LocalTensor<T2>& maxTensor, const uint32_t from,
                      const T1 to, const SoftMaxShapeInfo& softmaxShapeInfo) {
    static_assert(std::is_same_v<T1, half> || std::is_same_v<T1, float>,
                  "AdjustSoftMaxRes: A2/A3 support half and float results");
    static_assert(std::is_same_v<T2, half> || std::is_same_v<T2, float>,
                  "AdjustSoftMaxRes: A2/A3 support half and float max tensors");
    static_assert(!isDataFormatNZ, "AdjustSoftMaxRes: the NZ format is not modelled");
    constexpr const char* api = "AdjustSoftMaxRes";
    const SoftMaxShapeInfo& s = softmaxShapeInfo;
    // stepSizeMode 0: the max tensor holds a 32 B block a row; else one value a row.
    const uint32_t step = stepSizeMode ? 1 : ONE_BLK_SIZE / sizeof(T2);
    sim_adv::check_count(api, s.srcM * s.srcK, softMaxRes, "softMaxRes");
    if (s.srcM != 0) sim_adv::check_count(api, (s.srcM - 1) * step + 1, maxTensor, "maxTensor");
    SetMaskNorm();
    ResetMask();
    const TEventID e = GetTPipePtr()->FetchEventID(HardEvent::V_S);
    SetFlag<HardEvent::V_S>(e);
    WaitFlag<HardEvent::V_S>(e);
    bool adjusted = false;
    SetMaskCount();
    SetVectorMask<float, MaskMode::COUNTER>(0, s.srcK);
    for (uint32_t j = 0; j < s.srcM; ++j) {
        const T2 m = maxTensor.GetValue(j * step);
        std::conditional_t<sizeof(T2) == 4, uint32_t, uint16_t> bits;
        std::memcpy(&bits, &m, sizeof(bits));
        if (bits != decltype(bits)(from)) continue;
        Duplicate<T1, false>(softMaxRes[j * s.srcK], to, MASK_PLACEHOLDER, 1, 1, DEFAULT_REPEAT_STRIDE);
        adjusted = true;
    }
    SetMaskNorm();
    ResetMask();
    return adjusted;
}

}  // namespace AscendC

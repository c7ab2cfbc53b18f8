// Vector APIs CANN declares for every SoC that A2/A3 lack. dav_c220 has no
// PreluImpl, MullImpl, FusedAbsSubImpl, FusedExpSubImpl or Interleave/
// DeInterleave implementation, so kernels calling them do not build; its
// MrgSort4, RpSort16, ProposalConcat and ProposalExtract build but report
// ASCENDC_REPORT_NOT_SUPPORT when called, here a violation.
#pragma once
#include "device_runtime.h"
#include "kernel_tensor.h"

namespace AscendC {

namespace sim_vec {
template <class T>
inline constexpr bool not_on_a2_v = false;
}  // namespace sim_vec

#define ASCEND_SIM_NO_IMPL(NAME, IMPL)                                                                         \
    template <class T, class... Rest>                                                                          \
    void NAME(const LocalTensor<T>&, const Rest&...) {                                                         \
        static_assert(sim_vec::not_on_a2_v<T>, #NAME ": not supported on A2/A3 (dav_c220 has no " IMPL ")");   \
    }
ASCEND_SIM_NO_IMPL(Prelu, "PreluImpl")
ASCEND_SIM_NO_IMPL(Mull, "MullImpl")
ASCEND_SIM_NO_IMPL(AbsSub, "FusedAbsSubImpl")
ASCEND_SIM_NO_IMPL(FusedAbsSub, "FusedAbsSubImpl")
ASCEND_SIM_NO_IMPL(ExpSub, "FusedExpSubImpl")
ASCEND_SIM_NO_IMPL(FusedExpSub, "FusedExpSubImpl")
ASCEND_SIM_NO_IMPL(Interleave, "InterleaveImpl")
ASCEND_SIM_NO_IMPL(DeInterleave, "DeInterleaveImpl")
#undef ASCEND_SIM_NO_IMPL

#define ASCEND_SIM_NOT_SUPPORTED(NAME)                                                                         \
    template <class T, class... Rest>                                                                          \
    void NAME(const LocalTensor<T>&, const Rest&...) {                                                         \
        ascend_sim::detail::fail(#NAME, "not supported on A2/A3",                                              \
                                 "not supported on A2/A3 (dav_c220 reports ASCENDC_REPORT_NOT_SUPPORT)");       \
    }
ASCEND_SIM_NOT_SUPPORTED(MrgSort4)
ASCEND_SIM_NOT_SUPPORTED(RpSort16)
ASCEND_SIM_NOT_SUPPORTED(ProposalConcat)
ASCEND_SIM_NOT_SUPPORTED(ProposalExtract)
#undef ASCEND_SIM_NOT_SUPPORTED

}  // namespace AscendC

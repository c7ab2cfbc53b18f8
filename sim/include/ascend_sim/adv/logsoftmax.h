// LogSoftMax: log10 of SoftMax over the last axis of ND rows (asc-devkit
// include/adv_api/activation/logsoftmax.h; impl/adv_api/detail/activation/
// softmax/logsoftmax_base_impl.h :: LogSoftMaxImpl; dav_c220: membase/common/
// logsoftmax_common_impl.h :: LogSoftMaxNDImpl, LogSoftMaxGenericNDImpl,
// GenericLogNDImpl). LogSoftMax.md gives np.log10; the tiling passed in is not
// read: the kernel splits the rows by the sharedTmpBuffer it gets.
#pragma once
#include <cstdint>

#include "softmax.h"

namespace AscendC {

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
void LogSoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
                const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, const LogSoftMaxTiling& tiling,
                const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    (void)tiling;
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "LogSoftMax: A2/A3 support half and float");
    static_assert(!isDataFormatNZ, "LogSoftMax: the NZ format is not modelled");
    namespace sm = sim_adv::softmax;
    constexpr const char* api = "LogSoftMax";
    const SoftMaxShapeInfo& s = softmaxShapeInfo;
    sm::check_shape_info(api, s, sizeof(T));
    const LocalTensor<float> work = sharedTmpBuffer.ReinterpretCast<float>();
    const SoftMaxTiling t = sm::retile(api, work.GetSize(), {s.srcM, s.srcK, s.oriSrcM, s.srcK}, sizeof(T), sizeof(T));
    sim_adv::check_tmp(api, sharedTmpBuffer, (ONE_BLK_SIZE / sizeof(T) + s.srcK + sm::kRep) * sizeof(float),
                       "GetLogSoftMaxMinTmpSize");
    sm::check_operands(api, dst, &sumTensor, &maxTensor, src, sharedTmpBuffer, s, t);
    SetMaskNorm();
    ResetMask();
    PipeBarrier<PIPE_V>();
    sm::over_chunks(t, s.oriSrcK,
                    [&](uint32_t o1, uint32_t o2, uint32_t split, uint32_t reduce, const sm::ReduceLastND& p) {
                        sm::chunk<true>(dst, sumTensor, maxTensor, src, work, t, o1, o2, split, reduce, p);
                    });
}

}  // namespace AscendC

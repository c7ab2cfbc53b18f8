// CumSum along the first axis (asc-devkit include/adv_api/math/cumsum.h,
// cumsum_utils.h; dav_c220: impl/adv_api/detail/math/cumsum/
// cumsum_common_impl.h :: CumSumImpl, CumSumFirstDim): row r = row r-1 + src
// row r, one Counter-mode Add of `inner` elements a row (float: a copy of row
// 0 by Adds 0 first; half: all of src widened into the tmp, added there and
// narrowed), then with outputLastRow a copy of the last row. The last-axis
// path (isLastAxis, two TransDataTo5HD transposes a 16-row block) is refused
// at compile time. cumsum_check_common.h: outter and inner above 0, a row
// 32 B, dst and src holding outter x inner, lastRowTensor a row.
#pragma once
#include <cstdint>
#include <type_traits>

#include "../kernel_sync.h"
#include "../kernel_tpipe.h"
#include "../kernel_vec_binary.h"
#include "../kernel_vec_cast.h"
#include "../kernel_vec_scalar.h"
#include "adv_check.h"

namespace AscendC {

enum class CumSumAlgorithm { CUMSUM_ALGORITHM_LINEBYLINE = 0, CUMSUM_ALGORITHM_SKLANSKY = 1 };

struct CumSumConfig {
    bool isLastAxis{true};
    bool isReuseSource{false};
    bool outputLastRow{false};
    CumSumAlgorithm algorithm{CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
};

struct CumSumInfo {
    uint32_t outter{0};
    uint32_t inner{0};  // 32-byte aligned
};

constexpr CumSumConfig defaultCumSumConfig = {true, false, true};

template <typename T, const CumSumConfig& config = defaultCumSumConfig>
void CumSum(LocalTensor<T>& dstTensor, LocalTensor<T>& lastRowTensor, const LocalTensor<T>& srcTensor,
            LocalTensor<uint8_t>& sharedTmpBuffer, const CumSumInfo& cumSumInfo) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "CumSum: A2/A3 support half and float");
    static_assert(!config.isLastAxis,
                  "CumSum: the isLastAxis path (TransDataTo5HD transposes of 16-row blocks) is not modelled; "
                  "only isLastAxis = false is");
    constexpr const char* api = "CumSum";
    namespace d = ascend_sim::detail;
    const uint32_t rows = cumSumInfo.outter, inner = cumSumInfo.inner, n = rows * inner;
    if (rows == 0 || inner == 0)
        d::fail(api, "empty shape", "cumSumInfo.outter %u and inner %u must both be above 0", rows, inner);
    if (inner * sizeof(T) % ONE_BLK_SIZE != 0)
        d::fail(api, "row not 32 B aligned", "cumSumInfo.inner %u x %zu B is not a multiple of 32 B", inner,
                sizeof(T));
    sim_adv::check_count(api, n, srcTensor, "srcTensor");
    sim_adv::check_count(api, n, dstTensor, "dstTensor");
    if (config.outputLastRow) sim_adv::check_count(api, inner, lastRowTensor, "lastRowTensor");
    const BinaryRepeatParams b;
    SetMaskCount();
    if constexpr (sizeof(T) == sizeof(half)) {
        if (sharedTmpBuffer.GetSize() < n * sizeof(float))
            d::fail(api, "sharedTmpBuffer below the minimum",
                    "sharedTmpBuffer holds %u B, less than the %u B of src as float GetCumSumMaxMinTmpSize gives",
                    sharedTmpBuffer.GetSize(), uint32_t(n * sizeof(float)));
        const LocalTensor<float> wide = sharedTmpBuffer.ReinterpretCast<float>();
        SetVectorMask<float, MaskMode::COUNTER>(n);
        Cast<float, T, false>(wide, srcTensor, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1,
                              {1, 1, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE / 2});
        PipeBarrier<PIPE_V>();
        SetVectorMask<T>(0, inner);
        for (uint32_t r = 1; r < rows; ++r) {
            Add<float, false>(wide[r * inner], wide[(r - 1) * inner], wide[r * inner], MASK_PLACEHOLDER, 1, b);
            PipeBarrier<PIPE_V>();
        }
        SetVectorMask<T, MaskMode::COUNTER>(n);
        Cast<T, float, false>(dstTensor, wide, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1,
                              {1, 1, DEFAULT_REPEAT_STRIDE / 2, DEFAULT_REPEAT_STRIDE});
        PipeBarrier<PIPE_V>();
    } else {
        SetVectorMask<T>(0, inner);
        Adds<T, false>(dstTensor, srcTensor, T(0), MASK_PLACEHOLDER, 1,
                       {1, 1, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE});
        PipeBarrier<PIPE_V>();
        for (uint32_t r = 1; r < rows; ++r) {
            Add<T, false>(dstTensor[r * inner], dstTensor[(r - 1) * inner], srcTensor[r * inner], MASK_PLACEHOLDER,
                          1, b);
            PipeBarrier<PIPE_V>();
        }
        SetMaskNorm();
        ResetMask();
    }
    if constexpr (config.outputLastRow) {
        SetMaskCount();
        SetVectorMask<T>(0, inner);
        Adds<T, false>(lastRowTensor, dstTensor[(rows - 1) * inner], T(0), MASK_PLACEHOLDER, 1,
                       {1, 1, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE});
        PipeBarrier<PIPE_V>();
        SetMaskNorm();
        ResetMask();
    }
}
// cumsum.h: without sharedTmpBuffer the stack buffer.
template <typename T, const CumSumConfig& config = defaultCumSumConfig>
void CumSum(LocalTensor<T>& dstTensor, LocalTensor<T>& lastRowTensor, const LocalTensor<T>& srcTensor,
            const CumSumInfo& cumSumInfo) {
    LocalTensor<uint8_t> stack;
    PopStackBuffer<uint8_t, TPosition::LCM>(stack);
    CumSum<T, config>(dstTensor, lastRowTensor, srcTensor, stack, cumSumInfo);
}

}  // namespace AscendC

// The SoftMax family's shared types: the tiling structs the host fills and the
// kernel receives (asc-devkit include/adv_api/activation/softmax_tilingdata.h,
// logsoftmax_tilingdata.h; generated into AscendC::tiling, exported at file
// scope), and the kernel side's SoftmaxConfig / SoftMaxShapeInfo
// (include/adv_api/activation/softmax_utils.h).
#pragma once
#include <cstdint>

namespace AscendC {
namespace tiling {
struct SoftMaxTiling {
    uint32_t srcM = 0;
    uint32_t srcK = 0;
    uint32_t srcSize = 0;
    uint32_t outMaxM = 0;
    uint32_t outMaxK = 0;
    uint32_t outMaxSize = 0;
    uint32_t splitM = 0;
    uint32_t splitK = 0;
    uint32_t splitSize = 0;
    uint32_t reduceM = 0;
    uint32_t reduceK = 0;
    uint32_t reduceSize = 0;
    uint32_t rangeM = 0;
    uint32_t tailM = 0;
    uint32_t tailSplitSize = 0;
    uint32_t tailReduceSize = 0;
};
// LogSoftMax's: the same fields (logsoftmax_tilingdata.h).
struct LogSoftMaxTiling : SoftMaxTiling {};
}  // namespace tiling
using tiling::LogSoftMaxTiling;
using tiling::SoftMaxTiling;

namespace sim_adv {
// The fields a split of srcM x srcK into chunks of `rows` rows sets, with the
// max/sum rows of perBlock elements; the chunks cover validM rows (host:
// srcM, kernel: oriSrcM). No rows leaves the range and tail at 0.
inline void set_split(SoftMaxTiling& t, uint32_t srcM, uint32_t srcK, uint32_t perBlock, uint32_t rows,
                      uint32_t validM) {
    t.srcM = srcM;
    t.srcK = srcK;
    t.srcSize = srcM * srcK;
    t.outMaxM = srcM;
    t.outMaxK = perBlock;
    t.outMaxSize = srcM * perBlock;
    t.reduceM = t.splitM = rows;
    t.reduceK = perBlock;
    t.reduceSize = rows * perBlock;
    t.splitK = srcK;
    t.splitSize = rows * srcK;
    t.rangeM = rows != 0 ? validM / rows : 0;
    t.tailM = rows != 0 ? validM % rows : 0;
    t.tailSplitSize = t.tailM * srcK;
    t.tailReduceSize = t.tailM * perBlock;
}
// SoftmaxGrad's tmp floats a row: (half) the widened y, g and their product,
// two blocks of row sums, 64 partials; (float) the product, one (front) or two
// blocks, 64 partials (softmax_tiling.cpp :: GetSoftMaxGradMinTmpSize).
inline uint32_t grad_row_floats(uint32_t k, uint32_t typeSize, bool isFront) {
    const uint32_t perBlock = 32 / typeSize;
    if (typeSize == 2) return 2 * perBlock + 3 * k + 64;
    return (isFront ? perBlock : 2 * perBlock) + k + 64;
}
}  // namespace sim_adv

enum class SoftmaxMode {
    SOFTMAX_NORMAL = 0,
    SOFTMAX_OUTPUT_WITHOUT_BRC = 1,
};

struct SoftmaxConfig {
    constexpr SoftmaxConfig(const bool isCheckTilingIn) : isCheckTiling(isCheckTilingIn) {}
    constexpr SoftmaxConfig(const bool isCheckTilingIn, const uint32_t oriSrcMIn, const uint32_t oriSrcKIn)
        : isCheckTiling(isCheckTilingIn), oriSrcM(oriSrcMIn), oriSrcK(oriSrcKIn) {}
    constexpr SoftmaxConfig(const bool isCheckTilingIn, const uint32_t oriSrcMIn, const uint32_t oriSrcKIn,
                            const SoftmaxMode modeIn)
        : isCheckTiling(isCheckTilingIn), oriSrcM(oriSrcMIn), oriSrcK(oriSrcKIn), mode(modeIn) {}
    bool isCheckTiling = true;
    uint32_t oriSrcM = 0;
    uint32_t oriSrcK = 0;
    SoftmaxMode mode = SoftmaxMode::SOFTMAX_NORMAL;
};
constexpr SoftmaxConfig SOFTMAX_DEFAULT_CFG = {true, 0, 0, SoftmaxMode::SOFTMAX_NORMAL};

// SoftmaxFlashV3's shape and its mean-shift parameters (softmax_utils.h).
struct SoftMaxParams {
    uint32_t srcM{0};
    uint32_t srcK{0};
    uint32_t oriSrcM{0};
    uint32_t oriSrcK{0};
    uint32_t loopCnt{1};
    uint32_t splitMeanCnt{8};
    float alpha{0.9375};
};

// srcM x srcK as laid out (srcK 32 B aligned); oriSrcM x oriSrcK the valid part.
struct SoftMaxShapeInfo {
    uint32_t srcM{0};
    uint32_t srcK{0};
    uint32_t oriSrcM{0};
    uint32_t oriSrcK{0};
};
}  // namespace AscendC

using AscendC::tiling::LogSoftMaxTiling;
using AscendC::tiling::SoftMaxTiling;

// SoftMax's kernel-side shape handling and chunk loop (asc-devkit
// impl/adv_api/detail/activation/softmax/softmax_base_impl.h :: SoftMaxImpl;
// softmax_common/softmax_tiling_func.h :: SoftMaxTilingFunc (device);
// softmax_common_shape_process.h :: CalculateNDSplitM; membase/common/
// softmax_impl/softmax_generic_nd_impl.h :: SoftMaxNDExtImpl; the checks of
// api_check/kernel_check/activation/softmax/softmax/softmax_check_common.h).
#pragma once
#include <cstdint>
#include <type_traits>

#include "softmax_reduce.h"
#include "softmax_types.h"

namespace AscendC {
namespace sim_adv {
namespace softmax {

namespace d = ascend_sim::detail;

struct RowsCols {
    uint32_t m, k;
};

// The split the kernel recomputes when the shape differs from the tiling's:
// the rows of work floats (a multiple of 8 when not all of them); for the
// basic-block path a divisor of srcM in multiples of 8, below 64 x 256 elements.
inline SoftMaxTiling retile(const char* api, uint32_t workFloats, const SoftMaxShapeInfo& s, uint32_t size1,
                            uint32_t size2, bool basicBlock = false) {
    const uint32_t perBlock = ONE_BLK_SIZE / size2;
    uint32_t m = size1 == 2 ? workFloats / (perBlock + s.srcK + kRep) : workFloats / (perBlock + kRep);
    m = m < s.srcM ? m : s.srcM;
    if (basicBlock && m > kBlk && s.srcM % kBlk == 0) {
        m = m / kBlk * kBlk;
        while (s.srcM % m != 0) m -= kBlk;
        while (m * s.srcK >= kRep * 256) m /= 2;
    }
    if (m < s.oriSrcM && m > kBlk) m = m / kBlk * kBlk;
    m = m < s.oriSrcM ? m : s.oriSrcM;
    if (m == 0)
        d::fail(api, "sharedTmpBuffer below the minimum", "sharedTmpBuffer holds %u floats, not one row", workFloats);
    SoftMaxTiling t;
    set_split(t, s.srcM, s.srcK, perBlock, m, s.oriSrcM);
    return t;
}

// A shape must be given (the simulator's tensors carry no ShapeInfo to take it
// from), its last axis whole 32 B blocks.
inline void check_shape_info(const char* api, const SoftMaxShapeInfo& s, uint32_t typeSize) {
    if (s.srcM == 0 || s.srcK == 0)
        d::fail(api, "no shape",
                "softmaxShapeInfo is empty; the simulator's tensors carry no ShapeInfo to take it from");
    if (s.srcK * typeSize % ONE_BLK_SIZE != 0)
        d::fail(api, "last axis not 32 B aligned", "softmaxShapeInfo.srcK %u is not a whole number of 32 B blocks",
                s.srcK);
}

// The checks every form makes, and the tiling it runs with.
template <class T1, class T2, bool isBasicBlock, const SoftmaxConfig& config>
SoftMaxTiling prepare(const char* api, const LocalTensor<T1>& dst, const LocalTensor<T1>& src,
                      const LocalTensor<float>& work, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& s) {
    static_assert(std::is_same_v<T1, half> || std::is_same_v<T1, float>,
                  "SoftMax/SimpleSoftMax: A2/A3 support half and float");
    static_assert(std::is_same_v<T2, half> || std::is_same_v<T2, float>,
                  "SoftMax/SimpleSoftMax: A2/A3 support half and float sum/max tensors");
    static_assert(config.oriSrcM == 0 && config.oriSrcK == 0,
                  "SoftMax/SimpleSoftMax: a SoftmaxConfig with a constant shape is not modelled; "
                  "use SOFTMAX_DEFAULT_CFG");
    check_shape_info(api, s, sizeof(T1));
    if (uint64_t(s.srcM) * s.srcK > src.GetSize())
        d::fail(api, "shape beyond tensor", "srcM %u x srcK %u is more than srcTensor's %u elements", s.srcM, s.srcK,
                src.GetSize());
    if (dst.GetSize() != src.GetSize())
        d::fail(api, "sizes differ", "dstTensor holds %u elements, srcTensor %u; they must be equal", dst.GetSize(),
                src.GetSize());
    if (s.srcK != tiling.srcK || s.srcM != tiling.srcM)
        return retile(api, work.GetSize(), {s.srcM, s.srcK, s.oriSrcM, s.srcK}, sizeof(T1), sizeof(T2),
                      isBasicBlock);
    return tiling;
}

// The tmp floats a chunk uses: the widened rows and their max/sum (half only)
// and the 64 partials a row.
inline uint32_t chunk_floats(const SoftMaxTiling& t, bool widened, bool ownReduce) {
    return (widened ? t.splitSize : 0) + (ownReduce ? t.reduceSize : 0) + t.splitM * kRep;
}
inline void check_chunk(const char* api, const LocalTensor<float>& work, uint32_t floats) {
    if (work.GetSize() < floats)
        d::fail(api, "tiling beyond sharedTmpBuffer",
                "the tiling's chunk needs %u floats of sharedTmpBuffer, it holds %u",
                floats, work.GetSize());
}

// The chunks of splitM rows, then the tailM rows.
template <class Chunk>
void over_chunks(const SoftMaxTiling& t, uint32_t oriK, Chunk chunk) {
    ReduceLastND p{t.splitM, oriK, t.splitM, t.splitK, t.reduceM, t.reduceK};
    uint32_t o1 = 0, o2 = 0, split = t.splitSize, reduce = t.reduceSize;
    for (uint32_t i = 0; i <= t.rangeM; ++i) {
        chunk(o1, o2, split, reduce, p);
        o1 += t.splitSize;
        o2 += t.reduceSize;
        if (i + 1 == t.rangeM) {
            if (t.tailM == 0) break;
            split = t.tailSplitSize;
            reduce = t.tailReduceSize;
            p.originalSrcM = p.srcM = p.dstM = t.tailM;
            PipeBarrier<PIPE_V>();
        }
    }
}

}  // namespace softmax
}  // namespace sim_adv
}  // namespace AscendC

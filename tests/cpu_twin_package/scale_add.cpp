// z = alpha * x + y over half tensors, tiles double-buffered through queues;
// key 2 skips the scale (z = x + y).
#include "kernel_operator.h"
#include "scale_add_tiling.h"

namespace {
constexpr int32_t BUFFER_NUM = 2;

class KernelScaleAdd {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const ScaleAddTiling& t) {
        blockLength_ = t.totalLength / AscendC::GetBlockNum();
        tileLength_ = t.tileLength;
        alpha_ = half(t.alpha);
        const uint64_t start = blockLength_ * AscendC::GetBlockIdx();
        xGm_.SetGlobalBuffer((__gm__ half*)x + start, blockLength_);
        yGm_.SetGlobalBuffer((__gm__ half*)y + start, blockLength_);
        zGm_.SetGlobalBuffer((__gm__ half*)z + start, blockLength_);
        pipe_.InitBuffer(inX_, BUFFER_NUM, tileLength_ * sizeof(half));
        pipe_.InitBuffer(inY_, BUFFER_NUM, tileLength_ * sizeof(half));
        pipe_.InitBuffer(outZ_, BUFFER_NUM, tileLength_ * sizeof(half));
    }
    __aicore__ inline void Process(bool scale) {
        for (uint32_t i = 0; i < blockLength_ / tileLength_; ++i) {
            CopyIn(i);
            Compute(scale);
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i) {
        AscendC::LocalTensor<half> x = inX_.AllocTensor<half>();
        AscendC::LocalTensor<half> y = inY_.AllocTensor<half>();
        AscendC::DataCopy(x, xGm_[i * tileLength_], tileLength_);
        AscendC::DataCopy(y, yGm_[i * tileLength_], tileLength_);
        inX_.EnQue(x);
        inY_.EnQue(y);
    }
    __aicore__ inline void Compute(bool scale) {
        AscendC::LocalTensor<half> x = inX_.DeQue<half>();
        AscendC::LocalTensor<half> y = inY_.DeQue<half>();
        AscendC::LocalTensor<half> z = outZ_.AllocTensor<half>();
        if (scale) {
            AscendC::Muls(x, x, alpha_, tileLength_);
            AscendC::PipeBarrier<PIPE_V>();
        }
        AscendC::Add(z, x, y, tileLength_);
        outZ_.EnQue(z);
        inX_.FreeTensor(x);
        inY_.FreeTensor(y);
    }
    __aicore__ inline void CopyOut(uint32_t i) {
        AscendC::LocalTensor<half> z = outZ_.DeQue<half>();
        AscendC::DataCopy(zGm_[i * tileLength_], z, tileLength_);
        outZ_.FreeTensor(z);
    }

    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inX_, inY_;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outZ_;
    AscendC::GlobalTensor<half> xGm_, yGm_, zGm_;
    uint32_t blockLength_ = 0, tileLength_ = 0;
    half alpha_;
};
}  // namespace

extern "C" __global__ __aicore__ void scale_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling) {
    (void)workspace;
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    REGISTER_TILING_DEFAULT(ScaleAddTiling);
    GET_TILING_DATA(tilingData, tiling);
    KernelScaleAdd op;
    op.Init(x, y, z, tilingData);
    if (TILING_KEY_IS(1)) op.Process(true);
    else if (TILING_KEY_IS(2)) op.Process(false);
}

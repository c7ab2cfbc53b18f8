// GM -> UB copies of a half matrix, written from the descriptions of the GM-to-UB
// scenarios in asc-devkit's data_copy best-practice guide: rows split over the
// cores, each core copying tiles of tileM x tileN with DataCopyPad (blockCount =
// tileM rows of tileN * 2 bytes); optional repeats of the whole matrix or of its
// four column slices, and every core reading the whole matrix (same order or
// staggered by block index; those two scenarios read with the L2 cache hint off,
// CACHE_MODE_DISABLE, as the guide's scenario kernels do). Nothing is computed: the copies land in a ring of UB
// slots, with PipeBarrier<PIPE_MTE2> before a slot is overwritten (the ordering the
// documentation asks for between MTE2 writes of one UB range).
#include "kernel_operator.h"
#include "timing_cases.h"

namespace {

struct Ring {
    uint32_t slotBytes, slots, next = 0;
    bool wrapped = false;
    Ring(uint32_t tileBytes, uint32_t ub) : slotBytes((tileBytes + 31) / 32 * 32), slots(ub / slotBytes) {}
    uint32_t take() {
        if (next == slots) {
            next = 0;
            AscendC::PipeBarrier<PIPE_MTE2>();
        }
        return slotBytes * next++;
    }
};

void copy_tile(const AscendC::GlobalTensor<half>& g, Ring& ring, uint64_t row, uint64_t col, uint32_t rows,
               uint32_t cols, uint64_t ld) {
    AscendC::LocalTensor<half> ub(AscendC::TPosition::VECIN, ring.take(), ring.slotBytes / 2);
    AscendC::DataCopyExtParams p(uint16_t(rows), cols * 2, uint32_t((ld - cols) * 2), 0, 0);
    AscendC::DataCopyPadExtParams<half> pad(false, 0, 0, half(0));
    AscendC::DataCopyPad(ub, g[row * ld + col], p, pad);
}

// The tiles of rows [r0, r0 + nr) and columns [c0, c0 + nc), row tiles outer.
void copy_range(const AscendC::GlobalTensor<half>& g, Ring& ring, const CopyCase& c, uint64_t r0, uint64_t nr,
                uint64_t c0, uint64_t nc) {
    for (uint64_t r = r0; r < r0 + nr; r += c.tileM)
        for (uint64_t col = c0; col < c0 + nc; col += c.tileN)
            copy_tile(g, ring, r, col, uint32_t(std::min<uint64_t>(c.tileM, r0 + nr - r)),
                      uint32_t(std::min<uint64_t>(c.tileN, c0 + nc - col)), c.cols);
}

void copy_block(GM_ADDR src, const CopyCase c) {
    const uint32_t cores = AscendC::GetBlockNum(), idx = AscendC::GetBlockIdx();
    AscendC::GlobalTensor<half> g;
    g.SetGlobalBuffer((__gm__ half*)src, uint64_t(c.rows) * c.cols);
    Ring ring(c.tileM * ((c.tileN * 2 + 31) / 32 * 32), 184 * 1024);
    if (c.everyCoreWholeMatrix) {
        g.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);
        const uint64_t blockRows = c.rows / cores;
        for (uint32_t k = 0; k < cores; ++k) {
            const uint64_t mb = c.stagger ? (k + idx) % cores : k;
            copy_range(g, ring, c, mb * blockRows, blockRows, 0, c.cols);
        }
        return;
    }
    const uint64_t myRows = c.rows / cores, r0 = idx * myRows;
    if (c.slices) {
        const uint64_t w = c.cols / c.slices;
        for (uint32_t s = 0; s < c.slices; ++s)
            for (uint32_t rep = 0; rep < c.repeats; ++rep) copy_range(g, ring, c, r0, myRows, s * w, w);
    } else {
        for (uint32_t rep = 0; rep < c.repeats; ++rep) copy_range(g, ring, c, r0, myRows, 0, c.cols);
    }
}

}  // namespace

ascend_sim::LaunchTiming run_copy_case(const CopyCase& c) {
    DeviceBuffer<half> m(size_t(c.rows) * c.cols);
    for (size_t i = 0; i < m.size(); ++i) m[i] = half(1.0f);
    auto* p = reinterpret_cast<GM_ADDR>(m.data());
    ascend_sim::GmRegion region(m.data(), m.size() * 2, "matrix");
    ascend_sim::run_kernel("data_copy_gm2ub", c.cores, [&] { copy_block(p, c); });
    return ascend_sim::last_launch_timing();
}

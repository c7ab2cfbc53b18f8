// 64-bit index arithmetic at N * C > 2^31 without allocating: the
// tiling of N = 65537, C = 32768 (and other shapes past 2^31 elements or 2^32
// bytes) on every SoC profile, walked tile by tile with the kernel's geometry
// (tile order by colMajorTiles, GM offset row0 * C + col0 in uint64):
// the tiles cover [0, N*C) exactly once, the per-core tile (or row unit) ranges
// cover every tile (unit) once, and phase 1 of the aclnn API accepts such tensors (it never reads
// their data). scripts/stress_huge.py runs the real kernel at this size.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_cross_entropy_loss_grad.h"
#include "ascend_sim/sim.h"
#include "cross_entropy_loss_grad_tiling.h"
#include "platform_info_sim.h"  // PlatformOf
#include "xtest.h"

using namespace xent;

namespace {

// Walks every tile as the kernel does and checks exact cover of [0, N*C).
void CheckCover(const TilingProblem& p, const TilingPlatform& plat, const std::string& what) {
    const TilingResult r = ComputeTiling(p, plat);
    if (!r.ok) xtest::fail(__FILE__, __LINE__, what + ": tiling failed: " + r.error);
    const CrossEntropyLossGradTilingData& t = r.data;
    XCHECK_EQ(t.n, p.n);
    XCHECK_EQ(t.c, p.c);
    const uint64_t total = uint64_t(p.n) * uint64_t(p.c);
    uint64_t covered = 0, maxEnd = 0;
    std::vector<int64_t> nextRow(size_t(t.colTiles), 0);
    // One tile of R rows from row0 of column tile colTile: in order within its column
    // tile (a gap or an overlap shows), inside [0, N*C) at the kernel's GM offsets.
    auto visit = [&](int64_t colTile, int64_t row0, int64_t rows) {
        const int64_t col0 = colTile * t.tileCols;
        const int64_t cols = t.c - col0 < t.tileCols ? t.c - col0 : t.tileCols;
        if (rows < 1 || rows > t.tileRows || cols < 1 || nextRow[size_t(colTile)] != row0) return false;
        nextRow[size_t(colTile)] = row0 + rows;
        const uint64_t first = uint64_t(row0) * uint64_t(t.c) + uint64_t(col0);  // the kernel's GM offset
        const uint64_t last = uint64_t(row0 + rows - 1) * uint64_t(t.c) + uint64_t(col0 + cols);
        maxEnd = last > maxEnd ? last : maxEnd;
        XCHECK(first < total && last <= total);
        covered += uint64_t(rows) * uint64_t(cols);
        return true;
    };
    if (t.colMajorTiles) {
        // Row units (row u mod N of column tile u / N) dealt as contiguous ranges, each
        // cut into tiles of up to R rows per column tile, as the kernel's UnitTile.
        int64_t next = 0;
        for (int64_t core = 0; core < t.blockDim; ++core) {
            const int64_t u0 = core * t.tilesPerCore + std::min(core, t.tileRemainder);
            const int64_t u1 = u0 + t.tilesPerCore + (core < t.tileRemainder ? 1 : 0);
            XCHECK_EQ(u0, next);
            next = u1;
            for (int64_t u = u0; u < u1;) {
                const int64_t colTile = u / t.n, end = std::min(u1, (colTile + 1) * t.n);
                for (int64_t row = u - colTile * t.n; row < end - colTile * t.n; row += t.tileRows)
                    if (!visit(colTile, row, std::min(t.tileRows, end - colTile * t.n - row))) {
                        xtest::fail(__FILE__, __LINE__, what + ": core " + std::to_string(core) + " breaks the cover");
                        return;
                    }
                u = end;
            }
        }
        XCHECK_EQ(next, t.n * t.colTiles);
    } else {
        // Per-core ranges: contiguous, in order, covering [0, totalTiles), or, with split
        // remainder tiles, [0, totalTiles - splitTiles) and one column piece each for the
        // first tileRemainder cores, the pieces of a split tile side by side across it.
        int64_t next = 0, pieceCols = 0;
        for (int64_t core = 0; core < t.blockDim; ++core) {
            const bool extra = core < t.tileRemainder;
            const int64_t first = core * t.tilesPerCore + (t.splitTiles > 0 ? 0 : (extra ? core : t.tileRemainder));
            const int64_t count = t.tilesPerCore + (extra && t.splitTiles == 0 ? 1 : 0);
            XCHECK_EQ(first, next);
            next = first + count;
            if (t.splitTiles > 0 && extra) {
                const int64_t c0 = (core % t.splitPieces) * t.splitCols;
                XCHECK(c0 < t.tileCols);
                pieceCols += std::min(t.splitCols, t.tileCols - c0);
            }
        }
        XCHECK_EQ(next, t.totalTiles - t.splitTiles);
        XCHECK_EQ(pieceCols, t.splitTiles * (t.splitTiles > 0 ? t.tileCols : 0));
        // Tiles in row-major order, each column tile's rows in order.
        for (int64_t index = 0; index < t.totalTiles; ++index) {
            const int64_t row0 = index / t.colTiles * t.tileRows;
            if (!visit(index % t.colTiles, row0, t.n - row0 < t.tileRows ? t.n - row0 : t.tileRows)) {
                xtest::fail(__FILE__, __LINE__, what + ": tile " + std::to_string(index) + " breaks the cover");
                return;
            }
        }
    }
    for (int64_t v : nextRow) XCHECK_EQ(v, t.n);
    XCHECK_EQ(covered, total);
    XCHECK_EQ(maxEnd, total);
    // Byte offsets past 2^32 are the point of this test.
    XCHECK(total * uint64_t(DtypeBytes(p.dtype)) > (uint64_t(1) << 32));
}

}  // namespace

XTEST(tiles_cover_huge_problems_exactly_on_every_profile) {
    struct Shape {
        int64_t n, c, dtype;
    };
    const Shape shapes[] = {{65537, 32768, XENT_FP16},     // 2^31 + 2^15 elements
                            {65537, 32768, XENT_FP32},
                            {2147483649LL / 3 + 1, 3, XENT_BF16},  // row-packed, N*C just past 2^31
                            {3, (int64_t(1) << 30), XENT_FP32},     // C at its maximum, column split
                            {40961, 65536, XENT_BF16}};
    for (const auto& prof : ascend_sim::profiles()) {
        const TilingPlatform plat = PlatformOf(prof);
        for (const Shape& s : shapes)
            for (int64_t red : {XENT_MEAN, XENT_NONE}) {
                TilingProblem p;
                p.n = s.n;
                p.c = s.c;
                p.dtype = s.dtype;
                p.reduction = red;
                p.hasWeight = red == XENT_MEAN;
                p.labelSmoothing = red == XENT_MEAN ? 0.1 : 0.0;
                CheckCover(p, plat,
                           prof.name + " " + std::to_string(s.n) + "x" + std::to_string(s.c) + " red " + std::to_string(red));
            }
    }
}

XTEST(phase_one_accepts_huge_tensors_without_touching_them) {
    // Views that claim N*C elements at addresses nothing backs: phase 1 only validates
    // and tiles, so nothing is read; the executor is destroyed instead of launched.
    const int64_t N = 65537, C = 32768;
    alignas(64) static char buffer[64];
    const uintptr_t base = reinterpret_cast<uintptr_t>(buffer);
    auto at = [&](uint64_t gib) { return reinterpret_cast<void*>(base + (gib << 30)); };  // never dereferenced
    const int64_t lpDims[] = {N, C}, tDims[] = {N};
    aclTensor* lp = aclCreateTensor(lpDims, 2, ACL_FLOAT16, nullptr, 0, ACL_FORMAT_ND, lpDims, 2, at(0));
    aclTensor* out = aclCreateTensor(lpDims, 2, ACL_FLOAT16, nullptr, 0, ACL_FORMAT_ND, lpDims, 2, at(8));
    aclTensor* outOverlap = aclCreateTensor(lpDims, 2, ACL_FLOAT16, nullptr, 0, ACL_FORMAT_ND, lpDims, 2, at(4));
    aclTensor* tgt = aclCreateTensor(tDims, 1, ACL_INT64, nullptr, 0, ACL_FORMAT_ND, tDims, 1, at(16));
    aclTensor* g = aclCreateTensor(nullptr, 0, ACL_FLOAT16, nullptr, 0, ACL_FORMAT_ND, nullptr, 0, at(17));
    uint64_t ws = 0;
    aclOpExecutor* exec = nullptr;
    char mean[] = "mean";
    XCHECK_EQ(aclnnCrossEntropyLossGradGetWorkspaceSize(g, lp, tgt, nullptr, nullptr, nullptr, mean, -100, 0.1, 0.0, out,
                                                        &ws, &exec),
              ACLNN_SUCCESS);
    XCHECK(ws >= (16u << 20));
    XCHECK_EQ(aclDestroyAclOpExecutor(exec), ACLNN_SUCCESS);
    // out starting 4 GiB into logProb's 4 GiB + 64 KiB: the overlap test is 64-bit too.
    XCHECK_EQ(aclnnCrossEntropyLossGradGetWorkspaceSize(g, lp, tgt, nullptr, nullptr, nullptr, mean, -100, 0.0, 0.0,
                                                        outOverlap, &ws, &exec),
              ACLNN_ERR_PARAM_INVALID);
    XCHECK(std::string(aclGetRecentErrMsg()).find("out must not overlap logProb") != std::string::npos);
    // C past 2^30 and element counts that overflow are refused with a message.
    const int64_t wide[] = {3, (int64_t(1) << 30) + 1};
    aclTensor* lpWide = aclCreateTensor(wide, 2, ACL_FLOAT16, nullptr, 0, ACL_FORMAT_ND, wide, 2, at(0));
    XCHECK_EQ(aclnnCrossEntropyLossGradGetWorkspaceSize(g, lpWide, tgt, nullptr, nullptr, nullptr, mean, -100, 0.0, 0.0,
                                                        out, &ws, &exec),
              ACLNN_ERR_PARAM_INVALID);
    const std::string wideMsg = aclGetRecentErrMsg();
    if (wideMsg.find("at most 2^30") == std::string::npos) xtest::fail(__FILE__, __LINE__, wideMsg);
    const int64_t huge[] = {int64_t(1) << 40, int64_t(1) << 30};
    aclTensor* lpHuge = aclCreateTensor(huge, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, huge, 2, at(0));
    XCHECK_EQ(aclnnCrossEntropyLossGradGetWorkspaceSize(g, lpHuge, tgt, nullptr, nullptr, nullptr, mean, -100, 0.0, 0.0,
                                                        out, &ws, &exec),
              ACLNN_ERR_PARAM_INVALID);
    XCHECK(std::string(aclGetRecentErrMsg()).find("logProb is too large") != std::string::npos);
    for (aclTensor* t : {lp, out, outOverlap, tgt, g, lpWide, lpHuge}) aclDestroyTensor(t);
}

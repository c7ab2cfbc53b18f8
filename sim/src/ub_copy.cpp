// DataCopy from UB to UB as dav_c220 issues it (DataCopyUB2UBImpl:
// copy_ubuf_to_ubuf inside `#pragma begin_pipe(V)`): an instruction of PIPE_V,
// so it is ordered against MTE2/MTE3 by the same flags as a vector op, and
// against other vector work by program order.
#include <cstring>

#include "ascend_sim/runtime_state.h"
#include "timing_trace.h"
#include "ub_operand.h"

namespace ascend_sim::detail {

namespace {
// The bytes of each block, not the hull: strided copies that fill each other's
// gaps touch no byte twice, and are no hazard.
void access_blocks(Block& b, const char* api, const Instr& in, uint64_t base, const UbBlocks& k, bool write) {
    if (k.count == 1 || k.pitch == k.span) {
        b.hz.access(api, in, Space::UB, base, base + (k.count - 1) * k.pitch + k.span, write);
        return;
    }
    for (uint64_t i = 0; i < k.count; ++i)
        b.hz.access(api, in, Space::UB, base + i * k.pitch, base + i * k.pitch + k.span, write);
}
}  // namespace

void ub_copy(const char* api, const UbRef& dst, const UbRef& src, const UbBlocks& dstBlocks,
             const UbBlocks& srcBlocks) {
    Block& b = cur(api);
    const uint64_t s = check_ub_operand(api, b, src, "src");
    const uint64_t d = check_ub_operand(api, b, dst, "dst");
    init_read_blocks(api, b, "source", s, srcBlocks);
    b.used = true;
    const Instr in = b.hz.issue(P_V, api);
    t_vec(b, api, VecOp::Copy, (srcBlocks.count * (srcBlocks.hi - srcBlocks.lo) + 255) / 256, 4, nullptr, 0);
    access_blocks(b, api, in, s, srcBlocks, false);
    access_blocks(b, api, in, d, dstBlocks, true);
    init_write_blocks(b, d, dstBlocks);
    const uint64_t blk = srcBlocks.hi - srcBlocks.lo;
    for (uint64_t i = 0; i < srcBlocks.count; ++i)
        std::memmove(b.ub + d + i * dstBlocks.pitch, b.ub + s + i * srcBlocks.pitch, blk);
}

}  // namespace ascend_sim::detail

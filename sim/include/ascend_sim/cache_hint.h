// The L2 cache hints of a GlobalTensor (kernel_utils_macros.h: CacheMode,
// CacheRwMode). On 2201 the hint only changes which alias of the address the
// DMA uses (CACHE_MODE_DISABLE, when L2_CACHE_HINT is built in); the same bytes
// are read and written, so the checks ignore it; the timing model's L2 does not
// allocate what a CACHE_MODE_DISABLE read misses (docs/timing_model.md).
#pragma once

namespace AscendC {
enum class CacheMode { CACHE_MODE_DISABLE = 0, CACHE_MODE_NORMAL = 1, CACHE_MODE_LAST = 2, CACHE_MODE_PERSISTENT = 4 };
enum class CacheRwMode { READ = 1, WRITE = 2, RW = 3 };
}  // namespace AscendC

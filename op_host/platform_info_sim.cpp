#include "platform_info_sim.h"

#include "platform_info.h"

namespace xent {
TilingPlatform PlatformOf(const ascend_sim::SocProfile& p) {
    TilingPlatform t;
    t.vectorCores = p.vectorCores;
    t.ubBytes = p.ubBytes;
    t.libApiWorkspaceBytes = p.libApiWorkspaceBytes;
    return t;
}

TilingPlatform CurrentPlatform() { return PlatformOf(ascend_sim::current_profile()); }
}  // namespace xent

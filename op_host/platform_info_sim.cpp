#include "ascend_sim/sim.h"
#include "platform_info.h"

namespace xent {
TilingPlatform CurrentPlatform() {
    const ascend_sim::SocProfile p = ascend_sim::current_profile();
    TilingPlatform t;
    t.vectorCores = p.vectorCores;
    t.ubBytes = p.ubBytes;
    t.libApiWorkspaceBytes = p.libApiWorkspaceBytes;
    return t;
}
}  // namespace xent

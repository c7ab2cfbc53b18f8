#include "platform_info_sim.h"

#include <stdexcept>

#include "platform_info.h"

namespace xent {
TilingPlatform PlatformOf(const ascend_sim::SocProfile& p) {
    TilingPlatform t;
    t.vectorCores = p.vectorCores;
    t.ubBytes = p.ubBytes;
    t.libApiWorkspaceBytes = p.libApiWorkspaceBytes;
    t.l2Bytes = p.l2Bytes;
    t.soc = p.name;
    return t;
}

ascend_sim::SocProfile ProfileOf(const TilingPlatform& p) {
    for (const ascend_sim::SocProfile& known : ascend_sim::profiles()) {
        if (known.name != p.soc) continue;
        ascend_sim::SocProfile r = known;
        r.vectorCores = p.vectorCores;
        r.ubBytes = p.ubBytes;
        r.libApiWorkspaceBytes = p.libApiWorkspaceBytes;
        return r;
    }
    throw std::invalid_argument("unknown SoC profile \"" + p.soc + "\"");
}

TilingPlatform CurrentPlatform() { return PlatformOf(ascend_sim::current_profile()); }
}  // namespace xent

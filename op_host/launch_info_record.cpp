#include "launch_info_record.h"

namespace {
thread_local ascend_xent::LaunchInfo t_lastLaunch;
}

namespace xent {
void RecordLaunchInfo(const ascend_xent::LaunchInfo& info) { t_lastLaunch = info; }
}  // namespace xent

namespace ascend_xent {
LaunchInfo last_launch_info() { return t_lastLaunch; }
}  // namespace ascend_xent

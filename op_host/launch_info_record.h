// Where both two-phase APIs leave what their last launch on this thread used
// (ascend_xent::last_launch_info(), op_host/include/ascend_xent/launch_info.h).
#pragma once
#include "ascend_xent/launch_info.h"

namespace xent {
void RecordLaunchInfo(const ascend_xent::LaunchInfo& info);
}

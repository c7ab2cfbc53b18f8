// What a 9.x `.asc` program includes under ASCENDC_CPU_DEBUG (CANN: the
// functions bisheng's CPU mode turns a `kernel<<<blocks, 0, stream>>>(...)`
// launch into). A host compiler has no `<<<>>>`: write the launch as
// ICPU_RUN_KF(kernel, blocks, args...) (docs/cpu_twin.md); this header brings
// in that launcher and the GM allocation calls.
#pragma once
#include "tikicpulib.h"

// CANN's CPU-debug launch header, which the .asc samples include under
// ASCENDC_CPU_DEBUG. On the simulator a sample's <<<blocks, 0, stream>>> line
// is written as ICPU_RUN_KF(kernel, blocks, args...), which tikicpulib.h
// defines; this header brings that in so the include line stays as it is.
#pragma once
#include "tikicpulib.h"

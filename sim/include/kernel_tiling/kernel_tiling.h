// CANN's kernel-side home of the advanced APIs' tiling structs (AscendC::tiling::
// SoftMaxTiling, TopkTiling, ...: 如何使用Tiling依赖的头文件.md). Here they live with
// their APIs, all of which kernel_operator.h brings in.
#pragma once
#include "kernel_operator.h"

// ops-base's kernel-side platform constants (Ops::Base, include/op_common/op_kernel/
// platform_util.h), which ops-nn's build installs beside every kernel (cmake/
// gen_ops_info.cmake copies ops-base's op_kernel directory into the kernels' common
// directory) and its kernels include as "op_kernel/platform_util.h". The values are
// the twin's SoC facts: a UB block of 32 B (ops-base GetUbBlockSize.md) and a vector
// register of 256 B.
#pragma once
#include "kernel_operator.h"

namespace Ops {
namespace Base {

__aicore__ inline constexpr uint32_t GetUbBlockSize() { return 32U; }

// A2's vector instructions read 256 B per repeat; 3510's VECTOR_REG_WIDTH is 256 B too
// (GetVecRegLen.md).
__aicore__ inline constexpr uint32_t GetVRegSize() { return 256U; }

}  // namespace Base
}  // namespace Ops

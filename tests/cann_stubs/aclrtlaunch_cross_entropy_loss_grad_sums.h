// STAND-IN for the header CANN's ascendc_library generates for the kernel
// cross_entropy_loss_grad_sums (include/ascend_xent_kernel/aclrtlaunch_cross_entropy_loss_grad_sums.h),
// for the -fsyntax-only check in tests/cann only (see tests/cann_stubs/README.md).
// Shape as asc-devkit's extract_host_stub.py writes it: numBlocks, stream, then
// the kernel's arguments with every GM_ADDR as void*.
#ifndef XENT_CANN_STUB_ACLRTLAUNCH_CROSS_ENTROPY_LOSS_GRAD_SUMS_H_
#define XENT_CANN_STUB_ACLRTLAUNCH_CROSS_ENTROPY_LOSS_GRAD_SUMS_H_

#include "acl/acl_base.h"

#ifndef ACLRT_LAUNCH_KERNEL
#define ACLRT_LAUNCH_KERNEL(kernel_func) aclrtlaunch_##kernel_func
#endif

extern "C" uint32_t aclrtlaunch_cross_entropy_loss_grad_sums(uint32_t blockDim, void* stream, void* gradLoss,
                                                             void* logProb, void* target, void* weight,
                                                             void* gradZloss, void* lseForZloss, void* xGrad,
                                                             void* workspace, void* tiling);

#endif

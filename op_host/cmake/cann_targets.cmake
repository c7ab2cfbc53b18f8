# The CANN build of ascend_xent (included by op_host/CMakeLists.txt when
# cmake/cann.cmake found CANN and loaded its ascendc.cmake).
#
#   ascend_xent_kernel  op_kernel/cross_entropy_loss_grad.cpp, cross_entropy_loss_grad_sums.cpp, cross_entropy_loss.cpp
#                       compiled by CANN's Ascend C toolchain for SOC_VERSION
#                       (ascendc_library, one kernel per source); it generates
#                       include/ascend_xent_kernel/aclrtlaunch_<kernel>.h for each
#   ascend_xent         SHARED: the same op_host sources as the simulator build, with
#   ascend_xent_static  STATIC  launch_cann.cpp, platform_info_cann.cpp and device_memory_cann.cpp
#                               in place of their _sim.cpp counterparts
# Nothing from sim/ or acl_compat/ is compiled into them: tensors, executors and
# the runtime are CANN's (acl/acl.h, aclnn/acl_meta.h from ${ASCEND_CANN_PACKAGE_PATH}/include).

# ---- the kernel ----
# HAVE_WORKSPACE + HAVE_TILING: the generated launcher treats the second-to-last
# kernel argument (workspace) as the system workspace, so GetUserWorkspace() in the
# kernel points past it, exactly as the simulator's does.
ascendc_library(ascend_xent_kernel STATIC ${XENT_ROOT}/op_kernel/cross_entropy_loss_grad.cpp
                ${XENT_ROOT}/op_kernel/cross_entropy_loss_grad_sums.cpp ${XENT_ROOT}/op_kernel/cross_entropy_loss.cpp)
# ASCEND_XENT_BATCH_SCHEDULE: the kernel carries __schedmode__(1) (asc-devkit 9.1.0 on).
option(ASCEND_XENT_BATCH_SCHEDULE "Launch the kernel in batch schedule mode (__schedmode__(1), CANN >= 9.1)" ON)
if(ASCEND_XENT_BATCH_SCHEDULE)
  set(_xent_batch 1)
else()
  set(_xent_batch 0)
endif()
ascendc_compile_definitions(ascend_xent_kernel PRIVATE HAVE_WORKSPACE HAVE_TILING ASCEND_XENT_BATCH_SCHEDULE=${_xent_batch})
# The kernel uses if constexpr; older toolchains default the device side to C++11.
ascendc_compile_options(ascend_xent_kernel PRIVATE -std=c++17)
ascendc_include_directories(ascend_xent_kernel PRIVATE ${XENT_ROOT}/op_kernel)

# ---- the host side ----
set(_xent_cann_libs
  ascend_xent_kernel  # the launchers aclrtlaunch_cross_entropy_loss(_grad) and the device binary
  nnopbase            # aclCreateTensor and the aclGet* tensor accessors
  ascendcl            # acl runtime: aclrtMemcpyAsync, aclrtMemcpy
  runtime
  tiling_api          # PlatformAscendC
  platform)

xent_add_objects(SOURCES platform_info_cann.cpp launch_cann.cpp device_memory_cann.cpp
                 PUBLIC_INCLUDES ${ASCEND_CANN_PACKAGE_PATH}/include)
# For the generated launcher header (the kernel target's interface include directory).
target_link_libraries(ascend_xent_objects PRIVATE ascend_xent_kernel)
target_compile_definitions(ascend_xent_objects PRIVATE ASCEND_XENT_WITH_CANN=1)

xent_add_libraries()
foreach(_lib ascend_xent ascend_xent_static)
  target_include_directories(${_lib} PUBLIC ${ASCEND_CANN_PACKAGE_PATH}/include)
  target_link_directories(${_lib} PUBLIC ${ASCEND_CANN_PACKAGE_PATH}/lib64)
  # Consumers (the Python binding) can tell the two builds apart.
  target_compile_definitions(${_lib} PUBLIC ASCEND_XENT_WITH_CANN=1)
endforeach()
# Callers create tensors and device memory themselves (nnopbase, ascendcl): PUBLIC.
target_link_libraries(ascend_xent PRIVATE ascend_xent_kernel PUBLIC nnopbase ascendcl runtime tiling_api platform
                      Threads::Threads)
target_link_libraries(ascend_xent_static PUBLIC ${_xent_cann_libs} Threads::Threads)

# ---- install: the shared library, the API headers and the CMake package ----
xent_install_package()

# The simulator-backed tests (tests/op_host, tests/op_kernel) need the simulator
# build of ascend_xent; sim/'s own tests still run. On the NPU the example
# (examples/) is the end-to-end check: see docs/npu_guide.md.

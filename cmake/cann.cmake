# Chooses the kernel backend and, for CANN, loads CANN's Ascend C toolchain.
#
# In:  ASCEND_XENT_CANN         AUTO (default) | ON | OFF
#        AUTO: CANN when $ASCEND_HOME_PATH or $ASCEND_TOOLKIT_HOME (set by CANN's
#              set_env.sh) names a CANN package with the Ascend C cmake files,
#              the simulator otherwise.
#        ON:   CANN, or a FATAL_ERROR saying what is missing.
#        OFF:  the simulator, even on an NPU machine.
#      ASCEND_CANN_PACKAGE_PATH  the CANN package (default: the environment above)
#      SOC_VERSION               the NPU the kernel is compiled for (default Ascend910B2)
# Out: ASCEND_XENT_WITH_CANN     TRUE/FALSE
#      ASCENDC_CMAKE_DIR         (CANN) the directory ascendc.cmake was loaded from
#
# With CANN this file include()s ascendc.cmake, which defines ascendc_library()
# (op_host/CMakeLists.txt uses it). Without CANN it defines nothing else: the
# simulator build is unchanged. Steps for NPU users: docs/npu_guide.md.

set(ASCEND_XENT_CANN "AUTO" CACHE STRING
    "Compile the kernel with CANN for an NPU: AUTO (when ASCEND_HOME_PATH/ASCEND_TOOLKIT_HOME is set), ON, OFF (simulator)")
set_property(CACHE ASCEND_XENT_CANN PROPERTY STRINGS AUTO ON OFF)
string(TOUPPER "${ASCEND_XENT_CANN}" _xent_cann_mode)
if(_xent_cann_mode STREQUAL "TRUE" OR _xent_cann_mode STREQUAL "1" OR _xent_cann_mode STREQUAL "YES")
  set(_xent_cann_mode ON)
elseif(_xent_cann_mode STREQUAL "FALSE" OR _xent_cann_mode STREQUAL "0" OR _xent_cann_mode STREQUAL "NO")
  set(_xent_cann_mode OFF)
endif()
if(NOT _xent_cann_mode MATCHES "^(AUTO|ON|OFF)$")
  message(FATAL_ERROR "ASCEND_XENT_CANN must be AUTO, ON or OFF, got '${ASCEND_XENT_CANN}'")
endif()

# The CANN package: an explicit -DASCEND_CANN_PACKAGE_PATH wins over the environment.
set(_xent_cann_path "")
if(ASCEND_CANN_PACKAGE_PATH)
  set(_xent_cann_path "${ASCEND_CANN_PACKAGE_PATH}")
elseif(DEFINED ENV{ASCEND_HOME_PATH} AND NOT "$ENV{ASCEND_HOME_PATH}" STREQUAL "")
  set(_xent_cann_path "$ENV{ASCEND_HOME_PATH}")
elseif(DEFINED ENV{ASCEND_TOOLKIT_HOME} AND NOT "$ENV{ASCEND_TOOLKIT_HOME}" STREQUAL "")
  set(_xent_cann_path "$ENV{ASCEND_TOOLKIT_HOME}")
endif()

# Where ascendc.cmake lives: compiler/tikcpp/... (CANN 8.x) or tools/tikcpp/... (older installs).
set(_xent_ascendc_dir "")
if(NOT _xent_cann_path STREQUAL "")
  foreach(_d compiler/tikcpp/ascendc_kernel_cmake tools/tikcpp/ascendc_kernel_cmake)
    if(_xent_ascendc_dir STREQUAL "" AND EXISTS "${_xent_cann_path}/${_d}/ascendc.cmake")
      set(_xent_ascendc_dir "${_xent_cann_path}/${_d}")
    endif()
  endforeach()
endif()

set(ASCEND_XENT_WITH_CANN FALSE)
if(_xent_cann_mode STREQUAL "ON")
  if(_xent_cann_path STREQUAL "")
    message(FATAL_ERROR
      "ASCEND_XENT_CANN=ON but no CANN package was given: pass -DASCEND_CANN_PACKAGE_PATH=<cann>/latest "
      "or source <cann>/set_env.sh (sets ASCEND_HOME_PATH). See docs/npu_guide.md.")
  elseif(NOT IS_DIRECTORY "${_xent_cann_path}")
    message(FATAL_ERROR
      "ASCEND_XENT_CANN=ON but the CANN package '${_xent_cann_path}' does not exist "
      "(ASCEND_CANN_PACKAGE_PATH / ASCEND_HOME_PATH / ASCEND_TOOLKIT_HOME). See docs/npu_guide.md.")
  elseif(_xent_ascendc_dir STREQUAL "")
    message(FATAL_ERROR
      "ASCEND_XENT_CANN=ON but '${_xent_cann_path}' has no Ascend C toolchain: neither "
      "compiler/tikcpp/ascendc_kernel_cmake/ascendc.cmake nor tools/tikcpp/ascendc_kernel_cmake/ascendc.cmake "
      "exists (is this the CANN toolkit, e.g. <install>/ascend-toolkit/latest?). See docs/npu_guide.md.")
  endif()
  set(ASCEND_XENT_WITH_CANN TRUE)
elseif(_xent_cann_mode STREQUAL "AUTO" AND NOT _xent_ascendc_dir STREQUAL "")
  set(ASCEND_XENT_WITH_CANN TRUE)
elseif(_xent_cann_mode STREQUAL "AUTO" AND NOT _xent_cann_path STREQUAL "")
  message(STATUS "ascend-xent: '${_xent_cann_path}' has no Ascend C cmake files; using the simulator")
endif()

if(NOT ASCEND_XENT_WITH_CANN)
  message(STATUS "ascend-xent: kernel backend = simulator (sim/)")
  return()
endif()

# ---- CANN ----
set(ASCEND_CANN_PACKAGE_PATH "${_xent_cann_path}" CACHE PATH "CANN package (e.g. /usr/local/Ascend/ascend-toolkit/latest)")
set(SOC_VERSION "Ascend910B2" CACHE STRING "NPU the kernel is compiled for (npu-smi info: Name, prefixed with Ascend)")
# ascendc.cmake reads RUN_MODE: npu (the device); cpu/sim are CANN's own debug modes, not used here.
set(RUN_MODE "npu" CACHE STRING "CANN kernel run mode (npu)")
if(NOT RUN_MODE STREQUAL "npu")
  message(FATAL_ERROR "ascend-xent's CANN build supports RUN_MODE=npu only (the CPU twin is sim/), got '${RUN_MODE}'")
endif()
set(ASCENDC_CMAKE_DIR "${_xent_ascendc_dir}")
# benchmarks/bench_kernel times the simulator; on an NPU benchmark as docs/npu_guide.md says.
set(ASCEND_XENT_BUILD_BENCHMARKS OFF)
message(STATUS "ascend-xent: kernel backend = CANN ${ASCEND_CANN_PACKAGE_PATH}, SOC_VERSION=${SOC_VERSION}")
include(${ASCENDC_CMAKE_DIR}/ascendc.cmake)

# FAKE stand-in for CANN's ascendc.cmake, for the cann_fake_package_build test
# only (tests/cann/fake_cann_package/README.md). Not CANN. It records each call
# in ${CMAKE_BINARY_DIR}/fake_ascendc_calls.txt and makes the kernel target an
# INTERFACE library carrying CANN's ACL headers (XENT_CANN_ACL_HEADERS, which the test
# extracted from the torch-npu wheel; optional for a configure-only use) and the
# stand-in headers (tests/cann_stubs), in place of the generated
# include/<target>/aclrtlaunch_*.h and ${ASCEND_CANN_PACKAGE_PATH}/include.
if(NOT DEFINED SOC_VERSION)
  message(FATAL_ERROR "SOC_VERSION value not set.")  # as the real host_config.cmake does
endif()
if(NOT XENT_CANN_STUBS)
  message(FATAL_ERROR "the fake CANN package needs -DXENT_CANN_STUBS=<repo>/tests/cann_stubs")
endif()
file(WRITE ${CMAKE_BINARY_DIR}/fake_ascendc_calls.txt "")

function(_xent_fake_record)
  string(REPLACE ";" " " _line "${ARGN}")
  file(APPEND ${CMAKE_BINARY_DIR}/fake_ascendc_calls.txt "${_line}\n")
endfunction()

function(ascendc_library target_name target_type)
  _xent_fake_record(ascendc_library ${target_name} ${target_type} ${ARGN})
  add_library(${target_name} INTERFACE)
  if(XENT_CANN_ACL_HEADERS)
    target_include_directories(${target_name} SYSTEM INTERFACE ${XENT_CANN_ACL_HEADERS})
  endif()
  target_include_directories(${target_name} INTERFACE ${XENT_CANN_STUBS})
endfunction()
function(ascendc_compile_definitions target_name target_scope)
  _xent_fake_record(ascendc_compile_definitions ${target_name} ${target_scope} ${ARGN})
endfunction()
function(ascendc_compile_options target_name target_scope)
  _xent_fake_record(ascendc_compile_options ${target_name} ${target_scope} ${ARGN})
endfunction()
function(ascendc_include_directories target_name target_scope)
  _xent_fake_record(ascendc_include_directories ${target_name} ${target_scope} ${ARGN})
endfunction()

# cmake -P: configures the whole project with -DASCEND_XENT_CANN=ON against the
# FAKE package (fake_cann_package/), checks that the CANN branch replaced the
# simulator's sources and asked ascendc_library for the right kernel, then
# compiles the CANN build's host objects (ascend_xent_objects) against CANN's ACL
# headers and the stand-ins. Args: XENT_ROOT, WORK_DIR, GENERATOR, MAKE_PROGRAM, CXX,
# ACL_HEADERS (the extracted acl/*.h).
set(_dir ${WORK_DIR}/build)
include(${CMAKE_CURRENT_LIST_DIR}/fake_package_util.cmake)
xent_fresh_fake_package(_pkg)
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env --unset=ASCEND_HOME_PATH --unset=ASCEND_TOOLKIT_HOME
          ${CMAKE_COMMAND} -S ${XENT_ROOT} -B ${_dir} -G ${GENERATOR} -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}
          -DCMAKE_CXX_COMPILER=${CXX} -DASCEND_XENT_CANN=ON
          -DASCEND_CANN_PACKAGE_PATH=${_pkg} -DXENT_CANN_STUBS=${XENT_ROOT}/tests/cann_stubs
          -DXENT_CANN_ACL_HEADERS=${ACL_HEADERS}
          -DASCEND_XENT_BUILD_TESTS=OFF -DASCEND_XENT_BUILD_EXAMPLES=ON -DASCEND_XENT_BUILD_PYTHON=OFF
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configure with the fake CANN package failed:\n${out}${err}")
endif()

# What the CANN branch asked of ascendc_library.
file(READ ${_dir}/fake_ascendc_calls.txt calls)
foreach(want "ascendc_library ascend_xent_kernel STATIC ${XENT_ROOT}/op_kernel/cross_entropy_loss_grad.cpp"
             "ascendc_compile_definitions ascend_xent_kernel PRIVATE HAVE_WORKSPACE HAVE_TILING ASCEND_XENT_BATCH_SCHEDULE=1")
  string(FIND "${calls}" "${want}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "expected the call '${want}', got:\n${calls}")
  endif()
endforeach()

# The CANN build compiles launch_cann/platform_info_cann and nothing of the simulator or acl_compat.
xent_expect_compiled(${_dir} "the CANN build"
  MUST launch_cann.cpp platform_info_cann.cpp
  MUST_NOT launch_sim.cpp platform_info_sim.cpp acl_compat/src/acl_tensor.cpp acl_compat/src/acl_runtime.cpp
           acl_compat/src/acl_error.cpp bench_kernel.cpp)

execute_process(COMMAND ${CMAKE_COMMAND} --build ${_dir} --target ascend_xent_objects
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the CANN build's host sources do not compile against the ACL headers + tests/cann_stubs:\n${out}${err}")
endif()
message(STATUS "ok: CANN branch configures and its host objects compile (against the ACL headers + stand-ins)")

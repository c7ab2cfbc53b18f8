# cmake -P: configures the whole project with -DASCEND_XENT_CANN=ON against the
# FAKE package (fake_cann_package/), checks that the CANN branch replaced the
# simulator's sources and asked ascendc_library for the right kernel, then
# compiles the CANN build's host objects (ascend_xent_objects) against the
# stand-in headers. Args: XENT_ROOT, WORK_DIR, GENERATOR, MAKE_PROGRAM, CXX.
set(_dir ${WORK_DIR}/build)
# A copy outside the source tree: the project's install(EXPORT) refuses interface
# paths (the package's include/ and lib64/) inside its source or build tree.
# WORK_DIR may itself lie in the source tree (a build/ folder in the checkout),
# so the package goes to a per-build-directory folder under the system temp dir.
if(DEFINED ENV{TMPDIR} AND IS_DIRECTORY "$ENV{TMPDIR}")
  set(_tmp "$ENV{TMPDIR}")
else()
  set(_tmp /tmp)
endif()
string(MD5 _key "${WORK_DIR}")
set(_pkg ${_tmp}/ascend_xent_fake_cann_${_key})
file(REMOVE_RECURSE ${WORK_DIR} ${_pkg})
file(COPY ${XENT_ROOT}/tests/cann/fake_cann_package/ DESTINATION ${_pkg})
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env --unset=ASCEND_HOME_PATH --unset=ASCEND_TOOLKIT_HOME
          ${CMAKE_COMMAND} -S ${XENT_ROOT} -B ${_dir} -G ${GENERATOR} -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}
          -DCMAKE_CXX_COMPILER=${CXX} -DASCEND_XENT_CANN=ON
          -DASCEND_CANN_PACKAGE_PATH=${_pkg} -DXENT_CANN_STUBS=${XENT_ROOT}/tests/cann_stubs
          -DASCEND_XENT_BUILD_TESTS=OFF -DASCEND_XENT_BUILD_EXAMPLES=ON -DASCEND_XENT_BUILD_PYTHON=OFF
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configure with the fake CANN package failed:\n${out}${err}")
endif()

# What the CANN branch asked of ascendc_library.
file(READ ${_dir}/fake_ascendc_calls.txt calls)
foreach(want "ascendc_library ascend_xent_kernel STATIC ${XENT_ROOT}/op_kernel/cross_entropy_loss_grad.cpp"
             "ascendc_compile_definitions ascend_xent_kernel PRIVATE HAVE_WORKSPACE HAVE_TILING")
  string(FIND "${calls}" "${want}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "expected the call '${want}', got:\n${calls}")
  endif()
endforeach()

# The CANN build compiles launch_cann/platform_info_cann and nothing of the simulator or acl_compat.
file(GLOB_RECURSE build_files ${_dir}/build.ninja ${_dir}/*/build.make)
set(text "")
foreach(f ${build_files})
  file(READ ${f} t)
  string(APPEND text "${t}")
endforeach()
foreach(must launch_cann.cpp platform_info_cann.cpp)
  string(FIND "${text}" "${must}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the CANN build does not compile ${must}")
  endif()
endforeach()
foreach(mustnot launch_sim.cpp platform_info_sim.cpp acl_compat/src/acl_tensor.cpp acl_compat/src/acl_runtime.cpp
                acl_compat/src/acl_error.cpp bench_kernel.cpp)
  string(FIND "${text}" "${mustnot}" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "the CANN build compiles ${mustnot}")
  endif()
endforeach()

execute_process(COMMAND ${CMAKE_COMMAND} --build ${_dir} --target ascend_xent_objects
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the CANN build's host sources do not compile against tests/cann_stubs:\n${out}${err}")
endif()
message(STATUS "ok: CANN branch configures and its host objects compile (against stand-in headers)")

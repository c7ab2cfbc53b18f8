# cmake -P: configures the whole project against the FAKE package (fake_cann_package/) the
# way `pip install .` does on an NPU host with CANN's set_env.sh sourced: ASCEND_XENT_CANN=AUTO
# (pyproject.toml), ASCEND_HOME_PATH naming the package, the Python module on. Checks that
# AUTO chose CANN, that ascend_xent._C is made of
# python/src/bindings.cpp + bindings_cann.cpp (never bindings_sim.cpp) and compiles those
# two objects against CANN's ACL headers and the stand-ins (tests/cann_stubs, with their
# caller-side API).
# Nothing is linked: the fake package has no libraries.
# Args: XENT_ROOT, WORK_DIR, GENERATOR, MAKE_PROGRAM, CXX, PYTHON (an interpreter with pybind11),
# ACL_HEADERS (the extracted acl/*.h).
set(_dir ${WORK_DIR}/build)
include(${CMAKE_CURRENT_LIST_DIR}/fake_package_util.cmake)
xent_fresh_fake_package(_pkg)
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env --unset=ASCEND_TOOLKIT_HOME ASCEND_HOME_PATH=${_pkg}
          ${CMAKE_COMMAND} -S ${XENT_ROOT} -B ${_dir} -G ${GENERATOR} -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}
          -DCMAKE_CXX_COMPILER=${CXX} -DASCEND_XENT_CANN=AUTO -DXENT_CANN_STUBS=${XENT_ROOT}/tests/cann_stubs
          -DXENT_CANN_ACL_HEADERS=${ACL_HEADERS}
          -DCMAKE_CXX_FLAGS=-DXENT_CANN_STUB_CALLER_API=1 -DPython_EXECUTABLE=${PYTHON}
          -DASCEND_XENT_BUILD_TESTS=OFF -DASCEND_XENT_BUILD_EXAMPLES=OFF -DASCEND_XENT_BUILD_PYTHON=ON
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configure (CANN, fake package, Python module on) failed:\n${out}${err}")
endif()
# AUTO + ASCEND_HOME_PATH (what set_env.sh exports) must choose CANN, as pyproject.toml relies on.
string(FIND "${out}" "kernel backend = CANN" at)
if(at EQUAL -1)
  message(FATAL_ERROR "ASCEND_XENT_CANN=AUTO with ASCEND_HOME_PATH set did not choose CANN:\n${out}")
endif()

xent_expect_compiled(${_dir} "the CANN build's Python module"
  MUST python/src/bindings.cpp python/src/bindings_cann.cpp
  MUST_NOT python/src/bindings_sim.cpp acl_compat/src/acl_tensor.cpp)

if(GENERATOR STREQUAL "Ninja")
  # Object files only: linking needs CANN's libraries.
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${_dir} --target
                          python/CMakeFiles/_C.dir/src/bindings.cpp.o python/CMakeFiles/_C.dir/src/bindings_cann.cpp.o
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the CANN build's binding sources do not compile against the ACL headers + tests/cann_stubs:\n${out}${err}")
  endif()
  message(STATUS "ok: the CANN build's Python module is bindings.cpp + bindings_cann.cpp and both compile")
else()
  message(STATUS "ok: the CANN build's Python module is bindings.cpp + bindings_cann.cpp "
                 "(objects compiled with the Ninja generator only)")
endif()
file(REMOVE_RECURSE ${_pkg})

# Checks of the CANN-only code that run without CANN (include()d by op_host/CMakeLists.txt,
# so they add tests but no build target or directory). CANN's own ACL headers (acl/*.h, from
# the torch-npu wheel on PyPI) are put in the build tree by the first test; tests/cann_stubs
# stands in only for the headers no package ships (tests/cann_stubs/README.md):
#   cann_acl_headers          scripts/fetch_cann_headers.py: downloads (once) and extracts them;
#                             skipped when PyPI is unreachable, failed instead under
#                             ASCEND_XENT_REQUIRE_CANN_HEADERS=1 (scripts/run_tests.sh); every
#                             check below is then skipped, saying why
#   cann_host_syntax_<file>   every op_host source of the CANN build, -fsyntax-only
#                             -DASCEND_XENT_WITH_CANN=1 against CANN's ACL headers + the stand-ins
#   cann_stand_in_signatures  the aclnn stand-ins and the phase-2 entry point against the
#                             signatures torch_npu's op-plugin declares for them
#   cann_config               cmake/cann.cmake: AUTO/ON/OFF choices and its FATAL_ERROR messages
#   cann_fake_package_build   the whole project configured with -DASCEND_XENT_CANN=ON against a
#                             fake package; the CANN host objects compiled against the same headers
#   cann_excluded_from_sim    (simulator build) no CANN-only source is compiled
#   cann_binding_syntax_<file> the Python binding's CANN-build sources (python/src/bindings.cpp,
#                             bindings_cann.cpp), -fsyntax-only -DASCEND_XENT_WITH_CANN=1 against
#                             the same headers (the stand-ins with their caller-side API) +
#                             pybind11 + Python.h; skipped, saying why, when no Python with
#                             pybind11 is found
#   cann_fake_package_python  the fake-package CANN configure with the Python module on: _C is
#                             made of bindings.cpp + bindings_cann.cpp (not bindings_sim.cpp),
#                             and both compile against the same headers (same skip rules)
# None of them builds a target in this tree.
set(_root ${PROJECT_SOURCE_DIR})
set(_here ${_root}/tests/cann)
set(_work ${CMAKE_BINARY_DIR}/tests/cann)

# The fetcher's interpreter: the one the Python module is built with when it is, else
# python3 on PATH (ASCEND_XENT_CHECK_PYTHON overrides); the binding checks use it too.
if(ASCEND_XENT_CHECK_PYTHON)
  set(_xent_check_py "${ASCEND_XENT_CHECK_PYTHON}")
elseif(Python_EXECUTABLE)
  set(_xent_check_py "${Python_EXECUTABLE}")
else()
  find_program(_xent_check_py NAMES python3 python)
endif()

set(_acl ${_work}/acl_headers)
if(_xent_check_py)
  add_test(NAME cann_acl_headers
           COMMAND ${_xent_check_py} ${_root}/scripts/fetch_cann_headers.py --dest ${_acl})
  set_tests_properties(cann_acl_headers PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
else()
  add_test(NAME cann_acl_headers
           COMMAND ${CMAKE_COMMAND} -E echo "skipped: no Python interpreter to fetch CANN's ACL headers with")
  set_tests_properties(cann_acl_headers PROPERTIES SKIP_REGULAR_EXPRESSION "skipped: ")
endif()
set_tests_properties(cann_acl_headers PROPERTIES FIXTURES_SETUP cann_acl_headers)
# The real headers come in as system headers (their own warnings are not ours), before the
# stand-ins; acl_compat/include is absent, as in the CANN build.
set(_cann_includes -isystem ${_acl} -I${_root}/tests/cann_stubs)

# add_cann_check(<name> <command...>): a test that runs <command> once cann_acl_headers has
# put the headers in place, and is skipped when it could not.
function(add_cann_check name)
  add_test(NAME ${name}
           COMMAND ${CMAKE_COMMAND} -DSTAMP=${_acl}/.complete -P ${_here}/run_with_acl_headers.cmake -- ${ARGN})
  set_tests_properties(${name} PROPERTIES FIXTURES_REQUIRED cann_acl_headers
                                           SKIP_REGULAR_EXPRESSION "skipped: CANN.s ACL headers are not in")
endfunction()

if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  # The CANN build's list (op_host/cmake/xent_targets.cmake, cann_targets.cmake).
  set(_cann_host_sources ${XENT_HOST_SOURCES} platform_info_cann.cpp launch_cann.cpp device_memory_cann.cpp)
  foreach(src ${_cann_host_sources})
    get_filename_component(name ${src} NAME_WE)
    add_cann_check(cann_host_syntax_${name}
                   ${CMAKE_CXX_COMPILER} -std=c++17 -fsyntax-only -Wall -Wextra -Werror
                   -DASCEND_XENT_WITH_CANN=1 -DASCEND_XENT_ACLNN_ALIAS=1 ${_cann_includes}
                   -I${_root}/op_host/include -I${_root}/op_host -I${_root}/op_kernel
                   ${_root}/op_host/${src})
  endforeach()
  add_cann_check(cann_stand_in_signatures
                 ${CMAKE_CXX_COMPILER} -std=c++17 -fsyntax-only -Wall -Wextra -Werror
                 -DXENT_CANN_STUB_CALLER_API=1 ${_cann_includes} -I${_root}/op_host/include
                 ${_here}/stand_in_signatures.cpp)
endif()

# The Python binding as the CANN build compiles it.
set(_xent_py_includes "")
set(_xent_py_skip "no Python interpreter found")
if(_xent_check_py)
  execute_process(
    COMMAND "${_xent_check_py}" -c "import sysconfig, pybind11; print(pybind11.get_include()); print(sysconfig.get_paths()['include'])"
    RESULT_VARIABLE _xent_py_rc OUTPUT_VARIABLE _xent_py_out ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(_xent_py_rc EQUAL 0)
    string(REPLACE "\n" ";" _xent_py_includes "${_xent_py_out}")
  else()
    set(_xent_py_skip "pybind11 is not importable by ${_xent_check_py} (pip install pybind11)")
  endif()
endif()
if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  foreach(src bindings.cpp bindings_cann.cpp)
    get_filename_component(name ${src} NAME_WE)
    if(_xent_py_includes)
      set(_isys "")
      foreach(inc ${_xent_py_includes})
        list(APPEND _isys -isystem ${inc})
      endforeach()
      # XENT_CANN_STUB_CALLER_API: the stand-ins also declare what a caller of the API
      # uses (aclCreateTensor, aclDestroyTensor).
      add_cann_check(cann_binding_syntax_${name}
                     ${CMAKE_CXX_COMPILER} -std=c++17 -fsyntax-only -Wall -Wextra -Werror
                     -DASCEND_XENT_WITH_CANN=1 -DXENT_CANN_STUB_CALLER_API=1 ${_cann_includes}
                     -I${_root}/op_host/include -I${_root}/op_host -I${_root}/python/src ${_isys}
                     ${_root}/python/src/${src})
    else()
      add_test(NAME cann_binding_syntax_${name}
               COMMAND ${CMAKE_COMMAND} -E echo "skipped: ${_xent_py_skip}")
      set_tests_properties(cann_binding_syntax_${name} PROPERTIES SKIP_REGULAR_EXPRESSION "skipped: ")
    endif()
  endforeach()
endif()

add_test(NAME cann_config
         COMMAND ${CMAKE_COMMAND} -DXENT_ROOT=${_root} -DWORK_DIR=${_work}/config
                 -DGENERATOR=${CMAKE_GENERATOR} -DMAKE_PROGRAM=${CMAKE_MAKE_PROGRAM}
                 -P ${_here}/check_cann_config.cmake)

add_cann_check(cann_fake_package_build
               ${CMAKE_COMMAND} -DXENT_ROOT=${_root} -DWORK_DIR=${_work}/fake_package_build
               -DGENERATOR=${CMAKE_GENERATOR} -DMAKE_PROGRAM=${CMAKE_MAKE_PROGRAM} -DCXX=${CMAKE_CXX_COMPILER}
               -DACL_HEADERS=${_acl} -P ${_here}/check_fake_package_build.cmake)
set_tests_properties(cann_fake_package_build PROPERTIES TIMEOUT 600)

if(_xent_py_includes)
  add_cann_check(cann_fake_package_python
                 ${CMAKE_COMMAND} -DXENT_ROOT=${_root} -DWORK_DIR=${_work}/fake_package_python
                 -DGENERATOR=${CMAKE_GENERATOR} -DMAKE_PROGRAM=${CMAKE_MAKE_PROGRAM} -DCXX=${CMAKE_CXX_COMPILER}
                 -DPYTHON=${_xent_check_py} -DACL_HEADERS=${_acl}
                 -P ${_here}/check_fake_package_python.cmake)
  set_tests_properties(cann_fake_package_python PROPERTIES TIMEOUT 600)
else()
  add_test(NAME cann_fake_package_python COMMAND ${CMAKE_COMMAND} -E echo "skipped: ${_xent_py_skip}")
  set_tests_properties(cann_fake_package_python PROPERTIES SKIP_REGULAR_EXPRESSION "skipped: ")
endif()

if(NOT ASCEND_XENT_WITH_CANN)
  add_test(NAME cann_excluded_from_sim
           COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${CMAKE_BINARY_DIR} -P ${_here}/check_sim_excludes_cann.cmake)
endif()

# Each check compiles with its own flags or configures its own tree, none with this
# tree's: label "uninstrumented" (tests/sim/CMakeLists.txt).
get_property(_cann_tests DIRECTORY PROPERTY TESTS)
list(FILTER _cann_tests INCLUDE REGEX "^cann_")
set_tests_properties(${_cann_tests} PROPERTIES LABELS uninstrumented)

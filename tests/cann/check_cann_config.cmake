# cmake -P: cmake/cann.cmake's choices and its FATAL_ERROR messages, on the tiny
# project config_project/ (no CANN needed). Args: XENT_ROOT, WORK_DIR, GENERATOR, MAKE_PROGRAM.
set(_probe ${XENT_ROOT}/tests/cann/config_project)
set(_fake ${XENT_ROOT}/tests/cann/fake_cann_package)
set(_failures 0)

# configure(<name> <expect: ok|fail> <text that must appear> <env args...> -- <cmake args...>)
function(configure name expect want)
  set(_env)
  set(_args)
  set(_in_args FALSE)
  foreach(a ${ARGN})
    if(a STREQUAL "--")
      set(_in_args TRUE)
    elseif(_in_args)
      list(APPEND _args ${a})
    else()
      list(APPEND _env ${a})
    endif()
  endforeach()
  set(_dir ${WORK_DIR}/${name})
  file(REMOVE_RECURSE ${_dir})
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env --unset=ASCEND_HOME_PATH --unset=ASCEND_TOOLKIT_HOME ${_env}
            ${CMAKE_COMMAND} -S ${_probe} -B ${_dir} -G ${GENERATOR} -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}
            -DXENT_ROOT=${XENT_ROOT} -DXENT_CANN_STUBS=${XENT_ROOT}/tests/cann_stubs ${_args}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(all "${out}${err}")
  string(REGEX REPLACE "[ \t\r\n]+" " " flat "${all}")  # CMake wraps long messages
  set(ok TRUE)
  if(expect STREQUAL "ok" AND NOT rc EQUAL 0)
    set(ok FALSE)
  elseif(expect STREQUAL "fail" AND rc EQUAL 0)
    set(ok FALSE)
  endif()
  string(FIND "${flat}" "${want}" at)
  if(at EQUAL -1)
    set(ok FALSE)
  endif()
  if(ok)
    message(STATUS "ok   ${name}: ${want}")
  else()
    message(STATUS "FAIL ${name}: expected ${expect} with '${want}', got rc=${rc}:\n${all}")
    math(EXPR n "${_failures} + 1")
    set(_failures ${n} PARENT_SCOPE)
  endif()
endfunction()

# Explicit ON without a usable package: a clear FATAL_ERROR, never a silent simulator build.
configure(on_no_path fail "ASCEND_XENT_CANN=ON but no CANN package was given" -- -DASCEND_XENT_CANN=ON)
configure(on_absent_path fail "ASCEND_XENT_CANN=ON but the CANN package '/nonexistent/ascend-toolkit/latest' does not exist"
          -- -DASCEND_XENT_CANN=ON -DASCEND_CANN_PACKAGE_PATH=/nonexistent/ascend-toolkit/latest)
configure(on_no_toolchain fail "has no Ascend C toolchain"
          -- -DASCEND_XENT_CANN=ON -DASCEND_CANN_PACKAGE_PATH=${XENT_ROOT}/tests/cann_stubs)
configure(on_bad_mode fail "ASCEND_XENT_CANN must be AUTO, ON or OFF" -- -DASCEND_XENT_CANN=maybe)
# AUTO: the simulator unless the environment names a CANN package with the Ascend C cmake files.
configure(auto_no_env ok "probe: ASCEND_XENT_WITH_CANN=FALSE" --)
configure(auto_env_not_cann ok "probe: ASCEND_XENT_WITH_CANN=FALSE" ASCEND_HOME_PATH=/nonexistent/cann --)
configure(auto_env_cann ok "probe: ASCEND_XENT_WITH_CANN=TRUE" ASCEND_HOME_PATH=${_fake} --)
configure(off_env_cann ok "probe: ASCEND_XENT_WITH_CANN=FALSE" ASCEND_HOME_PATH=${_fake} -- -DASCEND_XENT_CANN=OFF)
configure(on_fake_cann ok "kernel backend = CANN" -- -DASCEND_XENT_CANN=ON -DASCEND_CANN_PACKAGE_PATH=${_fake})
configure(on_fake_cann_cpu_mode fail "supports RUN_MODE=npu only"
          -- -DASCEND_XENT_CANN=ON -DASCEND_CANN_PACKAGE_PATH=${_fake} -DRUN_MODE=cpu)

if(_failures GREATER 0)
  message(FATAL_ERROR "${_failures} cmake/cann.cmake scenario(s) failed")
endif()

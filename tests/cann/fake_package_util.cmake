# Shared by the cmake -P scripts that configure the project against the FAKE
# package (check_fake_package_build.cmake, check_fake_package_python.cmake).

# Empties WORK_DIR and puts a fresh copy of fake_cann_package/ in a folder named
# after WORK_DIR under the system temp dir; its path goes to `out`. The copy is
# outside the source tree because the project's install(EXPORT) refuses interface
# paths (the package's include/ and lib64/) inside its source or build tree, and
# WORK_DIR may itself lie in the source tree (a build/ folder in the checkout).
function(xent_fresh_fake_package out)
  if(DEFINED ENV{TMPDIR} AND IS_DIRECTORY "$ENV{TMPDIR}")
    set(tmp "$ENV{TMPDIR}")
  else()
    set(tmp /tmp)
  endif()
  string(MD5 key "${WORK_DIR}")
  set(pkg ${tmp}/ascend_xent_fake_cann_${key})
  file(REMOVE_RECURSE ${WORK_DIR} ${pkg})
  file(COPY ${XENT_ROOT}/tests/cann/fake_cann_package/ DESTINATION ${pkg})
  set(${out} ${pkg} PARENT_SCOPE)
endfunction()

# Fails unless the generated build files under `dir` name every path after MUST
# ("<what> does not compile <path>") and none after MUST_NOT.
function(xent_expect_compiled dir what)
  cmake_parse_arguments(arg "" "" "MUST;MUST_NOT" ${ARGN})
  file(GLOB_RECURSE build_files ${dir}/build.ninja ${dir}/*/build.make)
  set(text "")
  foreach(f ${build_files})
    file(READ ${f} t)
    string(APPEND text "${t}")
  endforeach()
  foreach(must ${arg_MUST})
    string(FIND "${text}" "${must}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${what} does not compile ${must}")
    endif()
  endforeach()
  foreach(mustnot ${arg_MUST_NOT})
    string(FIND "${text}" "${mustnot}" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "the CANN build compiles ${mustnot}")
    endif()
  endforeach()
endfunction()

# cmake -P: this (simulator) build compiles none of the CANN-only sources.
# Args: BUILD_DIR.
file(GLOB_RECURSE build_files ${BUILD_DIR}/build.ninja ${BUILD_DIR}/*/build.make)
# Leave out the scratch builds of the other tests/cann checks (one of them is a CANN configuration).
list(FILTER build_files EXCLUDE REGEX "/tests/cann/")
if(NOT build_files)
  message(FATAL_ERROR "no build.ninja or build.make under ${BUILD_DIR}")
endif()
foreach(f ${build_files})
  file(READ ${f} t)
  foreach(cann launch_cann.cpp platform_info_cann.cpp aclrtlaunch_)
    string(FIND "${t}" "${cann}" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "${f} mentions ${cann}: CANN-only code in the simulator build")
    endif()
  endforeach()
endforeach()
message(STATUS "ok: no CANN-only source in the simulator build")

# ascend_xent_kernel_tiling(<target> OP_TYPE <op> HEADERS <op_host/x_tiling.h>...
#                           [INCLUDE_DIRECTORIES <dir>...] [COMPILE_DEFINITIONS <def>...])
#
# Gives <target> the kernel-side tiling header CANN's op compiler generates from the
# op's host registration (BEGIN_TILING_DATA_DEF ... REGISTER_TILING_DATA_CLASS(<op>,
# <class>)) and force-includes into the kernel, as it does (-include): the tiling
# class with the host's layout and GET_TILING_DATA for it. The headers are compiled
# into a small host program (with INCLUDE_DIRECTORIES and COMPILE_DEFINITIONS for
# what they include) that reads the registry and writes the header. docs/cpu_twin.md.
set(ASCEND_XENT_KERNEL_TILING_GEN_SOURCE "${CMAKE_CURRENT_LIST_DIR}/tools/kernel_tiling_gen.cpp"
    CACHE INTERNAL "the kernel tiling header generator's source")

function(ascend_xent_kernel_tiling target)
  cmake_parse_arguments(ARG "" "OP_TYPE" "HEADERS;INCLUDE_DIRECTORIES;COMPILE_DEFINITIONS" ${ARGN})
  if(NOT TARGET ${target})
    message(FATAL_ERROR "ascend_xent_kernel_tiling: ${target} is not a target")
  endif()
  if(NOT ARG_OP_TYPE OR NOT ARG_HEADERS)
    message(FATAL_ERROR "ascend_xent_kernel_tiling(${target}): give OP_TYPE and HEADERS")
  endif()
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "ascend_xent_kernel_tiling(${target}): unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  set(gen ${target}_${ARG_OP_TYPE}_tiling_gen)
  add_executable(${gen} ${ASCEND_XENT_KERNEL_TILING_GEN_SOURCE})
  target_link_libraries(${gen} PRIVATE ascend_xent_sim)
  target_include_directories(${gen} PRIVATE ${ARG_INCLUDE_DIRECTORIES})
  target_compile_definitions(${gen} PRIVATE ${ARG_COMPILE_DEFINITIONS})
  foreach(header IN LISTS ARG_HEADERS)
    get_filename_component(header "${header}" ABSOLUTE)
    if(NOT EXISTS "${header}")
      message(FATAL_ERROR "ascend_xent_kernel_tiling(${target}): no header ${header}")
    endif()
    target_compile_options(${gen} PRIVATE "SHELL:-include \"${header}\"")
  endforeach()
  set(out "${CMAKE_CURRENT_BINARY_DIR}/${target}_tiling/${ARG_OP_TYPE}_tiling_data.h")
  add_custom_command(OUTPUT "${out}" COMMAND ${gen} ${ARG_OP_TYPE} "${out}" DEPENDS ${gen}
                     COMMENT "Generating the kernel tiling header of ${ARG_OP_TYPE}" VERBATIM)
  add_custom_target(${target}_tiling_header DEPENDS "${out}")
  add_dependencies(${target} ${target}_tiling_header)
  target_compile_options(${target} PRIVATE "SHELL:-include \"${out}\"")
endfunction()

# find_package(tikicpulib) for CANN CPU-twin projects, backed by ascend-xent's
# simulator: the targets tikicpulib::<soc> (in CANN's spellings: Ascend910B1,
# ascend910B1, ascend910b1, ...) give kernel_operator.h, tikicpulib.h and the
# library. Set tikicpulib_DIR (or CMAKE_PREFIX_PATH) to this directory
# instead of CANN's tools/tikicpulib/lib/cmake. See docs/cpu_twin.md.
include_guard(GLOBAL)
get_filename_component(_tikicpulib_repo "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)

if(NOT TARGET ascend_xent_sim)
  add_subdirectory(${_tikicpulib_repo}/sim ${CMAKE_BINARY_DIR}/tikicpulib_sim EXCLUDE_FROM_ALL)
  # CANN's CPU-twin projects compile with the pre-C++11 string ABI (its
  # library is built so); the simulator's host API passes std::string.
  target_compile_definitions(ascend_xent_sim PUBLIC _GLIBCXX_USE_CXX11_ABI=0)
endif()

# <SOC_VERSION>|<simulator profile>|<__NPU_ARCH__>
set(_tikicpulib_socs
  Ascend910B1|ascend910b|2201 Ascend910B2|ascend910b|2201 Ascend910B2C|ascend910b|2201
  Ascend910B3|ascend910b3|2201 Ascend910B4|ascend910b4|2201 Ascend910B4-1|ascend910b4|2201
  Ascend910_9391|ascend910_93|2201 Ascend910_9392|ascend910_93|2201 Ascend910_9381|ascend910_93|2201
  Ascend910_9382|ascend910_93|2201 Ascend910_9372|ascend910_93|2201 Ascend910_9362|ascend910_93|2201
  Ascend950PR_9599|ascend950|3510)
foreach(_entry IN LISTS _tikicpulib_socs)
  string(REPLACE "|" ";" _fields "${_entry}")
  list(GET _fields 0 _soc)
  list(GET _fields 1 _profile)
  list(GET _fields 2 _arch)
  string(TOLOWER "${_soc}" _lower)
  set(_impl tikicpulib_${_lower})
  if(NOT TARGET ${_impl})
    add_library(${_impl} INTERFACE)
    target_link_libraries(${_impl} INTERFACE ascend_xent_sim)
    # CANN's include directory is on a kernel's path, and some kernels include
    # <acl/acl.h> for its types: acl_compat's headers stand in (the package links no
    # ACL runtime; a host program calling aclrt* links ascend-xent's host library,
    # which implements them on the simulator).
    target_include_directories(${_impl} INTERFACE ${_tikicpulib_repo}/acl_compat/include)
    # __CCE_KT_TEST__: the define of CANN's CPU unit-test builds, given by the build
    # (not the headers) so that a program built without it checks the device branch.
    target_compile_definitions(${_impl} INTERFACE ASCENDC_CPU_DEBUG=1 __CCE_KT_TEST__=1 __NPU_ARCH__=${_arch}
                               ASCEND_XENT_TWIN_SOC="${_profile}")
    # __CCE_AICORE__: what CANN's compiler defines for a dav-c220 core (A2/A3 kernels test it).
    if(_arch STREQUAL "2201")
      target_compile_definitions(${_impl} INTERFACE __CCE_AICORE__=220)
    endif()
    string(SUBSTRING "${_soc}" 1 -1 _tail)
    foreach(_name IN ITEMS "${_soc}" "${_lower}" "a${_tail}")
      if(NOT TARGET tikicpulib::${_name})
        add_library(tikicpulib::${_name} ALIAS ${_impl})
      endif()
    endforeach()
  endif()
endforeach()
set(tikicpulib_FOUND TRUE)

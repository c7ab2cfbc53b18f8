# Checks of the CANN-only code that run without CANN (include()d by op_host/CMakeLists.txt,
# so they add tests but no build target or directory):
#   cann_host_syntax_<file>   every op_host source of the CANN build, -fsyntax-only
#                             -DASCEND_XENT_WITH_CANN=1 against tests/cann_stubs (stand-in
#                             declarations of exactly the CANN API it may use)
#   cann_config               cmake/cann.cmake: AUTO/ON/OFF choices and its FATAL_ERROR messages
#   cann_fake_package_build   the whole project configured with -DASCEND_XENT_CANN=ON against a
#                             fake package; the CANN host objects compiled against the stand-ins
#   cann_excluded_from_sim    (simulator build) no CANN-only source is compiled
# None of them builds a target in this tree.
set(_root ${PROJECT_SOURCE_DIR})
set(_here ${_root}/tests/cann)
set(_work ${CMAKE_BINARY_DIR}/tests/cann)

if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  set(_cann_host_sources
    cross_entropy_loss_grad_tiling.cpp
    cross_entropy_loss_grad_checks.cpp
    aclnn_cross_entropy_loss_grad.cpp
    error_report.cpp
    platform_info_cann.cpp
    launch_cann.cpp)
  foreach(src ${_cann_host_sources})
    get_filename_component(name ${src} NAME_WE)
    # The stand-ins come first and acl_compat/include is absent, as in the CANN build.
    add_test(NAME cann_host_syntax_${name}
             COMMAND ${CMAKE_CXX_COMPILER} -std=c++17 -fsyntax-only -Wall -Wextra -Werror
                     -DASCEND_XENT_WITH_CANN=1 -DASCEND_XENT_ACLNN_ALIAS=1
                     -I${_root}/tests/cann_stubs -I${_root}/op_host/include -I${_root}/op_host -I${_root}/op_kernel
                     ${_root}/op_host/${src})
  endforeach()
endif()

add_test(NAME cann_config
         COMMAND ${CMAKE_COMMAND} -DXENT_ROOT=${_root} -DWORK_DIR=${_work}/config
                 -DGENERATOR=${CMAKE_GENERATOR} -DMAKE_PROGRAM=${CMAKE_MAKE_PROGRAM}
                 -P ${_here}/check_cann_config.cmake)

add_test(NAME cann_fake_package_build
         COMMAND ${CMAKE_COMMAND} -DXENT_ROOT=${_root} -DWORK_DIR=${_work}/fake_package_build
                 -DGENERATOR=${CMAKE_GENERATOR} -DMAKE_PROGRAM=${CMAKE_MAKE_PROGRAM} -DCXX=${CMAKE_CXX_COMPILER}
                 -P ${_here}/check_fake_package_build.cmake)
set_tests_properties(cann_fake_package_build PROPERTIES TIMEOUT 600)

if(NOT ASCEND_XENT_WITH_CANN)
  add_test(NAME cann_excluded_from_sim
           COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${CMAKE_BINARY_DIR} -P ${_here}/check_sim_excludes_cann.cmake)
endif()

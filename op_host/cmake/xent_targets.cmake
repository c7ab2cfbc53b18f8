# What the simulator build (op_host/CMakeLists.txt) and the CANN build
# (cann_targets.cmake) make alike from ascend_xent_objects; each build then adds
# its own include directories, definitions and libraries.

# The op_host sources both builds compile (each adds its launch and platform backends).
set(XENT_HOST_SOURCES
  cross_entropy_loss_grad_tiling.cpp
  cross_entropy_loss_grad_checks.cpp
  aclnn_cross_entropy_loss_grad.cpp
  aclnn_cross_entropy_loss_grad_shard.cpp
  cross_entropy_loss_tiling.cpp
  cross_entropy_loss_checks.cpp
  aclnn_cross_entropy_loss.cpp
  tensor_checks.cpp
  executor_registry.cpp
  bad_target_slots.cpp
  launch_info_record.cpp
  error_report.cpp)

# ascend_xent_objects: XENT_HOST_SOURCES plus the build's SOURCES (its launch and
# platform backends), with the build's PUBLIC_INCLUDES after include/.
function(xent_add_objects)
  cmake_parse_arguments(arg "" "" "SOURCES;PUBLIC_INCLUDES" ${ARGN})
  add_library(ascend_xent_objects OBJECT ${XENT_HOST_SOURCES} ${arg_SOURCES})
  set_target_properties(ascend_xent_objects PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_include_directories(ascend_xent_objects
    PUBLIC
      $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
      ${arg_PUBLIC_INCLUDES}
    PRIVATE
      ${CMAKE_CURRENT_SOURCE_DIR}
      ${XENT_ROOT}/op_kernel)
  target_compile_options(ascend_xent_objects PRIVATE $<$<CXX_COMPILER_ID:GNU,Clang>:-Wall -Wextra>)
  if(ASCEND_XENT_ACLNN_ALIAS)
    target_compile_definitions(ascend_xent_objects PRIVATE ASCEND_XENT_ACLNN_ALIAS=1)
  endif()
endfunction()

function(_xent_add_library name kind)
  add_library(${name} ${kind} $<TARGET_OBJECTS:ascend_xent_objects>)
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_compile_features(${name} PUBLIC cxx_std_17)
  add_library(ascend_xent::${name} ALIAS ${name})
endfunction()

# ascend_xent (SHARED, versioned) and ascend_xent_static (STATIC PIC, for the
# Python module), with their ascend_xent:: aliases.
function(xent_add_libraries)
  _xent_add_library(ascend_xent SHARED)
  _xent_add_library(ascend_xent_static STATIC)
  set_target_properties(ascend_xent_static PROPERTIES POSITION_INDEPENDENT_CODE ON)
  set_target_properties(ascend_xent PROPERTIES VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR})
endfunction()

# Installs the shared library, the API headers and the CMake package.
function(xent_install_package)
  include(CMakePackageConfigHelpers)
  install(TARGETS ascend_xent EXPORT ascend_xentTargets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(DIRECTORY include/aclnnop include/ascend_xent DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT ascend_xentTargets NAMESPACE ascend_xent::
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ascend_xent)
  configure_package_config_file(cmake/ascend_xentConfig.cmake.in
    ${CMAKE_CURRENT_BINARY_DIR}/ascend_xentConfig.cmake
    INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ascend_xent)
  write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/ascend_xentConfigVersion.cmake
    VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/ascend_xentConfig.cmake
                ${CMAKE_CURRENT_BINARY_DIR}/ascend_xentConfigVersion.cmake
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ascend_xent)
endfunction()

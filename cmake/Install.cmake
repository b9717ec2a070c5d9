# SPDX-License-Identifier: Apache-2.0
# Installs the model libraries, their public headers, the presets and a CMake package, so users
# write host programs and testbenches with find_package(irrgpu) and link irrgpu::irrgpu.
include(CMakePackageConfigHelpers)
set(IRRGPU_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/irrgpu")

install(TARGETS irrgpu irrgpu_sim irrgpu_tlm_glue irrgpu_blocks irrgpu_mem irrgpu_core irrgpu_runtime irrgpu_power irrgpu_gpu ${IRRGPU_UNIT_LIBRARIES}
        EXPORT irrgpuTargets
        ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
        INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/irrgpu")
foreach(dir sim tlm_glue models)
  install(DIRECTORY "${dir}/" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/irrgpu/${dir}"
          FILES_MATCHING PATTERN "*.h")
endforeach()
install(DIRECTORY configs/ DESTINATION "${CMAKE_INSTALL_DATADIR}/irrgpu/configs"
        FILES_MATCHING PATTERN "*.yaml")
install(EXPORT irrgpuTargets NAMESPACE irrgpu:: DESTINATION "${IRRGPU_CMAKE_DIR}")
configure_package_config_file(cmake/irrgpuConfig.cmake.in
  "${CMAKE_CURRENT_BINARY_DIR}/irrgpuConfig.cmake" INSTALL_DESTINATION "${IRRGPU_CMAKE_DIR}")
write_basic_package_version_file("${CMAKE_CURRENT_BINARY_DIR}/irrgpuConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES "${CMAKE_CURRENT_BINARY_DIR}/irrgpuConfig.cmake"
              "${CMAKE_CURRENT_BINARY_DIR}/irrgpuConfigVersion.cmake"
              cmake/SystemC.cmake
        DESTINATION "${IRRGPU_CMAKE_DIR}")

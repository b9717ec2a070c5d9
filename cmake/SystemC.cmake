# SPDX-License-Identifier: Apache-2.0
# Finds SystemC with TLM-2.0 and exposes it as the imported target irrgpu::systemc.
# Order: the SystemCLanguage CMake package, then pkg-config, then SYSTEMC_HOME.
# Sets IRRGPU_SYSTEMC_CXX_STANDARD to the C++ standard the library was built with, found by
# linking a probe: SystemC embeds the standard in a symbol that must match at link time.
include_guard(GLOBAL)

if(TARGET irrgpu::systemc)
  return()
endif()

set(_irr_sc_how "")
find_package(SystemCLanguage CONFIG QUIET)
if(SystemCLanguage_FOUND)
  add_library(irrgpu::systemc INTERFACE IMPORTED)
  set_target_properties(irrgpu::systemc PROPERTIES INTERFACE_LINK_LIBRARIES SystemC::systemc)
  set(_irr_sc_how "SystemCLanguage package")
else()
  find_package(PkgConfig QUIET)
  if(PkgConfig_FOUND)
    pkg_check_modules(IRR_SYSTEMC QUIET IMPORTED_TARGET systemc)
  endif()
  if(IRR_SYSTEMC_FOUND)
    add_library(irrgpu::systemc INTERFACE IMPORTED)
    set_target_properties(irrgpu::systemc PROPERTIES INTERFACE_LINK_LIBRARIES PkgConfig::IRR_SYSTEMC)
    set(_irr_sc_how "pkg-config")
  else()
    set(_irr_sc_home "$ENV{SYSTEMC_HOME}")
    if(DEFINED SYSTEMC_HOME)
      set(_irr_sc_home "${SYSTEMC_HOME}")
    endif()
    find_path(IRR_SYSTEMC_INCLUDE systemc.h HINTS "${_irr_sc_home}/include")
    find_library(IRR_SYSTEMC_LIBRARY systemc
      HINTS "${_irr_sc_home}/lib" "${_irr_sc_home}/lib-linux64" "${_irr_sc_home}/lib64"
            "${_irr_sc_home}/lib/${CMAKE_LIBRARY_ARCHITECTURE}")
    if(NOT IRR_SYSTEMC_INCLUDE OR NOT IRR_SYSTEMC_LIBRARY)
      message(FATAL_ERROR "SystemC not found: install libsystemc-dev (make deps), "
                          "or set SYSTEMC_HOME to a SystemC 2.3 installation")
    endif()
    add_library(irrgpu::systemc UNKNOWN IMPORTED)
    set_target_properties(irrgpu::systemc PROPERTIES
      IMPORTED_LOCATION "${IRR_SYSTEMC_LIBRARY}"
      INTERFACE_INCLUDE_DIRECTORIES "${IRR_SYSTEMC_INCLUDE}")
    set(_irr_sc_how "SYSTEMC_HOME")
  endif()
endif()

if(NOT DEFINED IRRGPU_SYSTEMC_CXX_STANDARD)
  foreach(std 17 14 20)
    set(_probe_dir "${CMAKE_BINARY_DIR}/systemc-probe-${std}")
    file(WRITE "${_probe_dir}/probe.cpp"
      "#include <systemc>\nint sc_main(int, char**) { return 0; }\nint main() { return sc_core::sc_time_stamp().value() != 0; }\n")
    try_compile(_ok "${_probe_dir}/build" "${_probe_dir}/probe.cpp"
      LINK_LIBRARIES irrgpu::systemc
      CXX_STANDARD ${std} CXX_STANDARD_REQUIRED ON CXX_EXTENSIONS OFF)
    if(_ok)
      set(IRRGPU_SYSTEMC_CXX_STANDARD ${std} CACHE STRING "C++ standard SystemC was built with")
      break()
    endif()
  endforeach()
  if(NOT DEFINED IRRGPU_SYSTEMC_CXX_STANDARD)
    message(FATAL_ERROR "SystemC (${_irr_sc_how}) found, but no C++ standard (17, 14, 20) links against it")
  endif()
  message(STATUS "SystemC via ${_irr_sc_how}, built as C++${IRRGPU_SYSTEMC_CXX_STANDARD}")
endif()

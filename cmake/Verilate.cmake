# SPDX-License-Identifier: Apache-2.0
# Verilator helpers for RTL islands.
include_guard(GLOBAL)
find_package(verilator REQUIRED HINTS $ENV{VERILATOR_ROOT} /usr/share/verilator)

# irrgpu_verilate(TARGET PREFIX <name> SOURCES <v...> TOP <module> ARGS <verilator args...>)
# Verilator 5.006 knows TRACE_FST (not TRACE_VCD); one PREFIX per parameter set; the Verilog
# timeprecision matches SystemC's 1 ps resolution.
function(irrgpu_verilate target)
  cmake_parse_arguments(V "" "PREFIX;TOP" "SOURCES;ARGS" ${ARGN})
  verilate(${target} SOURCES ${V_SOURCES} TOP_MODULE ${V_TOP} PREFIX ${V_PREFIX} TRACE_FST
           VERILATOR_ARGS --timescale 1ps/1ps --x-initial unique --x-assign unique -Wall ${V_ARGS})
endfunction()

# Verilated headers live in the build tree: usable while building, never by installed users
# (the public headers do not include them).
function(irrgpu_verilated_private target)
  get_target_property(inc ${target} INTERFACE_INCLUDE_DIRECTORIES)
  set(wrapped "")
  foreach(dir IN LISTS inc)
    if(dir MATCHES "^\\$<")
      list(APPEND wrapped "${dir}")
    else()
      list(APPEND wrapped "$<BUILD_INTERFACE:${dir}>")
    endif()
  endforeach()
  set_target_properties(${target} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${wrapped}")
endfunction()


# SPDX-License-Identifier: Apache-2.0
# Verilator helpers for RTL islands.
include_guard(GLOBAL)
find_package(verilator REQUIRED HINTS $ENV{VERILATOR_ROOT} /usr/share/verilator)

# irrgpu_verilate(TARGET PREFIX <name> SOURCES <v...> TOP <module> [COVERAGE] ARGS <verilator args...>)
# Verilator 5.006 knows TRACE_FST (not TRACE_VCD); one PREFIX per parameter set; the Verilog
# timeprecision matches SystemC's 1 ps resolution. COVERAGE: line, branch and toggle counters and
# the block's `cover` statements (its functional bins, under `ifdef IRRGPU_COVER`).
function(irrgpu_verilate target)
  cmake_parse_arguments(V "COVERAGE" "PREFIX;TOP" "SOURCES;ARGS" ${ARGN})
  set(coverage "")
  if(V_COVERAGE)
    set(coverage COVERAGE)
    list(APPEND V_ARGS -DIRRGPU_COVER)
  endif()
  verilate(${target} SOURCES ${V_SOURCES} TOP_MODULE ${V_TOP} PREFIX ${V_PREFIX} TRACE_FST ${coverage}
           VERILATOR_ARGS --timescale 1ps/1ps --x-initial unique --x-assign unique -Wall ${V_ARGS})
  # Verilator's waveform code — its FST writer (GTKWave's fstapi.c: misaligned stores, shifts of
  # negative values) and the trace functions it generates (misaligned 64-bit loads) — is not ours:
  # kept out of UBSan (make test SANITIZE=...; ASan still covers it; no effect otherwise).
  get_target_property(sources ${target} SOURCES)
  foreach(s IN LISTS sources)
    if(s MATCHES "__Trace__|verilated_fst_c\\.cpp$")
      set_source_files_properties("${s}" PROPERTIES COMPILE_OPTIONS -fno-sanitize=undefined)
    endif()
  endforeach()
endfunction()

# irrgpu_verilate_builds(TARGET rtl/<source> BUILDS LIST [COVERAGE <builds>] <param> <letter>...):
# verilates the module named after `source` (rtl/<unit>/<top>.v) for each set in `builds` ("v1 v2
# v3" for the parameters named in order, the Verilated class Vtop_<l1><v1>_<l2><v2>...), appending
# the includes to _inc and setting the variable named `list` to an X-macro list of the sets. The
# sets after COVERAGE are verilated again with coverage (class ..._cov, X-macro list `list`_cov;
# marked coverage_build for models/blocks/verilated_block.h).
# Modules it instantiates are found in its folder (<module>.v).
function(irrgpu_verilate_builds target source builds list)
  get_filename_component(top "${source}" NAME_WE)
  get_filename_component(dir "${PROJECT_SOURCE_DIR}/rtl/${source}" DIRECTORY)
  set(names ${ARGN})  # pairs: parameter, class-name letter
  set(coverage_builds "")
  if(ARGV4 STREQUAL "COVERAGE")
    set(coverage_builds "${ARGV5}")
    list(LENGTH coverage_builds n)  # ARGN holds COVERAGE and the list's sets as elements
    foreach(i RANGE ${n})
      list(REMOVE_AT names 0)
    endforeach()
  endif()
  list(LENGTH names n)
  math(EXPR last "${n} / 2 - 1")
  _irrgpu_verilate_sets("${builds}" "" "")
  set(${list} "${x}" PARENT_SCOPE)
  _irrgpu_verilate_sets("${coverage_builds}" _cov COVERAGE)
  set(${list}_cov "${x}" PARENT_SCOPE)
  set(_inc "${_inc}" PARENT_SCOPE)
endfunction()

# The loop of irrgpu_verilate_builds over one list of sets (its variables in scope); sets x.
macro(_irrgpu_verilate_sets builds class_suffix coverage)
  set(x "")
  foreach(set ${builds})
    separate_arguments(set)
    set(args -y "${dir}")
    set(suffix "")
    set(values "")
    foreach(i RANGE 0 ${last})
      list(GET set ${i} v)
      math(EXPR k "2 * ${i}")
      math(EXPR l "2 * ${i} + 1")
      list(GET names ${k} param)
      list(GET names ${l} letter)
      list(APPEND args -G${param}=${v})
      string(APPEND suffix "_${letter}${v}")
      list(APPEND values ${v})
    endforeach()
    irrgpu_verilate(${target} PREFIX V${top}${suffix}${class_suffix} TOP ${top} ${coverage}
                    SOURCES "${PROJECT_SOURCE_DIR}/rtl/${source}" ARGS ${args})
    string(APPEND _inc "#include \"V${top}${suffix}${class_suffix}.h\"\n")
    if(NOT "${coverage}" STREQUAL "")
      string(APPEND _inc "template <> inline constexpr bool irr::blocks::coverage_build<V${top}${suffix}${class_suffix}> = true;\n")
    endif()
    list(JOIN values ", " values)
    string(APPEND x " X(${values})")
  endforeach()
endmacro()

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


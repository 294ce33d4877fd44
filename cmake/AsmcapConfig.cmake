# SPDX-License-Identifier: MIT
# AsmcapConfig.cmake — find_package(Asmcap) support.
#
#   find_package(Asmcap REQUIRED)
#   asmcap_probe(FEATURES adx bmi2 [PREFIX MYLIB] [REQUIRED]
#                [LANGUAGE C|ASM|CXX] [ADD_TEMPLATES dir...])
#
# ADD_TEMPLATES: the project's own catalog additions (DIR/x86_64/NAME.s,
# the catalog's format): a new NAME adds a feature, a catalog name replaces
# it (asmcap --add-templates; $ASMCAP_ADD_TEMPLATES is honoured too).
# Runs asmcap at every configure with what CMake compiles LANGUAGE with (ASM
# by default where the project enables it, as its .S files are; else C): the launcher,
# the compiler with its CMAKE_<LANG>_COMPILER_ARG1, the target, sysroot and
# external toolchain a cross build (toolchain file) gives it, and
# CMAKE_<LANG>_FLAGS plus CMAKE_<LANG>_FLAGS_<CONFIG>.
# asmcap's own cache (in the build tree) makes an unchanged toolchain a hit
# that starts no process, and a changed compiler, flags or assembler a miss:
# so unlike check_source_compiles() a stale answer is never kept.
# Sets <PREFIX>_<FEATURE> (upper case, '-' as '_') to ON or OFF and
# <PREFIX>_<FEATURE>_REASON; PREFIX defaults to ASMCAP.  A feature of
# another architecture than the target's is "skipped" (OFF), never an error.
# Where the catalog enables a feature by directive (aarch64 `.arch`, RISC-V
# `.option arch`), ON means the assembler knows it (generated code can carry
# the directive) and <PREFIX>_<FEATURE>_FLAGS says whether the build's own
# flags (-march) enable it without one.  With REQUIRED, a
# feature that is not "yes" stops the configure with asmcap's reason.
# A toolchain asmcap cannot use at all is always a fatal error, never OFF.

cmake_minimum_required(VERSION 3.19)   # string(JSON)

get_filename_component(_asmcap_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
find_program(ASMCAP_EXECUTABLE asmcap HINTS "${_asmcap_prefix}/bin")
if(NOT ASMCAP_EXECUTABLE)
  set(Asmcap_FOUND FALSE)
  set(Asmcap_NOT_FOUND_MESSAGE "asmcap not found; set ASMCAP_EXECUTABLE")
  return()
endif()
set(Asmcap_FOUND TRUE)

# The compiler command and flags CMake compiles LANG with: the launcher,
# the compiler with the arguments CMake split off it (CC="clang-19
# --target=aarch64-linux-gnu" keeps them in CMAKE_<LANG>_COMPILER_ARG1), what
# a cross build (toolchain file) adds to every compile (the option spellings
# are the compiler's own: --target= for clang, and so on), and
# CMAKE_<LANG>_FLAGS plus those of the configuration.
function(_asmcap_command lang out_cc out_flags)
  set(_l "CMAKE_${lang}")
  if(NOT ${_l}_COMPILER)
    message(FATAL_ERROR "asmcap_probe: LANGUAGE ${lang} has no compiler (enable it with project() or enable_language())")
  endif()
  set(_cc "${${_l}_COMPILER}")
  if(${_l}_COMPILER_ARG1)
    string(APPEND _cc " ${${_l}_COMPILER_ARG1}")
  endif()
  if(${_l}_COMPILER_TARGET AND ${_l}_COMPILE_OPTIONS_TARGET)
    string(APPEND _cc " ${${_l}_COMPILE_OPTIONS_TARGET}${${_l}_COMPILER_TARGET}")
  endif()
  if(${_l}_COMPILER_EXTERNAL_TOOLCHAIN AND ${_l}_COMPILE_OPTIONS_EXTERNAL_TOOLCHAIN)
    string(APPEND _cc " ${${_l}_COMPILE_OPTIONS_EXTERNAL_TOOLCHAIN}${${_l}_COMPILER_EXTERNAL_TOOLCHAIN}")
  endif()
  if(CMAKE_SYSROOT_COMPILE)
    string(APPEND _cc " ${${_l}_COMPILE_OPTIONS_SYSROOT}${CMAKE_SYSROOT_COMPILE}")
  elseif(CMAKE_SYSROOT)
    string(APPEND _cc " ${${_l}_COMPILE_OPTIONS_SYSROOT}${CMAKE_SYSROOT}")
  endif()
  if(${_l}_COMPILER_LAUNCHER)
    list(JOIN ${_l}_COMPILER_LAUNCHER " " _launcher)
    set(_cc "${_launcher} ${_cc}")
  endif()
  string(TOUPPER "${CMAKE_BUILD_TYPE}" _cfg)
  set(_flags "${${_l}_FLAGS}")
  if(_cfg)
    string(APPEND _flags " ${${_l}_FLAGS_${_cfg}}")
  endif()
  set(${out_cc} "${_cc}" PARENT_SCOPE)
  set(${out_flags} "${_flags}" PARENT_SCOPE)
endfunction()

function(asmcap_probe)
  cmake_parse_arguments(A "REQUIRED" "PREFIX;LANGUAGE" "FEATURES;ADD_TEMPLATES" ${ARGN})
  if(NOT A_PREFIX)
    set(A_PREFIX ASMCAP)
  endif()
  if(NOT A_FEATURES)
    message(FATAL_ERROR "asmcap_probe: FEATURES is empty")
  endif()
  # The default: ASM where the project enables it (its .S files are
  # compiled with the ASM compiler and flags), else C, else the first
  # language enabled.
  if(NOT A_LANGUAGE)
    get_property(_langs GLOBAL PROPERTY ENABLED_LANGUAGES)
    list(FILTER _langs EXCLUDE REGEX "^NONE$")
    if("ASM" IN_LIST _langs)
      set(A_LANGUAGE ASM)
    elseif("C" IN_LIST _langs)
      set(A_LANGUAGE C)
    elseif(_langs)
      list(GET _langs 0 A_LANGUAGE)
    else()
      message(FATAL_ERROR "asmcap_probe: the project enables no language; give project() C or ASM")
    endif()
  endif()
  _asmcap_command(${A_LANGUAGE} _cc _cflags)
  list(JOIN A_FEATURES "," _list)
  set(_add "")
  foreach(_d IN LISTS A_ADD_TEMPLATES)
    list(APPEND _add --add-templates "${_d}")
  endforeach()
  execute_process(
    COMMAND "${ASMCAP_EXECUTABLE}" --cc "${_cc}" --cflags "${_cflags}"
            --features "${_list}" ${_add} --format json
            --cache "${CMAKE_BINARY_DIR}/asmcap.cache"
    OUTPUT_VARIABLE _json ERROR_VARIABLE _err RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "asmcap failed (exit ${_rc}): ${_err}")
  endif()
  foreach(_f IN LISTS A_FEATURES)
    string(JSON _st ERROR_VARIABLE _jerr GET "${_json}" features "${_f}" status)
    if(_jerr)
      message(FATAL_ERROR "asmcap_probe: asmcap reported nothing for '${_f}' (not in its catalog?)")
    endif()
    string(JSON _why ERROR_VARIABLE _jerr GET "${_json}" features "${_f}" reason)
    # Usable means yes with everything it requires yes, as every other
    # format and Asmcap.pm say (adx needs bmi2's MULX).
    if(_st STREQUAL "yes")
      string(JSON _nreq ERROR_VARIABLE _jerr LENGTH "${_json}" features "${_f}" requires)
      if(NOT _jerr AND _nreq GREATER 0)
        math(EXPR _last "${_nreq} - 1")
        foreach(_i RANGE ${_last})
          string(JSON _r GET "${_json}" features "${_f}" requires ${_i})
          string(JSON _rst GET "${_json}" features "${_r}" status)
          if(NOT _rst STREQUAL "yes" AND _st STREQUAL "yes")
            set(_st "unusable")
            set(_why "${_f} assembles, but it requires ${_r}, which is ${_rst}")
          endif()
        endforeach()
      endif()
    endif()
    string(TOUPPER "${_f}" _v)
    string(REPLACE "-" "_" _v "${_v}")
    # The second answer, where the feature has one: without its directive.
    string(JSON _fst ERROR_VARIABLE _jerr GET "${_json}" features "${_f}" flags status)
    if(NOT _jerr)
      if(_fst STREQUAL "yes" AND _st STREQUAL "yes")
        set(${A_PREFIX}_${_v}_FLAGS ON PARENT_SCOPE)
      else()
        set(${A_PREFIX}_${_v}_FLAGS OFF PARENT_SCOPE)
      endif()
      set(_fst ", build flags: ${_fst}")
    else()
      set(_fst "")
    endif()
    if(_st STREQUAL "yes")
      set(${A_PREFIX}_${_v} ON PARENT_SCOPE)
    else()
      set(${A_PREFIX}_${_v} OFF PARENT_SCOPE)
      if(A_REQUIRED)
        message(FATAL_ERROR "asmcap: ${_f} is ${_st}: ${_why}")
      endif()
    endif()
    set(${A_PREFIX}_${_v}_REASON "${_why}" PARENT_SCOPE)
    message(STATUS "asmcap: ${_f}: ${_st}${_fst}")
  endforeach()
endfunction()

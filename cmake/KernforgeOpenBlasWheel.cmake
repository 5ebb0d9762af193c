# OpenBLAS with LAPACK for the Windows build, from PyPI's scipy-openblas32 wheel (win_amd64):
# the OpenBLAS that numpy and SciPy ship on Windows, 32-bit integers, one DLL with no dependency
# beyond Windows' own (KERNEL32 and the Universal CRT). Included from
# KernforgeDependenciesMingw.cmake. KF_MINGW_OPENBLAS_WHEEL names the wheel file
# (tools/windows-build.sh downloads the version it pins); empty, the Windows build has no
# OpenBLAS, as before: the CPU plugin uses its own GEMM and has no LAPACK kernels.
#
# Every symbol of the wheel carries a prefix (`scipy_`: scipy_cblas_sgemm, scipy_dgesv_,
# scipy_openblas_get_config), so that it cannot clash with another BLAS in a Python process; the
# CPU plugin calls the plain names. Both sides are derived from the wheel, with no list of
# functions kept here:
#  - the headers: the wheel's own (cblas.h and openblas_config.h were made for Windows; Debian's
#    are Linux's and do not compile with MinGW), copied with the prefix taken out;
#  - an import library made with dlltool from the DLL's export table (read with objdump): each
#    export `<prefix>X` is imported as `X` (the .def syntax `X == <prefix>X`), each export
#    without a prefixed twin as itself.
# The prefix is read from the wheel's pkg-config file (-DBLAS_SYMBOL_PREFIX=...). The result is
# the target PkgConfig::OPENBLAS, the name the Linux branch finds, and KF_LAPACK_INCLUDE_DIR, the
# folder of the unprefixed lapack.h (backends/cpu/CMakeLists.txt).

set(KF_MINGW_OPENBLAS_WHEEL "" CACHE FILEPATH
    "scipy-openblas32 wheel (win_amd64) for OpenBLAS and LAPACK in the Windows build; empty: none")
if(KF_MINGW_OPENBLAS_WHEEL STREQUAL "")
  message(STATUS "Windows (MinGW) build: no OpenBLAS (KF_MINGW_OPENBLAS_WHEEL is empty): the CPU "
                 "plugin uses its own GEMM and has no LAPACK kernels")
  return()
endif()
if(NOT EXISTS "${KF_MINGW_OPENBLAS_WHEEL}" OR IS_DIRECTORY "${KF_MINGW_OPENBLAS_WHEEL}")
  message(FATAL_ERROR "KF_MINGW_OPENBLAS_WHEEL is '${KF_MINGW_OPENBLAS_WHEEL}', which is not a "
                      "file: name a scipy-openblas32 win_amd64 wheel (tools/windows-build.sh "
                      "downloads it), or leave it empty to build without OpenBLAS")
endif()
file(READ "${KF_MINGW_OPENBLAS_WHEEL}" kf_openblas_magic LIMIT 4 HEX)
if(NOT kf_openblas_magic STREQUAL "504b0304")  # "PK\3\4": a wheel is a zip file
  message(FATAL_ERROR "KF_MINGW_OPENBLAS_WHEEL (${KF_MINGW_OPENBLAS_WHEEL}) is not a zip file, "
                      "so not a wheel: delete it and let tools/windows-build.sh download the "
                      "scipy-openblas32 wheel again, or leave KF_MINGW_OPENBLAS_WHEEL empty")
endif()
foreach(tool IN ITEMS CMAKE_OBJDUMP CMAKE_DLLTOOL)
  if(NOT ${tool})
    message(FATAL_ERROR "The OpenBLAS wheel needs the MinGW binutils' objdump and dlltool "
                        "(${tool} is not set): install binutils-mingw-w64-x86-64")
  endif()
endforeach()

# The wheel unpacked into `dir` (a wheel is a zip file), again only when it or this file changed.
function(_kf_openblas_wheel_unpack wheel dir out_changed)
  file(SHA256 "${wheel}" wheel_hash)
  file(SHA256 "${CMAKE_CURRENT_FUNCTION_LIST_FILE}" code_hash)
  set(stamp "${wheel_hash} ${code_hash}")
  set(old_stamp "")
  if(EXISTS "${dir}/stamp")
    file(READ "${dir}/stamp" old_stamp)
  endif()
  set(${out_changed} FALSE PARENT_SCOPE)
  if(old_stamp STREQUAL stamp)
    return()
  endif()
  # The stamp goes first (a failed configure leaves none); the unprefixed headers stay: they
  # are rewritten only where they change (no recompiles).
  file(REMOVE_RECURSE "${dir}/wheel" "${dir}/stamp")
  file(ARCHIVE_EXTRACT INPUT "${wheel}" DESTINATION "${dir}/wheel")
  file(WRITE "${dir}/stamp.new" "${stamp}")  # renamed to stamp once all is generated
  set(${out_changed} TRUE PARENT_SCOPE)
endfunction()

# The wheel's package folder (scipy_openblas32/) and the symbol prefix its pkg-config file names.
function(_kf_openblas_wheel_layout dir out_package out_prefix)
  file(GLOB pc_files "${dir}/wheel/*/lib/pkgconfig/*.pc")
  list(LENGTH pc_files count)
  if(NOT count EQUAL 1)
    message(FATAL_ERROR "KF_MINGW_OPENBLAS_WHEEL (${KF_MINGW_OPENBLAS_WHEEL}) is not a "
                        "scipy-openblas32 wheel: it holds ${count} files <package>/lib/pkgconfig/"
                        "*.pc, where that wheel has one")
  endif()
  get_filename_component(package "${pc_files}" DIRECTORY)
  get_filename_component(package "${package}/../.." ABSOLUTE)
  file(STRINGS "${pc_files}" cflags REGEX "^Cflags:")
  if(NOT cflags MATCHES "-DBLAS_SYMBOL_PREFIX=([A-Za-z0-9_]+)")
    message(FATAL_ERROR "${pc_files} names no -DBLAS_SYMBOL_PREFIX in its Cflags: this is not the "
                        "prefixed OpenBLAS of a scipy-openblas32 wheel")
  endif()
  set(prefix "${CMAKE_MATCH_1}")
  # The 64-bit-integer wheel (scipy-openblas64) would take the CPU plugin's 32-bit lapack_int.
  file(STRINGS "${package}/include/openblas_config.h" int64 REGEX "define OPENBLAS_USE64BITINT")
  if(int64)
    message(FATAL_ERROR "KF_MINGW_OPENBLAS_WHEEL (${KF_MINGW_OPENBLAS_WHEEL}) is an OpenBLAS "
                        "with 64-bit integers (scipy-openblas64); the CPU plugin passes 32-bit "
                        "ones: use scipy-openblas32")
  endif()
  set(${out_package} "${package}" PARENT_SCOPE)
  set(${out_prefix} "${prefix}" PARENT_SCOPE)
endfunction()

# Every header of the wheel, with `prefix` taken out, into `out_dir`.
function(_kf_openblas_unprefixed_headers package prefix out_dir)
  file(GLOB headers "${package}/include/*.h")
  file(MAKE_DIRECTORY "${out_dir}")
  foreach(header IN LISTS headers)
    get_filename_component(name "${header}" NAME)
    file(READ "${header}" text)
    string(REPLACE "${prefix}" "" text "${text}")
    file(WRITE "${out_dir}/${name}.tmp" "${text}")
    file(COPY_FILE "${out_dir}/${name}.tmp" "${out_dir}/${name}" ONLY_IF_DIFFERENT)
    file(REMOVE "${out_dir}/${name}.tmp")
  endforeach()
endfunction()

# The names `dll` exports, from the "[Ordinal/Name Pointer] Table" of `objdump -p`.
function(_kf_dll_exports dll out)
  execute_process(COMMAND "${CMAKE_OBJDUMP}" -p "${dll}" OUTPUT_VARIABLE dump
                  ERROR_VARIABLE error RESULT_VARIABLE rc)
  set(title "[Ordinal/Name Pointer] Table\n")
  string(FIND "${dump}" "${title}" at)
  if(NOT rc EQUAL 0 OR at LESS 0)
    message(FATAL_ERROR "${CMAKE_OBJDUMP} -p ${dll} gave no export table (exit ${rc}): ${error}")
  endif()
  string(LENGTH "${title}" skip)
  math(EXPR at "${at} + ${skip}")
  string(SUBSTRING "${dump}" ${at} -1 dump)
  string(FIND "${dump}" "\n\n" end)  # the table ends at the first empty line
  string(SUBSTRING "${dump}" 0 ${end} dump)
  # Lines "\t[1234] name". The brackets go first: in a CMake list, `[` and `]` group items.
  string(REGEX REPLACE "\t\\[ *[0-9]+\\] " "" dump "${dump}")
  string(REPLACE "\n" ";" names "${dump}")
  list(FILTER names INCLUDE REGEX "^[A-Za-z_][A-Za-z0-9_]*$")
  set(${out} "${names}" PARENT_SCOPE)
endfunction()

# The import library `out_lib` of `dll` that imports each `<prefix>X` as `X`.
function(_kf_openblas_import_library dll prefix out_lib)
  _kf_dll_exports("${dll}" names)
  set(prefixed "${names}")
  list(FILTER prefixed INCLUDE REGEX "^${prefix}.")
  list(FILTER names EXCLUDE REGEX "^${prefix}")
  list(TRANSFORM prefixed REPLACE "^${prefix}" "" OUTPUT_VARIABLE plain_twins)
  if(plain_twins)
    list(REMOVE_ITEM names ${plain_twins})  # exported under both names: the prefixed one is used
  endif()
  list(TRANSFORM prefixed REPLACE "^${prefix}(.*)$" "\\1 == ${prefix}\\1")
  list(LENGTH prefixed count)
  if(count EQUAL 0)
    message(FATAL_ERROR "${dll} exports no name starting with ${prefix}")
  endif()
  get_filename_component(dll_name "${dll}" NAME)
  string(JOIN "\n" exports ${prefixed} ${names})
  set(def "${out_lib}.def")
  file(WRITE "${def}" "; Generated by cmake/KernforgeOpenBlasWheel.cmake: ${dll_name}'s exports\n"
                      "LIBRARY \"${dll_name}\"\nEXPORTS\n${exports}\n")
  execute_process(COMMAND "${CMAKE_DLLTOOL}" --input-def "${def}" --dllname "${dll_name}"
                          --output-lib "${out_lib}"
                  ERROR_VARIABLE error RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${CMAKE_DLLTOOL} could not make ${out_lib} from ${def}: ${error}")
  endif()
endfunction()

set(kf_openblas_dir "${CMAKE_BINARY_DIR}/_deps/openblas-wheel")
_kf_openblas_wheel_unpack("${KF_MINGW_OPENBLAS_WHEEL}" "${kf_openblas_dir}" kf_openblas_changed)
_kf_openblas_wheel_layout("${kf_openblas_dir}" kf_openblas_package kf_openblas_prefix)
file(GLOB kf_openblas_dll "${kf_openblas_package}/lib/*.dll")
list(LENGTH kf_openblas_dll kf_openblas_dll_count)
if(NOT kf_openblas_dll_count EQUAL 1)
  message(FATAL_ERROR "KF_MINGW_OPENBLAS_WHEEL: ${kf_openblas_package}/lib holds "
                      "${kf_openblas_dll_count} DLLs; a scipy-openblas32 wheel has one")
endif()
set(kf_openblas_include "${kf_openblas_dir}/include")
set(kf_openblas_implib "${kf_openblas_dir}/libopenblas.dll.a")
if(kf_openblas_changed)
  _kf_openblas_unprefixed_headers("${kf_openblas_package}" "${kf_openblas_prefix}"
                                  "${kf_openblas_include}")
  _kf_openblas_import_library("${kf_openblas_dll}" "${kf_openblas_prefix}" "${kf_openblas_implib}")
  file(RENAME "${kf_openblas_dir}/stamp.new" "${kf_openblas_dir}/stamp")
endif()

add_library(PkgConfig::OPENBLAS SHARED IMPORTED)
set_target_properties(PkgConfig::OPENBLAS PROPERTIES
  IMPORTED_LOCATION "${kf_openblas_dll}"
  IMPORTED_IMPLIB "${kf_openblas_implib}"
  INTERFACE_INCLUDE_DIRECTORIES "${kf_openblas_include}")
# The wheel's licence file (OpenBLAS and LAPACK: BSD; the GCC runtime inside the DLL: GPL-3.0
# with the GCC Runtime Library Exception), installed beside the DLL (backends/cpu).
file(GLOB KF_MINGW_OPENBLAS_LICENSE "${kf_openblas_dir}/wheel/*.dist-info/licenses/LICENSE.txt"
     "${kf_openblas_dir}/wheel/*.dist-info/LICENSE.txt")
set(KF_LAPACK_INCLUDE_DIR "${kf_openblas_include}" CACHE PATH "Folder of lapack.h" FORCE)
message(STATUS "Windows (MinGW) build: OpenBLAS and LAPACK from "
               "${KF_MINGW_OPENBLAS_WHEEL} (symbols imported without their prefix "
               "${kf_openblas_prefix})")

# Third-party dependencies of the Windows build, cross-compiled on Debian with MinGW-w64
# (cmake/toolchains/mingw-w64-x86_64.cmake, preset `windows`, tools/windows-build.sh).
# Included from KernforgeDependencies.cmake; defines the same targets the Linux branch finds.
#
# Debian ships no MinGW build of spdlog, fmt, GoogleTest or OpenBLAS. So:
#  - the header-only libraries (Boost, incl. Boost.DLL, nlohmann_json, spdlog, fmt, CLI11) are
#    used from Debian's own header trees, reached through ${KF_MINGW_INCLUDE}: a folder in the
#    build tree holding one symbolic link per header tree. All of /usr/include is never put on
#    a MinGW compile line: its glibc and Linux headers would shadow MinGW's.
#  - spdlog and fmt are header-only (SPDLOG_HEADER_ONLY, FMT_HEADER_ONLY; Debian's
#    spdlog/tweakme.h already sets SPDLOG_FMT_EXTERNAL, so spdlog uses that same fmt).
#  - GoogleTest is built from Debian's sources in /usr/src/googletest.
#  - OpenBLAS with LAPACK comes from PyPI's scipy-openblas32 wheel, when KF_MINGW_OPENBLAS_WHEEL
#    names it (tools/windows-build.sh downloads it; KernforgeOpenBlasWheel.cmake); without it
#    the CPU plugin uses its own blocked GEMM (backends/cpu, KF_CPU_BLAS) and has no LAPACK.
#  - no Google Benchmark: the benchmarks are not built.
#  - OpenMP is MinGW's libgomp, a DLL; it and the two DLLs it needs are copied into bin/.
# Tests run under wine64 through ${CMAKE_BINARY_DIR}/wine-run.sh (the crosscompiling emulator).

set(KF_MINGW_INCLUDE "${CMAKE_BINARY_DIR}/mingw-include")
file(MAKE_DIRECTORY "${KF_MINGW_INCLUDE}")
set(kf_header_packages
  "boost=libboost-dev" "nlohmann=nlohmann-json3-dev" "spdlog=libspdlog-dev" "fmt=libfmt-dev"
  "CLI=libcli11-dev")
foreach(entry IN LISTS kf_header_packages)
  string(REPLACE "=" ";" entry "${entry}")
  list(GET entry 0 tree)
  list(GET entry 1 package)
  if(NOT IS_DIRECTORY "/usr/include/${tree}")
    message(FATAL_ERROR "The Windows build uses Debian's ${tree} headers: install ${package} "
                        "(tools/install-deps.sh)")
  endif()
  if(NOT IS_SYMLINK "${KF_MINGW_INCLUDE}/${tree}")
    file(CREATE_LINK "/usr/include/${tree}" "${KF_MINGW_INCLUDE}/${tree}" SYMBOLIC)
  endif()
endforeach()

function(kf_mingw_header_target name)
  cmake_parse_arguments(ARG "" "" "DEFINES;LINK" ${ARGN})
  add_library(${name} INTERFACE IMPORTED)
  # Imported targets' include folders are system folders: their warnings do not fail -Werror.
  set_target_properties(${name} PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${KF_MINGW_INCLUDE}"
    INTERFACE_COMPILE_DEFINITIONS "${ARG_DEFINES}"
    INTERFACE_LINK_LIBRARIES "${ARG_LINK}")
endfunction()

kf_mingw_header_target(Boost::headers)
kf_mingw_header_target(nlohmann_json::nlohmann_json)
kf_mingw_header_target(CLI11::CLI11)
kf_mingw_header_target(fmt::fmt-header-only DEFINES FMT_HEADER_ONLY)
kf_mingw_header_target(spdlog::spdlog DEFINES SPDLOG_HEADER_ONLY LINK fmt::fmt-header-only)

include(KernforgeOpenBlasWheel)

# OpenMP: find_package(OpenMP) (runtime/global_deps, backends/cpu) finds GCC's -fopenmp, which
# links libgomp-1.dll. That DLL, and the libgcc and winpthread DLLs it imports, go next to the
# core in bin/: the core loads libkernforge_global_deps.dll from there before any plugin, which
# brings libgomp-1.dll into the process once; a plugin importing it later gets the same copy
# (Windows reuses a loaded DLL of the same name). Our own binaries link the C++ runtime
# statically (see the toolchain file) and need none of these.
foreach(dll IN ITEMS libgomp-1.dll libgcc_s_seh-1.dll libwinpthread-1.dll)
  execute_process(COMMAND "${CMAKE_C_COMPILER}" -print-file-name=${dll}
                  OUTPUT_VARIABLE dll_path OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT IS_ABSOLUTE "${dll_path}" OR NOT EXISTS "${dll_path}")
    message(FATAL_ERROR "${CMAKE_C_COMPILER} does not ship ${dll}; install "
                        "gcc-mingw-w64-x86-64-posix-runtime (tools/windows-build.sh does)")
  endif()
  file(COPY "${dll_path}" DESTINATION "${KF_OUTPUT_BIN}")
endforeach()

if(KF_BUILD_BENCHMARKS)
  message(STATUS "Windows (MinGW) build: no Google Benchmark for MinGW; benchmarks are off")
  set(KF_BUILD_BENCHMARKS OFF CACHE BOOL "Build the benchmarks" FORCE)
endif()

if(KF_BUILD_TESTS)
  if(NOT EXISTS "/usr/src/googletest/CMakeLists.txt")
    message(FATAL_ERROR "The Windows build compiles GoogleTest from Debian's sources: install "
                        "libgtest-dev and libgmock-dev (tools/install-deps.sh)")
  endif()
  # GoogleTest's own threading is Win32's (its CMake would otherwise pick pthreads from the
  # -posix compiler); nothing of it is installed with kernforge.
  set(gtest_disable_pthreads ON CACHE BOOL "" FORCE)
  set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
  set(BUILD_GMOCK ON CACHE BOOL "" FORCE)
  add_subdirectory(/usr/src/googletest "${CMAKE_BINARY_DIR}/_deps/googletest" EXCLUDE_FROM_ALL)
  # Make GoogleTest's include folders system folders, as they are on Linux (-Werror: ours only).
  foreach(t IN ITEMS gtest gtest_main gmock gmock_main)
    get_target_property(dirs ${t} INTERFACE_INCLUDE_DIRECTORIES)
    set_target_properties(${t} PROPERTIES INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "${dirs}")
  endforeach()

  # wine-run.sh: the emulator for tests and test discovery. It gives wine its own prefix in the
  # build tree (created once, under a lock: ~10-60 s), turns off wine's debug output and its
  # Mono/Gecko installers, keeps the wine server warm between programs, then runs the program.
  find_program(KF_WINE64 NAMES wine64 PATHS /usr/lib/wine)
  if(NOT KF_WINE64)
    message(FATAL_ERROR "The Windows tests run under wine64: install wine64 "
                        "(tools/windows-build.sh does)")
  endif()
  set(KF_WINE_RUN "${CMAKE_BINARY_DIR}/wine-run.sh")
  set(KF_WINEPREFIX_DEFAULT "${CMAKE_BINARY_DIR}/wineprefix")
  file(CONFIGURE OUTPUT "${KF_WINE_RUN}" @ONLY CONTENT [[#!/bin/sh
# Generated by cmake/KernforgeDependenciesMingw.cmake: runs a Windows program of this build
# under wine64. KF_WINEPREFIX overrides the prefix (default: in the build tree).
#   wine-run.sh program.exe args...     wine-run.sh --init-prefix (only create the prefix)
set -e
export WINEPREFIX="${KF_WINEPREFIX:-@KF_WINEPREFIX_DEFAULT@}"
export WINEDEBUG="${WINEDEBUG:--all}"
export WINEDLLOVERRIDES="${WINEDLLOVERRIDES:-mscoree,mshtml=}"
wine="@KF_WINE64@"
wineserver="$(dirname "$wine")/wineserver"
mkdir -p "$(dirname "$WINEPREFIX")"
(
  flock 9
  if [ ! -f "$WINEPREFIX/system.reg" ]; then
    echo "wine-run.sh: creating the wine prefix $WINEPREFIX (once)" >&2
    "$wine" wineboot --init </dev/null >/dev/null 2>&1 9>&- || true
    "$wineserver" -w 9>&- || true
  fi
  [ "$1" = "--init-prefix" ] && exit 0
  # Keep the prefix's wine server up for 30 s after its last program: a test run starts
  # hundreds of short programs. When this starts a new server (exit 0; 2: one is up), wine's
  # own services (services.exe, explorer.exe, ...) are started at once, with no output of ours:
  # started by a test, they would inherit its pipes and hold them open until the server goes,
  # and ctest would wait 30 s for that test.
  # (9>&-: a daemon must not inherit the lock.)
  if "$wineserver" -p30 </dev/null >/dev/null 2>&1 9>&-; then
    "$wine" cmd.exe /c exit 0 </dev/null >/dev/null 2>&1 9>&- || true
  fi
) 9>"$WINEPREFIX.lock"
[ "$1" = "--init-prefix" ] && exit 0
exec "$wine" "$@"
]])
  file(CHMOD "${KF_WINE_RUN}" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
       GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  set(CMAKE_CROSSCOMPILING_EMULATOR "${KF_WINE_RUN}")
  # The prefix is made by the build (`wine-run.sh --init-prefix`, alongside the compiles), not
  # by the first test: ctest lists the tests of each executable through wine when it starts, and
  # a 20-60 s prefix creation inside that listing would exceed its timeout.
  add_custom_command(OUTPUT "${KF_WINEPREFIX_DEFAULT}/system.reg"
    COMMAND "${KF_WINE_RUN}" --init-prefix
    COMMENT "Creating the wine prefix for the tests (once)" VERBATIM)
  add_custom_target(kernforge_wineprefix ALL DEPENDS "${KF_WINEPREFIX_DEFAULT}/system.reg")
endif()

# Third-party dependencies, all from Debian packages (tools/install-deps.sh installs them).
# A missing one stops the configure with the package that brings it and the command that
# installs it, not with CMake's search details (a pip build shows only the last lines).

# Stops the configure: `what` is missing; Debian's `packages` (a space-separated list) bring it.
function(kf_missing_package what packages)
  message(FATAL_ERROR "kernforge needs ${what}, which this machine lacks. On Debian or Ubuntu: "
                      "`sudo apt-get install ${packages}`, or `sudo bash tools/install-deps.sh` "
                      "for everything the build uses. Elsewhere, install it and point "
                      "CMAKE_PREFIX_PATH at it.")
endfunction()

# find_package(<name> [version] ...) that names the Debian package when it fails.
macro(kf_require_package name)
  cmake_parse_arguments(kf_req "" "DEBIAN" "" ${ARGN})
  find_package(${name} ${kf_req_UNPARSED_ARGUMENTS} QUIET)
  if(NOT ${name}_FOUND)
    string(JOIN " " kf_req_what ${name} ${kf_req_UNPARSED_ARGUMENTS})
    kf_missing_package("${kf_req_what}" "${kf_req_DEBIAN}")
  endif()
endmacro()

find_package(Threads REQUIRED)
find_package(Python3 REQUIRED COMPONENTS Interpreter)
if(WIN32 AND CMAKE_CROSSCOMPILING)
  # Windows, cross-compiled with MinGW-w64 (preset `windows`): Debian has no MinGW builds of
  # these libraries, so the header-only ones are used from Debian's headers and GoogleTest is
  # built from its sources.
  include(KernforgeDependenciesMingw)
else()
  kf_require_package(spdlog DEBIAN libspdlog-dev)
  kf_require_package(nlohmann_json 3.10 DEBIAN nlohmann-json3-dev)
  kf_require_package(CLI11 DEBIAN libcli11-dev)
  find_package(PkgConfig QUIET)
  if(NOT PKG_CONFIG_FOUND)
    kf_missing_package("pkg-config (to find OpenBLAS)" pkg-config)
  endif()
  pkg_check_modules(OPENBLAS QUIET IMPORTED_TARGET openblas)
  if(NOT OPENBLAS_FOUND)
    kf_missing_package("OpenBLAS (pkg-config module openblas)" libopenblas-dev)
  endif()
  if(KF_BUILD_TESTS)
    kf_require_package(GTest DEBIAN "libgtest-dev libgmock-dev")
  endif()
  if(KF_BUILD_BENCHMARKS)
    kf_require_package(benchmark DEBIAN libbenchmark-dev)
  endif()
endif()

execute_process(COMMAND "${Python3_EXECUTABLE}" -c "import yaml"
                RESULT_VARIABLE KF_PYYAML_MISSING OUTPUT_QUIET ERROR_QUIET)
if(KF_PYYAML_MISSING)
  message(FATAL_ERROR "The op code generator needs PyYAML for ${Python3_EXECUTABLE}: "
                      "run tools/install-deps.sh, or `${Python3_EXECUTABLE} -m pip install pyyaml` "
                      "(a pip build of the package gets it from [build-system].requires).")
endif()

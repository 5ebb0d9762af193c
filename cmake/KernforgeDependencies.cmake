# Third-party dependencies, all from Debian packages (tools/install-deps.sh installs them).
find_package(Threads REQUIRED)
find_package(Python3 REQUIRED COMPONENTS Interpreter)
if(WIN32 AND CMAKE_CROSSCOMPILING)
  # Windows, cross-compiled with MinGW-w64 (preset `windows`): Debian has no MinGW builds of
  # these libraries, so the header-only ones are used from Debian's headers and GoogleTest is
  # built from its sources.
  include(KernforgeDependenciesMingw)
else()
  find_package(spdlog REQUIRED)
  find_package(nlohmann_json 3.10 REQUIRED)
  find_package(CLI11 REQUIRED)
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(OPENBLAS REQUIRED IMPORTED_TARGET openblas)
  if(KF_BUILD_TESTS)
    find_package(GTest REQUIRED)
  endif()
  if(KF_BUILD_BENCHMARKS)
    find_package(benchmark REQUIRED)
  endif()
endif()

execute_process(COMMAND "${Python3_EXECUTABLE}" -c "import yaml"
                RESULT_VARIABLE KF_PYYAML_MISSING OUTPUT_QUIET ERROR_QUIET)
if(KF_PYYAML_MISSING)
  message(FATAL_ERROR "The op code generator needs PyYAML for ${Python3_EXECUTABLE}: "
                      "run tools/install-deps.sh, or `${Python3_EXECUTABLE} -m pip install pyyaml`.")
endif()

# kernforge_read_version(<version.txt> <out-full> <out-numeric> <out-deb>)
#
# The one version of a build: the first line of <version.txt>, or the environment variable
# KERNFORGE_BUILD_VERSION when it is set and not empty (release builds stamp it there). Sets
#   <out-full>     the version as given, e.g. 0.2.0-rc1: kf_version(), the CLI, the manifests,
#                  the pkg-config files
#   <out-numeric>  its <major>.<minor>.<patch>, e.g. 0.2.0: project(VERSION), the CMake
#                  package's version, the shared library's VERSION
#   <out-deb>      the Debian spelling, "-" turned into "~", e.g. 0.2.0~rc1, which Debian
#                  sorts before 0.2.0 (the packages)
# A version that does not start with <major>.<minor>.<patch> stops the configure, saying where
# it came from.
include_guard(GLOBAL)

function(kernforge_read_version file out_full out_numeric out_deb)
  file(STRINGS "${file}" lines LIMIT_COUNT 1)
  string(STRIP "${lines}" version)
  set(source "${file}")
  if(DEFINED ENV{KERNFORGE_BUILD_VERSION} AND NOT "$ENV{KERNFORGE_BUILD_VERSION}" STREQUAL "")
    set(version "$ENV{KERNFORGE_BUILD_VERSION}")
    set(source "KERNFORGE_BUILD_VERSION")
  endif()
  if(NOT version MATCHES "^([0-9]+\\.[0-9]+\\.[0-9]+)([-+~.][0-9A-Za-z.+~-]*)?$")
    message(FATAL_ERROR "The version '${version}' (from ${source}) is not "
                        "<major>.<minor>.<patch>[-<suffix>], e.g. 0.2.0 or 0.2.0-rc1")
  endif()
  set(${out_numeric} "${CMAKE_MATCH_1}" PARENT_SCOPE)
  set(${out_full} "${version}" PARENT_SCOPE)
  string(REPLACE "-" "~" deb "${version}")
  set(${out_deb} "${deb}" PARENT_SCOPE)
endfunction()

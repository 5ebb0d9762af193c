# cmake -DVERSION_MODULE=<KernforgeVersion.cmake> -P check_version.cmake
#
# kernforge_read_version(): version.txt, the KERNFORGE_BUILD_VERSION override, the numeric and
# Debian spellings, and the refusal of a version that is not <major>.<minor>.<patch>[-suffix].
# Each case runs in a cmake -P of its own (ONE=<file>), since a refusal stops the script.
cmake_policy(SET CMP0007 NEW)  # keep empty list elements (an empty override)
if(DEFINED ONE)
  include("${VERSION_MODULE}")
  kernforge_read_version("${ONE}" full numeric deb)
  message(STATUS "version=${full}|${numeric}|${deb}")
  return()
endif()

set(dir "${CMAKE_CURRENT_BINARY_DIR}/check_version")
file(MAKE_DIRECTORY "${dir}")
file(WRITE "${dir}/version.txt" "0.4.1\n")
set(failures "")
# <override> <expected output or "refused">
foreach(case IN ITEMS "|0.4.1|0.4.1|0.4.1" "0.5.0-rc2|0.5.0-rc2|0.5.0|0.5.0~rc2"
                      "1.2.3|1.2.3|1.2.3|1.2.3" "nightly|refused" "1.2|refused")
  string(REPLACE "|" ";" parts "${case}")
  list(POP_FRONT parts override)
  list(JOIN parts "|" want)
  execute_process(
    COMMAND "${CMAKE_COMMAND}" -E env "KERNFORGE_BUILD_VERSION=${override}"
            "${CMAKE_COMMAND}" "-DVERSION_MODULE=${VERSION_MODULE}" "-DONE=${dir}/version.txt"
            -P "${CMAKE_CURRENT_LIST_FILE}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(want STREQUAL "refused")
    if(rc EQUAL 0 OR NOT err MATCHES "from KERNFORGE_BUILD_VERSION\\) is not")
      string(APPEND failures "\n  '${override}' was not refused with the reason: ${out}${err}")
    endif()
  else()
    string(REGEX MATCH "version=([^\n]*)" _ "${out}")
    if(NOT rc EQUAL 0 OR NOT CMAKE_MATCH_1 STREQUAL want)
      string(APPEND failures "\n  '${override}': expected ${want}, got: ${out}${err}")
    endif()
  endif()
endforeach()
if(failures)
  message(FATAL_ERROR "kernforge_read_version():${failures}")
endif()
message(STATUS "kernforge_read_version(): version.txt, its override and their spellings hold")

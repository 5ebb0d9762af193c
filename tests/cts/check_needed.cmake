# Checks that an ELF program needs, at run time, libkernforge and the C and C++ runtimes only
# (what an installed kernforge-cts may rely on: the kernforge-core package and the system); the
# sanitizer runtimes too, in the sanitizer builds.
#
#   cmake -DBINARY=<program> -DREADELF=<readelf> -P check_needed.cmake
if(NOT READELF)
  find_program(READELF readelf)
endif()
execute_process(COMMAND "${READELF}" -d "${BINARY}" RESULT_VARIABLE rc OUTPUT_VARIABLE dyn
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${READELF} -d ${BINARY} failed: ${err}")
endif()
string(REGEX MATCHALL "\\(NEEDED\\)[^\n]*\\[[^]\n]*\\]" lines "${dyn}")
string(CONCAT allowed "^lib(kernforge\\.so\\.[0-9]+|stdc\\+\\+\\.so\\.6|gcc_s\\.so\\.1|m\\.so\\.6|"
                      "c\\.so\\.6|pthread\\.so\\.0|dl\\.so\\.2|(asan|ubsan|tsan)\\.so\\.[0-9]+)$")
set(found "")
foreach(line IN LISTS lines)
  string(REGEX REPLACE ".*\\[(.*)\\]$" "\\1" lib "${line}")
  list(APPEND found "${lib}")
  if(NOT lib MATCHES "${allowed}")
    message(FATAL_ERROR "${BINARY} needs ${lib}; it may need libkernforge and the C and C++ "
                        "runtimes only (link the others statically, or header-only)")
  endif()
endforeach()
if(NOT found MATCHES "libkernforge\\.so")
  message(FATAL_ERROR "${BINARY} does not need libkernforge: ${found}")
endif()
message(STATUS "${BINARY} needs: ${found}")

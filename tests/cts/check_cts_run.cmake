# Runs the conformance suite with exclusion files and checks how it ends.
#
#   cmake -DCTS=<kernforge_cts> -DFILES=<KERNFORGE_CTS_UNSUPPORTED value> -DFILTER=<gtest filter>
#         -DEXPECT=pass|fail -DTEXT1=<text> [-DTEXT2=<text> ...] -P check_cts_run.cmake
#
# pass: exit status 0. fail: exit status 2 (not a crash) and no test started. In both,
# the output must hold every TEXT<n> as it is (literal text, not a regex).
foreach(var IN ITEMS CTS FILES FILTER EXPECT TEXT1)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_cts_run.cmake: -D${var}=... is required")
  endif()
endforeach()
set(ENV{KERNFORGE_CTS_UNSUPPORTED} "${FILES}")
execute_process(COMMAND "${CTS}" "--gtest_filter=${FILTER}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(EXPECT STREQUAL "pass" AND NOT rc STREQUAL "0")
  message(FATAL_ERROR "the suite should have passed, it ended with '${rc}'")
elseif(EXPECT STREQUAL "fail")
  if(NOT rc STREQUAL "2")
    message(FATAL_ERROR "the suite should have stopped with status 2, it ended with '${rc}'")
  endif()
  string(FIND "${out}" "[ RUN      ]" started)
  if(NOT started EQUAL -1)
    message(FATAL_ERROR "the suite ran tests although an exclusion file was bad")
  endif()
endif()
foreach(i RANGE 1 9)
  if(NOT DEFINED TEXT${i})
    continue()
  endif()
  string(FIND "${out}" "${TEXT${i}}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the output lacks: ${TEXT${i}}")
  endif()
endforeach()
message(STATUS "check_cts_run: as expected (${EXPECT})")

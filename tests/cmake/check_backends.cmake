# cmake -DFIXTURE=<fixture dir> -DWORK_DIR=<scratch dir> -DGENERATOR=<generator>
#       [-DMAKE_PROGRAM=<program>] -P check_backends.cmake
#
# Configures the fixture project (fixture/) once per setting of KF_BACKEND_BLOCKED, each time in
# a fresh build folder, and checks the configure's exit status and output:
#   ON     fails, saying KF_BACKEND_BLOCKED=ON, the backend's own reason and what to do;
#   AUTO   succeeds with `backend blocked: skipped (<reason>)` and the summary line (and
#          KF_BACKEND_READY=ON succeeds, the backend being buildable);
#   OFF    succeeds and never mentions the backend;
#   maybe  fails: the value must be AUTO, ON or OFF.
foreach(var IN ITEMS FIXTURE WORK_DIR GENERATOR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_backends.cmake: -D${var}=... is required")
  endif()
endforeach()

# The reason fixture/backends/blocked gives, less its final period.
set(reason "libfixturedep was not found ")
string(APPEND reason "(install libfixturedep-dev, or point CMAKE_PREFIX_PATH at it)")
set(failures "")

# configure(<label> PASS|FAIL <cache options...>): configures the fixture in a fresh folder,
# checks the exit status, and leaves the output in `out` (and `raw_out`) and <label> in `current`
# in the caller's scope.
# CMake wraps and indents error messages, so `out` has every run of white space made one space.
function(configure label expect)
  set(current "${label}")
  set(build "${WORK_DIR}/${label}")
  file(REMOVE_RECURSE "${build}")
  set(args -S "${FIXTURE}" -B "${build}" -G "${GENERATOR}")
  if(MAKE_PROGRAM)
    list(APPEND args "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
  endif()
  execute_process(COMMAND "${CMAKE_COMMAND}" ${args} ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(expect STREQUAL "PASS" AND NOT rc EQUAL 0)
    fail("the configure failed (${rc}) but should have succeeded")
  elseif(expect STREQUAL "FAIL" AND rc EQUAL 0)
    fail("the configure succeeded but should have failed")
  endif()
  string(REGEX REPLACE "[ \t\r\n]+" " " flat "${output}")
  set(out "${flat}" PARENT_SCOPE)
  set(raw_out "${output}" PARENT_SCOPE)
  set(current "${label}" PARENT_SCOPE)
  set(failures "${failures}" PARENT_SCOPE)
endfunction()

macro(fail problem)
  string(APPEND failures "\n[KF_BACKEND_BLOCKED: ${current}] ${problem}")
endmacro()

# expect(HAS|LACKS <text>): about the output of the last configure.
function(expect how text)
  string(FIND "${out}" "${text}" at)
  if(how STREQUAL "HAS" AND at EQUAL -1)
    fail("its output lacks: ${text}")
  elseif(how STREQUAL "LACKS" AND NOT at EQUAL -1)
    fail("its output should not contain: ${text}")
  endif()
  set(failures "${failures}" PARENT_SCOPE)
endfunction()

# Shows the whole output of a configure that went wrong.
function(show_output_on_failure before)
  if(NOT failures STREQUAL before)
    set(failures "${failures}\n--- output of that configure ---\n${raw_out}--- end ---"
        PARENT_SCOPE)
  endif()
endfunction()

set(current "")
set(before "${failures}")
configure(ON FAIL -DKF_BACKEND_BLOCKED=ON)
expect(HAS "KF_BACKEND_BLOCKED=ON but the blocked backend cannot be built: ${reason}. Install")
expect(HAS "set KF_BACKEND_BLOCKED=AUTO")
expect(HAS "KF_BACKEND_BLOCKED=OFF")
expect(LACKS "backend blocked: skipped")
show_output_on_failure("${before}")

set(before "${failures}")
configure(AUTO PASS -DKF_BACKEND_BLOCKED=AUTO -DKF_BACKEND_READY=ON)
expect(HAS "-- backend blocked: skipped (${reason}) --")
expect(HAS "fixture: the ready backend was configured")
expect(HAS "-- backends: built: ready; skipped: blocked --")
show_output_on_failure("${before}")

set(before "${failures}")
configure(OFF PASS -DKF_BACKEND_BLOCKED=OFF)
expect(LACKS "blocked")
expect(LACKS "libfixturedep")
expect(HAS "-- backends: built: ready; skipped: none --")
show_output_on_failure("${before}")

set(before "${failures}")
configure(maybe FAIL -DKF_BACKEND_BLOCKED=maybe)
expect(HAS "KF_BACKEND_BLOCKED is 'maybe'; it must be AUTO, ON or OFF")
show_output_on_failure("${before}")

if(NOT failures STREQUAL "")
  message(FATAL_ERROR "kernforge_add_backends() misbehaved:${failures}")
endif()
message(STATUS "kernforge_add_backends(): ON fails with the reason, AUTO skips, OFF is silent")

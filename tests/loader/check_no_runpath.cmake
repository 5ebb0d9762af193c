# check_no_runpath.cmake — cmake -DREADELF=<readelf> -DFILE=<library> -P check_no_runpath.cmake
# Fails when FILE has a DT_RPATH or DT_RUNPATH: the loader tests' plugins and the cuda backend
# must find their dependencies through the loader's preload, never through a path baked in at
# build time.
execute_process(COMMAND "${READELF}" -d "${FILE}" OUTPUT_VARIABLE dyn RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "readelf -d ${FILE} failed (${rc})")
endif()
if(dyn MATCHES "\\((RPATH|RUNPATH)\\)[^\n]*")
  message(FATAL_ERROR "${FILE} has ${CMAKE_MATCH_0}; it must have no RPATH/RUNPATH")
endif()
message(STATUS "${FILE}: no RPATH/RUNPATH")

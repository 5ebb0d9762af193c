# Checks that a HIP library's code objects hold every requested gfx target, run after the rocm
# plugin is linked (cmake -DOBJ_LS=<roc-obj-ls> -DLIBRARY=<file> -DTARGETS=<gfx,...> -P ...).
# roc-obj-ls lists one line per code object, e.g. "1  hipv4-amdgcn-amd-amdhsa--gfx90a  file://...";
# a target missing from the list is a build error naming it and what was found.
cmake_minimum_required(VERSION 3.25)
execute_process(COMMAND "${OBJ_LS}" "${LIBRARY}" OUTPUT_VARIABLE listing ERROR_VARIABLE err
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "roc-obj-ls failed on ${LIBRARY} (${rc}): ${err}")
endif()
string(REGEX MATCHALL "amdgcn-amd-amdhsa--[a-z0-9]+" found "${listing}")
list(TRANSFORM found REPLACE "amdgcn-amd-amdhsa--" "")
list(REMOVE_DUPLICATES found)
string(REPLACE "," ";" targets "${TARGETS}")
foreach(target IN LISTS targets)
  string(REGEX REPLACE ":.*$" "" target "${target}")  # gfx90a:xnack- is listed as gfx90a
  if(NOT target IN_LIST found)
    message(FATAL_ERROR "${LIBRARY} holds no code object for ${target} (found: ${found}); "
                        "hipcc did not build it: is the device library for ${target} installed?")
  endif()
endforeach()
message(STATUS "code objects for ${found}")

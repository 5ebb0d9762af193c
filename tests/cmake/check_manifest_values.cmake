# cmake -DPLUGIN_MODULE=<KernforgePlugin.cmake> -DCLI=<kernforge> -DWORK_DIR=<dir>
#       -P check_manifest_values.cmake
#
# kernforge_add_plugin writes every value into the manifest escaped (Note [Manifest values]):
# quotes, backslashes, @VAR@ and $<...> in a version, a device type, search roots and sonames
# come back from the JSON exactly as given, and the loader (`kernforge check-manifest`) takes
# the file. A control character stops the configure. A priority beyond int32 is written as the
# number it is, and the loader's check refuses it, naming the field.
cmake_minimum_required(VERSION 3.25)
set(CMAKE_SYSTEM_NAME "${CMAKE_HOST_SYSTEM_NAME}")
cmake_host_system_information(RESULT CMAKE_SYSTEM_PROCESSOR QUERY OS_PLATFORM)
set(CMAKE_INSTALL_LIBDIR lib)  # GNUInstallDirs asks for a language otherwise
include("${PLUGIN_MODULE}")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(failures "")

function(expect_field json expected)
  string(JSON got ERROR_VARIABLE error GET "${json}" ${ARGN})
  if(error OR NOT got STREQUAL expected)
    set(failures "${failures}\n  ${ARGN}: '${got}' (${error}), expected '${expected}'"
        PARENT_SCOPE)
  endif()
endfunction()

function(check_manifest file expect_ok expect_text)
  execute_process(COMMAND "${CLI}" check-manifest "${file}" RESULT_VARIABLE result
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(expect_ok AND NOT result EQUAL 0)
    set(failures "${failures}\n  the loader refuses ${file}: ${err}" PARENT_SCOPE)
  elseif(NOT expect_ok AND (result EQUAL 0 OR NOT err MATCHES "${expect_text}"))
    set(failures "${failures}\n  ${file}: exit ${result}, expected a refusal naming "
                 "'${expect_text}': ${err}" PARENT_SCOPE)
  endif()
endfunction()

# Hostile but printable values: each must come back as it was given.
set(version [[1"x\y@KF_VERSION@$<1:z>]])
set(device [[dev"ice]])
set(root [[/opt/a"b\c]])
set(file "${WORK_DIR}/hostile.json")
_kernforge_write_manifest("${file}" hostile libkernforge_hostile.so "${version}"
  DEVICE_TYPE "${device}" PRIORITY 7 ACTIVATION startup SEARCH "${root}"
  PRELOAD "libq\"uote.so.1 folders=f\"1")
file(READ "${file}" json)
expect_field("${json}" "${version}" version)
expect_field("${json}" "${device}" device_type)
expect_field("${json}" "${root}" search 0)
expect_field("${json}" [[libq"uote.so.1]] preload 0 soname)
expect_field("${json}" [[f"1]] preload 0 folders 0)
expect_field("${json}" 7 priority)
check_manifest("${file}" TRUE "")

# A priority the loader does not take: the manifest parses, the loader's check names it.
set(big "${WORK_DIR}/big_priority.json")
_kernforge_write_manifest("${big}" big libkernforge_big.so 1.0 DEVICE_TYPE big
  PRIORITY 100000000000000000000000 ACTIVATION startup SEARCH "$ORIGIN")
check_manifest("${big}" FALSE "priority")

# A control character stops the configure, naming the field (a process of its own: it is fatal).
file(WRITE "${WORK_DIR}/control.cmake" "
cmake_minimum_required(VERSION 3.25)
set(CMAKE_INSTALL_LIBDIR lib)
set(CMAKE_SYSTEM_NAME \"${CMAKE_SYSTEM_NAME}\")
set(CMAKE_SYSTEM_PROCESSOR \"${CMAKE_SYSTEM_PROCESSOR}\")
include(\"${PLUGIN_MODULE}\")
string(ASCII 7 bell)
_kernforge_write_manifest(\"${WORK_DIR}/control.json\" c libc.so \"1\${bell}\" DEVICE_TYPE c
  PRIORITY 1 ACTIVATION startup SEARCH \"$ORIGIN\")
")
execute_process(COMMAND "${CMAKE_COMMAND}" -P "${WORK_DIR}/control.cmake"
                RESULT_VARIABLE result ERROR_VARIABLE err)
if(result EQUAL 0 OR NOT err MATCHES "version '1\\?' holds a control character")
  string(APPEND failures "\n  a control character in VERSION was not refused: ${err}")
endif()

if(failures)
  message(FATAL_ERROR "kernforge_add_plugin manifests:${failures}")
endif()
message(STATUS "kernforge_add_plugin escapes every value, and the loader checks what it wrote")

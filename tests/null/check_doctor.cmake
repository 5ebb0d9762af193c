# `kernforge doctor` of the build tree does not list the null backend (it is built outside the
# plugin folder), and does when KERNFORGE_PLUGIN_PATH names its folder (so the check can fail).
#
#   cmake -DKERNFORGE=<kernforge> -DSKELETONS=<folder of libkernforge_null> -P check_doctor.cmake
function(doctor out)
  execute_process(COMMAND "${KERNFORGE}" doctor RESULT_VARIABLE rc OUTPUT_VARIABLE text
                  ERROR_VARIABLE text)
  message("${text}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "kernforge doctor ended with '${rc}'")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

unset(ENV{KERNFORGE_PLUGIN_PATH})
doctor(plain)
if(plain MATCHES "\n +null +")
  message(FATAL_ERROR "kernforge doctor lists the null backend; it must not be autoloaded")
endif()

set(ENV{KERNFORGE_PLUGIN_PATH} "${SKELETONS}")
doctor(with_path)
if(NOT with_path MATCHES "\n +null +loaded +1 null")
  message(FATAL_ERROR "with KERNFORGE_PLUGIN_PATH=${SKELETONS}, kernforge doctor should list "
                      "null as loaded with 1 device")
endif()
message(STATUS "check_doctor: null is listed only when KERNFORGE_PLUGIN_PATH names it")

# kernforge_imported_soname(<target> <out-var>)
# Sets <out-var> to the SONAME of the imported shared library <target> (e.g. CUDA::cublas ->
# libcublas.so.13), read with readelf, else the name its .so link points to; a configure error
# when neither works. The cuda backend's manifest and the loader's CUDA probe preload by it.
include_guard(GLOBAL)
find_program(KF_READELF NAMES readelf)

function(kernforge_imported_soname target out)
  get_target_property(file ${target} IMPORTED_LOCATION)
  if(NOT file)
    get_target_property(file ${target} IMPORTED_LOCATION_RELEASE)
  endif()
  set(soname "")
  if(KF_READELF AND EXISTS "${file}")
    execute_process(COMMAND "${KF_READELF}" -d "${file}" OUTPUT_VARIABLE dyn
                    RESULT_VARIABLE rc ERROR_QUIET)
    if(rc EQUAL 0 AND dyn MATCHES "Library soname: \\[([^]]+)\\]")
      set(soname "${CMAKE_MATCH_1}")
    endif()
  endif()
  if(NOT soname AND IS_SYMLINK "${file}")
    file(READ_SYMLINK "${file}" link)
    get_filename_component(soname "${link}" NAME)
  endif()
  if(NOT soname)
    message(FATAL_ERROR "cannot read the SONAME of ${target} (${file})")
  endif()
  set(${out} "${soname}" PARENT_SCOPE)
endfunction()

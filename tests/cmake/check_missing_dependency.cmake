# cmake.missing_dependency: a configure that lacks a system library stops and names the Debian
# package that brings it and the command that installs it (kf_require_package and
# kf_missing_package, cmake/KernforgeDependencies.cmake), as a pip build shows it to a user.
#   cmake -DSOURCE_DIR=<project> -DWORK_DIR=<folder> -DGENERATOR=<g> -P check_missing_dependency.cmake
# Each case configures the whole project with one dependency made unfindable and no backend.
function(expect_missing label package)
  set(build "${WORK_DIR}/${label}")
  file(REMOVE_RECURSE "${build}")
  execute_process(
    COMMAND "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${build}" -G "${GENERATOR}"
            -DKF_BACKEND_DEFAULT=OFF -DKF_PYTHON=OFF -DKF_BUILD_TESTS=OFF
            -DKF_BUILD_BENCHMARKS=OFF -DKF_BUILD_EXAMPLES=OFF ${ARGN}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REGEX REPLACE "[ \n]+" " " text "${out}${err}")
  if(rc EQUAL 0)
    message(FATAL_ERROR "${label}: the configure passed without the dependency")
  endif()
  foreach(want IN ITEMS "sudo apt-get install ${package}" "tools/install-deps.sh")
    string(FIND "${text}" "${want}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${label}: the error does not say `${want}`:\n${out}${err}")
    endif()
  endforeach()
  message(STATUS "${label}: stops naming ${package}")
endfunction()

expect_missing(spdlog libspdlog-dev -DCMAKE_DISABLE_FIND_PACKAGE_spdlog=ON)
expect_missing(cli11 libcli11-dev -DCMAKE_DISABLE_FIND_PACKAGE_CLI11=ON)
expect_missing(pkg-config pkg-config -DCMAKE_DISABLE_FIND_PACKAGE_PkgConfig=ON)

# The shared OpenCL C kernels (kernels/*.cl) and their host side (src/): one static library,
# kernforge_clkernels, linked into every backend that runs them (backends/opencl from the
# embedded sources, backends/xpu from SPIR-V compiled at build time: spirv.cmake).
#
# Included by those backends' CMakeLists.txt after their own checks passed (a backend that
# declares itself unavailable must not define targets); include_guard makes the first include
# define the target and later ones reuse it. This folder has no CMakeLists.txt, so
# kernforge_add_backends() does not take it for a backend.
#
# Every backend that includes it is appended to the global property KF_CLKERNELS_BACKENDS
# (before the include guard, so each include counts): tests/cts reruns the suite on each of them.
if(DEFINED KF_CURRENT_BACKEND AND NOT KF_CURRENT_BACKEND STREQUAL "")
  set_property(GLOBAL APPEND PROPERTY KF_CLKERNELS_BACKENDS "${KF_CURRENT_BACKEND}")
endif()
include_guard(GLOBAL)

set(KF_CLKERNELS_DIR "${CMAKE_CURRENT_LIST_DIR}")
file(GLOB KF_CLKERNELS_FAMILY_SOURCES CONFIGURE_DEPENDS "${KF_CLKERNELS_DIR}/kernels/*.cl")
list(SORT KF_CLKERNELS_FAMILY_SOURCES)
set(KF_CLKERNELS_COMMON "${KF_CLKERNELS_DIR}/kernels/common.clh")

# The sources embedded as C++ strings: family_sources.cpp, rebuilt when a .cl file changes.
set(kf_clk_embedded "${CMAKE_BINARY_DIR}/generated/clkernels/family_sources.cpp")
add_custom_command(
  OUTPUT "${kf_clk_embedded}"
  COMMAND "${CMAKE_COMMAND}" "-DOUTPUT=${kf_clk_embedded}" "-DCOMMON=${KF_CLKERNELS_COMMON}"
          "-DSOURCES=${KF_CLKERNELS_FAMILY_SOURCES}"
          -P "${KF_CLKERNELS_DIR}/embed_sources.cmake"
  DEPENDS ${KF_CLKERNELS_FAMILY_SOURCES} "${KF_CLKERNELS_COMMON}"
          "${KF_CLKERNELS_DIR}/embed_sources.cmake"
  COMMENT "Embedding the OpenCL C kernels"
  VERBATIM)

file(GLOB kf_clk_host_sources CONFIGURE_DEPENDS "${KF_CLKERNELS_DIR}/src/*.cpp")
add_library(kernforge_clkernels STATIC ${kf_clk_host_sources} "${kf_clk_embedded}")
target_include_directories(kernforge_clkernels
  PUBLIC "${KF_CLKERNELS_DIR}/include"
  PRIVATE "${KF_CLKERNELS_DIR}/src")
target_link_libraries(kernforge_clkernels PUBLIC kernforge::plugin_sdk)
set_target_properties(kernforge_clkernels PROPERTIES POSITION_INDEPENDENT_CODE ON
  CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
target_compile_options(kernforge_clkernels PRIVATE "-fmacro-prefix-map=${CMAKE_SOURCE_DIR}/=")
if(COMMAND kernforge_warnings)
  kernforge_warnings(kernforge_clkernels)
endif()

# cuda_probe.cmake — included by tests/loader/CMakeLists.txt. Where the CUDA toolkit is installed,
# the cuda_probe plugin (cuda_probe_plugin.cpp) links cuBLAS and cudart with NO RPATH/RUNPATH,
# and its manifest preloads cublasLt, cublas and cudart (PyTorch's order) from the toolkit's
# library folder, by the SONAMEs read from the libraries there. loader.CudaProbe.* checks that
# it loads with LD_LIBRARY_PATH unset and that the report shows each library's path and order.
# Nothing runs on a GPU: the plugin only loads (0 devices without a driver).
if(WIN32)
  message(STATUS "tests/loader: the CUDA probe test is built on Linux only")
  return()
endif()
find_package(CUDAToolkit QUIET)
if(NOT CUDAToolkit_FOUND OR NOT TARGET CUDA::cublas OR NOT TARGET CUDA::cublasLt
   OR NOT TARGET CUDA::cudart)
  message(STATUS "tests/loader: no CUDA toolkit (cuBLAS, cudart) found; "
                 "loader.CudaProbe.* is not built")
  return()
endif()

include(KernforgeSoname)
kernforge_imported_soname(CUDA::cublasLt KF_CUDA_CUBLASLT_SONAME)
kernforge_imported_soname(CUDA::cublas KF_CUDA_CUBLAS_SONAME)
kernforge_imported_soname(CUDA::cudart KF_CUDA_CUDART_SONAME)
get_target_property(cublas_file CUDA::cublas IMPORTED_LOCATION)
get_filename_component(KF_CUDA_LIBRARY_DIR "${cublas_file}" DIRECTORY)
message(STATUS "tests/loader: CUDA probe preloads ${KF_CUDA_CUBLASLT_SONAME}, "
               "${KF_CUDA_CUBLAS_SONAME}, ${KF_CUDA_CUDART_SONAME} from ${KF_CUDA_LIBRARY_DIR}")

kernforge_add_plugin(cuda_probe
  SOURCES cuda_probe_plugin.cpp
  MANIFEST "${CMAKE_CURRENT_SOURCE_DIR}/cuda_probe_manifest.json.in"
  LINK CUDA::cublas CUDA::cudart
  OUTPUT_DIRECTORY "${KF_LOADER_PLUGIN_DIR}")
set_target_properties(kernforge_cuda_probe PROPERTIES
  SKIP_BUILD_RPATH ON BUILD_RPATH "" INSTALL_RPATH "")
kf_loader_no_runpath_test(cuda_probe kernforge_cuda_probe)

add_executable(kernforge_loader_cuda_tests test_cuda_probe.cpp)
kf_loader_test_target(kernforge_loader_cuda_tests)
add_dependencies(kernforge_loader_cuda_tests kernforge_cuda_probe)
target_compile_definitions(kernforge_loader_cuda_tests PRIVATE
  KF_TEST_CUDA_PROBE="$<TARGET_FILE:kernforge_cuda_probe>"
  KF_TEST_CUDA_PROBE_MANIFEST="${KF_LOADER_PLUGIN_DIR}/cuda_probe.json"
  KF_TEST_CUDA_LIBRARY_DIR="${KF_CUDA_LIBRARY_DIR}"
  KF_TEST_CUBLASLT_SONAME="${KF_CUDA_CUBLASLT_SONAME}"
  KF_TEST_CUBLAS_SONAME="${KF_CUDA_CUBLAS_SONAME}"
  KF_TEST_CUDART_SONAME="${KF_CUDA_CUDART_SONAME}")
gtest_discover_tests(kernforge_loader_cuda_tests
  TEST_PREFIX "loader."
  DISCOVERY_MODE PRE_TEST
  DISCOVERY_TIMEOUT 60
  PROPERTIES LABELS loader TIMEOUT 120 ENVIRONMENT_MODIFICATION "LD_LIBRARY_PATH=unset:")

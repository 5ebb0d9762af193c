# The nccl plugin's tests (backends/nccl; included by CMakeLists.txt here), by nccl_worker.cpp:
#  - distributed.nccl_unavailable (label `distributed`): where no NVIDIA driver is (this
#    repository's CI), kf_comm_create with "cuda:nccl" is KF_NOT_FOUND, its message naming the
#    plugin and why it is not loaded (the driver gate: libcuda.so.1); skipped where it loads;
#  - distributed.doctor_lists_nccl (label `distributed`): `kernforge doctor` has a line for the
#    plugin: unavailable with the gate's reason, or loaded where a driver is;
#  - distributed.nccl_gpu_1 (label `requires-gpu-nvidia`: never run by the CI here, which has no
#    GPU; tools/device/cuda-check.sh bundles it for a lent GPU): one rank on one GPU over
#    file://, every collective and reduction for eight dtypes against a host reference, works,
#    barrier, the refusals, split; skipped, saying why, where the plugin is not loaded;
#  - distributed.nccl_plugin_direct (below).
if(NOT TARGET kernforge_nccl)
  return()  # the nccl plugin is not built here (KF_BACKEND_NCCL, or no CUDA toolkit / NCCL)
endif()
add_executable(kernforge_nccl_worker nccl_worker.cpp)
kernforge_warnings(kernforge_nccl_worker)
target_link_libraries(kernforge_nccl_worker PRIVATE kernforge::core)
set_target_properties(kernforge_nccl_worker PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${KF_OUTPUT_BIN}")
add_dependencies(kernforge_nccl_worker kernforge_nccl)
foreach(dep IN ITEMS kernforge_cpu kernforge_cuda)
  if(TARGET ${dep})
    add_dependencies(kernforge_nccl_worker ${dep})
  endif()
endforeach()

add_test(NAME distributed.nccl_unavailable
  COMMAND kernforge_nccl_worker unavailable "${CMAKE_CURRENT_BINARY_DIR}")
set_tests_properties(distributed.nccl_unavailable PROPERTIES LABELS distributed TIMEOUT 30
  SKIP_REGULAR_EXPRESSION "SKIPPED")
add_test(NAME distributed.doctor_lists_nccl COMMAND kernforge_cli doctor)
set_tests_properties(distributed.doctor_lists_nccl PROPERTIES LABELS distributed TIMEOUT 60
  PASS_REGULAR_EXPRESSION "\n  nccl \\(cuda\\): (loaded|unavailable[^\n]*libcuda\\.so\\.1)")

add_test(NAME distributed.nccl_gpu_1
  COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_SOURCE_DIR}/run_ranks.py"
          $<TARGET_FILE:kernforge_nccl_worker> gpu --world 1 --timeout-ms 30000 --limit 240)
set_tests_properties(distributed.nccl_gpu_1 PROPERTIES LABELS requires-gpu-nvidia TIMEOUT 300
  SKIP_REGULAR_EXPRESSION "SKIPPED: ")

# distributed.nccl_plugin_direct (label `distributed`): the plugin's library opened directly
# (nccl_plugin_direct.py): its table, the refusal of mpi://, and comm_init without a GPU
# KF_UNAVAILABLE with CUDA's reason; skipped where its libraries cannot be opened or a GPU is.
add_test(NAME distributed.nccl_plugin_direct
  COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_SOURCE_DIR}/nccl_plugin_direct.py"
          $<TARGET_FILE:kernforge_nccl> "${CMAKE_CURRENT_BINARY_DIR}")
set_tests_properties(distributed.nccl_plugin_direct PROPERTIES LABELS distributed TIMEOUT 30
  SKIP_REGULAR_EXPRESSION "SKIPPED: ")

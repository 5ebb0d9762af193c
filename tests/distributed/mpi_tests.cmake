# The mpi plugin's tests (backends/mpi; included by CMakeLists.txt here), label `distributed`:
#  - distributed.mpi_refusals (no mpirun needed): mpi:// outside mpirun says so, the mpi engine
#    refuses file://, gloo refuses mpi://, and a rank mpirun did not give is refused, each by
#    its message;
#  - distributed.mpi_2 and distributed.mpi_4: `mpirun -np 2|4 --oversubscribe` (run_ranks.py
#    --mpirun) starts the ranks, which meet through mpi:// (each rank's number from mpirun) and
#    check every collective and reduction for every dtype the engine reduces (gloo's, float16,
#    bfloat16, bool and complex) against a double-precision reference, large collectives from
#    64 KiB on run as an arrival barrier and MPI's blocking call (KF_MPI_BLOCKING_BYTES);
#  - distributed.mpi_stalled_call: one rank of 2 never calls all_reduce; the other's ends with
#    KF_TIMEOUT inside the timeout;
#  - distributed.mpi_split: kf_comm_split on 4 ranks (by parity, and with one rank left out),
#    through the plugin's comm_split slot (MPI_Comm_split);
#  - distributed.doctor_lists_mpi: `kernforge doctor` has a line for the plugin.
# The mpirun tests are skipped, saying why, where mpirun is not found (Debian: openmpi-bin).
if(NOT TARGET kernforge_mpi)
  return()  # the mpi plugin is not built here (KF_BACKEND_MPI, or libopenmpi-dev missing)
endif()
add_dependencies(kernforge_collective_worker kernforge_mpi)
add_test(NAME distributed.mpi_refusals
  COMMAND kernforge_collective_worker mpi-refusals "${CMAKE_CURRENT_BINARY_DIR}")
set_tests_properties(distributed.mpi_refusals PROPERTIES LABELS distributed TIMEOUT 30)
add_test(NAME distributed.doctor_lists_mpi COMMAND kernforge_cli doctor)
set_tests_properties(distributed.doctor_lists_mpi PROPERTIES LABELS distributed TIMEOUT 60
  PASS_REGULAR_EXPRESSION "\n  mpi \\(cpu\\): loaded [^\n]*mpi:// rendezvous")

find_program(KF_MPIRUN NAMES mpirun mpiexec)
set(kf_mpi_tests distributed.mpi_2 distributed.mpi_4 distributed.mpi_stalled_call
    distributed.mpi_split)
if(NOT KF_MPIRUN)
  foreach(name IN LISTS kf_mpi_tests)
    add_test(NAME ${name} COMMAND "${CMAKE_COMMAND}" -E echo
             "SKIPPED: mpirun was not found (Debian: apt install openmpi-bin)")
    set_tests_properties(${name} PROPERTIES LABELS distributed SKIP_REGULAR_EXPRESSION SKIPPED)
  endforeach()
  return()
endif()
foreach(world 2 4)
  add_test(NAME distributed.mpi_${world}
    COMMAND ${kf_run_ranks} collectives --world ${world} --timeout-ms 10000 --limit 100
            --mpirun "${KF_MPIRUN}")
endforeach()
add_test(NAME distributed.mpi_stalled_call
  COMMAND ${kf_run_ranks} stall --world 2 --timeout-ms 1500 --limit 25 --mpirun "${KF_MPIRUN}")
add_test(NAME distributed.mpi_split
  COMMAND ${kf_run_ranks} split --world 4 --timeout-ms 10000 --limit 60 --mpirun "${KF_MPIRUN}")
set_tests_properties(${kf_mpi_tests} PROPERTIES LABELS distributed TIMEOUT 120)
# The arrival-then-blocking path of large collectives (4 MiB by default) from 64 KiB on, which
# the 70000-element size reaches for every dtype.
set_tests_properties(distributed.mpi_2 distributed.mpi_4 PROPERTIES
  ENVIRONMENT KF_MPI_BLOCKING_BYTES=65536)

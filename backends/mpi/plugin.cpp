// The MPI collective plugin's table (kernforge/collective.h): the entry symbol, the engine's
// line for kernforge doctor, and the slots of mpi_comm.hpp, mpi_ops.hpp and mpi_work.hpp.
#include <string>

#include <mpi.h>

#include "mpi_comm.hpp"
#include "mpi_ops.hpp"
#include "mpi_work.hpp"

namespace {

// "Open MPI v4.1.4 (MPI 3.1); mpi:// rendezvous": the library's own first words. Both calls
// may come before MPI_Init.
const char* describe() {
  static const std::string line = [] {
    char text[MPI_MAX_LIBRARY_VERSION_STRING] = {0};
    int length = 0;
    std::string library = "MPI";
    if (MPI_Get_library_version(text, &length) == MPI_SUCCESS && length > 0) {
      library.assign(text, static_cast<size_t>(length));
      library = library.substr(0, library.find_first_of(",\n"));
    }
    int major = 0, minor = 0;
    (void)MPI_Get_version(&major, &minor);
    return library + " (MPI " + std::to_string(major) + "." + std::to_string(minor) +
           "); mpi:// rendezvous";
  }();
  return line.c_str();
}

kf_collective_plugin_t make_table() {
  kf_collective_plugin_t t{};
  t.struct_size = sizeof t;
  t.abi_major = KF_COLLECTIVE_ABI_MAJOR;
  t.abi_minor = KF_COLLECTIVE_ABI_MINOR;
  t.name = "mpi";
  t.version = KF_MPI_VERSION;
  t.device_type = "cpu";
  t.describe = &describe;
  t.comm_init = &kfmpi::comm_init;
  t.comm_destroy = &kfmpi::comm_destroy;
  t.comm_abort = &kfmpi::comm_abort;
  t.comm_split = &kfmpi::comm_split;
  t.all_reduce = &kfmpi::all_reduce;
  t.broadcast = &kfmpi::broadcast;
  t.all_gather = &kfmpi::all_gather;
  t.reduce_scatter = &kfmpi::reduce_scatter;
  t.send = &kfmpi::send;
  t.recv = &kfmpi::recv;
  t.barrier = &kfmpi::barrier;
  t.work_wait = &kfmpi::work_wait;
  t.work_test = &kfmpi::work_test;
  t.work_release = &kfmpi::work_release;
  return t;
}

}  // namespace

extern "C" KF_PLUGIN_EXPORT const kf_collective_plugin_t* kf_collective_get(uint32_t host_major,
                                                                          uint32_t host_minor) {
  (void)host_minor;
  if (host_major != KF_COLLECTIVE_ABI_MAJOR) return nullptr;
  static const kf_collective_plugin_t table = make_table();
  return &table;
}

// The MPI collective plugin's table (kernforge/collective.h): the entry symbol, the engine's
// line for kernforge doctor, and the slots of mpi_comm.hpp, mpi_ops.hpp and mpi_work.hpp.
#include <string>

#include <mpi.h>

#include "kernforge/collective_table.hpp"
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
  kf_collective_plugin_t t = kf::collective::table("mpi", KF_MPI_VERSION, "cpu");
  t.describe = &describe;
  KF_COLLECTIVE_SLOTS(t, kfmpi);
  t.comm_split = &kfmpi::comm_split;
  return t;
}

}  // namespace

KF_COLLECTIVE_PLUGIN_DEFINE(make_table)

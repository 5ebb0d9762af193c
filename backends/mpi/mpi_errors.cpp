#include "mpi_errors.hpp"

#include <string>

#include <mpi.h>

namespace kfmpi {
namespace {

bool is_argument_class(int c) {
  switch (c) {
    case MPI_ERR_BUFFER: case MPI_ERR_COUNT: case MPI_ERR_TYPE: case MPI_ERR_TAG:
    case MPI_ERR_RANK: case MPI_ERR_ROOT: case MPI_ERR_OP: case MPI_ERR_ARG:
    case MPI_ERR_TRUNCATE: case MPI_ERR_DIMS: case MPI_ERR_GROUP: case MPI_ERR_TOPOLOGY:
      return true;
    default:
      return false;
  }
}

}  // namespace

kf_status_t status_of_mpi(int code) noexcept {
  int c = MPI_ERR_UNKNOWN;
  if (MPI_Error_class(code, &c) != MPI_SUCCESS) return KF_INTERNAL;
  if (is_argument_class(c)) return KF_INVALID_ARGUMENT;
  if (c == MPI_ERR_NO_MEM) return KF_OUT_OF_MEMORY;
  if (c == MPI_ERR_INTERN) return KF_INTERNAL;
  if (c == MPI_ERR_UNSUPPORTED_OPERATION || c == MPI_ERR_UNSUPPORTED_DATAREP) {
    return KF_UNIMPLEMENTED;
  }
  return KF_UNAVAILABLE;  // MPI_ERR_COMM, MPI_ERR_OTHER, ...: a peer or transport failed
}

std::string mpi_text(const char* what, int code) {
  char text[MPI_MAX_ERROR_STRING] = {0};
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) length = 0;
  int c = MPI_ERR_UNKNOWN;
  (void)MPI_Error_class(code, &c);
  return std::string(what) + ": " + (length > 0 ? std::string(text, length) : "unknown error") +
         " (MPI error class " + std::to_string(c) + ")";
}

void check_mpi(int code, const char* what) {
  if (code != MPI_SUCCESS) throw PluginError(status_of_mpi(code), mpi_text(what, code));
}

}  // namespace kfmpi

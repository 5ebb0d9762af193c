// How the MPI plugin turns errors into statuses and the engine's text (kernforge/collective.h).
// The plugin's communicators return MPI's errors (MPI_ERRORS_RETURN) instead of ending the job,
// and mpi_errors.cpp maps each MPI error class to a status, with MPI_Error_string's text:
// arguments MPI refuses (count, type, op, rank, root, tag, truncation) are
// KF_INVALID_ARGUMENT, MPI_ERR_NO_MEM KF_OUT_OF_MEMORY, a failed peer or transport
// KF_UNAVAILABLE, MPI_ERR_INTERN KF_INTERNAL; a PluginError carries its own status.
#pragma once

#include <string>

#include "kernforge/collective_errors.hpp"
#include "kernforge/types.h"

namespace kfmpi {

using kf::collective::PluginError;  // an error of the plugin's own (a dtype, a rendezvous)
using kf::collective::guarded;      // runs a slot's body: KF_OK, or what it threw as a status
using kf::collective::write_error;

/// The status of an MPI error code (by its class).
kf_status_t status_of_mpi(int code) noexcept;
/// "<what>: <MPI_Error_string> (<the class>)".
std::string mpi_text(const char* what, int code);
/// Throws a PluginError for an MPI return code other than MPI_SUCCESS, naming the call.
void check_mpi(int code, const char* what);

}  // namespace kfmpi

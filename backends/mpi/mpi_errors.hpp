// How the MPI plugin turns errors into statuses and the engine's text (kernforge/collective.h).
// The plugin's communicators return MPI's errors (MPI_ERRORS_RETURN) instead of ending the job,
// and mpi_errors.cpp maps each MPI error class to a status, with MPI_Error_string's text:
// arguments MPI refuses (count, type, op, rank, root, tag, truncation) are
// KF_INVALID_ARGUMENT, MPI_ERR_NO_MEM KF_OUT_OF_MEMORY, a failed peer or transport
// KF_UNAVAILABLE, MPI_ERR_INTERN KF_INTERNAL; a PluginError carries its own status.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

#include "kernforge/types.h"

namespace kfmpi {

/// An error of the plugin's own (a dtype MPI cannot reduce, a rendezvous it does not take).
struct PluginError : std::runtime_error {
  PluginError(kf_status_t s, const std::string& text) : std::runtime_error(text), status(s) {}
  kf_status_t status;
};

/// The status of an MPI error code (by its class).
kf_status_t status_of_mpi(int code) noexcept;
/// "<what>: <MPI_Error_string> (<the class>)".
std::string mpi_text(const char* what, int code);
/// Throws a PluginError for an MPI return code other than MPI_SUCCESS, naming the call.
void check_mpi(int code, const char* what);

/// Writes `text` into the caller's buffer (truncated, NUL-terminated).
void write_error(char* error, size_t cap, const std::string& text) noexcept;
/// The status of the exception being handled, its text written to `error`.
kf_status_t current_status(char* error, size_t cap) noexcept;

/// Runs `fn`; KF_OK, or what it threw as a status and text.
template <class F>
kf_status_t guarded(char* error, size_t cap, F&& fn) noexcept {
  try {
    fn();
    return KF_OK;
  } catch (...) {
    return current_status(error, cap);
  }
}

}  // namespace kfmpi

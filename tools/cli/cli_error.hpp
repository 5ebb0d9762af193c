// cli_error.hpp — how the `kernforge` command reports failures: a CliError carries the text and
// the exit code; main() prints it to stderr and exits with that code.
#pragma once

#include <stdexcept>
#include <string>

#include "kernforge/kernforge.h"
#include "terminal_text.hpp"

namespace kf::cli {

/// Exit codes of the command: 0 success, 1 a runtime failure, 2 a bad request (unknown op),
/// 74 (EX_IOERR) the output could not be written (main.cpp). doctor has its own 0/1/2.
enum ExitCode : int { kExitOk = 0, kExitFailure = 1, kExitUsage = 2, kExitOutputError = 74 };

class CliError : public std::runtime_error {
 public:
  CliError(const std::string& message, int exit_code)
      : std::runtime_error(message), exit_code_(exit_code) {}
  int exit_code() const { return exit_code_; }

 private:
  int exit_code_;
};

/// Throws CliError (exit 1) naming `what`, the status and kf_last_error_message() (made
/// terminal_safe: the runtime's messages quote outside text).
inline void check(kf_status_t status, const std::string& what) {
  if (status != KF_OK) {
    throw CliError(terminal_safe(what + " failed: " + kf_status_name(status) + ": " +
                                 kf_last_error_message()),
                   kExitFailure);
  }
}

/// A C string from the C ABI, "" for NULL.
inline std::string str(const char* s) { return s ? s : ""; }

}  // namespace kf::cli

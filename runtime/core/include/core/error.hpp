// Errors inside the core: one style. Internal code throws kf::Error(status, message) with the
// context a user needs; every C ABI entry point catches once, at the boundary (kf::guard), and
// turns it into a status plus the thread-local message kf_last_error_message() returns. Calls
// into plugins return statuses; check_status turns those into exceptions where they are made.
// Nothing throws across either ABI.
#pragma once

#include <spdlog/fmt/fmt.h>

#include <exception>
#include <string>
#include <utility>

#include "kernforge/types.h"

namespace kf {

class Error : public std::exception {
 public:
  Error(kf_status_t status, std::string message)
      : status_(status), message_(std::move(message)) {}
  kf_status_t status() const noexcept { return status_; }
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  kf_status_t status_;
  std::string message_;
};

#if defined(__GNUC__)
#define KF_COLD __attribute__((cold, noinline))
#else
#define KF_COLD
#endif

/// Throws kf::Error with a formatted message. Cold and out of line, so error paths do not
/// weigh on the code around them.
template <class... A>
[[noreturn]] KF_COLD void fail(kf_status_t status, fmt::format_string<A...> format, A&&... args) {
  throw Error(status, fmt::format(format, std::forward<A>(args)...));
}

/// "KF_OK", "KF_INVALID_ARGUMENT", ... ("KF_UNKNOWN_STATUS" for other values).
const char* status_name(kf_status_t status) noexcept;

/// Sets this thread's last error message.
void set_last_error(const char* message) noexcept;
const char* last_error() noexcept;

/// Records `status`/`message` as this thread's last error and returns the status.
kf_status_t report(kf_status_t status, const char* message) noexcept;

/// Converts the exception in flight into a status and message (call inside catch (...)).
kf_status_t report_current_exception() noexcept;

/// Runs `fn` (returning kf_status_t or void) and converts any exception into a status.
template <class F>
kf_status_t guard(F&& fn) noexcept {
  try {
    if constexpr (std::is_void_v<decltype(fn())>) {
      fn();
      return KF_OK;
    } else {
      return fn();
    }
  } catch (...) {
    return report_current_exception();
  }
}

/// Throws when a status from a call is not KF_OK, keeping its message and adding context.
void check_status(kf_status_t status, const char* context);

}  // namespace kf


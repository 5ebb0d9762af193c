#include "core/error.hpp"

#include <new>
#include <string>

#include "core/plugin_call.hpp"

namespace kf {
namespace {

// Note [Reporting out of memory]
// The thread's message is a std::string, and storing a message may need memory. Reporting must
// work when there is none: a message that cannot be stored is replaced by a fixed text (a
// literal, so nothing is allocated), and std::bad_alloc is reported with a literal from the
// start. last_error() returns the literal while one is set.
thread_local std::string t_last_error;
thread_local const char* t_fixed_error = nullptr;

constexpr const char* kOutOfHostMemory = "out of host memory";
constexpr const char* kMessageLost =
    "out of host memory while recording the error message (the message is lost)";

}  // namespace

void set_last_error(const char* message) noexcept {
  ++ErrorSerial::value;  // Note [Plugin statuses and messages]
  try {
    t_last_error = message != nullptr ? message : "";
    t_fixed_error = nullptr;
  } catch (...) {
    t_fixed_error = kMessageLost;
  }
}

const char* last_error() noexcept {
  return t_fixed_error != nullptr ? t_fixed_error : t_last_error.c_str();
}

kf_status_t report(kf_status_t status, const char* message) noexcept {
  set_last_error(message);
  return status;
}

kf_status_t report_current_exception() noexcept {
  try {
    throw;
  } catch (const Error& e) {
    return report(e.status(), e.what());
  } catch (const std::bad_alloc&) {
    ++ErrorSerial::value;  // a message is set (Note [Plugin statuses and messages])
    t_fixed_error = kOutOfHostMemory;  // Note [Reporting out of memory]
    return KF_OUT_OF_MEMORY;
  } catch (const std::exception& e) {
    std::string text;
    try {
      text = std::string("internal error: ") + e.what();
    } catch (...) {
    }
    set_last_error(text.empty() ? e.what() : text.c_str());
    return KF_INTERNAL;
  } catch (...) {
    return report(KF_INTERNAL, "internal error: unknown exception");
  }
}

void check_status(kf_status_t status, const char* context) {
  if (status == KF_OK) return;
  std::string message = last_error();
  if (context != nullptr && *context != '\0') message = std::string(context) + ": " + message;
  throw Error(status, message);
}

const char* status_name(kf_status_t status) noexcept {
  switch (status) {
    case KF_OK: return "KF_OK";
    case KF_INVALID_ARGUMENT: return "KF_INVALID_ARGUMENT";
    case KF_OUT_OF_MEMORY: return "KF_OUT_OF_MEMORY";
    case KF_NOT_FOUND: return "KF_NOT_FOUND";
    case KF_UNIMPLEMENTED: return "KF_UNIMPLEMENTED";
    case KF_UNAVAILABLE: return "KF_UNAVAILABLE";
    case KF_ALREADY_EXISTS: return "KF_ALREADY_EXISTS";
    case KF_FAILED_PRECONDITION: return "KF_FAILED_PRECONDITION";
    case KF_ABI_MISMATCH: return "KF_ABI_MISMATCH";
    case KF_INTERNAL: return "KF_INTERNAL";
    case KF_OUT_OF_RANGE: return "KF_OUT_OF_RANGE";
    case KF_BUFFER_TOO_SMALL: return "KF_BUFFER_TOO_SMALL";
    case KF_PERMISSION_DENIED: return "KF_PERMISSION_DENIED";
    case KF_TIMEOUT: return "KF_TIMEOUT";
    case KF_STATUS_MAX_ENUM: break;
  }
  return "KF_UNKNOWN_STATUS";
}

}  // namespace kf

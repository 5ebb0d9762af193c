#include "core/error.hpp"

#include <new>
#include <string>

#include "core/plugin_call.hpp"

namespace kf {
namespace {
thread_local std::string t_last_error;
}  // namespace

void set_last_error(const char* message) noexcept {
  ++ErrorSerial::value;  // Note [Plugin statuses and messages]
  try {
    t_last_error = message != nullptr ? message : "";
  } catch (...) {
    // Out of memory while recording an error: keep the previous text.
  }
}

const char* last_error() noexcept { return t_last_error.c_str(); }

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
    return report(KF_OUT_OF_MEMORY, "out of host memory");
  } catch (const std::exception& e) {
    set_last_error((std::string("internal error: ") + e.what()).c_str());
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
    case KF_STATUS_MAX_ENUM: break;
  }
  return "KF_UNKNOWN_STATUS";
}

}  // namespace kf

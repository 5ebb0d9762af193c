// errors.cpp — how the toy plugin reports a failure: a status for the core and a message for
// the user, set through the host API (plugin.h: kf_host_api_t.set_error).
#include <cstdarg>
#include <cstdio>

#include "kernforge/plugin.hpp"
#include "toy.hpp"

namespace toy {

kf_status_t fail(kf_status_t status, const char* format, ...) {
  static constexpr char kPrefix[] = "toy: ";  // the user may have several plugins: name ours
  char message[512];
  std::snprintf(message, sizeof message, "%s", kPrefix);
  va_list args;
  va_start(args, format);
  std::vsnprintf(message + sizeof kPrefix - 1, sizeof message - (sizeof kPrefix - 1), format,
                 args);
  va_end(args);
  const kf_host_api_t* host = kf::plugin::host();
  if (host != nullptr && host->set_error != nullptr) host->set_error(message);
  return status;
}

}  // namespace toy

// config.cpp — the toy device's two settings, from the environment.
//
// A plugin reads its own variables (the core reads only KERNFORGE_* variables it knows). A value
// that is not understood is an error that says what was wrong and what to do, never silently
// replaced by the default: the plugin then fails to start and `kernforge doctor` shows why.
#include <cerrno>
#include <cstdlib>

#include "toy.hpp"

namespace toy {
namespace {

// Reads variable `name` as a whole number in [lo, hi] into *out; leaves *out alone when unset.
bool read_number(const char* name, uint64_t lo, uint64_t hi, uint64_t* out, std::string* error) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return true;
  char* end = nullptr;
  errno = 0;
  const unsigned long long value = std::strtoull(text, &end, 10);
  if (errno == 0 && *end == '\0' && text[0] != '-' && value >= lo && value <= hi) {
    *out = value;
    return true;
  }
  *error = std::string(name) + "='" + text + "' is not a whole number from " +
           std::to_string(lo) + " to " + std::to_string(hi) + "; set it to one, or unset it";
  return false;
}

}  // namespace

kf_status_t read_config(Config* out, std::string* error) {
  uint64_t devices = static_cast<uint64_t>(out->devices);
  if (!read_number("KERNFORGE_TOY_DEVICES", 1, 16, &devices, error) ||
      !read_number("KERNFORGE_TOY_MEMORY_MB", 1, 65536, &out->memory_mb, error)) {
    return KF_INVALID_ARGUMENT;
  }
  out->devices = static_cast<int32_t>(devices);
  return KF_OK;
}

}  // namespace toy

#include "gloo_errors.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <new>

#include <gloo/common/error.h>

namespace kfgloo {
namespace {

bool says_timeout(const std::string& text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower.find("timed out") != std::string::npos ||
         lower.find("timeout") != std::string::npos;
}

}  // namespace

void write_error(char* error, size_t cap, const std::string& text) noexcept {
  if (error == nullptr || cap == 0) return;
  const size_t n = std::min(cap - 1, text.size());
  std::memcpy(error, text.data(), n);
  error[n] = '\0';
}

kf_status_t current_status(char* error, size_t cap) noexcept {
  try {
    throw;
  } catch (const PluginError& e) {
    write_error(error, cap, e.what());
    return e.status;
  } catch (const gloo::IoException& e) {
    write_error(error, cap, e.what());
    return says_timeout(e.what()) ? KF_TIMEOUT : KF_UNAVAILABLE;
  } catch (const std::bad_alloc&) {
    write_error(error, cap, "out of host memory");
    return KF_OUT_OF_MEMORY;
  } catch (const std::exception& e) {
    write_error(error, cap, e.what());
    return says_timeout(e.what()) ? KF_TIMEOUT : KF_INTERNAL;
  } catch (...) {
    write_error(error, cap, "an unknown exception");
    return KF_INTERNAL;
  }
}

}  // namespace kfgloo

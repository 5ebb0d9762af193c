#include "gloo_errors.hpp"

#include <algorithm>
#include <cctype>
#include <string>

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

kf_status_t gloo_status(const std::exception& e) noexcept {
  try {
    const bool timeout = says_timeout(e.what());
    if (dynamic_cast<const gloo::IoException*>(&e) != nullptr) {
      return timeout ? KF_TIMEOUT : KF_UNAVAILABLE;
    }
    return timeout ? KF_TIMEOUT : KF_INTERNAL;
  } catch (...) {
    return KF_INTERNAL;  // no memory for the lower-case copy
  }
}

}  // namespace kfgloo

// Note [Plugin statuses and messages] is in plugin_call.hpp.
#include "core/plugin_call.hpp"

#include "kernforge/plugin.h"

namespace kf {

kf_status_t known_status(int32_t raw) noexcept {
  return raw >= KF_OK && raw <= KF_PERMISSION_DENIED ? static_cast<kf_status_t>(raw)
                                                     : KF_INTERNAL;
}

PluginFailure PluginCall::failure(int32_t raw) const {
  const kf_status_t status = known_status(raw);
  const bool said = message_set() && *last_error() != '\0';
  if (static_cast<int32_t>(status) == raw) {
    if (said) return {status, std::string(last_error())};
    // Out of memory is the one failure that needs no message to be understood (and the plugin
    // may have had no memory left to give one).
    return {status, fmt::format("{}the plugin gave no message (it returned {} without calling "
                                "set_error)",
                                status == KF_OUT_OF_MEMORY ? "out of memory: " : "",
                                status_name(status))};
  }
  std::string text = fmt::format("the plugin returned status {}, which plugin ABI {}.{} does not "
                                 "define (reported as KF_INTERNAL)",
                                 raw, KF_PLUGIN_ABI_MAJOR,
                                 KF_PLUGIN_ABI_MINOR);
  text += said ? std::string("; its message: ") + last_error() : ", and gave no message";
  return {status, std::move(text)};
}

void PluginCall::fail(int32_t raw, const std::string& what) const {
  PluginFailure f = failure(raw);
  throw Error(f.status, fmt::format("{} failed ({}): {}", what, status_name(f.status), f.message));
}

}  // namespace kf

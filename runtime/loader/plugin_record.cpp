#include "loader/plugin_record.hpp"

namespace kf {

const std::string& plugin_details(const PluginRecord& r) {
  static const std::string none;
  if (r.described == nullptr || r.backend == nullptr) return none;
  DescribedOnce& d = *r.described;
  try {
    std::call_once(d.once, [&] {
      char buf[512] = {};
      if (r.plugin->describe(r.backend->plugin_state(), buf, sizeof(buf)) != KF_OK) return;
      buf[sizeof(buf) - 1] = '\0';
      d.text = buf;
    });
  } catch (...) {  // a throwing describe(), or no memory for the text: no line, asked again later
    return none;
  }
  return d.text;
}

const char* backend_state_name(int32_t state) noexcept {
  switch (state) {
    case KF_BACKEND_LOADED: return "loaded";
    case KF_BACKEND_UNAVAILABLE: return "unavailable";
    case KF_BACKEND_REJECTED: return "rejected";
    case KF_BACKEND_SHADOWED: return "shadowed";
    default: return "unknown";
  }
}

}  // namespace kf

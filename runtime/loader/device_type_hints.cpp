#include "loader/device_type_hints.hpp"

#include "core/device_type_hint.hpp"
#include "loader/plugin_records.hpp"

namespace kf {

std::string device_type_hints(const std::string& type_name) {
  std::string out;
  const int32_t n = record_count();
  for (int32_t i = 0; i < n; ++i) {
    const PluginRecord* r = record_at(i);
    if (r == nullptr || r->state == KF_BACKEND_LOADED || r->device_type_name != type_name) {
      continue;
    }
    out += (out.empty() ? "" : "; ") + std::string("plugin '") + r->name +
           "' declares device type '" + type_name + "' but is " +
           backend_state_name(r->state) + ": " + r->reason;
  }
  return out;
}

void install_device_type_hints() noexcept { set_device_type_hint(&device_type_hints); }

}  // namespace kf

#include "loader/loader_env.hpp"

#include <optional>
#include <sstream>

#include "loader/os.hpp"

namespace kf {

const std::vector<const char*>& loader_variables() {
  static const std::vector<const char*> names{
      "KERNFORGE_PLUGIN_PATH", "KERNFORGE_AUTOLOAD", "KERNFORGE_DISABLE_PLUGINS",
      "KERNFORGE_ALLOW_INSECURE_PLUGINS", "KERNFORGE_LOG_LEVEL", "KERNFORGE_CPU_FALLBACK",
      "LD_LIBRARY_PATH"};
  return names;
}

bool autoload_disabled_by_env() { return os::get_env("KERNFORGE_AUTOLOAD") == "0"; }

bool disabled_by_env(const std::string& name) {
  const std::optional<std::string> v = os::get_env("KERNFORGE_DISABLE_PLUGINS");
  if (!v) return false;
  std::stringstream ss(*v);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item == name) return true;
  }
  return false;
}

bool insecure_plugins_allowed() {
  return os::get_env("KERNFORGE_ALLOW_INSECURE_PLUGINS") == "1";
}

}  // namespace kf

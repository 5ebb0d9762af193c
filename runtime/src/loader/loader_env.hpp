// The loader's environment variables, read with secure_getenv (ignored in setuid/setgid
// processes): KERNFORGE_PLUGIN_PATH, KERNFORGE_AUTOLOAD=0, KERNFORGE_DISABLE_PLUGINS=a,b and
// KERNFORGE_ALLOW_INSECURE_PLUGINS=1.
#pragma once

#include <string>
#include <vector>

namespace kf {

/// Every variable the loader and the report look at, in the report's order.
const std::vector<const char*>& loader_variables();
/// KERNFORGE_AUTOLOAD is "0".
bool autoload_disabled_by_env();
/// `name` is listed in KERNFORGE_DISABLE_PLUGINS.
bool disabled_by_env(const std::string& name);
/// KERNFORGE_ALLOW_INSECURE_PLUGINS is "1".
bool insecure_plugins_allowed();

}  // namespace kf

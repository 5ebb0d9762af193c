// Opening a plugin library: one load per real path, file security, dlopen RTLD_NOW |
// RTLD_LOCAL, kf_plugin_get, ABI negotiation, score.
#pragma once

#include "loader/plugin_record.hpp"

namespace kf {

/// False (with the record failed) when the plugin cannot be activated.
bool open_plugin(PluginRecord& r);

}  // namespace kf

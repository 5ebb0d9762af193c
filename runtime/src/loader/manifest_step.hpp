// The first step of loading a plugin from its manifest: everything decided before the plugin
// library is opened (parse, KERNFORGE_DISABLE_PLUGINS, requires, the declared ABI, file
// security), then its native dependencies (dependencies.hpp).
#pragma once

#include <string>

#include "loader/plugin_record.hpp"

namespace kf {

/// False (with the record failed) when the plugin must not be opened.
bool apply_manifest(PluginRecord& r, const std::string& manifest_path);

}  // namespace kf

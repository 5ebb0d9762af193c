// The first step of loading a plugin from its manifest: everything decided before the plugin
// library is opened (the manifest file's trust check, then reading and parsing it,
// KERNFORGE_DISABLE_PLUGINS, requires, the declared ABI), then its native dependencies
// (dependencies.hpp).
#pragma once

#include <string>

#include "loader/plugin_record.hpp"

namespace kf {

/// False (with the record failed) when the plugin must not be opened. With `may_defer` (at
/// start-up), false with r.deferred set when the manifest asks to start on first use: nothing
/// of the plugin is loaded, not even its dependencies (core/first_use.hpp).
bool apply_manifest(PluginRecord& r, const std::string& manifest_path, bool may_defer);

}  // namespace kf

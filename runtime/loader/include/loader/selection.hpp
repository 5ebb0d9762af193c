// Which plugin serves a device type (step 8 of the load order, docs/loader.md). Among the plugins
// of one device type that reached their score, the first of these is activated, and the next one
// when it fails:
//   1. the plugin KERNFORGE_PREFER_PLUGINS names for that device type (the user's choice);
//   2. a plugin shipped with the core: its manifest and its library in the core's own plugin
//      folder, <libdir>/kernforge/plugins;
//   3. the best score, then the highest priority.
// So a plugin found anywhere else (KERNFORGE_PLUGIN_PATH, kf_init, kf_load_plugin) never takes a
// device type from a shipped plugin by declaring a higher score or priority: replacing a built-in
// backend takes the user's explicit choice, and `kernforge doctor` says which plugin serves each
// device type. Thread safety: called with the loader lock held.
#pragma once

#include <string>

#include "loader/plugin_record.hpp"

namespace kf {

/// Sets r.shipped and r.preferred from where its files are and KERNFORGE_PREFER_PLUGINS.
void classify_for_selection(PluginRecord& r);

/// Whether `a` is tried before `b` for their device type.
bool serves_before(const PluginRecord* a, const PluginRecord* b);

/// Why `r` is shadowed by `winner`, which serves their device type, and what to do.
std::string shadow_reason(const PluginRecord& r, const PluginRecord& winner);

}  // namespace kf

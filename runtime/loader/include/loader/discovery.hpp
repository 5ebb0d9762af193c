// Discovery of plugin manifests (step 2 of the load order, docs/loader.md), in order: explicit
// paths (kf_init options), KERNFORGE_PLUGIN_PATH (absolute folders, read with secure_getenv), and
// the plugin folder next to libkernforge (<libdir>/kernforge/plugins/, found from the core's own
// location so installs relocate). The Python frontend adds its entry points last, after start-up.
// KERNFORGE_AUTOLOAD=0 keeps only the explicit paths.
#pragma once

#include <string>
#include <vector>

#include "loader/plugin_loader.hpp"

namespace kf {

/// The core's own plugin folder, <folder of libkernforge>/kernforge/plugins ("" when the core's
/// location is unknown); plugins found there are the ones shipped with the core.
std::string core_plugin_folder();

std::vector<LoadRequest> discover_plugins(const std::vector<std::string>& explicit_paths,
                                          bool autoload);

}  // namespace kf

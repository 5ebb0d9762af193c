// A plugin's native dependencies (step 4 of the load order, docs/loader.md): its "global_deps"
// loaded with RTLD_GLOBAL, then its "preload" list in the manifest's order (cublasLt before cublas,
// as PyTorch learned). A library of that soname already loaded in the process (whatever its file is
// called: os::loaded_library_path) is used, not loaded twice, and the report says which copy is
// live. Each library is looked up in the search roots in order, then where the system's own
// search would look (os::find_system_library: never the current directory); the file found passes
// trust_file (security.hpp) and is opened by its real path. A missing required one makes the
// plugin unavailable with a message naming the library and every place searched. Names are bare
// sonames (the manifest parser refuses a '/', '\', ':' or '..').
#pragma once

#include <string>

#include "loader/plugin_record.hpp"
#include "loader/manifest.hpp"

namespace kf {

struct LoadFailure {
  kf_backend_state_t state = KF_BACKEND_UNAVAILABLE;
  kf_status_t status = KF_UNAVAILABLE;
  std::string reason;
};

/// Loads everything the manifest lists, recording each in b.dependencies and the report.
/// Returns false with `failure` set when a required library cannot be had.
bool load_dependencies(PluginRecord& b, const Manifest& m, LoadFailure& failure);

}  // namespace kf

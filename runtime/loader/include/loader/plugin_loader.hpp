// Loading plugins (steps 3-6 of the load order, docs/loader.md): requires -> preload ->
// dlopen(RTLD_NOW | RTLD_LOCAL) -> kf_plugin_get -> ABI check -> score -> init ->
// register_kernels (one transaction) -> devices. A plugin that fails is recorded with its reason; the rest go on.
// Plugins are never dlclose'd.
#pragma once

#include <string>
#include <vector>

#include "loader/plugin_record.hpp"

namespace kf {

struct LoadRequest {
  std::string path;    // a manifest (.json) or a plugin library
  std::string source;  // where it was found: "kf_init", "KERNFORGE_PLUGIN_PATH", ...
};

/// Loads a batch: among plugins of one device type the best score, then priority, wins and
/// the others are shadowed. Publishes one record per request, in order (a failure may be left
/// out: Note [A bounded plugin table]). With `may_defer` (start-up), the device types whose
/// plugins all start on first use are set aside until then (Note [Backends started on first
/// use], core/first_use.hpp); their records are published when they start. Must be called with
/// the loader lock held.
void load_plugins(const std::vector<LoadRequest>& requests, bool may_defer);

/// A plugin set aside until its first use, as the load report lists it.
struct DeferredPlugin {
  std::string name, device_type, library_path, manifest_path, source;
  bool collective = false;  // a collective plugin's ("kind": "collective")
};

/// Starts only the deferred collective plugins (kf_comm_create): a process that makes a
/// communicator loads its engines, not the device drivers that also wait. Thread-safe; takes the
/// loader lock.
void start_deferred_collectives();

/// The plugins still waiting for their first use. Thread-safe.
std::vector<DeferredPlugin> deferred_plugins();

/// Loads one plugin after start-up (kf_load_plugin); throws with the reason when it does not
/// end up loaded.
void load_one_plugin(const LoadRequest& request);

}  // namespace kf

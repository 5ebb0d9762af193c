// What the loader knows of one plugin it found, in any state of kf_backend_state_t: where it came
// from, its manifest and library, its dependencies, why it is not loaded, and, once its init
// succeeded, the Backend (device/backend.hpp) that the rest of the core uses. A record is built
// privately while its plugin loads and published when the load is over (plugin_records.hpp);
// after that it never changes, so the C ABI hands out its strings for the life of the process.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "device/backend.hpp"
#include "kernforge/collective.h"
#include "kernforge/kernforge.h"
#include "kernforge/plugin.h"
#include "loader/kernel_catalogue.hpp"

namespace kf {

/// A library loaded for a plugin before it (its global_deps and preload lists).
struct DependencyRecord {
  std::string soname;
  std::string path;     // the live copy ("" when missing)
  std::string how;      // "loaded", "already mapped", "missing", "refused"
  bool global = false;  // loaded RTLD_GLOBAL (a global_deps entry)
};

/// A loaded plugin's describe() line, asked once, on its first read (plugin_details).
struct DescribedOnce {
  std::once_flag once;
  std::string text;
};

struct PluginRecord {
  std::string name;
  std::string version;
  std::string device_type_name;
  std::string library_path;
  std::string manifest_path;
  std::string reason;            // why it is not loaded ("" when loaded)
  std::string source;            // where it was found: "kf_init", "KERNFORGE_PLUGIN_PATH", ...
  std::shared_ptr<DescribedOnce> described;  // set at activation when it has describe()
  std::vector<DependencyRecord> dependencies;
  kf_backend_state_t state = KF_BACKEND_UNAVAILABLE;
  kf_status_t failure = KF_OK;   // the status kf_load_plugin reports when not loaded
  int32_t score = 0;
  int32_t priority = 0;
  bool shipped = false;          // found in the core's own plugin folder (selection.hpp)
  bool preferred = false;        // named for its device type by KERNFORGE_PREFER_PLUGINS
  bool deferred = false;         // set aside until its first use (core/first_use.hpp)
  bool collective = false;       // "kind": "collective" (loader/collective_records.hpp)
  const kf_plugin_t* plugin = nullptr;
  const kf_collective_plugin_t* collective_plugin = nullptr;  // set when collective
  size_t plugin_struct_size = 0; // how much of *plugin its ABI minor has
  void* library = nullptr;       // the os::Library (never closed)
  Backend* backend = nullptr;    // set when loaded; lives for the process
  std::vector<CatalogueEntry> catalogue;  // unavailable: what it would run (kernel_catalogue.hpp)

  /// Whether the plugin's struct has the optional slot ending at `slot_end` and it is set.
  bool has_slot(size_t slot_end, const void* slot) const noexcept {
    return plugin_has_slot(plugin_struct_size, slot_end) && slot != nullptr;
  }
};

/// Whether record `r`'s plugin has the optional member `field` and it is set.
#define KF_RECORD_HAS(r, field) ((r).has_slot(KF_PLUGIN_SLOT_END(field), \
                                 reinterpret_cast<const void*>((r).plugin->field)))

/// The plugin's describe() line (ABI 1.1), "" without one. Note [describe() on first read]: the
/// loader asks for it the first time a report or kf_backend_info needs it, not at activation,
/// since a line may need what start-up does not (the cpu plugin's names its GEMM engines, which
/// opens oneDNN: about 10 ms). Thread-safe; a describe() that fails or throws gives "".
const std::string& plugin_details(const PluginRecord& r);

/// "loaded", "unavailable", "rejected", "shadowed" ("unknown" for other values).
const char* backend_state_name(int32_t state) noexcept;

}  // namespace kf

#include "loader/manifest_step.hpp"

#include <fmt/format.h>

#include "core/environment.hpp"
#include "core/error.hpp"
#include "kernforge/collective.h"
#include "kernforge/plugin.h"
#include "loader/dependencies.hpp"
#include "loader/driver_gate.hpp"
#include "loader/manifest.hpp"
#include "loader/os.hpp"
#include "loader/step_record.hpp"
#include "loader/requirements.hpp"
#include "loader/security.hpp"

namespace kf {
namespace {

// Everything that needs no file but the manifest: disabled, requires, the declared ABI.
bool check_declared(PluginRecord& b, const Manifest& m) {
  StepTimer t;
  if (env::plugin_disabled(m.name)) {
    return fail_step(b, "requires", m.path, KF_BACKEND_UNAVAILABLE, KF_UNAVAILABLE,
                     "disabled by KERNFORGE_DISABLE_PLUGINS; remove '" + m.name +
                         "' from it to load this plugin", t);
  }
  if (const std::string unmet = unmet_requirements(m); !unmet.empty()) {
    return fail_step(b, "requires", m.path, KF_BACKEND_UNAVAILABLE, KF_UNAVAILABLE,
                     unmet + " (nothing was opened)", t);
  }
  const bool collective = m.kind == "collective";
  const int32_t major = collective ? KF_COLLECTIVE_ABI_MAJOR : KF_PLUGIN_ABI_MAJOR;
  const int32_t minor = collective ? KF_COLLECTIVE_ABI_MINOR : KF_PLUGIN_ABI_MINOR;
  if (m.abi_major != major) {
    return fail_step(b, "abi", m.path, KF_BACKEND_REJECTED, KF_ABI_MISMATCH,
                     fmt::format("manifest {} declares {} ABI {}.{}; this kernforge speaks "
                                 "{}.{}. Install a build of the plugin for this kernforge",
                                 m.path, collective ? "collective" : "plugin", m.abi_major,
                                 m.abi_minor, major, minor), t);
  }
  if (!m.requires_kernforge.empty() && m.requires_kernforge != KF_VERSION_STRING) {
    return fail_step(b, "requires", m.path, KF_BACKEND_REJECTED, KF_ABI_MISMATCH,
                     fmt::format("manifest {} is of plugin '{}' built for kernforge {}, and it "
                                 "needs exactly that core; this is kernforge {}. Install the "
                                 "plugin's build for kernforge {} (a wheel: pip install the "
                                 "backend's package =={}), or kernforge {}",
                                 m.path, m.name, m.requires_kernforge, KF_VERSION_STRING,
                                 KF_VERSION_STRING, KF_VERSION_STRING, m.requires_kernforge), t);
  }
  return true;
}

// The driver gate (driver_gate.hpp): checked before anything of the plugin is loaded or set
// aside for first use, so a plugin whose driver is missing maps nothing, ever.
bool check_driver(PluginRecord& b, const Manifest& m) {
  StepTimer t;
  const GateResult gate = check_driver_gate(m);
  if (!gate.met) {
    return fail_step(b, "driver", m.path, KF_BACKEND_UNAVAILABLE, KF_UNAVAILABLE, gate.reason, t);
  }
  if (!gate.found.empty()) step(b, "driver", m.path, "ok", gate.found, t);
  return true;
}

// The manifest's text, read only once the file passed trust_file: a FIFO or a device is never
// opened, and what is read is the file that was checked.
bool read_manifest(PluginRecord& b, const std::string& manifest_path, Manifest& m) {
  StepTimer t;
  const TrustedFile file = trust_file(manifest_path, "manifest");
  if (!file.ok()) {
    return fail_step(b, file.status == KF_PERMISSION_DENIED ? "security" : "manifest",
                     manifest_path,
                     file.status == KF_NOT_FOUND ? KF_BACKEND_UNAVAILABLE : KF_BACKEND_REJECTED,
                     file.status, file.why, t);
  }
  const os::FileText text = os::read_regular_file(file.real, kMaxManifestBytes + 1,
                                                  &file.identity);
  try {
    if (!text.error.empty()) fail(KF_INVALID_ARGUMENT, "manifest {}: {}", manifest_path, text.error);
    m = parse_manifest_text(text.text, manifest_path);
  } catch (const Error& e) {
    return fail_step(b, "manifest", manifest_path, KF_BACKEND_REJECTED, e.status(), e.what(), t);
  }
  step(b, "manifest", manifest_path, "ok", "", t);
  return true;
}

}  // namespace

bool apply_manifest(PluginRecord& b, const std::string& manifest_path, bool may_defer) {
  Manifest m;
  if (!read_manifest(b, manifest_path, m)) return false;
  b.name = m.name;
  b.device_type_name = m.device_type;
  b.priority = m.priority;
  b.library_path = m.library_path();
  b.collective = m.kind == "collective";
  if (!check_declared(b, m) || !check_driver(b, m)) return false;
  if (may_defer && m.first_use) {
    b.deferred = true;  // Note [Backends started on first use]: even its preloads wait
    return false;
  }
  LoadFailure failure;
  if (!load_dependencies(b, m, failure)) {
    set_state(b, failure.state, "plugin " + b.library_path + ": " + failure.reason,
              failure.status);
    return false;
  }
  return true;
}

}  // namespace kf
